/**
 * Notices beyond their screen (document `schemas/desk/notice.json`, generic CRUD): every signed-in user's inbox in
 * the top bar's notice popover — the notices of the caller's tenant released by now, newest first, each marked
 * read or not for the caller — and marking them read:
 *   GET  /api/blade-desk/notice/inbox?current=&size=    {records: [{id, title, category, releaseTime, content, read}], total, current, size, unread}
 *   POST /api/blade-desk/notice/read?ids=a,b | ?all=true
 * Both are the caller's own (no code: whoever may sign in reads what was announced to its tenant).
 */
import { sql } from 'kysely';
import { requireUser, type ServerModule } from '../../context.js';
import { fail, ok } from '../../lib/http.js';
import { isId } from '../../lib/ids.js';
import { requestParams } from '../../lib/params.js';

const MAX_PAGE = 50;

const noticeModule: ServerModule = {
  name: 'notice',
  migrations: [
    {
      name: 'notice_0001_reads',
      up: async (db) => {
        await sql`create table blade_notice_read (notice_id bigint not null, user_id bigint not null,
          read_time timestamp(0) not null default localtimestamp(0), primary key (notice_id, user_id))`.execute(db);
      },
    },
  ],
  async plugin(app) {
    /** The notices of the caller's tenant released by now. */
    const released = (tenantId: string) =>
      app.ctx.db().selectFrom('blade_notice as n').where('n.tenant_id', '=', tenantId).where('n.is_deleted', '=', 0).where(sql<boolean>`n.release_time <= localtimestamp`);

    app.get('/api/blade-desk/notice/inbox', async (req) => {
      const user = requireUser(req);
      const q = (req.query ?? {}) as Record<string, unknown>;
      const current = Math.max(1, Math.min(10_000, Math.floor(Number(q.current) || 1)));
      const size = Math.max(1, Math.min(MAX_PAGE, Math.floor(Number(q.size) || 5)));
      const readBy = sql<boolean>`exists (select 1 from blade_notice_read r where r.notice_id = n.id and r.user_id = ${user.userId})`;
      const rows = await released(user.tenantId)
        .select(['n.id', 'n.title', 'n.category', sql<string>`to_char(n.release_time, 'YYYY-MM-DD HH24:MI:SS')`.as('release_time'), 'n.content', readBy.as('read')])
        .orderBy('n.release_time', 'desc').orderBy('n.id', 'desc').limit(size).offset((current - 1) * size).execute();
      const counts = await released(user.tenantId)
        .select([sql<string>`count(*)`.as('total'), sql<string>`count(*) filter (where not ${readBy})`.as('unread')])
        .executeTakeFirstOrThrow();
      return ok({
        records: rows.map((r) => ({ id: String(r.id), title: r.title, category: r.category, releaseTime: r.release_time, content: r.content, read: !!r.read })),
        total: Number(counts.total), current, size, unread: Number(counts.unread),
      });
    });

    app.post('/api/blade-desk/notice/read', async (req) => {
      const user = requireUser(req);
      const q = requestParams(req);
      const all = String(q.all ?? '') === 'true';
      const ids = String(q.ids ?? '').split(',').map((s) => s.trim()).filter(Boolean);
      if (!all && (!ids.length || ids.length > 500 || ids.some((id) => !isId(id)))) throw fail('error.paramMissing', { name: 'ids' });
      let notices = released(user.tenantId).select('n.id');
      if (!all) notices = notices.where('n.id', 'in', ids);
      const found = (await notices.execute()).map((r) => String(r.id));
      if (found.length) {
        await app.ctx.db().insertInto('blade_notice_read').values(found.map((id) => ({ notice_id: id, user_id: user.userId })))
          .onConflict((oc) => oc.columns(['notice_id', 'user_id']).doNothing()).execute();
      }
      return ok({ read: found.length });
    });
  },
};

export default noticeModule;

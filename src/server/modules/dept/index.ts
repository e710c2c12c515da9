/**
 * Departments (`/api/blade-system/dept/`): the generic tree CRUD of the `dept` document (list as a tree,
 * lazy-list, lazy-tree, tree, detail, submit, remove; ancestors kept by the format), plus `select?userId=`
 * (the departments of a user, for the switch dialog) and the removal rule: a department that still has
 * sub-departments or users is not removed, and the message says which and how many.
 */
import type { FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import { isAdministrator, requireUser, type ScreenHooks, type ServerModule } from '../../context.js';
import type { DB } from '../../db/index.js';
import { fail, forbidden, notFound, ok } from '../../lib/http.js';
import { isId, newId } from '../../lib/ids.js';

/** Live users of the tenant whose comma-joined dept_id holds `deptId`. */
export async function countDeptUsers(db: DB, tenantId: string, deptId: string): Promise<number> {
  const r = await db
    .selectFrom('blade_user')
    .select(sql<string>`count(*)`.as('n'))
    .where('tenant_id', '=', tenantId)
    .where('is_deleted', '=', 0)
    .where(sql<boolean>`',' || coalesce(dept_id, '') || ',' like ${`%,${deptId},%`}`)
    .executeTakeFirst();
  return Number(r?.n ?? 0);
}

/** The root department of a new tenant (tenant provisioning); its id. */
export async function createRootDept(db: DB, tenantId: string, name: string): Promise<string> {
  const id = newId();
  await db.insertInto('blade_dept').values({ id, tenant_id: tenantId, parent_id: 0, ancestors: '0', dept_category: 1, dept_name: name.slice(0, 45), full_name: name.slice(0, 45), sort: 1, is_deleted: 0 }).execute();
  return id;
}

const deptHooks: ScreenHooks = {
  async beforeRemove({ ids, req, db }) {
    const user = requireUser(req);
    const rows = await db.selectFrom('blade_dept').select(['id', 'dept_name']).where('id', 'in', ids).where('tenant_id', '=', user.tenantId).where('is_deleted', '=', 0).execute();
    for (const d of rows) {
      const kids = await db
        .selectFrom('blade_dept')
        .select(sql<string>`count(*)`.as('n'))
        .where('parent_id', '=', String(d.id))
        .where('id', 'not in', ids)
        .where('is_deleted', '=', 0)
        .executeTakeFirst();
      if (Number(kids?.n ?? 0) > 0) throw fail('system.dept.msg.hasChildren', { name: d.dept_name, count: Number(kids!.n) });
      const users = await countDeptUsers(db, user.tenantId, String(d.id));
      if (users > 0) throw fail('system.dept.msg.hasUsers', { name: d.dept_name, count: users });
    }
  },
};

function param(req: FastifyRequest, name: string): string {
  const v = ((req.query ?? {}) as Record<string, unknown>)[name];
  return typeof v === 'string' ? v.trim() : '';
}

const deptModule: ServerModule = {
  name: 'dept',
  screenHooks: { dept: deptHooks },
  async plugin(app) {
    // The departments of a user (switch dialog): one's own, or, for an administrator, another user's of the
    // same tenant; a user of another tenant is not found.
    app.get('/api/blade-system/dept/select', async (req) => {
      const u = requireUser(req);
      const userId = param(req, 'userId') || u.userId;
      if (!isId(userId)) throw fail('error.badRequest');
      if (userId !== u.userId && !isAdministrator(u)) throw forbidden();
      const db = app.ctx.db();
      const row = await db.selectFrom('blade_user').select('dept_id').where('id', '=', userId).where('tenant_id', '=', u.tenantId).where('is_deleted', '=', 0).executeTakeFirst();
      if (!row) throw notFound();
      const deptIds = String(row.dept_id ?? '').split(',').filter(isId);
      if (!deptIds.length) return ok([]);
      const rows = await db.selectFrom('blade_dept').select(['id', 'dept_name', 'parent_id'])
        .where('id', 'in', deptIds).where('tenant_id', '=', u.tenantId).where('is_deleted', '=', 0).orderBy('sort').execute();
      return ok(rows.map((r) => ({ id: String(r.id), parentId: String(r.parent_id), deptName: r.dept_name })));
    });
  },
};

export default deptModule;

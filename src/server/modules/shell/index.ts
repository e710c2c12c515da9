/**
 * What is left of the web shell's endpoints: department and role selects of the switch dialog, guest
 * registration (the sign-in page's, or after a social login), upload of the browser's error log. Site switches (modules/site), the
 * user's own account (modules/profile) and the home page's figures (modules/dashboard) are modules of their own.
 */
import { sql } from 'kysely';
import type { FastifyRequest } from 'fastify';
import { isAdministrator, requireUser, type ServerModule } from '../../context.js';
import { recordClientErrors } from '../log/index.js';
import { badRequestText as bad } from '../../lib/errors.js';
import { fail, forbidden, notFound, ok, okStatus } from '../../lib/http.js';
import { newId, isId } from '../../lib/ids.js';
import { hashPassword } from '../../lib/password.js';
import { MD5_HEX, requestParams as params, text as str } from '../../lib/params.js';
import { paramFlag } from '../param/index.js';
import { refuseBeyondAccountLimit } from '../user/index.js';
import { USER_PENDING } from '../user/status.js';

const shellModule: ServerModule = {
  name: 'shell',
  migrations: [
    {
      // retired: the uploaded browser logs now go to the error log (modules/log, type client); kept for the rows it holds
      name: 'shell_0001_client_log',
      up: async (db) => {
        await sql.raw(`create table shell_client_log (id bigint primary key, tenant_id varchar(12) not null default '000000',
          user_id bigint, type varchar(20), url varchar(2000), message text, stack text, info varchar(500),
          log_time varchar(32), create_time timestamp(0) not null default localtimestamp(0))`).execute(db);
        await sql.raw(`create index shell_client_log_time_idx on shell_client_log (tenant_id, create_time desc)`).execute(db);
      },
    },
  ],
  plugin: async (app) => {
    /** Departments of a user (switch dialog); another user's only for administrators. */
    const userLists = async (req: FastifyRequest) => {
      const u = requireUser(req);
      const q = params(req);
      const userId = q.userId ? str(q.userId) : u.userId;
      if (!isId(userId)) throw fail('error.badRequest');
      if (userId !== u.userId && !isAdministrator(u)) throw forbidden();
      const row = await app.ctx.db().selectFrom('blade_user').select(['dept_id', 'role_id', 'tenant_id']).where('id', '=', userId).where('is_deleted', '=', 0).executeTakeFirst();
      if (!row) throw notFound();
      const ids = (v: string | null) => String(v ?? '').split(',').filter(isId);
      return { deptIds: ids(row.dept_id), roleIds: ids(row.role_id), tenantId: row.tenant_id as string };
    };
    app.get('/api/blade-system/role/select', async (req) => {
      const { roleIds, tenantId } = await userLists(req);
      if (!roleIds.length) return ok([]);
      const rows = await app.ctx.db().selectFrom('blade_role').select(['id', 'role_name', 'role_alias', 'parent_id'])
        .where('id', 'in', roleIds).where('tenant_id', '=', tenantId).where('is_deleted', '=', 0).orderBy('sort').execute();
      return ok(rows.map((r) => ({ id: String(r.id), parentId: String(r.parent_id), roleName: r.role_name, roleAlias: r.role_alias })));
    });

    /**
     * Guest registration (the sign-in page's "register", or the third-party register after a social login): open without a token
     * (app.ts TOKEN_OPTIONAL_PATHS) but open only while account.registerUser is true, rate-limited per address; the account
     * waits, without roles, until an administrator grants them.
     */
    app.post('/api/blade-system/user/register-guest', async (req) => {
      const p = params(req);
      const tenantId = str(p.tenantId), account = str(p.account), password = str(p.password), name = str(p.name), oauthId = str(p.oauthId);
      if (!tenantId) throw bad(req, '请先输入租户编号', 'Please enter the tenant code first');
      if (!account) throw bad(req, '请先输入账号', 'Please enter the account first');
      if (!password) throw bad(req, '请先输入密码', 'Please enter the password first');
      if (!MD5_HEX.test(password)) throw bad(req, '密码格式不正确', 'Invalid password format');
      if (account.length > 45 || name.length > 20 || !/^[A-Za-z0-9_.@-]+$/.test(account)) throw bad(req, '账号格式不正确', 'Invalid account');
      const db = app.ctx.db();
      // open only while the parameter account.registerUser is true, and only into an existing, unexpired tenant
      if (!(await paramFlag(db, 'account.registerUser'))) throw bad(req, '系统未开放账号注册', 'Registration is closed');
      const tenant = await db.selectFrom('blade_tenant').select(['id', sql<boolean>`expire_time is not null and expire_time < localtimestamp`.as('expired')]).where('tenant_id', '=', tenantId).where('is_deleted', '=', 0).executeTakeFirst();
      if (!tenant) throw fail('error.tenantNotFound');
      if (tenant.expired) throw fail('error.tenantExpired');
      const dup = await db.selectFrom('blade_user').select('id').where('tenant_id', '=', tenantId).where('account', '=', account).where('is_deleted', '=', 0).executeTakeFirst();
      if (dup) throw bad(req, '当前用户已存在', 'The account already exists');
      await refuseBeyondAccountLimit(db, tenantId);
      await db.insertInto('blade_user').values({
        id: newId(), tenant_id: tenantId, account, name: name || account, real_name: (name || account).slice(0, 10), password: await hashPassword(password.toLowerCase()),
        user_type: 1, role_id: '', dept_id: '', post_id: '', status: USER_PENDING, is_deleted: 0, code: oauthId.slice(0, 12) || null,
      }).execute();
      return okStatus();
    });

    /** Browser error log upload (top bar → error log → upload). */
    app.post('/api/blade-desk/shell/send-logs', async (req) => {
      requireUser(req);
      const body = Array.isArray(req.body) ? req.body : Array.isArray((req.body as { logs?: unknown })?.logs) ? (req.body as { logs: unknown[] }).logs : null;
      if (!body) throw fail('error.badRequest');
      // into the error log as type client (modules/log), at most 100 entries a call
      return ok({ count: recordClientErrors(req, body) });
    });

  },
};

export default shellModule;

/**
 * Users (document `schemas/system/user.json` on blade_user, served by the generic CRUD) and their actions:
 * `import` (the document's import built-in, user_import: without a password column, each starts with account.initPassword),
 * `user-list` (the tenant's users for pickers, by the screen's searches, at most 1000),
 * `grant?userIds&roleIds` (button user_role; approves a pending guest account), `reset-password?userIds` (user_reset: to the parameter
 * account.initPassword), `platform-detail?id` / `update-platform` (user_platform: userType, userExt), `unlock?userIds` (user_unlock: forgets their failed sign-ins). The rules around them, on the server whatever the client shows:
 * - a password on add (typed by the operator; stored as the slow hash of its md5, what the sign-in sends — x-digest), the tenant's account limit (blade_tenant
 *   account_number, -1 = none);
 * - a caller who is not an administrator assigns only roles it holds itself;
 * - nobody removes or disables themselves, and the last administrator of a tenant stays;
 * - a reset, a disable, a removal or a change of roles or departments ends that user's sessions (the token holds
 *   roles and departments, so the next sign-in carries the new ones).
 */
import type { FastifyRequest } from 'fastify';
import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { isAdministrator, requirePermission, type AuthUser, type ScreenHooks, type ServerModule } from '../../context.js';
import { recordEvent } from '../log/index.js';
import type { DB } from '../../db/index.js';
import { HttpError, fail, ok, okStatus } from '../../lib/http.js';
import { clearLoginFailures } from '../auth/index.js';
import { isId, newId } from '../../lib/ids.js';
import { hashPassword } from '../../lib/password.js';
import { localDateTime } from '../../lib/time.js';
import { readParam } from '../param/index.js';
import { USER_ACTIVE, USER_PENDING } from './status.js';
import { tenantRoleIds } from '../role/index.js';
import { buildListQuery, dataScopeOf, parseListRequest, serializeRecord } from '../../crud/index.js';
import { escapeLike } from '../../crud/query.js';

/** user-list answers at most this many users (a picker, not an export). */
const USER_LIST_MAX = 1000;

const csv = (v: unknown) => String(v ?? '').split(',').map((s) => s.trim()).filter(Boolean);

function idsOf(req: FastifyRequest, name: string): string[] {
  const q = (req.query ?? {}) as Record<string, unknown>;
  const b = req.body && typeof req.body === 'object' && !Buffer.isBuffer(req.body) ? (req.body as Record<string, unknown>) : {};
  const raw = q[name] ?? b[name] ?? (name === 'userIds' ? (q.ids ?? b.ids) : undefined);
  const list = [...new Set((Array.isArray(raw) ? raw.map(String) : csv(raw)).map((s) => s.trim()).filter(Boolean))];
  if (!list.length) throw fail('error.paramMissing', { name });
  if (list.length > 1000 || list.some((id) => !isId(id))) throw fail('error.badRequest');
  return list;
}

/** Users of the caller's tenant among `ids` (another tenant's id reads nothing). */
async function tenantUsers(db: DB, tenantId: string, ids: string[]): Promise<string[]> {
  const rows = await db.selectFrom('blade_user').select('id').where('id', 'in', ids).where('tenant_id', '=', tenantId).where('is_deleted', '=', 0).execute();
  return rows.map((r) => String(r.id));
}

/** The accounts of these users (for the usual log). */
async function accountsOf(db: DB, ids: string[]): Promise<string[]> {
  return (await db.selectFrom('blade_user').select('account').where('id', 'in', ids).execute()).map((r) => String(r.account));
}

/** A non-administrator may hand out only the roles it holds. */
function refuseForeignRoles(user: AuthUser, roleIds: string[]): void {
  if (isAdministrator(user)) return;
  if (roleIds.some((r) => !user.roleIds.includes(r))) throw new HttpError(403, 'user.msg.roleBeyondOwn');
}

/** The administrator roles of a tenant. */
async function adminRoleIds(db: DB, tenantId: string): Promise<string[]> {
  const rows = await db.selectFrom('blade_role').select('id').where('tenant_id', '=', tenantId).where('role_alias', '=', 'administrator').where('is_deleted', '=', 0).execute();
  return rows.map((r) => String(r.id));
}

/** Refuses when no active user holding an administrator role would be left once `leaving` leave (or lose it). */
async function keepLastAdministrator(db: DB, tenantId: string, leaving: string[]): Promise<void> {
  const admins = await adminRoleIds(db, tenantId);
  if (!admins.length) return;
  const holders = await db
    .selectFrom('blade_user')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where('is_deleted', '=', 0)
    .where('status', '=', 1)
    .where((eb) => eb.or(admins.map((a) => eb(sql<string>`',' || coalesce(role_id, '') || ','`, 'like', `%,${a},%`))))
    .execute();
  const leavingHolders = holders.filter((h) => leaving.includes(String(h.id)));
  if (leavingHolders.length && holders.length === leavingHolders.length) throw new HttpError(400, 'user.msg.lastAdministrator');
}

function isJsonObject(text: string): boolean {
  try {
    const v = JSON.parse(text);
    return !!v && typeof v === 'object' && !Array.isArray(v);
  } catch {
    return false;
  }
}

/** The active users of a tenant among `ids`, with their names (pickers and workflow assignees of other modules). */
export async function activeTenantUsers(db: DB, tenantId: string, ids: string[]): Promise<Array<{ id: string; name: string }>> {
  if (!ids.length) return [];
  const rows = await db.selectFrom('blade_user').select(['id', 'real_name', 'account']).where('id', 'in', ids).where('tenant_id', '=', tenantId).where('is_deleted', '=', 0).where('status', '=', USER_ACTIVE).execute();
  return rows.map((r) => ({ id: String(r.id), name: String(r.real_name || r.account) }));
}

/**
 * The active users of a tenant a picker offers (a leave's approver), by name, with their accounts: at most `limit`,
 * whose name or account holds `search` when given.
 */
export async function tenantUserChoices(db: DB, tenantId: string, opts: { except?: string; search?: string; limit: number }): Promise<Array<{ id: string; name: string; account: string }>> {
  let q = db.selectFrom('blade_user').select(['id', 'real_name', 'account']).where('tenant_id', '=', tenantId).where('is_deleted', '=', 0).where('status', '=', USER_ACTIVE);
  if (opts.except) q = q.where('id', '<>', opts.except);
  if (opts.search) {
    const like = `%${escapeLike(opts.search)}%`;
    q = q.where((eb) => eb.or([eb('real_name', 'like', like), eb('account', 'like', like)]));
  }
  const rows = await q.orderBy('real_name').orderBy('account').limit(opts.limit).execute();
  return rows.map((r) => ({ id: String(r.id), name: String(r.real_name || r.account), account: String(r.account) }));
}

/** Refuses one more user of a tenant that holds its account number (blade_tenant.account_number, -1 = no limit). */

export async function refuseBeyondAccountLimit(db: DB, tenantId: string): Promise<void> {
  const tenant = await db.selectFrom('blade_tenant').select('account_number').where('tenant_id', '=', tenantId).where('is_deleted', '=', 0).executeTakeFirst();
  const limit = Number(tenant?.account_number ?? -1);
  if (limit < 0) return;
  const n = await db.selectFrom('blade_user').select(sql<string>`count(*)`.as('n')).where('tenant_id', '=', tenantId).where('is_deleted', '=', 0).executeTakeFirstOrThrow();
  if (Number(n.n) >= limit) throw new HttpError(400, 'user.msg.accountLimit', { limit });
}

/** The `admin` account of a new tenant (tenant provisioning), with account.initPassword. */
export async function createTenantAdministrator(db: DB, a: { tenantId: string; roleId: string; deptId: string; by: string; now: string }): Promise<void> {
  await db.insertInto('blade_user').values({
    id: newId(), tenant_id: a.tenantId, code: 'admin', user_type: 1, account: 'admin', password: await initialPasswordHash(db),
    name: '管理员', real_name: '管理员', role_id: a.roleId, dept_id: a.deptId, post_id: '', status: 1, is_deleted: 0,
    create_user: a.by, create_time: a.now, update_user: a.by, update_time: a.now,
  }).execute();
}

/** The stored hash of the parameter account.initPassword (as the sign-in sends it: md5 hex). */
async function initialPasswordHash(db: DB): Promise<string> {
  const plain = (await readParam(db, 'account.initPassword')) || '123456';
  return hashPassword(createHash('md5').update(plain).digest('hex'));
}

/** A 400 naming one field, with its message in the caller's language. */
function validation(req: FastifyRequest, field: string, key: string): HttpError {
  const message = req.server.ctx.i18n.t(req.lang, key);
  return new HttpError(400, 'error.validation', {}, [{ field, message }], message);
}

const userHooks: ScreenHooks = {
  async beforeSave({ mode, values, existing, req, db, origin }) {
    const user = req.user!;
    if (mode === 'add') {
      // an imported user starts with the parameter account.initPassword, as a reset gives (no passwords in spreadsheets)
      if (origin === 'import' && !values.password) values.password = await initialPasswordHash(db);
      if (typeof values.password !== 'string' || !values.password) throw new HttpError(400, 'error.validation', {}, [{ field: 'password', message: req.server.ctx.i18n.t(req.lang, 'user.msg.password') }], req.server.ctx.i18n.t(req.lang, 'user.msg.password'));
      await refuseBeyondAccountLimit(db, user.tenantId);
    }
    if (values.roleId !== undefined) {
      const wanted = csv(values.roleId);
      const before = csv(existing?.roleId);
      refuseForeignRoles(user, wanted.filter((r) => !before.includes(r)));
    }
    if (mode === 'edit') {
      const id = String(existing!.id);
      if (id === user.userId && values.status !== undefined && Number(values.status) !== 1) throw new HttpError(400, 'user.msg.disableSelf');
      const admins = await adminRoleIds(db, user.tenantId);
      const losesAdmin = values.roleId !== undefined && csv(existing?.roleId).some((r) => admins.includes(r)) && !csv(values.roleId).some((r) => admins.includes(r));
      if (losesAdmin || (values.status !== undefined && Number(values.status) !== 1)) await keepLastAdministrator(db, user.tenantId, [id]);
    }
  },
  async afterSave({ mode, id, values, existing, req, db }) {
    if (mode !== 'edit') return;
    const changed = (f: string) => values[f] !== undefined && String(values[f] ?? '') !== String(existing?.[f] ?? '');
    if (changed('roleId') || changed('deptId') || changed('status') || changed('account')) await req.server.ctx.tokens.endUserSessions([id], undefined, db);
  },
  async beforeRemove({ ids, req, db }) {
    const user = req.user!;
    if (ids.includes(user.userId)) throw new HttpError(400, 'user.msg.removeSelf');
    await keepLastAdministrator(db, user.tenantId, ids);
    await req.server.ctx.tokens.endUserSessions(ids, undefined, db);
  },
};

const userModule: ServerModule = {
  name: 'user',
  migrations: [
    // BladeX keeps a user's platform extension beside the user (blade_user_web/app/other.user_ext): one column here
    { name: 'user_0001_user_ext', up: (db) => sql`alter table blade_user add column if not exists user_ext varchar(2000)`.execute(db).then(() => undefined) },
  ],
  screenHooks: { user: userHooks },
  async plugin(app) {
    // BladeX user/grant?userIds&roleIds: those users then hold exactly these roles (an empty list is refused).
    app.post('/api/blade-system/user/grant', async (req) => {
      const user = await requirePermission(app, req, 'user_role');
      const userIds = idsOf(req, 'userIds');
      const roleIds = idsOf(req, 'roleIds');
      const db = app.ctx.db();
      const users = await tenantUsers(db, user.tenantId, userIds);
      const roles = await tenantRoleIds(db, user.tenantId, roleIds);
      if (users.length !== userIds.length || roles.length !== roleIds.length) throw new HttpError(404, 'error.notFound');
      refuseForeignRoles(user, roles);
      const admins = await adminRoleIds(db, user.tenantId);
      if (!roles.some((r) => admins.includes(r))) await keepLastAdministrator(db, user.tenantId, users);
      const now = localDateTime(app.ctx.config.appTimezone);
      await db.updateTable('blade_user').set({ role_id: roles.join(','), update_user: user.userId, update_time: now }).where('id', 'in', users).execute();
      // granting roles approves a pending (guest-registered) account
      await db.updateTable('blade_user').set({ status: USER_ACTIVE }).where('id', 'in', users).where('status', '=', USER_PENDING).execute();
      await app.ctx.tokens.endUserSessions(users.filter((u) => u !== user.userId));
      recordEvent(req, 'userGrant', `用户 ${(await accountsOf(db, users)).join('、')} 的角色：${roles.join(',')}`);
      return ok({ users: users.length });
    });

    // BladeX user/reset-password?userIds: the parameter account.initPassword (as the login sends it: md5 hex).
    app.post('/api/blade-system/user/reset-password', async (req) => {
      const user = await requirePermission(app, req, 'user_reset');
      const db = app.ctx.db();
      const users = await tenantUsers(db, user.tenantId, idsOf(req, 'userIds'));
      if (!users.length) throw new HttpError(404, 'error.notFound');
      const hash = await initialPasswordHash(db);
      await db.updateTable('blade_user').set({ password: hash, update_user: user.userId, update_time: localDateTime(app.ctx.config.appTimezone) }).where('id', 'in', users).execute();
      await app.ctx.tokens.endUserSessions(users);
      recordEvent(req, 'passwordReset', `重置密码：${(await accountsOf(db, users)).join('、')}`);
      return ok({ users: users.length });
    });

    // BladeX user/platform-detail?id and update-platform {id|userId, userType, userExt}: the user's platform and
    // its extension (a JSON object), one per user.
    app.get('/api/blade-system/user/platform-detail', async (req) => {
      const user = await requirePermission(app, req, 'user_platform');
      const [id] = idsOf(req, 'id');
      const row = await app.ctx.db().selectFrom('blade_user').select(['id', 'account', 'real_name', 'user_type', 'user_ext']).where('id', '=', id).where('tenant_id', '=', user.tenantId).where('is_deleted', '=', 0).executeTakeFirst();
      if (!row) throw new HttpError(404, 'error.notFound');
      return ok({ id: String(row.id), account: row.account, realName: row.real_name, userType: row.user_type ?? 1, userExt: row.user_ext ?? '' });
    });
    app.post('/api/blade-system/user/update-platform', async (req) => {
      const user = await requirePermission(app, req, 'user_platform');
      const b = req.body && typeof req.body === 'object' && !Buffer.isBuffer(req.body) ? (req.body as Record<string, unknown>) : {};
      const [id] = idsOf(req, b.userId !== undefined || ((req.query ?? {}) as Record<string, unknown>).userId !== undefined ? 'userId' : 'id');
      const q = { ...((req.query ?? {}) as Record<string, unknown>), ...b };
      const userType = Number(q.userType);
      if (![1, 2, 3].includes(userType)) throw validation(req, 'userType', 'user.msg.userType');
      const ext = q.userExt === undefined || q.userExt === null ? '' : String(q.userExt).trim();
      if (ext.length > 2000 || (ext && !isJsonObject(ext))) throw validation(req, 'userExt', 'user.msg.userExtJson');
      const r = await app.ctx.db().updateTable('blade_user').set({ user_type: userType, user_ext: ext || null, update_user: user.userId, update_time: localDateTime(app.ctx.config.appTimezone) })
        .where('id', '=', id).where('tenant_id', '=', user.tenantId).where('is_deleted', '=', 0).executeTakeFirst();
      if (!r.numUpdatedRows) throw new HttpError(404, 'error.notFound');
      return okStatus();
    });

    // BladeX user/user-list: the users of the caller's tenant as a plain list (pickers: assignees, recipients), by
    // the users screen's searches (account, realName contain; status; deptId under a department), at most 1000.
    app.get('/api/blade-system/user/user-list', async (req) => {
      const user = await requirePermission(app, req, 'user');
      const doc = app.ctx.docs.get('user')!;
      const { conditions } = parseListRequest(doc, (req.query ?? {}) as Record<string, unknown>, app.ctx.docs);
      const rows = await buildListQuery(app.ctx.db(), doc, {
        conditions, sort: [{ field: 'account', dir: 'asc' }], tenantId: user.tenantId, scope: dataScopeOf(doc, user),
      }).limit(USER_LIST_MAX).execute();
      return ok(rows.map((r) => {
        const { id, account, name, realName, deptId, roleId, status } = serializeRecord(doc, r as Record<string, unknown>);
        return { id, account, name, realName, deptId, roleId, status };
      }));
    });

    // BladeX user/unlock?userIds: forget the failed sign-ins of those users of the caller's tenant (lifts the lock).
    app.post('/api/blade-system/user/unlock', async (req) => {
      const user = await requirePermission(app, req, 'user_unlock');
      const db = app.ctx.db();
      const rows = await db.selectFrom('blade_user').select('account').where('id', 'in', idsOf(req, 'userIds')).where('tenant_id', '=', user.tenantId).where('is_deleted', '=', 0).execute();
      if (!rows.length) throw new HttpError(404, 'error.notFound');
      await clearLoginFailures(db, user.tenantId, rows.map((r) => r.account as string));
      return okStatus();
    });
  },
};

export default userModule;

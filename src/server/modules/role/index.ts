/**
 * Roles (document `schemas/authority/role.json`, a tree served by the generic CRUD) and their grants: the menus and
 * buttons (blade_role_menu), the data and API scopes (blade_role_scope) a role holds. `POST role/grant` replaces
 * what each chosen role holds (BladeX RoleController.grant); a caller who is not an administrator grants only what
 * its own roles hold, so nobody can hand out more than they have. The scope rows themselves are the documents
 * `data_scope` and `api_scope`; their hooks check a data rule's column against the screen it narrows.
 */
import type { FastifyRequest } from 'fastify';
import { isAdministrator, isPlatformAdministrator, requirePermission, type AuthUser, type ScreenHooks, type ServerModule } from '../../context.js';
import { recordEvent } from '../log/index.js';
import type { DB } from '../../db/index.js';
import { API_SCOPE, DATA_SCOPE, SCOPE_PLACEHOLDERS, scopeColumns } from '../../lib/access.js';
import { HttpError, fail, ok } from '../../lib/http.js';
import { isId, newId } from '../../lib/ids.js';
import { inTransaction } from '../../crud/index.js';
import { nodeForest, type TreeInfo } from '../../crud/tree.js';
import { tenantMenuIds } from '../tenant/index.js';

const ROLE_TREE: TreeInfo = { parentField: 'parentId', labelField: 'roleName', keyField: 'id', rootValue: '0', pagedList: false };

/** Ids from a JSON array or a comma-joined string (query or body), at most 5000, each numeric. */
function idsOf(req: FastifyRequest, ...names: string[]): string[] {
  const q = (req.query ?? {}) as Record<string, unknown>;
  const b = req.body && typeof req.body === 'object' && !Buffer.isBuffer(req.body) ? (req.body as Record<string, unknown>) : {};
  for (const name of names) {
    const raw = b[name] ?? q[name];
    if (raw === undefined || raw === null || raw === '') continue;
    const list = (Array.isArray(raw) ? raw.map(String) : String(raw).split(',')).map((s) => s.trim()).filter(Boolean);
    if (list.length > 5000 || list.some((id) => !isId(id))) throw fail('error.badRequest');
    return [...new Set(list)];
  }
  return [];
}

/** The roles of the caller's tenant among `ids`. */
export async function tenantRoleIds(db: DB, tenantId: string, ids: string[]): Promise<string[]> {
  if (!ids.length) return [];
  const rows = await db.selectFrom('blade_role').select('id').where('id', 'in', ids).where('tenant_id', '=', tenantId).where('is_deleted', '=', 0).execute();
  return rows.map((r) => String(r.id));
}

/** The administrator role of a new tenant (tenant provisioning), granted `menuIds`; its id. */
export async function createAdministratorRole(db: DB, tenantId: string, menuIds: string[]): Promise<string> {
  const roleId = newId();
  await db.insertInto('blade_role').values({ id: roleId, tenant_id: tenantId, parent_id: 0, role_name: '管理员', sort: 1, role_alias: 'administrator', is_deleted: 0 }).execute();
  for (let i = 0; i < menuIds.length; i += 500)
    await db.insertInto('blade_role_menu').values(menuIds.slice(i, i + 500).map((m) => ({ id: newId(), role_id: roleId, menu_id: m }))).execute();
  return roleId;
}

/** The tenant's roles lose every menu outside `allowed` (a tenant package set or narrowed). */
export async function keepTenantRoleMenus(db: DB, tenantId: string, allowed: Set<string>): Promise<void> {
  const roles = db.selectFrom('blade_role').select('id').where('tenant_id', '=', tenantId);
  let q = db.deleteFrom('blade_role_menu').where('role_id', 'in', roles);
  if (allowed.size) q = q.where('menu_id', 'not in', [...allowed]);
  await q.execute();
}

/** Scope ids (category 1 data, 2 API) the roles hold. */
export async function roleScopeIds(db: DB, roleIds: string[], category: number): Promise<string[]> {
  const ids = roleIds.filter(isId);
  if (!ids.length) return [];
  const rows = await db.selectFrom('blade_role_scope').select('scope_id').distinct().where('role_id', 'in', ids).where('scope_category', '=', category).execute();
  return rows.map((r) => String(r.scope_id));
}

/** Menu ids the roles hold. */
export async function roleMenuIds(db: DB, roleIds: string[]): Promise<string[]> {
  const ids = roleIds.filter(isId);
  if (!ids.length) return [];
  const rows = await db.selectFrom('blade_role_menu').select('menu_id').distinct().where('role_id', 'in', ids).execute();
  return rows.map((r) => String(r.menu_id));
}

/** Live scope rows of a category (for the grant trees): id, menu, name. */
export async function scopeRows(db: DB, category: number): Promise<Array<{ id: string; menuId: string; name: string }>> {
  const table = category === DATA_SCOPE ? 'blade_scope_data' : 'blade_scope_api';
  const rows = await db.selectFrom(table).select(['id', 'menu_id', 'scope_name']).where('is_deleted', '=', 0).orderBy('id').execute();
  return rows.map((r) => ({ id: String(r.id), menuId: String(r.menu_id), name: String(r.scope_name ?? '') }));
}

/** Everything not held by the caller's own roles, among what it wants to grant (empty for an administrator). */
async function beyondOwn(db: DB, user: AuthUser, menuIds: string[], dataIds: string[], apiIds: string[]): Promise<boolean> {
  if (isAdministrator(user)) return false;
  const [menus, data, api] = await Promise.all([roleMenuIds(db, user.roleIds), roleScopeIds(db, user.roleIds, DATA_SCOPE), roleScopeIds(db, user.roleIds, API_SCOPE)]);
  const has = (own: string[], wanted: string[]) => wanted.every((id) => own.includes(id));
  return !(has(menus, menuIds) && has(data, dataIds) && has(api, apiIds));
}

/** Which of `ids` exist (live) in a table without a tenant (menus, scopes). */
async function liveIds(db: DB, table: string, ids: string[]): Promise<string[]> {
  if (!ids.length) return [];
  const rows = await db.selectFrom(table).select('id').where('id', 'in', ids).where('is_deleted', '=', 0).execute();
  return rows.map((r) => String(r.id));
}

const roleHooks: ScreenHooks = {
  async beforeSave({ mode, values, existing, req }) {
    // the alias `administrator` is what every check reads: it is neither taken by another role nor given away
    const user = req.user!;
    if (mode === 'edit' && existing?.roleAlias === 'administrator' && values.roleAlias !== undefined && values.roleAlias !== 'administrator') throw new HttpError(400, 'role.msg.adminAlias');
    if (mode === 'add' && values.roleAlias === 'administrator' && !isAdministrator(user)) throw new HttpError(403, 'role.msg.adminAlias');
  },
  async beforeRemove({ ids, req, db }) {
    const rows = await db.selectFrom('blade_role').select(['id', 'role_alias']).where('id', 'in', ids).where('tenant_id', '=', req.user!.tenantId).execute();
    if (rows.some((r) => r.role_alias === 'administrator')) throw new HttpError(400, 'role.msg.adminRemove');
    await db.deleteFrom('blade_role_menu').where('role_id', 'in', ids).execute();
    await db.deleteFrom('blade_role_scope').where('role_id', 'in', ids).execute();
    req.server.ctx.permissions.clear();
    req.server.ctx.access.clear();
  },
};

/** A data rule must name a column the screen of its menu has (or of its resource code), and only known placeholders. */
const dataScopeHooks: ScreenHooks = {
  async beforeSave({ values, existing, req, db }) {
    const merged = { ...(existing ?? {}), ...values } as Record<string, unknown>;
    const menu = await db.selectFrom('blade_menu').select(['code']).where('id', '=', String(merged.menuId ?? '')).where('is_deleted', '=', 0).executeTakeFirst();
    if (!menu) throw new HttpError(400, 'dataScope.msg.menuNotFound');
    const code = String(merged.resourceCode || menu.code || '');
    const doc = req.server.ctx.docs.all.find((d) => d.resource.permissionPrefix === code);
    const type = Number(merged.scopeType);
    const column = String(merged.scopeColumn ?? '').trim();
    if (column || type === 5) {
      const snake = column.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
      if (!doc || !scopeColumns(doc).has(snake)) throw new HttpError(400, 'dataScope.msg.column', { column });
    }
    if (type === 5) {
      const value = String(merged.scopeValue ?? '');
      const unknown = [...value.matchAll(/\$\{[^}]*\}/g)].map((m) => m[0]).find((p) => !(SCOPE_PLACEHOLDERS as readonly string[]).includes(p));
      if (unknown) throw new HttpError(400, 'dataScope.msg.placeholder', { name: unknown, known: SCOPE_PLACEHOLDERS.join(' ') });
    }
  },
  afterSave({ req }) {
    req.server.ctx.access.clear();
  },
  async beforeRemove({ ids, req, db }) {
    await db.deleteFrom('blade_role_scope').where('scope_category', '=', DATA_SCOPE).where('scope_id', 'in', ids).execute();
    req.server.ctx.access.clear();
  },
};

const apiScopeHooks: ScreenHooks = {
  async beforeSave({ values, existing, db }) {
    const menuId = String(values.menuId ?? existing?.menuId ?? '');
    const menu = await db.selectFrom('blade_menu').select('id').where('id', '=', menuId).where('is_deleted', '=', 0).executeTakeFirst();
    if (!menu) throw new HttpError(400, 'apiScope.msg.menuNotFound');
  },
  afterSave({ req }) {
    req.server.ctx.access.clear();
  },
  async beforeRemove({ ids, req, db }) {
    await db.deleteFrom('blade_role_scope').where('scope_category', '=', API_SCOPE).where('scope_id', 'in', ids).execute();
    req.server.ctx.access.clear();
  },
};

const roleModule: ServerModule = {
  name: 'role',
  screenHooks: { role: roleHooks, data_scope: dataScopeHooks, api_scope: apiScopeHooks },
  async plugin(app) {
    // BladeX role/tree-by-id?roleId: the role tree of that role's tenant (another tenant's only to the platform).
    app.get('/api/blade-system/role/tree-by-id', async (req) => {
      const user = await requirePermission(app, req, 'role');
      const roleId = String(((req.query ?? {}) as Record<string, unknown>).roleId ?? '');
      if (!isId(roleId)) throw fail('error.paramMissing', { name: 'roleId' });
      const db = app.ctx.db();
      const role = await db.selectFrom('blade_role').select('tenant_id').where('id', '=', roleId).where('is_deleted', '=', 0).executeTakeFirst();
      if (!role || (role.tenant_id !== user.tenantId && !isPlatformAdministrator(user))) throw new HttpError(404, 'error.notFound');
      const rows = await db.selectFrom('blade_role').select(['id', 'parent_id', 'role_name', 'sort']).where('tenant_id', '=', String(role.tenant_id)).where('is_deleted', '=', 0).orderBy('sort').orderBy('id').execute();
      return ok(nodeForest(rows.map((r) => ({ id: String(r.id), parentId: String(r.parent_id), roleName: r.role_name })), ROLE_TREE));
    });

    // BladeX role/grant {roleIds, menuIds, dataScopeIds, apiScopeIds}: each role then holds exactly these.
    app.post('/api/blade-system/role/grant', async (req) => {
      const user = await requirePermission(app, req, 'role_grant');
      const wanted = idsOf(req, 'roleIds', 'ids');
      if (!wanted.length) throw fail('error.paramMissing', { name: 'roleIds' });
      const menuIds = idsOf(req, 'menuIds');
      const dataIds = idsOf(req, 'dataScopeIds');
      const apiIds = idsOf(req, 'apiScopeIds');
      const db = app.ctx.db();
      const roles = await tenantRoleIds(db, user.tenantId, wanted);
      if (roles.length !== wanted.length) throw new HttpError(404, 'error.notFound');
      if (await beyondOwn(db, user, menuIds, dataIds, apiIds)) throw new HttpError(403, 'role.msg.grantBeyondOwn');
      // a tenant's roles hold only what its package allows (never the platform's tenant screens)
      const allowed = await tenantMenuIds(db, user.tenantId);
      if (allowed && menuIds.some((m) => !allowed.has(m))) throw new HttpError(403, 'role.msg.grantBeyondPackage');
      const [menus, data, api] = await Promise.all([liveIds(db, 'blade_menu', menuIds), liveIds(db, 'blade_scope_data', dataIds), liveIds(db, 'blade_scope_api', apiIds)]);
      if (menus.length !== menuIds.length || data.length !== dataIds.length || api.length !== apiIds.length) throw new HttpError(400, 'role.msg.grantUnknown');
      await inTransaction(db, async (trx) => {
        await trx.deleteFrom('blade_role_menu').where('role_id', 'in', roles).execute();
        await trx.deleteFrom('blade_role_scope').where('role_id', 'in', roles).execute();
        for (const role of roles) {
          for (let i = 0; i < menus.length; i += 500)
            await trx.insertInto('blade_role_menu').values(menus.slice(i, i + 500).map((m) => ({ id: newId(), role_id: role, menu_id: m }))).execute();
          const scopes = [...data.map((s) => ({ s, c: DATA_SCOPE })), ...api.map((s) => ({ s, c: API_SCOPE }))];
          for (let i = 0; i < scopes.length; i += 500)
            await trx.insertInto('blade_role_scope').values(scopes.slice(i, i + 500).map(({ s, c }) => ({ id: newId(), role_id: role, scope_id: s, scope_category: c }))).execute();
        }
      });
      app.ctx.permissions.clear();
      app.ctx.access.clear();
      const names = await db.selectFrom('blade_role').select('role_name').where('id', 'in', roles).execute();
      recordEvent(req, 'grant', `角色 ${names.map((n) => n.role_name).join('、')}：菜单与按钮 ${menus.length} 项，数据权限 ${data.length} 项，接口权限 ${api.length} 项`);
      return ok({ roles: roles.length, menus: menus.length, dataScopes: data.length, apiScopes: api.length });
    });
  },
};

export default roleModule;

/**
 * Menus (`/api/blade-system/menu/`, blade-contract §5): what the shell reads (routes, buttons, top-menu) and
 * what the Menus screen and the grant dialogs need beyond the generic tree CRUD of the `menu` document
 * (lazy-menu-list, menu-list, grant-tree, role-tree-keys, grant-top-tree, top-tree-keys). Every read goes
 * to blade_menu, so a menu saved in the Menus screen is in `routes` at the next call; a new menu is granted
 * to the administrator roles (as the seed does) and the permission cache is emptied, so it shows without a
 * restart.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import { forbidden } from '../../lib/http.js';
import { API_SCOPE, DATA_SCOPE } from '../../lib/access.js';
import { roleMenuIds, roleScopeIds, scopeRows } from '../role/index.js';
import { tenantMenuIds } from '../tenant/index.js';
import { isAdministrator, requirePermission, requireUser, type AuthUser, type ScreenHooks, type ServerModule } from '../../context.js';
import type { DB } from '../../db/index.js';
import type { Migration } from '../../db/migrate.js';
import { HttpError, fail, ok } from '../../lib/http.js';
import { isId, newId } from '../../lib/ids.js';

interface MenuRow {
  id: string;
  parent_id: string;
  code: string;
  name: string;
  name_en: string | null;
  alias: string | null;
  path: string | null;
  source: string | null;
  sort: number | null;
  category: number;
  action: number;
  is_open: number;
  remark: string | null;
}

export interface MenuNode {
  id: string;
  parentId: string;
  code: string;
  name: string;
  nameEn: string;
  alias: string;
  path: string;
  source: string;
  sort: number;
  category: number;
  action: number;
  isOpen: number;
  remark: string;
  parentName?: string;
  hasChildren?: boolean;
  children?: MenuNode[];
}

interface TreeNode {
  id: string;
  parentId: string;
  title: string;
  key: string;
  value: string;
  children?: TreeNode[];
}

const MENU_COLUMNS = ['id', 'parent_id', 'code', 'name', 'name_en', 'alias', 'path', 'source', 'sort', 'category', 'action', 'is_open', 'remark'] as const;

function toNode(r: MenuRow): MenuNode {
  return {
    id: String(r.id),
    parentId: String(r.parent_id),
    code: r.code,
    name: r.name,
    nameEn: r.name_en ?? r.name,
    alias: r.alias ?? '',
    path: r.path ?? '',
    source: r.source ?? '',
    sort: r.sort ?? 0,
    category: r.category,
    action: r.action,
    isOpen: r.is_open,
    remark: r.remark ?? '',
  };
}

function sortTree<T extends { sort?: number; id: string; children?: T[] }>(list: T[]): T[] {
  list.sort((a, b) => (a.sort ?? 0) - (b.sort ?? 0) || a.id.localeCompare(b.id));
  for (const n of list) if (n.children) sortTree(n.children);
  return list;
}

/** Forest from flat rows by id/parentId, siblings by sort; `children` omitted when empty. */
export function buildTree(rows: MenuRow[], withParentName = false): MenuNode[] {
  const nodes = new Map(rows.map((r) => [String(r.id), toNode(r)]));
  const roots: MenuNode[] = [];
  for (const n of nodes.values()) {
    const parent = nodes.get(n.parentId);
    if (withParentName) n.parentName = parent?.name ?? '';
    if (parent) (parent.children ??= []).push(n);
    else roots.push(n);
  }
  return sortTree(roots);
}

function treeNodes(rows: MenuRow[], lang: 'zh' | 'en'): TreeNode[] {
  const nodes = new Map(rows.map((r) => [String(r.id), { id: String(r.id), parentId: String(r.parent_id), title: lang === 'en' ? (r.name_en ?? r.name) : r.name, key: String(r.id), value: String(r.id), sort: r.sort ?? 0 }]));
  const roots: Array<TreeNode & { sort: number }> = [];
  for (const n of nodes.values()) {
    const p = nodes.get(n.parentId) as (TreeNode & { sort: number }) | undefined;
    if (p) (p.children ??= []).push(n);
    else roots.push(n);
  }
  const strip = (list: any[]): TreeNode[] => list.map(({ sort: _s, children, ...n }) => (children ? { ...n, children: strip(children) } : n));
  return strip(sortTree(roots as any));
}

/**
 * A scope grant tree (BladeX grantDataScopeTree): the menus that carry scopes, with their scope rows under them as
 * leaves (`parentId` = the menu, title = the scope name).
 */
function scopeTree(menus: MenuRow[], scopes: Array<{ id: string; menuId: string; name: string }>, lang: 'zh' | 'en'): TreeNode[] {
  const byMenu = new Map<string, typeof scopes>();
  for (const s of scopes) byMenu.set(s.menuId, [...(byMenu.get(s.menuId) ?? []), s]);
  const menusWith = menus.filter((m) => byMenu.has(String(m.id)));
  return treeNodes(menusWith, lang).map((n) => withScopeLeaves(n, byMenu));
}

function withScopeLeaves(node: TreeNode, byMenu: Map<string, Array<{ id: string; menuId: string; name: string }>>): TreeNode {
  const leaves = (byMenu.get(node.id) ?? []).map((s) => ({ id: s.id, parentId: node.id, title: s.name, key: s.id, value: s.id }));
  const kids = [...(node.children ?? []).map((c) => withScopeLeaves(c, byMenu)), ...leaves];
  return kids.length ? { ...node, children: kids } : node;
}

async function allMenus(db: DB): Promise<MenuRow[]> {
  return (await db.selectFrom('blade_menu').select([...MENU_COLUMNS]).where('is_deleted', '=', 0).execute()) as MenuRow[];
}

async function grantedIds(db: DB, roleIds: string[]): Promise<Set<string>> {
  const ids = roleIds.filter((r) => /^\d+$/.test(r));
  if (!ids.length) return new Set();
  const rows = await db.selectFrom('blade_role_menu').select('menu_id').where('role_id', 'in', ids).execute();
  return new Set(rows.map((r) => String(r.menu_id)));
}

async function menuRoutes(db: DB, roleIds: string[], topMenuId?: string): Promise<MenuNode[]> {
  const all = await allMenus(db);
  const granted = await grantedIds(db, roleIds);
  const byId = new Map(all.map((m) => [String(m.id), m]));
  let keep = new Set<string>();
  for (const m of all) {
    if (m.category !== 1 || !granted.has(String(m.id))) continue;
    // granted menus joined with all their ancestors
    let cur: MenuRow | undefined = m;
    while (cur && !keep.has(String(cur.id))) {
      keep.add(String(cur.id));
      cur = byId.get(String(cur.parent_id));
    }
  }
  if (topMenuId && /^\d+$/.test(topMenuId)) {
    const setting = await db.selectFrom('blade_top_menu_setting').select('menu_id').where('top_menu_id', '=', topMenuId).execute();
    if (setting.length) {
      const allowed = new Set(setting.map((s) => String(s.menu_id)));
      // keep a node when it, an ancestor or a descendant is in the top menu's set
      const inTop = (id: string): boolean => {
        for (let c = byId.get(id); c; c = byId.get(String(c.parent_id))) if (allowed.has(String(c.id))) return true;
        return false;
      };
      const withDesc = new Set([...keep].filter(inTop));
      for (const id of withDesc) for (let c = byId.get(id); c; c = byId.get(String(c.parent_id))) if (keep.has(String(c.id))) withDesc.add(String(c.id));
      keep = withDesc;
    }
  }
  return buildTree(all.filter((m) => keep.has(String(m.id)) && m.category === 1));
}

async function menuButtons(db: DB, roleIds: string[]): Promise<MenuNode[]> {
  const all = await allMenus(db);
  const granted = await grantedIds(db, roleIds);
  const byId = new Map(all.map((m) => [String(m.id), m]));
  const keep = new Set<string>();
  for (const m of all) {
    if (m.category !== 2 || !granted.has(String(m.id))) continue;
    keep.add(String(m.id));
    const parent = byId.get(String(m.parent_id));
    if (parent) keep.add(String(parent.id));
  }
  return buildTree(all.filter((m) => keep.has(String(m.id))));
}

/** 403 unless the caller holds one of the codes (the grant dialogs are opened from several screens). */
async function requireAnyCode(app: FastifyInstance, req: FastifyRequest, codes: string[]): Promise<AuthUser> {
  const user = requireUser(req);
  const have = await app.ctx.permissions.codes(user.roleIds);
  if (!codes.some((c) => have.has(c))) throw forbidden();
  return user;
}

function query(req: FastifyRequest): Record<string, unknown> {
  return (req.query ?? {}) as Record<string, unknown>;
}

/** Comma-joined numeric ids of a query parameter (at most 1000). */
function idList(req: FastifyRequest, name: string): string[] {
  const raw = query(req)[name];
  const ids = [...new Set(String(raw ?? '').split(',').map((s) => s.trim()).filter(Boolean))];
  if (ids.length > 1000 || ids.some((id) => !isId(id))) throw fail('error.badRequest');
  return ids;
}

/** Roles of the caller's tenant among `ids` (a role id of another tenant reads nothing). */
async function tenantRoles(db: DB, user: AuthUser, ids: string[]): Promise<string[]> {
  if (!ids.length) return [];
  const rows = await db.selectFrom('blade_role').select('id').where('id', 'in', ids).where('tenant_id', '=', user.tenantId).where('is_deleted', '=', 0).execute();
  return rows.map((r) => String(r.id));
}

/** Every live menu and button but the menus of `codes` and their buttons. */
export async function menuIdsExcept(db: DB, codes: string[]): Promise<string[]> {
  const rows = await db
    .selectFrom('blade_menu as m')
    .select('m.id')
    .where('m.is_deleted', '=', 0)
    .where((eb) => eb.not(eb.exists(eb.selectFrom('blade_menu as p').select('p.id').whereRef('p.id', '=', 'm.parent_id').where('p.code', 'in', codes))))
    .where('m.code', 'not in', codes)
    .execute();
  return rows.map((r) => String(r.id));
}

/** The live menus among `ids` (numeric ids only). */
export async function liveMenuIds(db: DB, ids: string[]): Promise<string[]> {
  const wanted = ids.filter(isId);
  if (!wanted.length) return [];
  const rows = await db.selectFrom('blade_menu').select('id').where('id', 'in', wanted).where('is_deleted', '=', 0).execute();
  return rows.map((r) => String(r.id));
}

/** Grant `menuId` to every administrator role (BladeX's administrator sees every menu), then forget cached codes. */
export async function grantToAdministrators(db: DB, menuId: string): Promise<void> {
  const roles = await db.selectFrom('blade_role').select('id').where('role_alias', '=', 'administrator').where('is_deleted', '=', 0).execute();
  if (!roles.length) return;
  await db
    .insertInto('blade_role_menu')
    .values(roles.map((r) => ({ id: newId(), role_id: String(r.id), menu_id: menuId })))
    .onConflict((oc) => oc.columns(['role_id', 'menu_id']).doNothing())
    .execute();
}

const menuHooks: ScreenHooks = {
  async beforeSave({ values, existing, db }) {
    const category = Number(values.category ?? existing?.category ?? 1);
    const parentId = String(values.parentId ?? existing?.parentId ?? '0');
    // a button hangs under a menu: BladeX's buttons tree is built from the button rows and their parents
    if (category === 2 && parentId === '0') throw new HttpError(400, 'system.menu.msg.buttonParent');
    if (parentId !== '0') {
      const parent = await db.selectFrom('blade_menu').select(['id', 'category']).where('id', '=', parentId).where('is_deleted', '=', 0).executeTakeFirst();
      if (!parent) throw new HttpError(400, 'system.menu.msg.parentNotFound');
      if (Number(parent.category) === 2) throw new HttpError(400, 'system.menu.msg.parentButton');
    }
  },
  async afterSave({ mode, id, req, db }) {
    if (mode === 'add') await grantToAdministrators(db, id);
    req.server.ctx.permissions.clear();
  },
  async beforeRemove({ ids, req, db }) {
    const kids = await db
      .selectFrom('blade_menu')
      .select(['parent_id', sql<string>`count(*)`.as('n')])
      .where('parent_id', 'in', ids)
      .where('id', 'not in', ids)
      .where('is_deleted', '=', 0)
      .groupBy('parent_id')
      .execute();
    if (kids.length) {
      const parent = await db.selectFrom('blade_menu').select(['name', 'name_en']).where('id', '=', String(kids[0].parent_id)).executeTakeFirst();
      const name = req.lang === 'en' ? (parent?.name_en ?? parent?.name) : parent?.name;
      throw fail('system.menu.msg.hasChildren', { name: name ?? '', count: Number(kids[0].n) });
    }
    req.server.ctx.permissions.clear();
  },
};

/** A menu code is a permission code: unique among live menus, also under concurrent submits. */
const migrations: Migration[] = [
  {
    name: 'menu_0001_unique_code',
    up: async (db) => {
      await sql`create unique index if not exists blade_menu_code_uq on blade_menu (code) where is_deleted = 0`.execute(db);
    },
  },
];

const menuModule: ServerModule = {
  name: 'menu',
  migrations,
  screenHooks: { menu: menuHooks },
  async plugin(app) {
    const db = () => app.ctx.db();
    app.get('/api/blade-system/menu/routes', async (req) => {
      const user = requireUser(req);
      const topMenuId = query(req).topMenuId;
      return ok(await menuRoutes(db(), user.roleIds, typeof topMenuId === 'string' ? topMenuId : undefined));
    });
    app.get('/api/blade-system/menu/buttons', async (req) => ok(await menuButtons(db(), requireUser(req).roleIds)));
    app.get('/api/blade-system/menu/top-menu', async (req) => {
      const user = requireUser(req);
      const rows = await db()
        .selectFrom('blade_top_menu')
        .select(['id', 'code', 'name', 'name_en', 'source', 'path', 'sort'])
        .where('tenant_id', '=', user.tenantId)
        .where('is_deleted', '=', 0)
        // only the top menus that lead to something the caller holds (a clerk is not shown an empty "platform")
        .where((eb) => eb.exists(eb.selectFrom('blade_top_menu_setting as s').innerJoin('blade_role_menu as rm', 'rm.menu_id', 's.menu_id').select('s.id').whereRef('s.top_menu_id', '=', 'blade_top_menu.id').where('rm.role_id', 'in', user.roleIds.length ? user.roleIds : ['0'])))
        .orderBy('sort')
        .execute();
      return ok(rows.map((r) => ({ id: String(r.id), code: r.code, name: r.name, nameEn: r.name_en ?? r.name, source: r.source ?? '', path: r.path ?? '', sort: r.sort ?? 0 })));
    });

    // Menus one level at a time (category 1 only), hasChildren telling whether a menu has sub-menus.
    app.get('/api/blade-system/menu/lazy-menu-list', async (req) => {
      await requireAnyCode(app, req, ['menu']);
      const raw = query(req).parentId;
      const parentId = raw === undefined || raw === '' ? '0' : String(raw);
      if (parentId !== '0' && !isId(parentId)) throw fail('error.badRequest');
      const rows = (await db()
        .selectFrom('blade_menu as m')
        .select(MENU_COLUMNS.map((c) => `m.${c}` as const))
        .select(sql<number>`(select count(*) from blade_menu c where c.parent_id = m.id and c.category = 1 and c.is_deleted = 0)`.as('kids'))
        .where('m.parent_id', '=', parentId)
        .where('m.category', '=', 1)
        .where('m.is_deleted', '=', 0)
        .orderBy('m.sort')
        .orderBy('m.id')
        .execute()) as Array<MenuRow & { kids: number | string }>;
      const parent = parentId === '0' ? undefined : await db().selectFrom('blade_menu').select('name').where('id', '=', parentId).executeTakeFirst();
      return ok(rows.map((r) => ({ ...toNode(r), parentName: parent?.name ?? '', hasChildren: Number(r.kids) > 0 })));
    });
    // The whole tree of menus (category 1), for the parent pickers (BladeX menu-list).
    app.get('/api/blade-system/menu/menu-list', async (req) => {
      await requireAnyCode(app, req, ['menu']);
      const rows = (await allMenus(db())).filter((m) => m.category === 1);
      return ok(buildTree(rows, true));
    });

    // TreeNode of the menus without buttons (BladeX MenuMapper.tree): the parent picker of the Menus screen.
    app.get('/api/blade-system/menu/tree', async (req) => {
      await requireAnyCode(app, req, ['menu', 'role', 'topmenu', 'tenant_package']);
      return ok(treeNodes((await allMenus(db())).filter((m) => m.category === 1), req.lang));
    });

    // Grant dialog of a role: every menu and button, and the data and API scopes under their menus, as TreeNode
    // (an administrator sees all; another caller only what its own roles hold, so it cannot grant more than it has).
    app.get('/api/blade-system/menu/grant-tree', async (req) => {
      const user = await requireAnyCode(app, req, ['menu', 'role', 'tenant_package']);
      const allowed = await tenantMenuIds(db(), user.tenantId);
      let rows = (await allMenus(db())).filter((m) => !allowed || allowed.has(String(m.id)));
      let [data, api] = await Promise.all([scopeRows(db(), DATA_SCOPE), scopeRows(db(), API_SCOPE)]);
      if (!isAdministrator(user)) {
        const granted = await grantedIds(db(), user.roleIds);
        rows = rows.filter((m) => granted.has(String(m.id)));
        const [ownData, ownApi] = await Promise.all([roleScopeIds(db(), user.roleIds, DATA_SCOPE), roleScopeIds(db(), user.roleIds, API_SCOPE)]);
        data = data.filter((d) => ownData.includes(d.id));
        api = api.filter((d) => ownApi.includes(d.id));
      }
      return ok({ menu: treeNodes(rows, req.lang), dataScope: scopeTree(rows, data, req.lang), apiScope: scopeTree(rows, api, req.lang) });
    });
    app.get('/api/blade-system/menu/role-tree-keys', async (req) => {
      const user = await requireAnyCode(app, req, ['menu', 'role']);
      const roles = await tenantRoles(db(), user, idList(req, 'roleIds'));
      const [menu, dataScope, apiScope] = await Promise.all([roleMenuIds(db(), roles), roleScopeIds(db(), roles, DATA_SCOPE), roleScopeIds(db(), roles, API_SCOPE)]);
      return ok({ menu, dataScope, apiScope });
    });
    // Top menus of the tenant as TreeNode (the top-menu grant dialog), and the menus a top menu holds.
    app.get('/api/blade-system/menu/grant-top-tree', async (req) => {
      const user = await requireAnyCode(app, req, ['menu', 'role', 'topmenu']);
      const rows = await db().selectFrom('blade_top_menu').select(['id', 'name', 'name_en']).where('tenant_id', '=', user.tenantId).where('is_deleted', '=', 0).orderBy('sort').orderBy('id').execute();
      return ok(rows.map((r) => ({ id: String(r.id), parentId: '0', title: req.lang === 'en' ? (r.name_en ?? r.name) : r.name, key: String(r.id), value: String(r.id) })));
    });
    // Top menu grant (BladeX TopMenuController.grant): the menus each chosen top menu holds, replaced at once.
    app.post('/api/blade-system/top-menu/grant', async (req) => {
      const user = await requirePermission(app, req, 'menu_grant_top');
      const body = req.body && typeof req.body === 'object' && !Array.isArray(req.body) ? (req.body as Record<string, unknown>) : {};
      const list = (v: unknown) => [...new Set((Array.isArray(v) ? v.map(String) : String(v ?? '').split(',')).map((x) => x.trim()).filter(Boolean))];
      const topIds = list(query(req).topMenuIds ?? body.topMenuIds ?? query(req).ids ?? body.ids);
      const menuIds = list(query(req).menuIds ?? body.menuIds);
      if (!topIds.length || topIds.length > 1000 || topIds.some((x) => !isId(x))) throw fail('error.invalidIds');
      if (menuIds.length > 5000 || menuIds.some((x) => !isId(x))) throw fail('error.badRequest');
      const saved = await db().transaction().execute(async (trx) => {
        const tops = await trx.selectFrom('blade_top_menu').select('id').where('id', 'in', topIds).where('tenant_id', '=', user.tenantId).where('is_deleted', '=', 0).execute();
        if (!tops.length) throw new HttpError(404, 'error.recordNotFound');
        const known = menuIds.length ? await trx.selectFrom('blade_menu').select('id').where('id', 'in', menuIds).where('is_deleted', '=', 0).execute() : [];
        if (known.length !== menuIds.length) throw fail('error.badRequest');
        const ids = tops.map((t) => String(t.id));
        await trx.deleteFrom('blade_top_menu_setting').where('top_menu_id', 'in', ids).execute();
        const rows = ids.flatMap((top) => menuIds.map((menu) => ({ id: newId(), top_menu_id: top, menu_id: menu })));
        for (let i = 0; i < rows.length; i += 500) await trx.insertInto('blade_top_menu_setting').values(rows.slice(i, i + 500)).execute();
        return { topMenus: ids.length, menus: menuIds.length };
      });
      return ok(saved);
    });
    app.get('/api/blade-system/menu/top-tree-keys', async (req) => {
      const user = await requireAnyCode(app, req, ['menu', 'role', 'topmenu']);
      const ids = idList(req, 'topMenuIds');
      if (!ids.length) return ok([]);
      const tops = await db().selectFrom('blade_top_menu').select('id').where('id', 'in', ids).where('tenant_id', '=', user.tenantId).where('is_deleted', '=', 0).execute();
      if (!tops.length) return ok([]);
      const rows = await db().selectFrom('blade_top_menu_setting').select('menu_id').distinct().where('top_menu_id', 'in', tops.map((t) => String(t.id))).execute();
      return ok(rows.map((r) => String(r.menu_id)));
    });
  },
};

export default menuModule;

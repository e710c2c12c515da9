/**
 * blade-system reads the shell needs: menu routes/buttons/top-menu (blade-contract §5), dictionaries (§7),
 * the batched dictionary loader of the web runtime, and the screen documents the caller may open; and the
 * user action `POST user/unlock?userIds=` (button user_unlock), which lifts the login lock of those users;
 * and `locale/extra`, the strings extra document folders (SCHEMA_DIRS) bring.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { requirePermission, requireUser, type ServerModule } from '../../context.js';
import type { DB } from '../../db/index.js';
import { loadDictionaries } from '../../crud/dictionaries.js';
import { fail, notFound, ok, okStatus } from '../../lib/http.js';
import { clearLoginFailures } from '../auth/index.js';

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
  children?: MenuNode[];
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

/** Forest from flat rows by id/parentId, siblings by sort; `children` omitted when empty. */
export function buildTree(rows: MenuRow[]): MenuNode[] {
  const nodes = new Map(rows.map((r) => [String(r.id), toNode(r)]));
  const roots: MenuNode[] = [];
  for (const n of nodes.values()) {
    const parent = nodes.get(n.parentId);
    if (parent) (parent.children ??= []).push(n);
    else roots.push(n);
  }
  const sortRec = (list: MenuNode[]) => {
    list.sort((a, b) => a.sort - b.sort || a.id.localeCompare(b.id));
    for (const n of list) if (n.children) sortRec(n.children);
  };
  sortRec(roots);
  return roots;
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

export interface DictItem {
  code: string;
  dictKey: string;
  dictValue: string;
  dictValueEn: string;
  sort: number;
  remark: string;
}

async function dictionary(db: DB, table: 'blade_dict' | 'blade_dict_biz', codes: string[], tenantId: string): Promise<DictItem[]> {
  if (!codes.length) return [];
  let q = db
    .selectFrom(table)
    .select(['code', 'dict_key', 'dict_value', 'dict_value_en', 'sort', 'remark'])
    .where('code', 'in', codes)
    .where('parent_id', '<>', '0')
    .where('is_deleted', '=', 0);
  if (table === 'blade_dict_biz') q = q.where('tenant_id', '=', tenantId);
  const rows = await q.orderBy('code').orderBy('sort').orderBy('id').execute();
  return rows.map((r) => ({
    code: r.code as string,
    dictKey: r.dict_key as string,
    dictValue: r.dict_value as string,
    dictValueEn: (r.dict_value_en as string | null) ?? (r.dict_value as string),
    sort: (r.sort as number | null) ?? 0,
    remark: (r.remark as string | null) ?? '',
  }));
}

function codeParam(req: FastifyRequest, name: string): string[] {
  const raw = ((req.query ?? {}) as Record<string, unknown>)[name];
  if (typeof raw !== 'string' || !raw.trim()) throw fail('error.paramMissing', { name });
  const codes = [...new Set(raw.split(',').map((s) => s.trim()).filter(Boolean))];
  if (codes.length > 100 || codes.some((c) => c.length > 100)) throw fail('error.badRequest');
  return codes;
}

/** `userIds` (or `ids`) from the query or a form/JSON body: comma-separated numeric ids, at most 1000. */
function userIdsParam(req: FastifyRequest): string[] {
  const q = (req.query ?? {}) as Record<string, unknown>;
  const b = req.body && typeof req.body === 'object' && !Buffer.isBuffer(req.body) ? (req.body as Record<string, unknown>) : {};
  const raw = q.userIds ?? b.userIds ?? q.ids ?? b.ids;
  const text = Array.isArray(raw) ? raw.join(',') : typeof raw === 'string' || typeof raw === 'number' ? String(raw) : '';
  const ids = [...new Set(text.split(',').map((s) => s.trim()).filter(Boolean))];
  if (!ids.length) throw fail('error.paramMissing', { name: 'userIds' });
  if (ids.length > 1000 || ids.some((id) => !/^[0-9]{1,19}$/.test(id))) throw fail('error.badRequest');
  return ids;
}

async function visibleScreens(app: FastifyInstance, req: FastifyRequest) {
  const user = requireUser(req);
  const codes = await app.ctx.permissions.codes(user.roleIds);
  return app.ctx.docs.all.filter((d) => codes.has(d.resource.permissionPrefix));
}

const systemModule: ServerModule = {
  name: 'system',
  async plugin(app) {
    app.get('/api/blade-system/menu/routes', async (req) => {
      const user = requireUser(req);
      const topMenuId = ((req.query ?? {}) as Record<string, unknown>).topMenuId;
      return ok(await menuRoutes(app.ctx.db(), user.roleIds, typeof topMenuId === 'string' ? topMenuId : undefined));
    });
    app.get('/api/blade-system/menu/buttons', async (req) => ok(await menuButtons(app.ctx.db(), requireUser(req).roleIds)));
    app.get('/api/blade-system/menu/top-menu', async (req) => {
      const user = requireUser(req);
      const rows = await app.ctx
        .db()
        .selectFrom('blade_top_menu')
        .select(['id', 'code', 'name', 'name_en', 'source', 'path', 'sort'])
        .where('tenant_id', '=', user.tenantId)
        .where('is_deleted', '=', 0)
        .orderBy('sort')
        .execute();
      return ok(rows.map((r) => ({ id: String(r.id), code: r.code, name: r.name, nameEn: r.name_en ?? r.name, source: r.source ?? '', path: r.path ?? '', sort: r.sort ?? 0 })));
    });

    app.get('/api/blade-system/dict/dictionary', async (req) => {
      requireUser(req);
      return ok(await dictionary(app.ctx.db(), 'blade_dict', codeParam(req, 'code').slice(0, 1), ''));
    });
    app.get('/api/blade-system/dict-biz/dictionary', async (req) => {
      const user = requireUser(req);
      return ok(await dictionary(app.ctx.db(), 'blade_dict_biz', codeParam(req, 'code').slice(0, 1), user.tenantId));
    });
    app.get('/api/blade-system/dict/batch', async (req) => {
      const user = requireUser(req);
      const codes = codeParam(req, 'codes');
      // a business dictionary of the tenant wins over a system one with the same code (loadDictionaries)
      const dicts = await loadDictionaries(app.ctx.db(), codes, user.tenantId);
      const out: Record<string, Array<{ dictKey: string; dictValue: string; dictValueEn: string; sort: number }>> = {};
      for (const c of codes) out[c] = (dicts.get(c) ?? []).map((e) => ({ dictKey: e.key, dictValue: e.label, dictValueEn: e.labelEn, sort: e.sort }));
      return ok(out);
    });

    // BladeX user/unlock: forget the failed logins of the given users of the caller's tenant (lifts the lock).
    app.post('/api/blade-system/user/unlock', async (req) => {
      const user = await requirePermission(app, req, 'user_unlock');
      const ids = userIdsParam(req);
      const db = app.ctx.db();
      const rows = await db.selectFrom('blade_user').select('account').where('id', 'in', ids).where('tenant_id', '=', user.tenantId).where('is_deleted', '=', 0).execute();
      await clearLoginFailures(db, user.tenantId, rows.map((r) => r.account as string));
      return okStatus();
    });

    // Strings that extra document folders bring (SCHEMA_DIRS <dir>/locales/<lang>.json), for the web app to add
    // to its bundled texts: { zh: {...}, en: {...} }, empty objects without extra folders.
    app.get('/api/blade-system/locale/extra', async (req) => {
      requireUser(req);
      return ok({ zh: app.ctx.i18n.extraTexts('zh'), en: app.ctx.i18n.extraTexts('en') });
    });

    // Documents of records whose menu code is granted, and layout documents (master-detail, page) whose
    // `permission` is granted.
    app.get('/api/blade-system/screen/list', async (req) => {
      const docs = await visibleScreens(app, req);
      const codes = await app.ctx.permissions.codes(requireUser(req).roleIds);
      const layouts = app.ctx.docs.layouts.filter((l) => codes.has(l.permission));
      return ok([...docs, ...layouts].map((d) => ({ id: d.id, route: d.route, title: d.title })));
    });
    app.get('/api/blade-system/screen/detail', async (req) => {
      const id = String(((req.query ?? {}) as Record<string, unknown>).id ?? '');
      const codes = await app.ctx.permissions.codes(requireUser(req).roleIds);
      const layouts = app.ctx.docs.layouts.filter((l) => codes.has(l.permission));
      const layout = layouts.find((l) => l.id === id);
      if (layout) return ok(layout);
      const visible = app.ctx.docs.all.filter((d) => codes.has(d.resource.permissionPrefix));
      // Also a screen that a granted `show` action of a visible screen draws its records with (e.g. the order
      // columns of a settlement's details), or the master/detail of a granted master-detail layout: the
      // document only, its own endpoints keep their permissions.
      const drawnBy =
        visible.some((v) => (v.list.actions ?? []).some((a) => a.show?.screen === id && codes.has(a.permission))) ||
        layouts.some((l) => l.view.type === 'master-detail' && (l.view.master === id || l.view.detail === id));
      const doc = visible.find((d) => d.id === id) ?? (drawnBy ? app.ctx.docs.get(id) : undefined);
      if (!doc) throw notFound('error.notFound');
      return ok(doc);
    });
  },
};

export default systemModule;

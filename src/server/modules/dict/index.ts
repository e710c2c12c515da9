/**
 * Dictionaries, system (`/api/blade-system/dict/`, blade_dict) and business per tenant (`/api/blade-system/dict-biz/`,
 * blade_dict_biz), blade-contract §7: the lookups every screen uses (`dictionary?code=`, the web runtime's
 * `dict/batch`), and what the Dictionaries screens need beyond the generic tree CRUD of their documents
 * (`parent-list`, `child-list?parentId=`, `tree?code=`), with the rules of the spec: a root has dictKey -1 and a
 * code no other root has; an entry takes its root's code and a key unique under its parent; a sealed entry
 * (isSealed 1) is changed or removed only by an administrator; an entry with children is not removed.
 *
 * Caches: the server keeps no dictionary cache (loadDictionaries reads the tables on every call), so a change
 * is live for every screen and every server-side check at once; the web runtime's batch cache is refreshed by
 * the screens themselves.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import type { ScreenDocument } from '../../../shared/document.js';
import { requirePermission, requireUser, type AuthUser, type ScreenHooks, type ServerModule } from '../../context.js';
import { loadDictionaries } from '../../crud/dictionaries.js';
import { dataScopeOf, pageEnvelope, pageParams, parseListRequest, listPage, recordSerializer } from '../../crud/index.js';
import type { DB } from '../../db/index.js';
import type { Migration } from '../../db/migrate.js';
import { HttpError, fail, ok } from '../../lib/http.js';
import { isId } from '../../lib/ids.js';

type DictTable = 'blade_dict' | 'blade_dict_biz';

export interface DictItem {
  code: string;
  dictKey: string;
  dictValue: string;
  dictValueEn: string;
  sort: number;
  remark: string;
}

import { isAdministrator } from '../../context.js';

export { isAdministrator };

async function dictionary(db: DB, table: DictTable, codes: string[], tenantId: string): Promise<DictItem[]> {
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

/** A system dictionary's remarks by key (the workflow's `flow` dictionary: category → the route of its process form). */
export async function dictionaryRemarks(db: DB, code: string): Promise<Map<string, string>> {
  const items = await dictionary(db, 'blade_dict', [code], '');
  return new Map(items.filter((i) => i.remark).map((i) => [i.dictKey, i.remark]));
}

function codeParam(req: FastifyRequest, name: string): string[] {
  const raw = ((req.query ?? {}) as Record<string, unknown>)[name];
  if (typeof raw !== 'string' || !raw.trim()) throw fail('error.paramMissing', { name });
  const codes = [...new Set(raw.split(',').map((s) => s.trim()).filter(Boolean))];
  if (codes.length > 100 || codes.some((c) => c.length > 100)) throw fail('error.badRequest');
  return codes;
}

function scope(q: any, table: DictTable, user: AuthUser) {
  const out = q.where('is_deleted', '=', 0);
  return table === 'blade_dict_biz' ? out.where('tenant_id', '=', user.tenantId) : out;
}

interface TreeNode {
  id: string;
  parentId: string;
  title: string;
  key: string;
  value: string;
  children?: TreeNode[];
}

/** TreeNode forest (blade-contract §6) by id/parentId, siblings in the order given. */
function forest(rows: Array<{ id: string; parentId: string; title: string }>): TreeNode[] {
  const nodes = new Map(rows.map((r) => [r.id, { id: r.id, parentId: r.parentId, title: r.title, key: r.id, value: r.id } as TreeNode]));
  const roots: TreeNode[] = [];
  for (const n of nodes.values()) {
    const p = nodes.get(n.parentId);
    if (p && p !== n) (p.children ??= []).push(n);
    else roots.push(n);
  }
  return roots;
}

/** A 409 naming the field, in the shape of a validation error (data: [{field, message}]). */
export function duplicate(req: FastifyRequest, field: string, key: string): HttpError {
  const message = req.server.ctx.i18n.t(req.lang, key);
  return new HttpError(409, key, {}, [{ field, message }], message);
}

function label(req: FastifyRequest, row: { dict_value?: unknown; dict_value_en?: unknown }): string {
  return String((req.lang === 'en' && row.dict_value_en) || row.dict_value || '');
}

/** The beforeSave/beforeRemove rules shared by both dictionary documents. */
function dictHooks(table: DictTable): ScreenHooks {
  return {
    async beforeSave({ mode, values, existing, req, db }) {
      const user = requireUser(req);
      if (mode === 'edit' && Number(existing?.isSealed) === 1 && !isAdministrator(user)) {
        throw new HttpError(403, 'system.dict.msg.sealed', { name: label(req, { dict_value: existing?.dictValue, dict_value_en: existing?.dictValueEn }) });
      }
      const parentId = String(values.parentId ?? existing?.parentId ?? '0');
      const id = existing ? String(existing.id) : undefined;
      if (parentId === '0') {
        values.parentId = '0';
        values.dictKey = '-1';
        const code = String(values.code ?? existing?.code ?? '');
        let q = scope(db.selectFrom(table).select('id').where('parent_id', '=', '0').where('code', '=', code), table, user);
        if (id) q = q.where('id', '<>', id);
        if (await q.executeTakeFirst()) throw duplicate(req, 'code', 'system.dict.msg.codeUnique');
        return;
      }
      if (!isId(parentId)) throw fail('system.dict.msg.parentNotFound');
      if (id && parentId === id) throw fail('system.dict.msg.parentNotFound');
      const parent = await scope(db.selectFrom(table).select(['id', 'code', 'parent_id']).where('id', '=', parentId), table, user).executeTakeFirst();
      if (!parent) throw fail('system.dict.msg.parentNotFound');
      // an entry belongs to its root's dictionary: the code is the parent's, whatever the client sent
      values.code = parent.code;
      const key = String(values.dictKey ?? existing?.dictKey ?? '');
      let q = scope(db.selectFrom(table).select('id').where('parent_id', '=', parentId).where('dict_key', '=', key), table, user);
      if (id) q = q.where('id', '<>', id);
      if (await q.executeTakeFirst()) throw duplicate(req, 'dictKey', 'system.dict.msg.dictKeyUnique');
    },
    async afterSave({ mode, id, values, existing, req, db }) {
      // a root renamed: its entries follow (they carry the root's code)
      if (mode !== 'edit' || String(existing?.parentId ?? '0') !== '0' || values.code === undefined || values.code === existing?.code) return;
      const user = requireUser(req);
      let q = db.updateTable(table).set({ code: String(values.code) }).where('code', '=', String(existing!.code)).where('id', '<>', id).where('is_deleted', '=', 0);
      if (table === 'blade_dict_biz') q = q.where('tenant_id', '=', user.tenantId);
      await q.execute();
    },
    async beforeRemove({ ids, req, db }) {
      const user = requireUser(req);
      const rows = await scope(db.selectFrom(table).select(['id', 'dict_value', 'dict_value_en', 'is_sealed']).where('id', 'in', ids), table, user).execute();
      if (!isAdministrator(user)) {
        const sealed = rows.find((r: any) => Number(r.is_sealed) === 1);
        if (sealed) throw new HttpError(403, 'system.dict.msg.sealed', { name: label(req, sealed) });
      }
      const kids = await scope(
        db.selectFrom(table).select(['parent_id', sql<string>`count(*)`.as('n')]).where('parent_id', 'in', ids).where('id', 'not in', ids).groupBy('parent_id'),
        table,
        user,
      ).execute();
      if (kids.length) {
        const parent = rows.find((r: any) => String(r.id) === String(kids[0].parent_id));
        throw fail('system.dict.msg.hasChildren', { name: parent ? label(req, parent) : '', count: Number(kids[0].n) });
      }
    },
  };
}

/** parent-list / child-list: the document's paged list narrowed to roots or to one parent's entries. */
function mountNarrowLists(app: FastifyInstance, doc: ScreenDocument) {
  const api = doc.resource.api;
  const page = async (req: FastifyRequest, parentId: string) => {
    const user = await requirePermission(app, req, doc.resource.permissionPrefix);
    const query = (req.query ?? {}) as Record<string, unknown>;
    const { conditions, sort } = parseListRequest(doc, query);
    const { current, size } = pageParams(doc, query);
    const narrowed = [...conditions.filter((c) => c.field !== 'parentId'), { field: 'parentId', op: '=' as const, value: parentId }];
    const { rows, count } = await listPage(app.ctx.db(), doc, { conditions: narrowed, sort, tenantId: user.tenantId, scope: dataScopeOf(doc, user), limit: size, offset: (current - 1) * size });
    const serialize = recordSerializer(doc);
    return ok(pageEnvelope(rows.map((r) => serialize(r)), count, current, size));
  };
  app.get(`${api}/parent-list`, async (req) => page(req, '0'));
  app.get(`${api}/child-list`, async (req) => {
    const raw = ((req.query ?? {}) as Record<string, unknown>).parentId;
    const parentId = raw === undefined || raw === '' ? '' : String(raw);
    // BladeX's default parentId is -1: no parent chosen yet, an empty page
    if (!isId(parentId)) {
      await requirePermission(app, req, doc.resource.permissionPrefix);
      const { current, size } = pageParams(doc, (req.query ?? {}) as Record<string, unknown>);
      return ok(pageEnvelope([], { total: 0, estimated: false }, current, size));
    }
    return page(req, parentId);
  });
  // tree?code=: TreeNode forest of one dictionary (code) or of all (no code, or BladeX's code=DICT)
  app.get(`${api}/tree`, async (req) => {
    const user = await requirePermission(app, req, doc.resource.permissionPrefix);
    const table = doc.resource.table as DictTable;
    const code = ((req.query ?? {}) as Record<string, unknown>).code;
    let q = scope(db().selectFrom(table).select(['id', 'parent_id', 'dict_value', 'dict_value_en']), table, user);
    if (typeof code === 'string' && code && code !== 'DICT') q = q.where('code', '=', code);
    const rows = await q.orderBy('sort').orderBy('id').execute();
    return ok(forest(rows.map((r: any) => ({ id: String(r.id), parentId: String(r.parent_id), title: label(req, r) }))));
  });
  function db() {
    return app.ctx.db();
  }
}

/** A root's code and an entry's key under its parent are unique among live rows, also under concurrent submits. */
const migrations: Migration[] = [
  {
    name: 'dict_0001_unique',
    up: async (db) => {
      await sql`create unique index if not exists blade_dict_root_code_uq on blade_dict (code) where parent_id = 0 and is_deleted = 0`.execute(db);
      await sql`create unique index if not exists blade_dict_key_uq on blade_dict (parent_id, dict_key) where parent_id <> 0 and is_deleted = 0`.execute(db);
      await sql`create unique index if not exists blade_dict_biz_root_code_uq on blade_dict_biz (tenant_id, code) where parent_id = 0 and is_deleted = 0`.execute(db);
      await sql`create unique index if not exists blade_dict_biz_key_uq on blade_dict_biz (parent_id, dict_key) where parent_id <> 0 and is_deleted = 0`.execute(db);
    },
  },
];

const dictModule: ServerModule = {
  name: 'dict',
  migrations,
  screenHooks: { dict: dictHooks('blade_dict'), dictbiz: dictHooks('blade_dict_biz') },
  async plugin(app) {
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
    for (const id of ['dict', 'dictbiz']) {
      const doc = app.ctx.docs.get(id);
      if (doc) mountNarrowLists(app, doc);
    }
  },
};

export default dictModule;

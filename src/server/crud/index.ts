/**
 * Generic CRUD for every screen document: GET {api}/list, GET {api}/detail?id=, POST {api}/submit,
 * POST {api}/remove?ids=a,b (blade-contract §2, §12). A module can replace one of these by registering the
 * same method + path itself (modules are registered before this plugin), or add beforeSave/afterRead hooks.
 * Permissions: list/detail need the menu code (permissionPrefix); add/edit/delete need <prefix>_add/_edit/
 * _delete. Denial is 403 R (not 401, which would log the user out — blade-contract §11 #9).
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import type { FieldSchema, ScreenDocument } from '../../shared/document.js';
import { allProperties, builtins, conditionalFields, conditionHolds, isWriteOnly, listableProperties, storedFields, toSnake } from '../../shared/fields.js';
import { pickEditable } from '../../shared/form.js';
import { SearchError, missingRequiredSearches, parseSearchParams, parseSort, type Condition } from '../../shared/search.js';
import { PLATFORM_TENANT, isPlatformAdministrator, requirePermission, type AuthUser, type SaveOrigin } from '../context.js';
import type { DB } from '../db/index.js';
import type { DocumentRegistry } from '../documents.js';
import { dataScopeCondition } from '../lib/access.js';
import { HttpError, fail, notFound, ok } from '../lib/http.js';
import { isId, newId } from '../lib/ids.js';
import { hashPassword } from '../lib/password.js';
import { localDateTime, localDay } from '../lib/time.js';
import { dataScopeOf, listPage, pageEnvelope, readableFields } from './query.js';
import { addLookups, lookupErrors } from './lookup.js';
import { documentRoute } from './route-validation.js';
import { sealStoredSecrets } from './secrets.js';
import { duplicateFromViolation, equalsErrors, joinedErrors, refuseDuplicates } from './rules.js';
import { buildForest, column as treeColumn, keysWithChildren, labelsByKey, nodeForest, prepareTreeWrite, recordKeyField, refuseParentsRemoval, treeNode, treeOf, treeRows, type TreeInfo } from './tree.js';
import { dictionaryErrors, validateValues } from './validate.js';

export { buildListQuery, buildWhereQuery, dataScopeOf, listPage, pageEnvelope, readableFields, type RowCount } from './query.js';

const MAX_PAGE = 200;

/**
 * The search conditions and sort of a list-shaped request (list, export): only the document's search
 * fields and sortable columns are read; a malformed value or a missing required search is a clear error.
 */
export function parseListRequest(doc: ScreenDocument, query: Record<string, unknown>, docs?: DocumentRegistry): { conditions: Condition[]; sort: ReturnType<typeof parseSort> } {
  let conditions: Condition[];
  try {
    conditions = parseSearchParams(doc, query);
  } catch (e) {
    if (e instanceof SearchError) throw fail('error.search', { detail: e.message });
    throw e;
  }
  for (const c of conditions) if (c.op === 'under') c.tree = underTree(doc, c.field, docs);
  const missing = missingRequiredSearches(doc, conditions);
  if (missing.length) throw new HttpError(400, missing[0].required || 'error.searchRequired');
  return { conditions, sort: parseSort(doc, query.ascs, query.descs) };
}

/** The tree an `under` search walks: the field's x-lookup screen, when it is a tree with ancestors. */
function underTree(doc: ScreenDocument, field: string, docs: DocumentRegistry | undefined): Condition['tree'] {
  const screen = listableProperties(doc)[field]?.['x-lookup']?.screen;
  const target = screen ? docs?.byId.get(screen) : undefined;
  const ancestors = target?.resource.tree?.ancestorsField;
  if (!target || !ancestors) return undefined; // then the field's own key only
  return { table: target.resource.table, tenantScoped: target.resource.tenantScoped !== false, ancestorsColumn: toSnake(ancestors) };
}

/**
 * DB row (camelCase aliases) → wire record: numeric strings → numbers for display, ids stay strings.
 * Build one per page: the numeric fields are looked up once, not per row (that lookup was the top
 * self-time entry of a list request in a CPU profile).
 *
 * Money (SQL numeric(12,2), sums numeric(14,2)) goes out as a JSON number, as BladeX sends BigDecimal, and
 * this is exact: PostgreSQL gives the value as decimal text ("12.30"), and any decimal of at most 15
 * significant digits converts to the one double whose shortest form is that same decimal (12.3), so no
 * cent is ever lost or invented; the 2 decimals are a display matter (the web's `money` cells and number
 * inputs with precision 2 format 12.3 as 12.30 from the number, without float arithmetic). Nothing on the
 * server adds these numbers: sums are SQL. A value that would not survive the conversion (more than 15
 * significant digits, e.g. an unscaled numeric) is sent as its exact decimal text instead (`exactNumber`).
 */
export function recordSerializer(doc: ScreenDocument): (row: Record<string, unknown>) => Record<string, unknown> {
  const numeric = new Map<string, FieldSchema['type']>();
  for (const [k, f] of Object.entries(listableProperties(doc))) {
    if (!isWriteOnly(f) && (f.type === 'number' || f.type === 'integer')) numeric.set(k, f.type);
  }
  return (row) => {
    const out: Record<string, unknown> = {};
    for (const k in row) {
      const v = row[k];
      const type = numeric.get(k);
      if (type && typeof v === 'string') {
        const n = exactNumber(v);
        out[k] = n !== undefined && (type === 'number' || Number.isSafeInteger(n)) ? n : v;
      } else out[k] = v;
    }
    return out;
  };
}

/**
 * The number a decimal text stands for, only when the conversion is exact (the number's shortest form is
 * the same decimal: "12.30" → 12.3, "-0.50" → -0.5, "100.00" → 100); else undefined (the text is sent).
 */
export function exactNumber(text: string): number | undefined {
  const m = /^(-?)(\d+)(?:\.(\d*?))?0*$/.exec(text);
  if (!m) return undefined;
  const n = Number(text);
  if (!Number.isFinite(n)) return undefined;
  const int = m[2].replace(/^0+(?=\d)/, '');
  const canonical = `${m[1] && (int !== '0' || m[3]) ? '-' : ''}${int}${m[3] ? `.${m[3]}` : ''}`;
  return String(n) === canonical ? n : undefined;
}

/** One record (detail): see recordSerializer. */
export function serializeRecord(doc: ScreenDocument, row: Record<string, unknown>): Record<string, unknown> {
  return recordSerializer(doc)(row);
}

export function pageParams(doc: ScreenDocument, query: Record<string, unknown>): { current: number; size: number } {
  const sizes = doc.list.pageSizes?.length ? doc.list.pageSizes : [10, 30, 50, 100, 200];
  const max = Math.min(MAX_PAGE, Math.max(...sizes));
  const def = doc.list.defaultPageSize ?? sizes[0] ?? 10;
  let size = Number.parseInt(String(query.size ?? ''), 10);
  if (!Number.isFinite(size) || size < 1) size = def;
  if (size > max) size = max;
  let current = Number.parseInt(String(query.current ?? ''), 10);
  if (!Number.isFinite(current) || current < 1) current = 1;
  return { current, size };
}

/** Next serial number `prefix + yyyyMMdd + 6 digits` (x-generated `serial:<prefix>`), safe across instances. */
export async function nextSerial(db: DB, prefix: string, tz: string): Promise<string> {
  const day = localDay(tz);
  const r = await sql<{ value: string }>`insert into blade_serial (prefix, day, value) values (${prefix}, ${day}, 1)
    on conflict (prefix, day) do update set value = blade_serial.value + 1 returning value`.execute(db);
  return `${prefix}${day}${String(r.rows[0].value).padStart(6, '0')}`;
}

/** Value bound for a column: jsonb as JSON text. */
function columnValue(f: FieldSchema | undefined, v: unknown): unknown {
  if (v === null || v === undefined) return null;
  if (f && (f.type === 'array' || f.type === 'object') && !f['x-sqlType']) return JSON.stringify(v);
  if (f && (f.type === 'array' || f.type === 'object') && /json/.test(String(f['x-sqlType']))) return JSON.stringify(v);
  return v;
}

function idsParam(req: FastifyRequest, keyed = false): string[] {
  const q = (req.query ?? {}) as Record<string, unknown>;
  const b = req.body && typeof req.body === 'object' ? (req.body as Record<string, unknown>) : {};
  const p = (req.params ?? {}) as Record<string, unknown>; // an alias such as del/:id
  const raw = q.ids ?? b.ids ?? q.id ?? b.id ?? p.id;
  const list = (Array.isArray(raw) ? raw.map(String) : typeof raw === 'string' || typeof raw === 'number' ? String(raw).split(',') : []).map((s) => s.trim()).filter(Boolean);
  const valid = keyed ? (s: string) => KEY_VALUE.test(s) : isId;
  if (!list.length || list.some((s) => !valid(s)) || list.length > 1000) throw fail('error.invalidIds');
  return [...new Set(list)];
}

/** A key value of a document keyed by another field (region code): short, no separators or wildcards. */
const KEY_VALUE = /^[A-Za-z0-9_.-]{1,64}$/;

/**
 * The ids of the rows a remove names that the caller may touch (its tenant, live, its data scope); 404 when none.
 * A document keyed by another field (resource.keyField: regions by code) is also named by that key:
 * `<keyField>=` or `ids`/`id` holding keys or ids.
 * The module hooks see only these, so another tenant's id reaches no hook (a hook cleaning up grants included).
 */
async function removeIds(db: DB, doc: ScreenDocument, req: FastifyRequest, user: AuthUser): Promise<string[]> {
  const keyField = recordKeyField(doc);
  let given: string[];
  if (keyField === 'id') given = idsParam(req);
  else {
    const q = (req.query ?? {}) as Record<string, unknown>;
    const b = req.body && typeof req.body === 'object' ? (req.body as Record<string, unknown>) : {};
    const own = q[keyField] ?? b[keyField];
    given = own !== undefined && own !== null && own !== '' ? String(own).split(',').map((s) => s.trim()).filter(Boolean) : idsParam(req, true);
    if (!given.length || given.some((s) => !KEY_VALUE.test(s))) throw fail('error.invalidIds');
  }
  const ids = given.filter(isId);
  const byKey = keyField === 'id' ? [] : [given];
  if (!ids.length && !byKey.length) throw notFound();
  const rows = (await scoped(
    doc,
    db
      .selectFrom(doc.resource.table)
      .select('id')
      .where((eb: any) => eb.or([...byKey.map((g) => eb(sql.ref(treeColumn(keyField)), 'in', g)), ...(ids.length ? [eb('id', 'in', ids)] : [])])),
    user,
  ).execute()) as Array<{ id: unknown }>;
  if (!rows.length) throw notFound();
  return rows.map((r) => String(r.id));
}

/**
 * BladeX's `tree?tenantId=` (departments, roles … of a tenant, for the platform administrator's forms of that
 * tenant): the platform administrator reads as that tenant; anyone else reads their own, whatever they send.
 */
export function asTenant(user: AuthUser, tenantId: unknown): AuthUser {
  return typeof tenantId === 'string' && /^[0-9]{6}$/.test(tenantId) && isPlatformAdministrator(user) ? { ...user, tenantId } : user;
}

/** The rows of a screen a caller may touch: its tenant, live rows, and its data scope (detail, update, remove). */
export function scoped(doc: ScreenDocument, q: any, user: AuthUser) {
  let out = q;
  if (doc.resource.tenantScoped !== false) out = out.where('tenant_id', '=', user.tenantId);
  if (doc.resource.softDelete !== false) out = out.where('is_deleted', '=', 0);
  const scope = dataScopeCondition(doc, dataScopeOf(doc, user));
  if (scope) out = out.where(scope);
  return out;
}

/** One record of the screen (readable fields), or 404. */
export async function loadRecord(db: DB, doc: ScreenDocument, id: string, user: AuthUser, fields = readableFields(doc)): Promise<Record<string, unknown>> {
  if (!isId(id)) throw notFound();
  const q = scoped(doc, db.selectFrom(doc.resource.table).select(fields.map((f) => sql.ref(f.column).as(f.field))).where('id', '=', id), user);
  const row = await q.executeTakeFirst();
  if (!row) throw notFound();
  return row as Record<string, unknown>;
}

/** The record a detail request names: `id=`, or for a document keyed by another field `<keyField>=` (or that key in `id`). */
async function loadRequested(db: DB, doc: ScreenDocument, query: Record<string, unknown>, user: AuthUser): Promise<Record<string, unknown>> {
  const keyField = recordKeyField(doc);
  const id = String(query.id ?? '');
  if (keyField === 'id') return loadRecord(db, doc, id, user);
  const key = String(query[keyField] ?? id);
  if (!KEY_VALUE.test(key)) throw notFound();
  const fields = readableFields(doc);
  const byKey = db.selectFrom(doc.resource.table).select(fields.map((f) => sql.ref(f.column).as(f.field)));
  const q = query[keyField] !== undefined ? byKey.where(sql.ref(treeColumn(keyField)), '=', key) : byKey.where((eb: any) => eb.or([eb(sql.ref(treeColumn(keyField)), '=', key), ...(isId(key) ? [eb('id', '=', key)] : [])]));
  const row = await scoped(doc, q, user).executeTakeFirst();
  if (!row) throw notFound();
  return row as Record<string, unknown>;
}

/** Runs fn in a transaction, or in the caller's when db already is one (a module's endpoint reusing saveRecord). */
export function inTransaction<T>(db: DB, fn: (trx: DB) => Promise<T>): Promise<T> {
  return db.isTransaction ? fn(db) : db.transaction().execute((trx) => fn(trx));
}

export async function crudPlugin(app: FastifyInstance): Promise<void> {
  // resource.routes module: the module owning the records serves the screen (no generic route beside its own)
  for (const doc of app.ctx.docs.all) if (doc.resource.routes !== 'module') mountDocument(app, doc);
  app.addHook('onReady', async () => {
    await sealStoredSecrets(app);
  });
}

function mountDocument(app: FastifyInstance, doc: ScreenDocument): void {
  const api = doc.resource.api;
  const prefix = doc.resource.permissionPrefix;
  const hooks = () => app.ctx.hooks.get(doc.id) ?? [];
  const has = (method: 'GET' | 'POST', url: string) => app.hasRoute({ method, url });
  const offered = builtins(doc);
  const tree = treeOf(doc);
  /**
   * A generic route at its URL and at the document's aliases of it (BladeX jobs: page, get, add/update, del/{id}),
   * each skipped when a module serves that URL itself. An alias with a path parameter (`del/:id`) takes the ids from it.
   */
  const mount = (method: 'GET' | 'POST', kind: 'list' | 'detail' | 'submit' | 'remove', handler: (req: FastifyRequest) => Promise<unknown>) => {
    const alias = doc.resource.aliases?.[kind];
    const urls = [`${api}/${kind}`, ...(alias === undefined ? [] : [alias].flat().map((a) => `${api}/${a}`))];
    for (const url of urls) {
      if (has(method, url)) continue;
      const opts = url.includes('/:') ? {} : documentRoute(doc, kind);
      if (method === 'GET') app.get(url, opts, handler);
      else app.post(url, opts, handler);
    }
  };

  const afterRead = async (req: FastifyRequest, rows: Array<Record<string, unknown>>, kind: 'list' | 'detail') => {
    for (const h of hooks()) await h.afterRead?.({ rows, req, doc, db: app.ctx.db(), kind });
  };
  /** Serialized records with their lookup labels (x-lookup), then the afterRead hooks. */
  const readRecords = async (req: FastifyRequest, user: AuthUser, rows: Array<Record<string, unknown>>, kind: 'list' | 'detail') => {
    const serialize = recordSerializer(doc);
    const records = rows.map((r) => serialize(r));
    await addLookups(app.ctx.db(), app.ctx.docs, doc, records, user);
    await afterRead(req, records, kind);
    return records;
  };

  mount('GET', 'list', async (req) => {
      const user = await requirePermission(app, req, prefix);
      const db = app.ctx.db();
      const query = (req.query ?? {}) as Record<string, unknown>;
      const { conditions, sort } = parseListRequest(doc, query, app.ctx.docs);
      if (tree && !tree.pagedList) {
        // The whole tree of records (BladeX VO tree: fields + children + parentName), search conditions applied.
        const rows = await treeRows(db, doc, tree, user, conditions);
        const records = await readRecords(req, user, rows, 'list');
        await addParentNames(db, doc, tree, user, records);
        return ok(buildForest(records, (r) => String(r[tree.keyField] ?? ''), (r) => String(r[tree.parentField] ?? '')));
      }
      if (tree) {
        const parent = query[tree.parentField];
        if (typeof parent === 'string' && parent !== '') {
          if (!KEY_VALUE.test(parent)) throw fail('error.search', { detail: tree.parentField });
          conditions.push({ field: tree.parentField, op: '=', value: parent });
        }
      }
      const { current, size } = pageParams(doc, query);
      const { rows, count } = await listPage(db, doc, { conditions, sort, tenantId: user.tenantId, scope: dataScopeOf(doc, user), limit: size, offset: (current - 1) * size });
      const records = await readRecords(req, user, rows as Array<Record<string, unknown>>, 'list');
      if (tree) await addParentNames(db, doc, tree, user, records);
      return ok(pageEnvelope(records, count, current, size));
    });

  mount('GET', 'detail', async (req) => {
      const user = await requirePermission(app, req, prefix);
      const db = app.ctx.db();
      const [row] = await readRecords(req, user, [await loadRequested(db, doc, (req.query ?? {}) as Record<string, unknown>, user)], 'detail');
      if (tree) await addParentNames(db, doc, tree, user, [row]);
      return ok(row);
    });

  if (tree) mountTree(app, doc, tree, readRecords);

  mount('POST', 'submit', async (req) => {
      const body = req.body;
      if (!body || typeof body !== 'object' || Array.isArray(body)) throw fail('error.badRequest');
      const b = body as Record<string, unknown>;
      const idRaw = b.id === undefined || b.id === null || b.id === '' ? undefined : String(b.id);
      const mode = idRaw ? 'edit' : 'add';
      refuseReadOnly(app, req, doc, offered, mode);
      const user = await requirePermission(app, req, `${prefix}_${mode}`);
      refuseSharedWrite(doc, user);
      const db = app.ctx.db();
      return ok(await saveRecord(app, db, doc, mode, b, idRaw, user, req));
    });

  mount('POST', 'remove', async (req) => {
      refuseReadOnly(app, req, doc, offered, 'delete');
      const user = await requirePermission(app, req, `${prefix}_delete`);
      refuseSharedWrite(doc, user);
      let removedIds: string[] = [];
      const n = await inTransaction(app.ctx.db(), async (db) => {
        const ids = (removedIds = await removeIds(db, doc, req, user));
        // the module's own refusal (naming what is attached) first, then the generic one for children
        for (const h of hooks()) await h.beforeRemove?.({ ids, req, doc, db });
        if (tree) await refuseParentsRemoval(db, doc, tree, user, ids);
        if (doc.resource.softDelete === false) {
          const removed = (await scoped(doc, db.deleteFrom(doc.resource.table).where('id', 'in', ids), user).executeTakeFirst()).numDeletedRows;
          if (removed === 0n) throw notFound();
          return removed;
        }
        const q = db
          .updateTable(doc.resource.table)
          .set({ is_deleted: 1, ...(doc.resource.audit === false ? {} : { update_user: user.userId, update_time: localDateTime(app.ctx.config.appTimezone) }) })
          .where('id', 'in', ids);
        const removed = (await scoped(doc, q, user).executeTakeFirst()).numUpdatedRows;
        if (removed === 0n) throw notFound(); // inside the transaction: what the hooks did is undone
        return removed;
      });
      for (const h of hooks()) await h.afterRemove?.({ ids: removedIds, req, doc, db: app.ctx.db() });
      return ok({ removed: Number(n) });
    });
}

type ReadRecords = (req: FastifyRequest, user: AuthUser, rows: Array<Record<string, unknown>>, kind: 'list' | 'detail') => Promise<Array<Record<string, unknown>>>;

/**
 * The tree endpoints of a document with resource.tree (each skipped when a module registered it first):
 * `tree` (TreeNode forest), `lazy-list?<parentField>=` (records under that parent with hasChildren) and
 * `lazy-tree?<parentField>=` (TreeNodes under that parent with hasChildren); without the parent: the roots.
 */
function mountTree(app: FastifyInstance, doc: ScreenDocument, tree: TreeInfo, readRecords: ReadRecords): void {
  const api = doc.resource.api;
  const prefix = doc.resource.permissionPrefix;
  const has = (url: string) => app.hasRoute({ method: 'GET', url });
  const parentOf = (query: Record<string, unknown>): string => {
    const v = query[tree.parentField];
    if (v === undefined || v === null || v === '') return tree.rootValue;
    if (typeof v !== 'string' || !KEY_VALUE.test(v)) throw fail('error.search', { detail: tree.parentField });
    return v;
  };
  const children = async (req: FastifyRequest) => {
    const user = await requirePermission(app, req, prefix);
    const query = (req.query ?? {}) as Record<string, unknown>;
    const parent = parentOf(query);
    const { conditions } = parseListRequest(doc, { ...query, [tree.parentField]: undefined }, app.ctx.docs);
    const db = app.ctx.db();
    const rows = await treeRows(db, doc, tree, user, conditions, (q) => q.where(sql.ref(treeColumn(tree.parentField)), '=', parent));
    const withKids = await keysWithChildren(db, doc, tree, user, rows.map((r) => String(r[tree.keyField] ?? '')));
    return { user, rows, withKids };
  };

  if (!has(`${api}/tree`))
    app.get(`${api}/tree`, documentRoute(doc, 'tree'), async (req) => {
      const user = await requirePermission(app, req, prefix);
      const query = (req.query ?? {}) as Record<string, unknown>;
      const { conditions } = parseListRequest(doc, { ...query, tenantId: undefined }, app.ctx.docs);
      return ok(nodeForest(await treeRows(app.ctx.db(), doc, tree, asTenant(user, query.tenantId), conditions), tree));
    });

  if (!has(`${api}/lazy-list`))
    app.get(`${api}/lazy-list`, documentRoute(doc, 'lazy-list'), async (req) => {
      const { user, rows, withKids } = await children(req);
      const records = await readRecords(req, user, rows, 'list');
      for (const r of records) r.hasChildren = withKids.has(String(r[tree.keyField] ?? ''));
      await addParentNames(app.ctx.db(), doc, tree, user, records);
      return ok(records);
    });

  if (!has(`${api}/lazy-tree`))
    app.get(`${api}/lazy-tree`, documentRoute(doc, 'lazy-tree'), async (req) => {
      const { rows, withKids } = await children(req);
      return ok(rows.map((r) => treeNode(r, tree, withKids.has(String(r[tree.keyField] ?? '')))));
    });
}

/** `parentName`: the label of each record's parent (none for roots). */
async function addParentNames(db: DB, doc: ScreenDocument, tree: TreeInfo, user: AuthUser, records: Array<Record<string, unknown>>): Promise<void> {
  const known = new Map(records.map((r) => [String(r[tree.keyField] ?? ''), r[tree.labelField]]));
  const missing = records.map((r) => String(r[tree.parentField] ?? '')).filter((k) => k && k !== tree.rootValue && !known.has(k));
  for (const [k, l] of await labelsByKey(db, doc, tree, user, missing)) known.set(k, l);
  for (const r of records) {
    const p = String(r[tree.parentField] ?? '');
    if (p && p !== tree.rootValue && known.has(p)) r.parentName = known.get(p);
  }
}

/**
 * Records not owned by a tenant (menus, system dictionaries, clients, scopes, tenants) are shared by every tenant:
 * only callers of the platform tenant 000000 change them, whatever codes another tenant's roles were granted.
 */
export function refuseSharedWrite(doc: ScreenDocument, user: AuthUser): void {
  if (doc.resource.tenantScoped === false && user.tenantId !== PLATFORM_TENANT) throw new HttpError(403, 'error.sharedRecords');
}

/**
 * A view-only screen (resource.readOnlyApi) refuses submit and remove with its own message — the
 * `<section>.msg.readOnly` key of the document's locale section when there is one (订单为只读数据…),
 * else error.readOnlyApi (该页面只读); a screen that only lacks the built-in (employees: no add/edit/delete)
 * names the operation it does not offer. Both 403 (refused, not a login problem).
 */
function refuseReadOnly(app: FastifyInstance, req: FastifyRequest, doc: ScreenDocument, offered: Set<string>, op: 'add' | 'edit' | 'delete'): void {
  if (doc.resource.readOnlyApi) {
    const own = `${doc.title.split('.')[0]}.msg.readOnly`;
    throw new HttpError(403, app.ctx.i18n.has(req.lang, own) ? own : 'error.readOnlyApi');
  }
  if (!offered.has(op)) throw new HttpError(403, 'error.builtinNotOffered', { action: app.ctx.i18n.t(req.lang, `common.action.${op}`) });
}

/**
 * Validate and write one submit (add or edit), in one transaction with the beforeSave/afterSave hooks (they get
 * it as `db`; an HttpError they throw refuses the write and nothing is written). Exported so a module's own
 * endpoint can reuse it (inside its own transaction when `db` is one).
 */
export async function saveRecord(
  app: FastifyInstance,
  db: DB,
  doc: ScreenDocument,
  mode: 'add' | 'edit',
  body: Record<string, unknown>,
  id: string | undefined,
  user: AuthUser,
  req: FastifyRequest,
): Promise<{ id: string }> {
  return inTransaction(db, (trx) => writeRecord(app, trx, doc, mode, body, id, user, req));
}

/**
 * One submit inside the caller's transaction `db` (saveRecord opens one; an import writes all its rows in one).
 * `origin` tells the hooks where the values come from (an import carries no password, say).
 */
export async function writeRecord(
  app: FastifyInstance,
  db: DB,
  doc: ScreenDocument,
  mode: 'add' | 'edit',
  body: Record<string, unknown>,
  id: string | undefined,
  user: AuthUser,
  req: FastifyRequest,
  origin: SaveOrigin = 'submit',
): Promise<{ id: string }> {
  const props = allProperties(doc.schema);
  const stored = new Map(storedFields(doc));
  let existing: Record<string, unknown> | undefined;
  if (mode === 'edit') {
    const allFields = [...stored.keys()].filter((f) => f !== 'id').map((f) => ({ field: f, column: toSnake(f) }));
    existing = await loadRecord(db, doc, id!, user, [{ field: 'id', column: 'id' }, ...allFields]);
  }
  const { values, cleared } = pickEditable(doc, mode, body);
  const { i18n } = app.ctx;
  // BladeX updateById: an edit changes only the fields the body carries, the others keep their stored values;
  // the rules see the record as it will be saved (a stored value the body leaves alone is not re-judged).
  const kept = mode === 'edit' ? pickEditable(doc, 'edit', existing!).values : {};
  for (const f of [...Object.keys(values), ...cleared]) delete kept[f];
  const candidate = { ...kept, ...values };
  const errors = validateValues(doc, mode, candidate, i18n, req.lang).filter((e) => !(e.field in kept));
  errors.push(...equalsErrors(doc, candidate, values, i18n, req.lang), ...joinedErrors(doc, values, i18n, req.lang));
  const checked = Object.fromEntries(Object.entries(values).filter(([f]) => !errors.some((e) => e.field === f)));
  errors.push(...(await dictionaryErrors(db, doc, checked, user.tenantId, i18n, req.lang)));
  errors.push(...(await lookupErrors(db, app.ctx.docs, doc, checked, user, i18n, req.lang)));
  if (errors.length) throw new HttpError(400, 'error.validation', {}, errors.map(({ field, message }) => ({ field, message })), errors[0].message);

  for (const f of cleared) values[f] = null;
  await refuseDuplicates(db, doc, { ...(existing ?? {}), ...values }, id, user, i18n, req.lang);
  if (mode === 'add') {
    for (const [f, s] of stored) if (values[f] === undefined && s.default !== undefined) values[f] = s.default;
  }
  // Fields of a failed condition (e.g. enableTime when enableFlag ≠ 3) are cleared.
  const merged = { ...(existing ?? {}), ...values };
  for (const [f, cond] of Object.entries(conditionalFields(doc.schema))) {
    if (!conditionHolds(cond, merged)) values[f] = null;
  }
  for (const [f, s] of stored) {
    if (s['x-secret']) {
      // sealed at rest; an edit that leaves it empty keeps the stored one (it is never sent to the form)
      if (typeof values[f] === 'string' && values[f] !== '') values[f] = app.ctx.secrets.seal(values[f] as string);
      else if (mode === 'edit') delete values[f];
    }
    if (s['x-password'] && typeof values[f] === 'string' && values[f] !== '') {
      const secret = values[f] as string;
      values[f] = await hashPassword(s['x-digest'] === 'md5' ? createHash('md5').update(secret).digest('hex') : secret);
    }
    const gen = s['x-generated'];
    if (mode === 'add' && typeof gen === 'string' && gen.startsWith('serial:')) values[f] = await nextSerial(db, gen.slice(7), app.ctx.config.appTimezone);
  }
  const tree = treeOf(doc);
  const moveSubtree = tree ? await prepareTreeWrite(db, doc, tree, user, mode, values, existing) : undefined;
  for (const h of app.ctx.hooks.get(doc.id) ?? []) await h.beforeSave?.({ mode, values, body, existing, req, doc, db, origin });

  const row: Record<string, unknown> = {};
  for (const [f, v] of Object.entries(values)) {
    if (!stored.has(f) || v === undefined) continue;
    row[toSnake(f)] = columnValue(props[f], v);
  }
  const now = localDateTime(app.ctx.config.appTimezone);
  const audit = doc.resource.audit !== false;
  /**
   * A concurrent write took the unique value between the check and this statement: the same 409, marked as
   * coming from a failed statement (the transaction can take no other; an import must not go on with it).
   */
  const raceLost = (e: unknown): never => {
    const dup = duplicateFromViolation(doc, e, i18n, req.lang);
    throw dup ? Object.assign(dup, { statementFailed: true }) : e;
  };
  let savedId: string;
  if (mode === 'add') {
    savedId = newId();
    Object.assign(row, { id: savedId, is_deleted: 0 });
    if (doc.resource.tenantScoped !== false) row.tenant_id = user.tenantId;
    if (audit) Object.assign(row, { create_user: user.userId, create_dept: user.deptIds[0] ?? null, create_time: now, update_user: user.userId, update_time: now });
    await db.insertInto(doc.resource.table).values(row).execute().catch(raceLost);
  } else {
    savedId = id!;
    if (audit) Object.assign(row, { update_user: user.userId, update_time: now });
    if (Object.keys(row).length) {
      const q = scoped(doc, db.updateTable(doc.resource.table).set(row).where('id', '=', id!), user);
      const r = await q.executeTakeFirst().catch(raceLost);
      if (r.numUpdatedRows === 0n) throw notFound();
    }
    await moveSubtree?.();
  }
  for (const h of app.ctx.hooks.get(doc.id) ?? []) await h.afterSave?.({ mode, id: savedId, values, existing, req, doc, db });
  return { id: savedId };
}

/**
 * Interim: the parts of the grown format (issue 9 contract in src/shared/document.ts) that the system screens
 * need and the generic CRUD (src/server/crud) does not serve yet, mounted by the system modules for their own
 * documents only: submit with partial edits, `x-unique` (409 naming the field), afterSave, and `resource.tree`
 * (ancestors kept on a move, a parent that is the record or below it refused) inside the write's transaction;
 * remove with beforeRemove inside the transaction; and the tree reads (`list` as a tree with children and
 * parentName, `lazy-list`, `lazy-tree`, `tree`). Registered before the generic plugin, so these win; once the
 * format serves the same contract generically, a module drops its call and nothing else changes.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import type { FieldSchema, ScreenDocument } from '../../../shared/document.js';
import { allProperties, toSnake } from '../../../shared/fields.js';
import { requirePermission, type AuthUser } from '../../context.js';
import { loadRecord, parseListRequest, readableFields, recordSerializer, saveRecord, scoped } from '../../crud/index.js';
import type { DB } from '../../db/index.js';
import { HttpError, fail, notFound, ok } from '../../lib/http.js';
import { isId } from '../../lib/ids.js';
import { localDateTime } from '../../lib/time.js';

type Rec = Record<string, unknown>;

function uniqueErrors(app: FastifyInstance, req: FastifyRequest, doc: ScreenDocument) {
  return async (db: DB, values: Rec, id: string | undefined, user: AuthUser) => {
    const props = allProperties(doc.schema);
    for (const [f, s] of Object.entries(props) as Array<[string, FieldSchema]>) {
      const rule = s['x-unique'];
      if (!rule || values[f] === undefined || values[f] === null || values[f] === '') continue;
      let q = scoped(doc, db.selectFrom(doc.resource.table).select('id').where(toSnake(f), '=', values[f] as string), user);
      if (Array.isArray(rule)) for (const other of rule) q = q.where(toSnake(other), '=', values[other] as string);
      if (id) q = q.where('id', '<>', id);
      if (await q.executeTakeFirst()) {
        const key = ((doc.uiSchema?.[f] as { 'ui:messages'?: Record<string, string> } | undefined)?.['ui:messages']?.unique) ?? 'common.validation.unique';
        const message = app.ctx.i18n.t(req.lang, key, { field: s.title ? app.ctx.i18n.t(req.lang, s.title) : f });
        throw new HttpError(409, key, {}, [{ field: f, message }], message);
      }
    }
  };
}

/** Ancestors of a record placed under `parent` (rootValue for a root), refusing itself or a descendant. */
async function placeInTree(db: DB, doc: ScreenDocument, user: AuthUser, id: string | undefined, parent: string): Promise<string | undefined> {
  const tree = doc.resource.tree!;
  const root = tree.rootValue ?? '0';
  if (parent === root) return root;
  if (id && parent === id) throw fail('system.tree.parentLoop');
  const row = await scoped(doc, db.selectFrom(doc.resource.table).select(['id', ...(tree.ancestorsField ? [toSnake(tree.ancestorsField)] : [])]).where('id', '=', parent), user).executeTakeFirst();
  if (!row) throw fail('system.tree.parentMissing');
  if (!tree.ancestorsField) return undefined;
  const anc = String((row as Rec)[toSnake(tree.ancestorsField)] ?? root);
  if (id && anc.split(',').includes(id)) throw fail('system.tree.parentLoop');
  return `${anc},${parent}`;
}

export function mountScreenWrites(app: FastifyInstance, docId: string): void {
  const doc = app.ctx.docs.get(docId);
  if (!doc) return;
  const api = doc.resource.api;
  const prefix = doc.resource.permissionPrefix;
  const hooks = () => app.ctx.hooks.get(doc.id) ?? [];
  const tree = doc.resource.tree;

  app.post(`${api}/submit`, async (req) => {
    const body = req.body;
    if (!body || typeof body !== 'object' || Array.isArray(body)) throw fail('error.badRequest');
    const b = { ...(body as Rec) };
    const idRaw = b.id === undefined || b.id === null || b.id === '' ? undefined : String(b.id);
    const mode = idRaw ? 'edit' : 'add';
    const user = await requirePermission(app, req, `${prefix}_${mode}`);
    if (idRaw && !isId(idRaw)) throw notFound();
    const saved = await app.ctx.db().transaction().execute(async (trx) => {
      let existing: Rec | undefined;
      let input = b;
      if (mode === 'edit') {
        // BladeX updateById: an edit changes the fields it carries, the others keep their stored values
        existing = await loadRecord(trx, doc, idRaw!, user);
        input = { ...existing, ...b };
      }
      await uniqueErrors(app, req, doc)(trx, input, idRaw, user);
      if (tree) {
        const parent = String(input[tree.parentField] ?? tree.rootValue ?? '0');
        const ancestors = await placeInTree(trx, doc, user, idRaw, parent);
        if (tree.ancestorsField && ancestors !== undefined) input[tree.ancestorsField] = ancestors;
      }
      const { id } = await saveRecord(app, trx, doc, mode, input, idRaw, user, req);
      // ancestors is read-only to clients: written here, not through the submitted values
      if (tree?.ancestorsField && input[tree.ancestorsField] !== undefined)
        await trx.updateTable(doc.resource.table).set({ [toSnake(tree.ancestorsField)]: String(input[tree.ancestorsField]) }).where('id', '=', id).execute();
      if (tree?.ancestorsField && existing && input[tree.ancestorsField] !== existing[tree.ancestorsField]) {
        // the subtree follows: every descendant's ancestors start with the moved record's new path
        const col = toSnake(tree.ancestorsField);
        const oldPath = `${existing[tree.ancestorsField]},${id}`;
        const newPath = `${input[tree.ancestorsField]},${id}`;
        await scoped(doc, trx.updateTable(doc.resource.table).set({ [col]: sql`${newPath} || substr(${sql.ref(col)}, ${oldPath.length + 1})` }).where(col, 'like', `${oldPath}%`), user).execute();
      }
      for (const h of hooks()) await h.afterSave?.({ mode, id, values: input, existing, req, doc, db: trx });
      return { id };
    });
    return ok(saved);
  });

  app.post(`${api}/remove`, async (req) => {
    const user = await requirePermission(app, req, `${prefix}_delete`);
    const q = (req.query ?? {}) as Rec;
    const bb = req.body && typeof req.body === 'object' ? (req.body as Rec) : {};
    const raw = q.ids ?? bb.ids ?? q.id ?? bb.id;
    const ids = [...new Set(String(raw ?? '').split(',').map((s) => s.trim()).filter(Boolean))];
    if (!ids.length || ids.length > 1000 || ids.some((s) => !isId(s))) throw fail('error.invalidIds');
    const n = await app.ctx.db().transaction().execute(async (trx) => {
      for (const h of hooks()) await h.beforeRemove?.({ ids, req, doc, db: trx });
      if (tree) {
        const kids = await scoped(doc, trx.selectFrom(doc.resource.table).select('id').where(toSnake(tree.parentField), 'in', ids).where('id', 'not in', ids), user).executeTakeFirst();
        if (kids) throw fail('system.tree.hasChildren');
      }
      const set: Rec = { is_deleted: 1 };
      if (doc.resource.audit !== false) Object.assign(set, { update_user: user.userId, update_time: localDateTime(app.ctx.config.appTimezone) });
      return (await scoped(doc, trx.updateTable(doc.resource.table).set(set).where('id', 'in', ids), user).executeTakeFirst()).numUpdatedRows;
    });
    if (n === 0n) throw notFound();
    return ok({ removed: Number(n) });
  });
}

/** The tree reads of a tree document keyed by id: list (tree), lazy-list, lazy-tree, tree. */
export function mountTreeReads(app: FastifyInstance, docId: string, only: Array<'list' | 'lazy-list' | 'lazy-tree' | 'tree'> = ['list', 'lazy-list', 'lazy-tree', 'tree']): void {
  const doc = app.ctx.docs.get(docId);
  const tree = doc?.resource.tree;
  if (!doc || !tree) return;
  const api = doc.resource.api;
  const root = tree.rootValue ?? '0';
  const parentCol = toSnake(tree.parentField);
  const sortCol = toSnake(tree.sortField ?? 'sort');
  const fields = readableFields(doc);
  const serialize = recordSerializer(doc);
  const label = (r: Rec) => String(r[tree.labelField] ?? '');

  const rows = async (req: FastifyRequest, extra?: (q: any) => any): Promise<Rec[]> => {
    const user = await requirePermission(app, req, doc.resource.permissionPrefix);
    let q = scoped(doc, app.ctx.db().selectFrom(doc.resource.table).select(fields.map((f) => sql.ref(f.column).as(f.field))), user);
    if (extra) q = extra(q);
    const out = (await q.orderBy(sortCol).orderBy('id').execute()) as Rec[];
    return out.map((r) => serialize(r));
  };
  const parentParam = (req: FastifyRequest) => {
    const v = ((req.query ?? {}) as Rec)[tree.parentField];
    const p = v === undefined || v === '' ? root : String(v);
    if (p !== root && !isId(p)) throw fail('error.badRequest');
    return p;
  };
  const withKids = async (req: FastifyRequest, list: Rec[]) => {
    if (!list.length) return new Set<string>();
    const user = await requirePermission(app, req, doc.resource.permissionPrefix);
    const kids = await scoped(doc, app.ctx.db().selectFrom(doc.resource.table).select(sql.ref(parentCol).as('p')).distinct().where(parentCol, 'in', list.map((r) => String(r.id))), user).execute();
    return new Set((kids as Rec[]).map((k) => String(k.p)));
  };
  const node = (r: Rec) => ({ id: String(r.id), parentId: String(r[tree.parentField]), title: label(r), key: String(r.id), value: String(r.id) });
  const forest = <T extends { id: string; parentId: string; children?: T[] }>(items: T[]): T[] => {
    const byId = new Map(items.map((n) => [n.id, n]));
    const roots: T[] = [];
    for (const n of items) {
      const p = byId.get(n.parentId);
      if (p && p !== n) (p.children ??= []).push(n);
      else roots.push(n);
    }
    return roots;
  };

  if (only.includes('list'))
    app.get(`${api}/list`, async (req) => {
      const { conditions } = parseListRequest(doc, (req.query ?? {}) as Rec);
      const all = await rows(req);
      const names = new Map(all.map((r) => [String(r.id), label(r)]));
      for (const r of all) r.parentName = names.get(String(r[tree.parentField])) ?? '';
      if (conditions.length) {
        // a search lists the matching records (flat, each with its parent's name)
        const matches = await rows(req, (q) => {
          let out = q;
          for (const c of conditions) {
            const ref = sql.ref(toSnake(c.field));
            const v = String(c.value);
            out = out.where(c.op === 'contains' ? sql`${ref} like ${`%${v.replace(/[\\%_]/g, (m) => `\\${m}`)}%`}` : c.op === 'prefix' ? sql`${ref} like ${`${v}%`}` : sql`${ref} ${sql.raw(c.op)} ${c.value}`);
          }
          return out;
        });
        return ok(matches.map((r) => ({ ...r, parentName: names.get(String(r[tree.parentField])) ?? '' })));
      }
      return ok(forest(all.map((r) => ({ ...r, id: String(r.id), parentId: String(r[tree.parentField]) })) as any));
    });
  if (only.includes('lazy-list'))
    app.get(`${api}/lazy-list`, async (req) => {
      const parent = parentParam(req);
      const list = await rows(req, (q) => q.where(parentCol, '=', parent));
      const kids = await withKids(req, list);
      return ok(list.map((r) => ({ ...r, hasChildren: kids.has(String(r.id)) })));
    });
  if (only.includes('lazy-tree'))
    app.get(`${api}/lazy-tree`, async (req) => {
      const parent = parentParam(req);
      const list = await rows(req, (q) => q.where(parentCol, '=', parent));
      const kids = await withKids(req, list);
      return ok(list.map((r) => ({ ...node(r), hasChildren: kids.has(String(r.id)) })));
    });
  if (only.includes('tree'))
    app.get(`${api}/tree`, async (req) => ok(forest((await rows(req)).map(node) as Array<ReturnType<typeof node> & { children?: any[] }>)));
}

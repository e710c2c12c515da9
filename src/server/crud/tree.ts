/**
 * Records that form a tree (resource.tree): BladeX's tree endpoints (blade-contract §6) and the rules a write
 * keeps — the parent exists, is not the record itself nor one of its descendants, `ancestorsField` is right for
 * the record and its whole subtree, and a record with live children is not removed.
 *
 * Keys: a node is named by its `keyField` (default `id`; regions: `code`), its parent by `parentField` holding
 * the parent's key, the roots by `rootValue` (default "0"). Everything is tenant scoped and skips soft-deleted
 * rows like the lists.
 */
import { sql } from 'kysely';
import type { ScreenDocument, TreeDef } from '../../shared/document.js';
import { toSnake } from '../../shared/fields.js';
import type { Condition } from '../../shared/search.js';
import type { AuthUser } from '../context.js';
import type { DB } from '../db/index.js';
import { HttpError } from '../lib/http.js';
import { buildListQuery, dataScopeOf, readableFields } from './query.js';

export interface TreeInfo extends Required<Pick<TreeDef, 'parentField' | 'labelField' | 'keyField' | 'rootValue'>> {
  ancestorsField?: string;
  sortField?: string;
  pagedList: boolean;
}

/** The tree definition of a document with its defaults, or undefined for a flat list. */
export function treeOf(doc: ScreenDocument): TreeInfo | undefined {
  const t = doc.resource.tree;
  if (!t) return undefined;
  return {
    parentField: t.parentField,
    labelField: t.labelField,
    keyField: t.keyField ?? doc.resource.keyField ?? 'id',
    rootValue: t.rootValue ?? '0',
    ancestorsField: t.ancestorsField,
    sortField: t.sortField,
    pagedList: !!t.pagedList,
  };
}

/** The field the wire names a record by in detail/remove besides `id` (resource.keyField, else the tree's). */
export function recordKeyField(doc: ScreenDocument): string {
  return doc.resource.keyField ?? doc.resource.tree?.keyField ?? 'id';
}

export const column = (field: string) => (field === 'id' ? 'id' : toSnake(field));

/** Sibling order: sortField, else the document's default sort (id breaks ties in buildListQuery). */
export function treeSort(doc: ScreenDocument, tree: TreeInfo): Array<{ field: string; dir: 'asc' | 'desc' }> {
  return tree.sortField ? [{ field: tree.sortField, dir: 'asc' }] : doc.list.defaultSort ?? [];
}

const str = (v: unknown) => (v === null || v === undefined ? '' : String(v));

/** Rows of the tree matching the conditions (all of them without conditions), in sibling order. */
export async function treeRows(db: DB, doc: ScreenDocument, tree: TreeInfo, user: AuthUser, conditions: Condition[], extra?: (q: any) => any): Promise<Array<Record<string, unknown>>> {
  const fields = withTreeFields(readableFields(doc), tree);
  let q = buildListQuery(db, doc, { conditions, sort: treeSort(doc, tree), tenantId: user.tenantId, scope: dataScopeOf(doc, user), fields });
  if (extra) q = extra(q);
  // The tie-break of buildListQuery is id desc; siblings without a sort field read better oldest first.
  return (await q.execute()) as Array<Record<string, unknown>>;
}

function withTreeFields(fields: Array<{ field: string; column: string }>, tree: TreeInfo) {
  const out = [...fields];
  for (const f of [tree.parentField, tree.labelField, tree.keyField]) if (!out.some((x) => x.field === f)) out.push({ field: f, column: column(f) });
  return out;
}

/** Keys (of the given parents) that have at least one live child, in one query. */
export async function keysWithChildren(db: DB, doc: ScreenDocument, tree: TreeInfo, user: AuthUser, keys: string[]): Promise<Set<string>> {
  if (!keys.length) return new Set();
  let q = db.selectFrom(doc.resource.table).select(sql.ref(column(tree.parentField)).as('p')).distinct().where(sql.ref(column(tree.parentField)), 'in', keys);
  if (doc.resource.tenantScoped !== false) q = q.where('tenant_id', '=', user.tenantId);
  if (doc.resource.softDelete !== false) q = q.where('is_deleted', '=', 0);
  return new Set(((await q.execute()) as Array<{ p: unknown }>).map((r) => str(r.p)));
}

/** Labels of the records with these keys (parentName of a page of records). */
export async function labelsByKey(db: DB, doc: ScreenDocument, tree: TreeInfo, user: AuthUser, keys: string[]): Promise<Map<string, unknown>> {
  const wanted = [...new Set(keys.filter((k) => k !== '' && k !== tree.rootValue))];
  if (!wanted.length) return new Map();
  let q = db
    .selectFrom(doc.resource.table)
    .select([sql.ref(column(tree.keyField)).as('k'), sql.ref(column(tree.labelField)).as('l')])
    .where(sql.ref(column(tree.keyField)), 'in', wanted);
  if (doc.resource.tenantScoped !== false) q = q.where('tenant_id', '=', user.tenantId);
  if (doc.resource.softDelete !== false) q = q.where('is_deleted', '=', 0);
  return new Map(((await q.execute()) as Array<{ k: unknown; l: unknown }>).map((r) => [str(r.k), r.l]));
}

export interface TreeNode {
  id: string;
  parentId: string;
  title: unknown;
  key: string;
  value: string;
  hasChildren: boolean;
  children?: TreeNode[];
}

/**
 * A forest from rows: each row under the row whose key its parent names; a row whose parent is not among the
 * rows (a root, or a search matched the child and not its parent) is a root of the forest. `children` is left
 * out when empty (BladeX's NON_EMPTY), `hasChildren` always says whether there are any.
 */
export function buildForest<T extends Record<string, unknown>>(rows: T[], keyOf: (r: T) => string, parentOf: (r: T) => string): Array<T & { children?: T[]; hasChildren: boolean }> {
  const nodes = rows.map((r) => ({ ...r, hasChildren: false }) as T & { children?: T[]; hasChildren: boolean });
  const byKey = new Map(nodes.map((n) => [keyOf(n), n]));
  const roots: typeof nodes = [];
  for (const n of nodes) {
    const p = byKey.get(parentOf(n));
    if (p && p !== n) {
      (p.children ??= []).push(n);
      p.hasChildren = true;
    } else roots.push(n);
  }
  return roots;
}

export function treeNode(row: Record<string, unknown>, tree: TreeInfo, hasChildren: boolean): TreeNode {
  const key = str(row[tree.keyField]);
  return { id: str(row.id), parentId: str(row[tree.parentField]) || tree.rootValue, title: row[tree.labelField], key, value: key, hasChildren };
}

/** TreeNode forest of rows (the `tree` endpoint). */
export function nodeForest(rows: Array<Record<string, unknown>>, tree: TreeInfo): TreeNode[] {
  const forest = buildForest(rows, (r) => str(r[tree.keyField]), (r) => str(r[tree.parentField]));
  const convert = (n: Record<string, unknown> & { children?: Array<Record<string, unknown>>; hasChildren: boolean }): TreeNode => {
    const node = treeNode(n, tree, n.hasChildren);
    if (n.children?.length) node.children = n.children.map((c) => convert(c as typeof n));
    return node;
  };
  return forest.map(convert);
}

/** The record whose key is `key` (tenant scoped, live), with key, parent and ancestors; undefined when none. */
export async function findNode(db: DB, doc: ScreenDocument, tree: TreeInfo, user: AuthUser, key: string): Promise<{ id: string; key: string; parent: string; ancestors?: string } | undefined> {
  const sel: any[] = [sql.ref('id').as('id'), sql.ref(column(tree.keyField)).as('k'), sql.ref(column(tree.parentField)).as('p')];
  if (tree.ancestorsField) sel.push(sql.ref(column(tree.ancestorsField)).as('a'));
  let q = db.selectFrom(doc.resource.table).select(sel).where(sql.ref(column(tree.keyField)), '=', key);
  if (doc.resource.tenantScoped !== false) q = q.where('tenant_id', '=', user.tenantId);
  if (doc.resource.softDelete !== false) q = q.where('is_deleted', '=', 0);
  const r = (await q.executeTakeFirst()) as { id: unknown; k: unknown; p: unknown; a?: unknown } | undefined;
  return r ? { id: str(r.id), key: str(r.k), parent: str(r.p) || tree.rootValue, ancestors: r.a === undefined ? undefined : str(r.a) } : undefined;
}

/**
 * The keys above a parent, root value first (`0,1123,1124` for a node under 1124): from the parent's own
 * ancestors field when the tree keeps one, else by walking up (a cycle or a missing link ends the walk).
 */
async function ancestorsOf(db: DB, doc: ScreenDocument, tree: TreeInfo, user: AuthUser, parent: { key: string; parent: string; ancestors?: string }): Promise<string[]> {
  if (tree.ancestorsField && parent.ancestors) return [...parent.ancestors.split(','), parent.key];
  const chain = [parent.key];
  let up = parent.parent;
  for (let depth = 0; depth < 100 && up !== tree.rootValue && !chain.includes(up); depth++) {
    chain.unshift(up);
    const n = await findNode(db, doc, tree, user, up);
    if (!n) break;
    up = n.parent;
  }
  return [tree.rootValue, ...chain];
}

/**
 * Before a tree record is written (inside the write's transaction): the parent (rootValue when absent on add)
 * must exist and, on edit, be neither the record nor one of its descendants; sets `ancestorsField`. Returns the
 * subtree update to run after the write when the record moved (or its key changed).
 */
export async function prepareTreeWrite(
  db: DB,
  doc: ScreenDocument,
  tree: TreeInfo,
  user: AuthUser,
  mode: 'add' | 'edit',
  values: Record<string, unknown>,
  existing: Record<string, unknown> | undefined,
): Promise<(() => Promise<void>) | undefined> {
  if (mode === 'add' && (values[tree.parentField] === undefined || values[tree.parentField] === null)) values[tree.parentField] = tree.rootValue;
  const merged = { ...(existing ?? {}), ...values };
  const parentKey = str(merged[tree.parentField]) || tree.rootValue;
  const ownKey = existing ? str(existing[tree.keyField]) : undefined;
  const newKey = tree.keyField === 'id' ? ownKey : str(merged[tree.keyField]);
  if (values[tree.parentField] === null) values[tree.parentField] = tree.rootValue;

  let ancestors: string[] = [tree.rootValue];
  if (parentKey !== tree.rootValue) {
    if (ownKey !== undefined && (parentKey === ownKey || parentKey === newKey)) throw new HttpError(400, 'error.tree.parentSelf');
    const parent = await findNode(db, doc, tree, user, parentKey);
    if (!parent) throw new HttpError(400, 'error.tree.parentNotFound', { value: parentKey });
    ancestors = await ancestorsOf(db, doc, tree, user, parent);
    if (ownKey !== undefined && ancestors.includes(ownKey)) throw new HttpError(400, 'error.tree.parentDescendant');
  }
  const ancestorsText = ancestors.join(',');
  if (tree.ancestorsField) values[tree.ancestorsField] = ancestorsText;
  if (mode === 'add' || !existing) return undefined;

  // A changed key would strand the children (they name the old key).
  if (newKey !== undefined && ownKey !== undefined && newKey !== ownKey && (await keysWithChildren(db, doc, tree, user, [ownKey])).size)
    throw new HttpError(400, 'error.tree.keyHasChildren');
  if (!tree.ancestorsField) return undefined;
  const oldPrefix = `${existing[tree.ancestorsField] ?? ''},${ownKey}`;
  const newPrefix = `${ancestorsText},${newKey ?? ownKey}`;
  if (oldPrefix === newPrefix) return undefined;
  const col = sql.ref(column(tree.ancestorsField));
  return async () => {
    // The whole subtree: ancestors equal to the old prefix (children) or starting with it followed by a comma.
    let q = db
      .updateTable(doc.resource.table)
      .set({ [column(tree.ancestorsField!)]: sql`${newPrefix} || substr(${col}, ${oldPrefix.length + 1})` })
      .where((eb: any) => eb.or([eb(col, '=', oldPrefix), eb(col, 'like', `${oldPrefix.replace(/[\\%_]/g, (c) => '\\' + c)},%`)]));
    if (doc.resource.tenantScoped !== false) q = q.where('tenant_id', '=', user.tenantId);
    if (doc.resource.softDelete !== false) q = q.where('is_deleted', '=', 0);
    await q.execute();
  };
}

/**
 * Refuse removing records that still have live children outside the removed set (BladeX: 请先删除子节点),
 * naming the first such record.
 */
export async function refuseParentsRemoval(db: DB, doc: ScreenDocument, tree: TreeInfo, user: AuthUser, ids: string[]): Promise<void> {
  let q = db
    .selectFrom(doc.resource.table)
    .select([sql.ref('id').as('id'), sql.ref(column(tree.keyField)).as('k'), sql.ref(column(tree.labelField)).as('l')])
    .where('id', 'in', ids);
  if (doc.resource.tenantScoped !== false) q = q.where('tenant_id', '=', user.tenantId);
  if (doc.resource.softDelete !== false) q = q.where('is_deleted', '=', 0);
  const rows = (await q.execute()) as Array<{ id: unknown; k: unknown; l: unknown }>;
  const keys = rows.map((r) => str(r.k));
  if (!keys.length) return;
  let c = db
    .selectFrom(doc.resource.table)
    .select(sql.ref(column(tree.parentField)).as('p'))
    .where(sql.ref(column(tree.parentField)), 'in', keys)
    .where('id', 'not in', ids);
  if (doc.resource.tenantScoped !== false) c = c.where('tenant_id', '=', user.tenantId);
  if (doc.resource.softDelete !== false) c = c.where('is_deleted', '=', 0);
  const child = (await c.limit(1).executeTakeFirst()) as { p: unknown } | undefined;
  if (!child) return;
  const parent = rows.find((r) => str(r.k) === str(child.p));
  throw new HttpError(400, 'error.tree.hasChildren', { name: str(parent?.l) });
}

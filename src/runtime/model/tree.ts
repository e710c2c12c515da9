/**
 * Tree documents as data (resource.tree): the key a child's parent field holds, the add-child dialog's
 * starting values, the rows of a lazily loaded tree (children fetched on expand), and expand-state helpers.
 */
import type { ScreenDocument, TreeDef } from '../../shared/document.js';

type Rec = Record<string, unknown>;

export function treeDef(doc: ScreenDocument): TreeDef | undefined {
  return doc.resource?.tree;
}

/** The key the wire names a record by in detail/remove (`resource.keyField`, default `id`; regions: `code`). */
export function wireKeyField(doc: ScreenDocument): string {
  return doc.resource?.keyField ?? 'id';
}

export function wireKey(doc: ScreenDocument, row: Rec): string {
  return String(row[wireKeyField(doc)] ?? row.id ?? '');
}

/** The value a record is referred to by (its key field: `id`, regions `code`). */
export function recordKey(doc: ScreenDocument, row: Rec): string {
  const f = doc.resource?.tree?.keyField ?? doc.resource?.keyField ?? 'id';
  return String(row[f] ?? row.id ?? '');
}

/** The add dialog of a child starts with its parent field holding the row's key. */
export function addChildInitial(doc: ScreenDocument, row: Rec): Rec {
  const t = treeDef(doc);
  return t ? { [t.parentField]: recordKey(doc, row) } : {};
}

/** A placeholder child that gives a not-yet-loaded parent its expand button. */
export const PLACEHOLDER = '__placeholder';

/**
 * The rows of a lazy tree: the roots, each with the children loaded so far (by parent key), a placeholder child
 * when it has children not loaded yet, none when it has no children.
 */
export function lazyTreeRows(doc: ScreenDocument, roots: Rec[], loaded: Record<string, Rec[]>): Rec[] {
  const attach = (r: Rec, depth: number): Rec => {
    const key = recordKey(doc, r);
    const kids = loaded[key];
    if (kids && depth < 64) return { ...r, children: kids.map((k) => attach(k, depth + 1)) };
    if (r.hasChildren === true || (Array.isArray(r.children) && r.children.length)) return { ...r, children: [{ id: `${key}${PLACEHOLDER}`, [PLACEHOLDER]: true }] };
    const { children: _drop, ...rest } = r;
    return rest;
  };
  return roots.map((r) => attach(r, 0));
}

/** The child rows of a record in a tree table (none: no expand button). */
export function childRows(r: Rec): Rec[] | undefined {
  return Array.isArray(r.children) && r.children.length ? (r.children as Rec[]) : undefined;
}

/** The row ids of every record of a tree that has loaded children (expand all). */
export function parentIds(rows: Rec[], key: (r: Rec) => string = (r) => String(r.id), out: string[] = []): string[] {
  for (const r of rows) {
    const kids = childRows(r);
    if (kids && !kids.every((k) => k[PLACEHOLDER])) {
      out.push(key(r));
      parentIds(kids, key, out);
    }
  }
  return out;
}

/** Whether a search has any value (a lazy tree then lists the matches instead of the roots). */
export function hasSearch(search: Rec): boolean {
  return Object.values(search).some((v) => v !== undefined && v !== null && v !== '' && !(Array.isArray(v) && !v.length));
}

/** Expanded keys after a toggle (kept across refreshes and searches). */
export function toggleKey(keys: string[], key: string, open: boolean): string[] {
  return open ? (keys.includes(key) ? keys : [...keys, key]) : keys.filter((k) => k !== key);
}

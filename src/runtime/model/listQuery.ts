/**
 * The list's state as a URL query, so Back and a shared link restore what the operator was looking at:
 * `page`, `size`, `sort` (`field` or `-field`) and one `s.<field>` per applied search (strings as they are,
 * ranges and numbers as JSON). A prefix keeps two lists of one page apart (master-detail: `d.`).
 */
export interface ListState {
  current: number;
  size: number;
  search: Record<string, unknown>;
  sorting: Array<{ id: string; desc: boolean }>;
}

/** The state a query string describes; what it leaves out comes from `base` (the document's defaults). */
export function stateFromQuery(query: string, base: ListState, prefix = '', pageSizes?: number[]): ListState {
  const q = new URLSearchParams(query);
  const out: ListState = { ...base };
  const page = Number(q.get(`${prefix}page`));
  if (Number.isInteger(page) && page >= 1) out.current = page;
  const size = Number(q.get(`${prefix}size`));
  if (Number.isInteger(size) && size >= 1 && (!pageSizes || pageSizes.includes(size))) out.size = size;
  const sort = q.get(`${prefix}sort`);
  if (sort && /^-?[A-Za-z_][A-Za-z0-9_]*$/.test(sort)) out.sorting = [{ id: sort.replace(/^-/, ''), desc: sort.startsWith('-') }];
  const search: Record<string, unknown> = {};
  let any = false;
  for (const [k, v] of q) {
    if (!k.startsWith(`${prefix}s.`)) continue;
    any = true;
    const field = k.slice(prefix.length + 2);
    if (v === '') continue;
    if (/^[[{"]/.test(v) || /^-?\d+(\.\d+)?$/.test(v)) {
      try {
        search[field] = JSON.parse(v);
        continue;
      } catch {
        /* not JSON: the text as typed */
      }
    }
    search[field] = v;
  }
  // `s.` keys present (even empty ones) replace the defaults: a cleared default search stays cleared.
  if (any) out.search = search;
  return out;
}

/**
 * The query string for a state, keeping the keys of other lists and anything else in `current`; keys equal to
 * the defaults are left out so the address stays short.
 */
export function queryFromState(current: string, state: ListState, base: ListState, prefix = ''): string {
  const q = new URLSearchParams(current);
  for (const k of [...q.keys()]) if (k === `${prefix}page` || k === `${prefix}size` || k === `${prefix}sort` || k.startsWith(`${prefix}s.`)) q.delete(k);
  if (state.current !== 1) q.set(`${prefix}page`, String(state.current));
  if (state.size !== base.size) q.set(`${prefix}size`, String(state.size));
  const s = state.sorting[0];
  const b = base.sorting[0];
  if (s && (!b || s.id !== b.id || s.desc !== b.desc)) q.set(`${prefix}sort`, `${s.desc ? '-' : ''}${s.id}`);
  if (JSON.stringify(state.search) !== JSON.stringify(base.search)) {
    const entries = Object.entries(state.search).filter(([, v]) => v !== undefined && v !== null && v !== '');
    for (const [k, v] of entries) q.set(`${prefix}s.${k}`, typeof v === 'string' && !/^[[{"]|^-?\d+(\.\d+)?$/.test(v) ? v : JSON.stringify(v));
    // Every search cleared while the document has defaults: one empty key says "no search" on the way back.
    if (!entries.length) for (const k of Object.keys(base.search)) q.set(`${prefix}s.${k}`, '');
  }
  const out = q.toString();
  return out ? `?${out}` : '';
}

/**
 * The page to show after a reply: an empty page past the first (the last row of the last page was deleted, or a
 * link names a page that no longer exists) moves to the last page that has rows; otherwise null (stay).
 */
export function clampedPage(current: number, size: number, total: number, rowsOnPage: number): number | null {
  if (rowsOnPage > 0 || current <= 1) return null;
  const last = Math.max(1, Math.ceil(total / size));
  return last < current ? last : null;
}

/** Index names the server creates: `<table>_<cols>_<suffix>`, cut to PostgreSQL's 63 characters with a hash. */
export function indexName(table: string, cols: string[], suffix: 'idx' | 'uq' | 'trgm' | 'sort'): string {
  const n = `${table}_${cols.join('_')}_${suffix}`;
  if (n.length <= 63) return n;
  let h = 0;
  for (const c of n) h = (h * 31 + c.charCodeAt(0)) | 0;
  return `${n.slice(0, 54)}_${Math.abs(h).toString(36).slice(0, 8)}`;
}

/** A quoted SQL identifier (names come from documents, never from requests). */
export function quoteIdent(ident: string): string {
  return `"${ident.replace(/"/g, '')}"`;
}

/**
 * Indexes behind every list a document declares (issue 9 "contains by default", issue 13 "every sortable column is
 * served by an index"), created at start on both databases for every document table, module-owned ones included:
 * - a search with op `contains` on a text column: a trigram GIN index (pg_trgm), so `like '%…%'` is an index scan;
 * - a sortable column: a btree on (tenant_id, column), partial on live rows, so a sorted first page reads only
 *   that page.
 * Views (the statistics screen) are skipped: their base tables carry the indexes.
 */
import { sql } from 'kysely';
import type { ScreenDocument } from '../../shared/document.js';
import { listableProperties, toSnake } from '../../shared/fields.js';
import type { DB } from './index.js';
import { indexName, quoteIdent } from './index-names.js';

const q = quoteIdent;

export interface ListIndex {
  table: string;
  column: string;
  kind: 'trigram' | 'sort';
  name: string;
  ddl: string;
}

interface TableShape {
  columns: Map<string, string>;
}

async function tableShapes(db: DB): Promise<Map<string, TableShape>> {
  const rows = await sql<{ table_name: string; column_name: string; data_type: string }>`
    select c.table_name, c.column_name, c.data_type from information_schema.columns c
      join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
     where c.table_schema = current_schema() and t.table_type = 'BASE TABLE'`.execute(db);
  const out = new Map<string, TableShape>();
  for (const r of rows.rows) {
    let t = out.get(r.table_name);
    if (!t) out.set(r.table_name, (t = { columns: new Map() }));
    t.columns.set(r.column_name, r.data_type);
  }
  return out;
}

const TEXT_TYPES = new Set(['character varying', 'text', 'character']);

/**
 * The indexes the documents' lists need, for the tables that exist as base tables: a trigram index per
 * `contains`/`prefix` search on text, a btree (tenant_id, column) per sortable column and per other search.
 */
export function plannedListIndexes(docs: ScreenDocument[], shapes: Map<string, TableShape>): ListIndex[] {
  const out = new Map<string, ListIndex>();
  for (const doc of docs) {
    const table = doc.resource.table;
    const shape = shapes.get(table);
    if (!shape) continue;
    const props = listableProperties(doc);
    const live = shape.columns.has('is_deleted') ? ' where is_deleted = 0' : '';
    const tenant = shape.columns.has('tenant_id') ? ['tenant_id'] : [];
    const btree = (field: string) => {
      const col = toSnake(field);
      if (!shape.columns.has(col) || col === 'id' || col === 'tenant_id') return;
      const cols = [...tenant, col];
      const name = indexName(table, cols, 'sort');
      out.set(name, { table, column: col, kind: 'sort', name, ddl: `create index if not exists ${q(name)} on ${q(table)} (${cols.map(q).join(', ')})${live}` });
    };
    for (const s of doc.list.search ?? []) {
      const col = toSnake(s.field);
      if ((s.op === 'contains' || s.op === 'prefix') && TEXT_TYPES.has(shape.columns.get(col) ?? '')) {
        const name = indexName(table, [col], 'trgm');
        out.set(name, { table, column: col, kind: 'trigram', name, ddl: `create index if not exists ${q(name)} on ${q(table)} using gin (${q(col)} gin_trgm_ops)${live}` });
      } else btree(s.field);
    }
    for (const c of doc.list.columns ?? []) if (c.sortable && props[c.field]) btree(c.field);
  }
  return [...out.values()];
}

interface ExistingIndex {
  table: string;
  gin: boolean;
  /** Index columns, lower-cased, without ASC/DESC/opclass. */
  columns: string[];
}

function parseIndexDef(table: string, def: string): ExistingIndex | undefined {
  const m = /USING (\w+) \((.*?)\)(?: WHERE|$)/i.exec(def);
  if (!m) return undefined;
  const columns = m[2].split(',').map((c) => c.trim().split(/\s+/)[0].replace(/"/g, '').toLowerCase());
  return { table, gin: m[1].toLowerCase() === 'gin', columns };
}

/** An index that already serves `want`: a trigram GIN on the column, or a btree whose columns (after tenant_id) start with it. */
export function indexServes(ix: ExistingIndex, want: ListIndex): boolean {
  if (ix.table !== want.table) return false;
  if (want.kind === 'trigram') return ix.gin && ix.columns[0] === want.column;
  if (ix.gin) return false;
  const cols = ix.columns[0] === 'tenant_id' ? ix.columns.slice(1) : ix.columns;
  return cols[0] === want.column || (ix.columns[0] === want.column);
}

export async function existingIndexes(db: DB): Promise<ExistingIndex[]> {
  const rows = await sql<{ tablename: string; indexdef: string }>`select tablename, indexdef from pg_indexes where schemaname = current_schema()`.execute(db);
  return rows.rows.map((r) => parseIndexDef(r.tablename, r.indexdef)).filter((x): x is ExistingIndex => !!x);
}

/** The planned indexes no existing index serves (what syncListIndexes creates; empty after a start). */
export async function missingListIndexes(db: DB, docs: ScreenDocument[]): Promise<ListIndex[]> {
  const planned = plannedListIndexes(docs, await tableShapes(db));
  const have = await existingIndexes(db);
  return planned.filter((p) => !have.some((ix) => indexServes(ix, p)));
}

/** Creates the trigram extension and every index a list needs that no existing index serves; returns the names. */
export async function syncListIndexes(db: DB, docs: ScreenDocument[]): Promise<string[]> {
  const missing = await missingListIndexes(db, docs);
  if (missing.some((p) => p.kind === 'trigram')) await sql`create extension if not exists pg_trgm`.execute(db);
  for (const p of missing) await sql.raw(p.ddl).execute(db);
  return missing.map((p) => p.name);
}

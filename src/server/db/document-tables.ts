/**
 * Tables derived from screen documents (resource.managed !== 'module'): created when missing, and missing
 * columns added on later starts (additive only; dropping or retyping a column needs an explicit migration).
 * Indexes: resource.indexes, plus (tenant_id, create_time desc), all partial on is_deleted = 0.
 */
import { sql } from 'kysely';
import type { ScreenDocument } from '../../shared/document.js';
import { sqlType, storedFields, toSnake } from '../../shared/fields.js';
import type { DB } from './index.js';
import { AUDIT_COLUMNS_SQL } from './migrate.js';

const q = (ident: string) => `"${ident.replace(/"/g, '')}"`;

export function documentColumns(doc: ScreenDocument): Array<{ column: string; type: string }> {
  return storedFields(doc).map(([name, f]) => ({ column: toSnake(name), type: sqlType(f) }));
}

function indexName(table: string, cols: string[]): string {
  const n = `${table}_${cols.join('_')}_idx`;
  return n.length <= 63 ? n : `${n.slice(0, 54)}_${Math.abs(hash(n)).toString(36).slice(0, 8)}`;
}

function hash(s: string): number {
  let h = 0;
  for (const c of s) h = (h * 31 + c.charCodeAt(0)) | 0;
  return h;
}

export async function syncDocumentTables(db: DB, docs: ScreenDocument[]): Promise<string[]> {
  const changes: string[] = [];
  for (const doc of docs) {
    if (doc.resource.managed === 'module') continue;
    const table = doc.resource.table;
    const cols = documentColumns(doc).filter((c) => !['id', 'tenant_id', 'create_user', 'create_dept', 'create_time', 'update_user', 'update_time', 'status', 'is_deleted'].includes(c.column) || c.column === 'status');
    const existing = await sql<{ column_name: string }>`select column_name from information_schema.columns where table_schema = current_schema() and table_name = ${table}`.execute(db);
    if (existing.rows.length === 0) {
      const own = cols.filter((c) => c.column !== 'status').map((c) => `${q(c.column)} ${c.type}`);
      const statusCol = cols.find((c) => c.column === 'status');
      // The audit set has `status integer default 1`; a document's own status field overrides its type.
      const audit = statusCol ? AUDIT_COLUMNS_SQL.replace('status integer not null default 1', `status ${statusCol.type}`) : AUDIT_COLUMNS_SQL;
      await sql.raw(`create table ${q(table)} (id bigint primary key, ${audit}${own.length ? ', ' + own.join(', ') : ''})`).execute(db);
      changes.push(`create table ${table}`);
    } else {
      const have = new Set(existing.rows.map((r) => r.column_name));
      for (const c of cols) {
        if (have.has(c.column)) continue;
        await sql.raw(`alter table ${q(table)} add column ${q(c.column)} ${c.type}`).execute(db);
        changes.push(`add column ${table}.${c.column}`);
      }
    }
    const indexes: string[][] = [...(doc.resource.indexes ?? []).map((ix) => ix.map(toSnake)), ['tenant_id', 'create_time desc']];
    for (const ix of indexes) {
      const name = indexName(table, ix.map((c) => c.replace(/ desc$/, '')));
      const colsSql = ix.map((c) => (c.endsWith(' desc') ? `${q(c.slice(0, -5))} desc` : q(c))).join(', ');
      await sql.raw(`create index if not exists ${q(name)} on ${q(table)} (${colsSql}) where is_deleted = 0`).execute(db);
    }
  }
  return changes;
}

/**
 * Tables derived from screen documents (resource.managed !== 'module'): created when missing; on later starts
 * missing columns are added and widened columns altered (evolve.ts); a narrowing or a type change stops the
 * start (SchemaEvolutionError, one `file: /pointer: message` line per column) instead of failing at run time.
 * Dropping a column needs an explicit migration. Indexes: resource.indexes, plus (tenant_id, create_time desc),
 * all partial on is_deleted = 0.
 */
import { sql } from 'kysely';
import type { ScreenDocument } from '../../shared/document.js';
import { sqlType, storedFields, toSnake } from '../../shared/fields.js';
import type { DB } from './index.js';
import { compareColumn, refusalMessage, type ExistingColumn } from './evolve.js';
import { indexName, quoteIdent } from './index-names.js';
import { AUDIT_COLUMNS_SQL } from './migrate.js';

/** Document changes the start refuses to apply (narrowing, type change); message: one line per column. */
export class SchemaEvolutionError extends Error {}

/** JSON pointer of a field in its document (base properties or the conditional branch that declares it). */
function fieldPointer(doc: ScreenDocument, field: string): string {
  if (field in doc.schema.properties) return `/schema/properties/${field}`;
  const i = (doc.schema.allOf ?? []).findIndex((b) => b.then?.properties?.[field] || b.else?.properties?.[field]);
  if (i >= 0) return `/schema/allOf/${i}/${doc.schema.allOf![i].then?.properties?.[field] ? 'then' : 'else'}/properties/${field}`;
  return `/schema/properties/${field}`;
}

const q = quoteIdent;

export function documentColumns(doc: ScreenDocument): Array<{ column: string; type: string; field: string }> {
  return storedFields(doc).map(([name, f]) => ({ column: toSnake(name), type: sqlType(f), field: name }));
}

interface TablePlan {
  doc: ScreenDocument;
  /** DDL statements with the change each records. */
  steps: Array<{ ddl: string; change: string }>;
}

/** What one document's table needs (no writes): create, add columns, widen columns; refusals pushed to `refused`. */
async function planTable(db: DB, doc: ScreenDocument, fileOf: (id: string) => string | undefined, refused: string[]): Promise<TablePlan> {
  const table = doc.resource.table;
  const cols = documentColumns(doc).filter((c) => !['id', 'tenant_id', 'create_user', 'create_dept', 'create_time', 'update_user', 'update_time', 'status', 'is_deleted'].includes(c.column) || c.column === 'status');
  const existing = await sql<ExistingColumn>`select column_name, data_type, character_maximum_length, numeric_precision, numeric_scale
    from information_schema.columns where table_schema = current_schema() and table_name = ${table}`.execute(db);
  if (existing.rows.length === 0) {
    const own = cols.filter((c) => c.column !== 'status').map((c) => `${q(c.column)} ${c.type}`);
    const statusCol = cols.find((c) => c.column === 'status');
    // The audit set has `status integer default 1`; a document's own status field overrides its type.
    const audit = statusCol ? AUDIT_COLUMNS_SQL.replace('status integer not null default 1', `status ${statusCol.type}`) : AUDIT_COLUMNS_SQL;
    return { doc, steps: [{ ddl: `create table ${q(table)} (id bigint primary key, ${audit}${own.length ? ', ' + own.join(', ') : ''})`, change: `create table ${table}` }] };
  }
  const steps: TablePlan['steps'] = [];
  const have = new Map(existing.rows.map((r) => [r.column_name, r]));
  for (const c of cols) {
    const col = have.get(c.column);
    if (!col) {
      steps.push({ ddl: `alter table ${q(table)} add column ${q(c.column)} ${c.type}`, change: `add column ${table}.${c.column}` });
      continue;
    }
    const change = compareColumn(c.type, col);
    if (change.action === 'widen') steps.push({ ddl: `alter table ${q(table)} alter column ${q(c.column)} type ${change.to}`, change: `widen column ${table}.${c.column} to ${change.to}` });
    else if (change.action === 'refuse') refused.push(`${fileOf(doc.id) ?? doc.id}: ${fieldPointer(doc, c.field)}: ${refusalMessage(table, c.column, change.reason)}`);
  }
  return { doc, steps };
}

/**
 * Create or evolve every document table. Every table is planned first: when any change would narrow or retype a
 * column, nothing is applied and the start stops with all refusals (`fileOf` names a document's file).
 */
export async function syncDocumentTables(db: DB, docs: ScreenDocument[], fileOf: (id: string) => string | undefined = () => undefined): Promise<string[]> {
  const refused: string[] = [];
  const plans: TablePlan[] = [];
  for (const doc of docs) if (doc.resource.managed !== 'module') plans.push(await planTable(db, doc, fileOf, refused));
  if (refused.length) throw new SchemaEvolutionError(refused.join('\n'));
  const changes: string[] = [];
  for (const { doc, steps } of plans) {
    const table = doc.resource.table;
    for (const step of steps) {
      await sql.raw(step.ddl).execute(db);
      changes.push(step.change);
    }
    const indexes: string[][] = [...(doc.resource.indexes ?? []).map((ix) => ix.map(toSnake)), ['tenant_id', 'create_time desc']];
    for (const ix of indexes) {
      const name = indexName(table, ix.map((c) => c.replace(/ desc$/, '')), 'idx');
      const colsSql = ix.map((c) => (c.endsWith(' desc') ? `${q(c.slice(0, -5))} desc` : q(c))).join(', ');
      await sql.raw(`create index if not exists ${q(name)} on ${q(table)} (${colsSql}) where is_deleted = 0`).execute(db);
    }
  }
  return changes;
}

/**
 * The list query of a screen, in one place: `buildListQuery` (used by list, and by export in the business
 * issue) and `countRows` (count policy). Identifiers come only from the document (field → snake_case column,
 * checked at load); the client's search values are bound parameters.
 */
import { CompiledQuery, sql, type SelectQueryBuilder } from 'kysely';
import type { ScreenDocument } from '../../shared/document.js';
import { isWriteOnly, listableProperties, toSnake } from '../../shared/fields.js';
import type { Condition } from '../../shared/search.js';
import type { DB } from '../db/index.js';

/** Fields a read returns (listable, stored, not write-only) → column. */
export function readableFields(doc: ScreenDocument): Array<{ field: string; column: string }> {
  return Object.entries(listableProperties(doc))
    .filter(([, f]) => !f['x-virtual'] && !isWriteOnly(f))
    .map(([field]) => ({ field, column: toSnake(field) }));
}

export function escapeLike(v: string): string {
  return v.replace(/[\\%_]/g, (c) => '\\' + c);
}

export interface ListQueryOptions {
  conditions: Condition[];
  sort: Array<{ field: string; dir: 'asc' | 'desc' }>;
  /** Caller's tenant (from the token); applied when the resource is tenant scoped. */
  tenantId: string;
  /** Columns to select (default: readableFields). */
  fields?: Array<{ field: string; column: string }>;
}

/** FROM + WHERE (tenant, soft delete, search conditions); no select list, no order. */
export function buildWhereQuery(db: DB, doc: ScreenDocument, opts: Pick<ListQueryOptions, 'conditions' | 'tenantId'>): SelectQueryBuilder<any, any, {}> {
  let q = db.selectFrom(doc.resource.table) as SelectQueryBuilder<any, any, {}>;
  if (doc.resource.tenantScoped !== false) q = q.where('tenant_id', '=', opts.tenantId);
  if (doc.resource.softDelete !== false) q = q.where('is_deleted', '=', 0);
  const props = listableProperties(doc);
  for (const c of opts.conditions) {
    if (!props[c.field]) continue;
    const col = sql.ref(toSnake(c.field));
    switch (c.op) {
      case 'contains':
        q = q.where(sql<boolean>`${col} ilike ${'%' + escapeLike(String(c.value)) + '%'}`);
        break;
      case 'prefix':
        q = q.where(sql<boolean>`${col} like ${escapeLike(String(c.value)) + '%'}`);
        break;
      default:
        q = q.where(sql<boolean>`${col} ${sql.raw(c.op)} ${c.value}`);
    }
  }
  return q;
}

/** The list query: selected fields aliased to their camelCase names, ordered (stable tie-break on id). */
export function buildListQuery(db: DB, doc: ScreenDocument, opts: ListQueryOptions): SelectQueryBuilder<any, any, any> {
  const fields = opts.fields ?? readableFields(doc);
  const props = listableProperties(doc);
  let q = buildWhereQuery(db, doc, opts).select(fields.map((f) => sql.ref(f.column).as(f.field)));
  for (const s of opts.sort) {
    if (!props[s.field]) continue;
    q = q.orderBy(sql.ref(toSnake(s.field)), s.dir === 'desc' ? 'desc' : 'asc');
  }
  return q.orderBy(sql.ref('id'), 'desc');
}

export const DEFAULT_COUNT_CAP = 10000;

/** Total rows for a page: exact, or for `capped` exact up to countCap and a planner estimate beyond. */
export async function countRows(db: DB, doc: ScreenDocument, opts: Pick<ListQueryOptions, 'conditions' | 'tenantId'>): Promise<number> {
  const where = buildWhereQuery(db, doc, opts);
  if (doc.resource.count !== 'capped') {
    const r = await where.select(sql<string>`count(*)`.as('n')).executeTakeFirst();
    return Number(r?.n ?? 0);
  }
  const cap = doc.resource.countCap ?? DEFAULT_COUNT_CAP;
  const inner = where.select(sql.lit(1).as('x')).limit(cap + 1);
  const r = await db.selectFrom(inner.as('s')).select(sql<string>`count(*)`.as('n')).executeTakeFirst();
  const n = Number(r?.n ?? 0);
  if (n <= cap) return n;
  const compiled = where.select(sql.lit(1).as('x')).compile();
  const plan = await db.executeQuery<{ 'QUERY PLAN': unknown }>(CompiledQuery.raw(`explain (format json) ${compiled.sql}`, [...compiled.parameters]));
  const raw = plan.rows[0]?.['QUERY PLAN'];
  const json = typeof raw === 'string' ? JSON.parse(raw) : raw;
  const estimate = Math.round(Number((json as any)?.[0]?.Plan?.['Plan Rows'] ?? 0));
  return Math.max(cap + 1, estimate);
}

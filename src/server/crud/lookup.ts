/**
 * x-lookup: a field holding the id (or comma-joined ids, x-joined) of another document's record is read with a
 * read-only label field beside it (`as`, default `<field>Name`): deptId → deptIdName "研发部". One query per
 * lookup field per page (not per row), scoped to the caller's tenant and live rows like that document's lists.
 */
import { sql } from 'kysely';
import type { FieldLookup, FieldSchema, ScreenDocument } from '../../shared/document.js';
import { allProperties, isWriteOnly, lookupAs, toSnake } from '../../shared/fields.js';
import type { AuthUser } from '../context.js';
import type { DB } from '../db/index.js';
import type { DocumentRegistry } from '../documents.js';
import type { I18n, Lang } from '../lib/i18n.js';
import type { FieldError } from './validate.js';

/** The lookup fields of a document: field, its lookup, the name of the label field. */
export function lookupFields(doc: ScreenDocument): Array<{ field: string; schema: FieldSchema; lookup: FieldLookup; as: string }> {
  const out: Array<{ field: string; schema: FieldSchema; lookup: FieldLookup; as: string }> = [];
  for (const [field, f] of Object.entries(allProperties(doc.schema))) {
    const lookup = f['x-lookup'];
    if (lookup && typeof lookup === 'object' && !isWriteOnly(f)) out.push({ field, schema: f, lookup, as: lookupAs(field, f)! });
  }
  return out;
}

const SAFE_VALUE = /^[A-Za-z0-9_.-]{1,64}$/;

function valuesOf(v: unknown, joined: boolean): string[] {
  if (v === null || v === undefined || v === '') return [];
  if (Array.isArray(v)) return v.map(String);
  return joined ? String(v).split(',').map((s) => s.trim()).filter(Boolean) : [String(v)];
}

/** Adds the label field of every lookup field to the records (in place). */
export async function addLookups(db: DB, docs: Pick<DocumentRegistry, 'get'>, doc: ScreenDocument, records: Array<Record<string, unknown>>, user: AuthUser): Promise<void> {
  if (!records.length) return;
  for (const { field, schema, lookup, as } of lookupFields(doc)) {
    const target = docs.get(lookup.screen);
    if (!target) continue;
    const joined = !!schema['x-joined'] || schema.type === 'array';
    const valueField = lookup.value ?? target.resource.keyField ?? target.resource.tree?.keyField ?? 'id';
    const wanted = [...new Set(records.flatMap((r) => valuesOf(r[field], joined)))].filter((v) => SAFE_VALUE.test(v) && (valueField !== 'id' || /^[0-9]{1,19}$/.test(v)));
    const labels = new Map<string, unknown>();
    if (wanted.length) {
      const col = valueField === 'id' ? 'id' : toSnake(valueField);
      let q = db
        .selectFrom(target.resource.table)
        .select([sql<string>`${sql.ref(col)}::text`.as('v'), sql.ref(toSnake(lookup.label)).as('l')])
        .where(sql.ref(col), 'in', wanted);
      if (target.resource.tenantScoped !== false) q = q.where('tenant_id', '=', user.tenantId);
      if (target.resource.softDelete !== false) q = q.where('is_deleted', '=', 0);
      for (const r of (await q.execute()) as Array<{ v: string; l: unknown }>) labels.set(r.v, r.l);
    }
    for (const r of records) {
      const vs = valuesOf(r[field], joined);
      const ls = vs.map((v) => labels.get(v)).filter((l) => l !== undefined && l !== null);
      r[as] = vs.length ? (joined ? ls.join(',') : (ls[0] ?? null)) : null;
    }
  }
}

/**
 * Submitted lookup values (each item of an x-joined value) that name no live record of the target document in
 * the caller's tenant: one error per field, naming the first unknown value. A tree's root value (parentId 0)
 * is no record and always allowed.
 */
export async function lookupErrors(db: DB, docs: Pick<DocumentRegistry, 'get'>, doc: ScreenDocument, values: Record<string, unknown>, user: AuthUser, i18n: I18n, lang: Lang): Promise<FieldError[]> {
  const out: FieldError[] = [];
  for (const { field, schema, lookup } of lookupFields(doc)) {
    if (!(field in values)) continue;
    const target = docs.get(lookup.screen);
    if (!target) continue;
    const joined = !!schema['x-joined'] || schema.type === 'array';
    const root = target.resource.tree ? (target.resource.tree.rootValue ?? '0') : undefined;
    const given = [...new Set(valuesOf(values[field], joined))].filter((v) => v !== root);
    if (!given.length) continue;
    const valueField = lookup.value ?? target.resource.keyField ?? target.resource.tree?.keyField ?? 'id';
    const col = valueField === 'id' ? 'id' : toSnake(valueField);
    const safe = given.filter((v) => SAFE_VALUE.test(v) && (valueField !== 'id' || /^[0-9]{1,19}$/.test(v)));
    const found = new Set<string>();
    if (safe.length) {
      let q = db.selectFrom(target.resource.table).select(sql<string>`${sql.ref(col)}::text`.as('v')).where(sql.ref(col), 'in', safe);
      if (target.resource.tenantScoped !== false) q = q.where('tenant_id', '=', user.tenantId);
      if (target.resource.softDelete !== false) q = q.where('is_deleted', '=', 0);
      for (const r of (await q.execute()) as Array<{ v: string }>) found.add(r.v);
    }
    const bad = given.find((v) => !found.has(v));
    if (bad === undefined) continue;
    const title = schema.title ? i18n.t(lang, schema.title) : field;
    out.push({ field, message: i18n.t(lang, 'common.validation.lookup', { field: title, value: bad }), keyword: 'lookup' });
  }
  return out;
}

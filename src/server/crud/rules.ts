/**
 * The document rules a submit is checked against beyond one field's own schema (issue 9):
 * - `x-unique` (true, or the fields a value is unique together with): no other live row of the tenant holds the
 *   same value. Checked in the write's transaction and backed by a partial unique index created at start, so two
 *   racing inserts give one 409 naming the field (the index's violation is mapped back to it), never a 500.
 * - `x-equals`: equal to another field (password confirmation), message `ui:messages.equals`.
 * - `x-joined`: each item of a comma-joined "1,2,3" value is checked against the field's `items` schema.
 * Messages name the field: the document's `ui:messages.<rule>` key, else common.validation.<rule>.
 */
import { Ajv, type ValidateFunction } from 'ajv';
import { sql } from 'kysely';
import type { FieldSchema, ScreenDocument } from '../../shared/document.js';
import { allProperties, toSnake } from '../../shared/fields.js';
import { CUSTOM_FORMATS } from '../../shared/form.js';
import type { AuthUser } from '../context.js';
import type { DB } from '../db/index.js';
import { indexName, quoteIdent } from '../db/index-names.js';
import { HttpError } from '../lib/http.js';
import type { I18n, Lang } from '../lib/i18n.js';
import { sqlState } from '../lib/db-errors.js';
import type { FieldError } from './validate.js';

type Rec = Record<string, unknown>;

/** The message of `rule` for `field`: the document's own key when it has one, else the common one. */
export function ruleMessage(doc: ScreenDocument, field: string, rule: string, i18n: I18n, lang: Lang, params: Rec = {}): string {
  const f = allProperties(doc.schema)[field];
  const ui = doc.uiSchema?.[field] as { 'ui:messages'?: Record<string, string> } | undefined;
  const key = ui?.['ui:messages']?.[rule] ?? `common.validation.${rule}`;
  return i18n.t(lang, key, { ...params, field: f?.title ? i18n.t(lang, f.title) : field });
}

export interface UniqueRule {
  field: string;
  /** The field first, then the fields it is unique together with. */
  fields: string[];
  /** Name of the partial unique index backing it. */
  index: string;
}

export function uniqueRules(doc: ScreenDocument): UniqueRule[] {
  const out: UniqueRule[] = [];
  for (const [field, s] of Object.entries(allProperties(doc.schema)) as Array<[string, FieldSchema]>) {
    const rule = s['x-unique'];
    if (!rule) continue;
    const fields = [field, ...(Array.isArray(rule) ? rule : [])];
    out.push({ field, fields, index: indexName(doc.resource.table, fields.map(toSnake), 'uq') });
  }
  return out;
}

const q = quoteIdent;

/**
 * Creates the partial unique index of every x-unique rule (live rows, per tenant when tenant scoped). A table
 * that already holds duplicates keeps working without the index (the transactional check still refuses new
 * ones); the duplicates are reported so an operator can clean them up.
 */
export async function syncUniqueIndexes(db: DB, docs: ScreenDocument[]): Promise<string[]> {
  const warnings: string[] = [];
  for (const doc of docs) {
    for (const rule of uniqueRules(doc)) {
      const cols = [...(doc.resource.tenantScoped !== false ? ['tenant_id'] : []), ...rule.fields.map(toSnake)];
      const where = doc.resource.softDelete !== false ? ' where is_deleted = 0' : '';
      try {
        await sql.raw(`create unique index if not exists ${q(rule.index)} on ${q(doc.resource.table)} (${cols.map(q).join(', ')})${where}`).execute(db);
      } catch (e) {
        if (sqlState(e) !== '23505') throw e;
        warnings.push(`${doc.resource.table}: duplicate ${rule.fields.join('+')} values, unique index ${rule.index} not created`);
      }
    }
  }
  return warnings;
}

/** 409 naming the field whose value another live row already holds (`merged`: the record as it will be saved). */
export async function refuseDuplicates(db: DB, doc: ScreenDocument, merged: Rec, id: string | undefined, user: AuthUser, i18n: I18n, lang: Lang): Promise<void> {
  for (const rule of uniqueRules(doc)) {
    const v = merged[rule.field];
    if (v === undefined || v === null || v === '') continue;
    let qb: any = db.selectFrom(doc.resource.table).select('id');
    for (const f of rule.fields) {
      const fv = merged[f];
      qb = fv === undefined || fv === null ? qb.where(toSnake(f), 'is', null) : qb.where(toSnake(f), '=', fv);
    }
    if (doc.resource.tenantScoped !== false) qb = qb.where('tenant_id', '=', user.tenantId);
    if (doc.resource.softDelete !== false) qb = qb.where('is_deleted', '=', 0);
    if (id) qb = qb.where('id', '<>', id);
    if (await qb.executeTakeFirst()) throw duplicate(doc, rule.field, i18n, lang);
  }
}

function duplicate(doc: ScreenDocument, field: string, i18n: I18n, lang: Lang): HttpError {
  const message = ruleMessage(doc, field, 'unique', i18n, lang);
  return new HttpError(409, 'common.validation.unique', {}, [{ field, message }], message);
}

/** A unique violation of one of the document's indexes (a race the check lost) as the same 409; else undefined. */
export function duplicateFromViolation(doc: ScreenDocument, err: unknown, i18n: I18n, lang: Lang): HttpError | undefined {
  if (sqlState(err) !== '23505') return undefined;
  const constraint = String((err as { constraint?: unknown }).constraint ?? '');
  const text = String((err as { message?: unknown }).message ?? '');
  const rule = uniqueRules(doc).find((r) => r.index === constraint || text.includes(`"${r.index}"`));
  return rule ? duplicate(doc, rule.field, i18n, lang) : undefined;
}

/**
 * `x-equals`: the field must equal the named one, as the record will be saved (`merged`), judged when the body
 * carries either of them (an edit that leaves a stored password alone has no confirmation to compare).
 */
export function equalsErrors(doc: ScreenDocument, merged: Rec, given: Rec, i18n: I18n, lang: Lang): FieldError[] {
  const out: FieldError[] = [];
  for (const [field, s] of Object.entries(allProperties(doc.schema)) as Array<[string, FieldSchema]>) {
    const other = s['x-equals'];
    if (!other || !(field in given || other in given)) continue;
    const [a, b] = [merged[field], merged[other]];
    if ((a === undefined || a === null || a === '') && (b === undefined || b === null || b === '')) continue;
    if (String(a ?? '') !== String(b ?? '')) {
      const props = allProperties(doc.schema);
      const otherTitle = props[other]?.title ? i18n.t(lang, props[other].title!) : other;
      out.push({ field, message: ruleMessage(doc, field, 'equals', i18n, lang, { other: otherTitle }), keyword: 'equals' });
    }
  }
  return out;
}

const itemsAjv = new Ajv({ allErrors: false, strict: false });
for (const [name, re] of Object.entries(CUSTOM_FORMATS)) itemsAjv.addFormat(name, re);
const itemValidators = new WeakMap<object, ValidateFunction>();

/** The items of a comma-joined value ("1,2,3"), trimmed, empty items dropped. */
export function joinedItems(v: unknown): string[] {
  return String(v ?? '').split(',').map((s) => s.trim()).filter(Boolean);
}

/** `x-joined` with `items`: every item of the comma-joined value is valid against that schema. */
export function joinedErrors(doc: ScreenDocument, values: Rec, i18n: I18n, lang: Lang): FieldError[] {
  const out: FieldError[] = [];
  for (const [field, s] of Object.entries(allProperties(doc.schema)) as Array<[string, FieldSchema]>) {
    if (!s['x-joined'] || typeof values[field] !== 'string') continue;
    const items = (s as { items?: object }).items;
    if (!items || typeof items !== 'object') continue;
    let validate = itemValidators.get(items);
    if (!validate) itemValidators.set(items, (validate = itemsAjv.compile(items)));
    const bad = joinedItems(values[field]).find((item) => !validate!(numericItem(items, item)));
    if (bad !== undefined) out.push({ field, message: ruleMessage(doc, field, 'joinedItem', i18n, lang, { value: bad }), keyword: 'joinedItem' });
  }
  return out;
}

function numericItem(items: object, item: string): unknown {
  const t = (items as { type?: unknown }).type;
  return (t === 'integer' || t === 'number') && /^-?\d+(\.\d+)?$/.test(item) ? Number(item) : item;
}

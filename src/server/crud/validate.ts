/**
 * Validation of a submit: ajv against formSchema(doc, mode) (the dialog's own schema), then the values of
 * dictionary fields (`x-dict`) against the keys of their dictionary in the database (a schema cannot know
 * them). Errors → [{field, message}] in the request language.
 */
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import type { Mode, ScreenDocument } from '../../shared/document.js';
import { allProperties } from '../../shared/fields.js';
import { CUSTOM_FORMATS, formSchema, messageKey, messageParams } from '../../shared/form.js';
import type { DB } from '../db/index.js';
import type { I18n, Lang } from '../lib/i18n.js';
import { describeChoices, loadDictionaries } from './dictionaries.js';
import { joinedItems } from './rules.js';

const ajv = new Ajv({ allErrors: true, strict: false });
for (const [name, re] of Object.entries(CUSTOM_FORMATS)) ajv.addFormat(name, re);

const cache = new WeakMap<ScreenDocument, Map<Mode, ValidateFunction>>();

export function validatorFor(doc: ScreenDocument, mode: Mode): ValidateFunction {
  let m = cache.get(doc);
  if (!m) cache.set(doc, (m = new Map()));
  let v = m.get(mode);
  if (!v) m.set(mode, (v = ajv.compile(formSchema(doc, mode).schema)));
  return v;
}

export interface FieldError {
  field: string;
  message: string;
  /** The rule that failed (ajv keyword, or equals/joinedItem/dict/lookup/range). */
  keyword?: string;
}

function errorField(e: ErrorObject): string | undefined {
  if (e.keyword === 'required') return (e.params as { missingProperty: string }).missingProperty;
  const seg = e.instancePath.split('/')[1];
  return seg || undefined;
}

export function validateValues(doc: ScreenDocument, mode: Mode, values: Record<string, unknown>, i18n: I18n, lang: Lang): FieldError[] {
  const validate = validatorFor(doc, mode);
  if (validate(values)) return rangeErrors(doc, values, new Set(), i18n, lang);
  const props = allProperties(doc.schema);
  const out: FieldError[] = [];
  const seen = new Set<string>();
  for (const e of validate.errors ?? []) {
    if (e.keyword === 'if' || e.keyword === 'allOf') continue;
    const field = errorField(e);
    if (!field || seen.has(field)) continue;
    seen.add(field);
    const key = messageKey(doc, field, e.keyword);
    const params = messageParams(doc, field, e.keyword);
    const title = props[field]?.title;
    const message = i18n.t(lang, key, { ...params, field: title ? i18n.t(lang, title) : field }, e.message);
    out.push({ field, message, keyword: e.keyword });
  }
  return [...out, ...rangeErrors(doc, values, seen, i18n, lang)];
}

const PAIR = /^(.*)(Start|Begin|From)(Time|Date|Day|Month)?$/;
const PAIR_END: Record<string, string[]> = { Start: ['End'], Begin: ['End'], From: ['To'] };

/** Comparable form of a range bound: numbers as numbers, dates/times (fixed-width text) as text. */
function bound(v: unknown): number | string | undefined {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && /^\d{4}-?\d{2}/.test(v)) return v;
  return undefined;
}

/**
 * Ranges that end before they start (issue 14, finding 6), for fields the schema check let through:
 * - a two-item array of dates/date-times/numbers (the `daterange` widget's value: [start, end]);
 * - a from/to pair of fields: `xStart`/`xEnd`, `xBegin`/`xEnd`, `xFrom`/`xTo` (also with a Time/Date/Day/
 *   Month suffix), reported on the end field. Equal bounds are a valid (one-day) range.
 * The message is `<ns>.msg.rangeOrder` when the locales have it (ns: the first part of the field's title key,
 * e.g. banner.msg.rangeOrder), else common.validation.range.
 */
export function rangeErrors(doc: ScreenDocument, values: Record<string, unknown>, skip: Set<string>, i18n: I18n, lang: Lang): FieldError[] {
  const props = allProperties(doc.schema);
  const out: FieldError[] = [];
  const refuse = (field: string) => {
    const title = props[field]?.title;
    const params = { field: title ? i18n.t(lang, title) : field };
    // A screen's own wording (`<ns>.msg.rangeOrder`, ns of the field's title key) wins over the common one.
    const own = title?.includes('.') ? i18n.t(lang, `${title.split('.')[0]}.msg.rangeOrder`, params, '') : '';
    out.push({ field, message: own || i18n.t(lang, 'common.validation.range', params) });
  };
  for (const [field, f] of Object.entries(props)) {
    if (skip.has(field)) continue;
    const v = values[field];
    if (f.type === 'array' && f.maxItems === 2 && Array.isArray(v) && v.length === 2) {
      const [a, b] = [bound(v[0]), bound(v[1])];
      if (a !== undefined && b !== undefined && typeof a === typeof b && a > b) refuse(field);
      continue;
    }
    const m = PAIR.exec(field);
    if (!m) continue;
    for (const endWord of PAIR_END[m[2]]) {
      const endField = `${m[1]}${endWord}${m[3] ?? ''}`;
      if (!props[endField] || skip.has(endField)) continue;
      const [a, b] = [bound(v), bound(values[endField])];
      if (a !== undefined && b !== undefined && typeof a === typeof b && a > b) refuse(endField);
    }
  }
  return out;
}

/**
 * Values of dictionary fields that are not keys of their dictionary (putPlatform 9 when banner_put_platform
 * has 1 and 2), one error per field: `common.validation.dict` names the value and the choices. A tenant
 * without its own business dictionary is checked against the system one (loadDictionaries); a dictionary
 * with no entries anywhere knows no value, so every value is refused (issue 14, finding 5).
 */
export async function dictionaryErrors(
  db: DB,
  doc: ScreenDocument,
  values: Record<string, unknown>,
  tenantId: string,
  i18n: I18n,
  lang: Lang,
): Promise<FieldError[]> {
  const props = allProperties(doc.schema);
  const fields = Object.keys(values).filter((f) => props[f]?.['x-dict'] && values[f] !== undefined && values[f] !== null);
  if (!fields.length) return [];
  const dicts = await loadDictionaries(db, fields.map((f) => props[f]['x-dict']!), tenantId);
  const out: FieldError[] = [];
  for (const f of fields) {
    const entries = dicts.get(props[f]['x-dict']!) ?? [];
    const keys = new Set(entries.map((e) => e.key));
    const given = Array.isArray(values[f]) ? (values[f] as unknown[]) : props[f]['x-joined'] ? joinedItems(values[f]) : [values[f]];
    const bad = given.find((v) => !keys.has(String(v)));
    if (bad === undefined) continue;
    const title = props[f].title;
    const params = { field: title ? i18n.t(lang, title) : f, value: typeof bad === 'object' ? JSON.stringify(bad) : String(bad), options: describeChoices(entries, lang) };
    out.push({ field: f, message: i18n.t(lang, 'common.validation.dict', params), keyword: 'dict' });
  }
  return out;
}

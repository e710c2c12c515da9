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
}

function errorField(e: ErrorObject): string | undefined {
  if (e.keyword === 'required') return (e.params as { missingProperty: string }).missingProperty;
  const seg = e.instancePath.split('/')[1];
  return seg || undefined;
}

export function validateValues(doc: ScreenDocument, mode: Mode, values: Record<string, unknown>, i18n: I18n, lang: Lang): FieldError[] {
  const validate = validatorFor(doc, mode);
  if (validate(values)) return [];
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
    out.push({ field, message });
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
    const given = Array.isArray(values[f]) ? (values[f] as unknown[]) : [values[f]];
    const bad = given.find((v) => !keys.has(String(v)));
    if (bad === undefined) continue;
    const title = props[f].title;
    const params = { field: title ? i18n.t(lang, title) : f, value: typeof bad === 'object' ? JSON.stringify(bad) : String(bad), options: describeChoices(entries, lang) };
    out.push({ field: f, message: i18n.t(lang, 'common.validation.dict', params) });
  }
  return out;
}

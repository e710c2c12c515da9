/** ajv validation of a submit against formSchema(doc, mode); errors → [{field, message}] in the request language. */
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import type { Mode, ScreenDocument } from '../../shared/document.js';
import { allProperties } from '../../shared/fields.js';
import { CUSTOM_FORMATS, formSchema, messageKey, messageParams } from '../../shared/form.js';
import type { I18n, Lang } from '../lib/i18n.js';

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

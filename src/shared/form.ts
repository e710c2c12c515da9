/**
 * Per-mode form schema: the one JSON Schema that both the dialog (rjsf) and the server (ajv) validate
 * a submit against. Hidden fields are dropped, read-only ones are kept for display but never required,
 * and our `x-` annotations are stripped so any standard validator accepts the result.
 */
import type { EntitySchema, FieldSchema, Mode, ScreenDocument } from './document.js';
import { allProperties, fieldOrder, fieldUi, modeBehaviour } from './fields.js';

const DATE = /^(\d{4})-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;
const TIME = /^([01]\d|2[0-3]):[0-5]\d:[0-5]\d$/;

/** Days in a month of the proleptic Gregorian calendar (February 29 only in leap years). */
function daysInMonth(year: number, month: number): number {
  return month === 2 ? (year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** A real calendar day written `yyyy-MM-dd` (2026-02-28 yes; 2026-02-30, 2026-13-01, 2026-2-1 no). */
export function isDate(s: string): boolean {
  const m = DATE.exec(s);
  return !!m && Number(m[3]) <= daysInMonth(Number(m[1]), Number(m[2]));
}

/** A real local time written `yyyy-MM-dd HH:mm:ss` (the wire and storage format): a calendar day and 00:00:00–23:59:59. */
export function isDateTime(s: string): boolean {
  return s.length === 19 && s[10] === ' ' && isDate(s.slice(0, 10)) && TIME.test(s.slice(11));
}

/**
 * Formats our documents use (dates travel as `yyyy-MM-dd HH:mm:ss`), for ajv on the server and rjsf/ajv in
 * the dialog alike. Dates are checked against the calendar, not only their shape: a regular expression
 * would take 2026-02-30, which the database then refuses with a server error.
 */
export const CUSTOM_FORMATS: Record<string, RegExp | ((s: string) => boolean)> = {
  date: isDate,
  'date-time': isDateTime,
  yyyyMM: /^\d{4}(0[1-9]|1[0-2])$/,
  email: /^[^\s@]+@[^\s@]+\.[^\s@]+$/,
  uri: /^(https?:\/\/|\/)\S*$/,
  text: /[\s\S]*/,
};

/** Strip `x-` annotations; keep standard keywords and i18n title keys. */
export function cleanField(f: FieldSchema): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(f)) {
    if (k.startsWith('x-')) continue;
    if (k === 'items' && v && typeof v === 'object') out.items = cleanField(v as FieldSchema);
    else out[k] = v;
  }
  return out;
}

export interface ModeForm {
  /** JSON Schema for the mode (standard keywords only). */
  schema: EntitySchema;
  /** Fields shown read-only in this mode (not validated as input). */
  readonly: string[];
  /** Field order for the dialog. */
  order: string[];
}

/** The form schema of a screen for one dialog mode. */
export function formSchema(doc: ScreenDocument, mode: Mode): ModeForm {
  const props = allProperties(doc.schema);
  const visible = (f: string) => modeBehaviour(doc, f, mode) !== 'hidden';
  const readonly = Object.keys(props).filter((f) => visible(f) && (modeBehaviour(doc, f, mode) === 'readonly' || mode === 'view'));
  const editable = (f: string) => visible(f) && !readonly.includes(f);

  const properties: Record<string, FieldSchema> = {};
  for (const [k, f] of Object.entries(doc.schema.properties)) {
    if (!visible(k)) continue;
    properties[k] = cleanField(readonly.includes(k) ? { ...f, readOnly: true } : f) as FieldSchema;
  }
  const schema: EntitySchema = {
    type: 'object',
    required: (doc.schema.required ?? []).filter(editable),
    properties,
  };
  const allOf = (doc.schema.allOf ?? [])
    .map((b) => {
      const part = (p?: Partial<EntitySchema>) => {
        if (!p) return undefined;
        const pp: Record<string, FieldSchema> = {};
        for (const [k, f] of Object.entries(p.properties ?? {})) {
          if (visible(k)) pp[k] = cleanField(readonly.includes(k) ? { ...f, readOnly: true } : f) as FieldSchema;
        }
        return { properties: pp, required: (p.required ?? []).filter(editable) };
      };
      return { if: b.if, then: part(b.then), else: part(b.else) };
    })
    // Keep a branch while it still adds a visible field or requires one (e.g. `then: { required: [f] }`
    // over a base field); dropping required-only branches would let the conditional rule go unchecked.
    .filter((b) => [b.then, b.else].some((p) => Object.keys(p?.properties ?? {}).length || (p?.required ?? []).length))
    .map((b) => JSON.parse(JSON.stringify(b)) as NonNullable<EntitySchema['allOf']>[number]);
  if (allOf.length) schema.allOf = allOf;
  return { schema, readonly, order: fieldOrder(doc).filter((f) => visible(f) && f in props) };
}

/** i18n key of the message for a failed keyword on a field (document's own, else a common one). */
export function messageKey(doc: ScreenDocument, field: string, keyword: string): string {
  const own = fieldUi(doc, field)['ui:messages']?.[keyword];
  if (own) return own;
  return `common.validation.${keyword}`;
}

/** The field limit a failed keyword is about (minLength → minLength …). */
const LIMIT_OF: Record<string, string> = {
  maxLength: 'maxLength', minLength: 'minLength', maximum: 'maximum', minimum: 'minimum',
  exclusiveMaximum: 'exclusiveMaximum', exclusiveMinimum: 'exclusiveMinimum', maxItems: 'maxItems', minItems: 'minItems', multipleOf: 'multipleOf',
};

/**
 * Interpolation values for common validation messages (limits of the field). Pass the failed keyword so
 * `limit` is that keyword's limit (a field with minLength 6 and maxLength 16 says 6 for minLength);
 * without it `limit` falls back to the first of maxLength, minLength, maximum, minimum.
 */
export function messageParams(doc: ScreenDocument, field: string, keyword?: string): Record<string, unknown> {
  const f = allProperties(doc.schema)[field] ?? {};
  const own = keyword && LIMIT_OF[keyword] ? (f as Record<string, unknown>)[LIMIT_OF[keyword]] : undefined;
  return {
    limit: own ?? f.maxLength ?? f.minLength ?? f.maximum ?? f.minimum,
    max: f.maxLength ?? f.maximum,
    min: f.minLength ?? f.minimum,
    field: f.title,
  };
}

/**
 * Prepare a submitted body for validation: drop keys the mode does not accept (hidden, read-only,
 * unknown), turn '' into absent, and report which optional fields the client cleared (sent as null or '').
 */
export function pickEditable(doc: ScreenDocument, mode: Exclude<Mode, 'view'>, body: Record<string, unknown>) {
  const form = formSchema(doc, mode);
  const props = allProperties(doc.schema);
  const values: Record<string, unknown> = {};
  const cleared: string[] = [];
  for (const [k, v] of Object.entries(body)) {
    if (!(k in props) || form.readonly.includes(k) || modeBehaviour(doc, k, mode) === 'hidden') continue;
    if (props[k].readOnly) continue;
    if (v === null || v === '' || (Array.isArray(v) && v.length === 0)) cleared.push(k);
    else values[k] = numericString(props[k], v);
  }
  return { values, cleared, form };
}

const NUMERIC = /^-?\d+(\.\d+)?$/;

/**
 * A number or integer field sent as a numeric string ("1", "2.5") is taken as that number: BladeX dictionaries
 * hand out string keys and stock clients send them so. Anything else is left for the validator to refuse.
 */
export function numericString(f: FieldSchema | undefined, v: unknown): unknown {
  if (typeof v !== 'string' || (f?.type !== 'number' && f?.type !== 'integer')) return v;
  const s = v.trim();
  return NUMERIC.test(s) && s.length <= 20 ? Number(s) : v;
}

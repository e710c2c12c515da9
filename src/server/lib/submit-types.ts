/**
 * JSON types of a document submit, checked before any route handler (issue 14 fuzz finding after the system
 * screens landed: `{"paramKey": [1, 2]}` reached a uniqueness query of an interim submit route as an array and
 * PostgreSQL answered "operator does not exist" — a 500). For `<api>/submit` of every document, each body
 * field the document declares must have the field's JSON type (or be null; a numeric string is a number); otherwise 400 with the same
 * per-field messages as the form validation (`ui:messages.type` or common.validation.type). Everything else
 * (limits, formats, dictionaries, conditions) stays with the submit's own validation.
 */
import type { FastifyInstance } from 'fastify';
import type { FieldSchema, ScreenDocument } from '../../shared/document.js';
import { allProperties } from '../../shared/fields.js';
import { messageKey, numericString } from '../../shared/form.js';
import { HttpError } from './http.js';
import type { Lang } from './i18n.js';

function hasType(type: FieldSchema['type'], v: unknown): boolean {
  if (v === null || type === undefined) return true;
  const types = Array.isArray(type) ? type : [type];
  return types.some((t) =>
    t === 'string' ? typeof v === 'string'
    : t === 'number' ? typeof v === 'number'
    : t === 'integer' ? typeof v === 'number' && Number.isInteger(v)
    : t === 'boolean' ? typeof v === 'boolean'
    : t === 'array' ? Array.isArray(v)
    : t === 'object' ? typeof v === 'object' && !Array.isArray(v)
    : t === 'null' ? v === null
    : true,
  );
}

/** The body fields of a document submit whose JSON type is wrong (null is fine; a numeric string is a number). */
export function wrongTypeFields(doc: ScreenDocument, body: Record<string, unknown>): string[] {
  const props = allProperties(doc.schema);
  const out: string[] = [];
  for (const [field, v] of Object.entries(body)) {
    const f = props[field];
    // numeric strings ("1", "2.5") count as numbers, as the submit itself takes them (BladeX clients send them)
    if (f && !f.readOnly && !hasType(f.type, numericString(f, v))) out.push(field);
  }
  return out;
}

/** 400 with the form's per-field type messages (`ui:messages.type` or common.validation.type), in the caller's language. */
export function typeError(app: FastifyInstance, lang: Lang, doc: ScreenDocument, fields: string[]): HttpError {
  const props = allProperties(doc.schema);
  const errors = fields.map((field) => {
    const title = props[field]?.title;
    return { field, message: app.ctx.i18n.t(lang, messageKey(doc, field, 'type'), { field: title ? app.ctx.i18n.t(lang, title) : field }) };
  });
  return new HttpError(400, 'error.validation', {}, errors, errors[0]?.message);
}

/**
 * For submit routes a module registered itself (the generic ones validate their body through their route schema:
 * crud/route-validation.ts): the same type check, before the handler.
 */
export function registerSubmitTypeChecks(app: FastifyInstance): void {
  const docs = new Map(app.ctx.docs.all.filter((d) => d.resource?.api).map((d) => [`${d.resource.api}/submit`, d]));
  app.addHook('preValidation', async (req) => {
    if (req.method !== 'POST' || !req.body || typeof req.body !== 'object' || Array.isArray(req.body)) return;
    if ((req.routeOptions.config as { documentSchema?: boolean } | undefined)?.documentSchema) return;
    const doc = docs.get(req.routeOptions.url ?? '');
    if (!doc) return;
    const fields = wrongTypeFields(doc, req.body as Record<string, unknown>);
    if (fields.length) throw typeError(app, req.lang, doc, fields);
  });
}

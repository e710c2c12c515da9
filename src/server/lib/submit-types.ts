/**
 * JSON types of a document submit, checked before any route handler (issue 14 fuzz finding after the system
 * screens landed: `{"paramKey": [1, 2]}` reached a uniqueness query of an interim submit route as an array and
 * PostgreSQL answered "operator does not exist" — a 500). For `<api>/submit` of every document, each body
 * field the document declares must have the field's JSON type (or be null; a numeric string is a number); otherwise 400 with the same
 * per-field messages as the form validation (`ui:messages.type` or common.validation.type). Everything else
 * (limits, formats, dictionaries, conditions) stays with the submit's own validation.
 */
import type { FastifyInstance } from 'fastify';
import type { FieldSchema } from '../../shared/document.js';
import { allProperties } from '../../shared/fields.js';
import { messageKey, numericString } from '../../shared/form.js';
import { HttpError } from './http.js';

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

export function registerSubmitTypeChecks(app: FastifyInstance): void {
  const docs = new Map(app.ctx.docs.all.filter((d) => d.resource?.api).map((d) => [`${d.resource.api}/submit`, d]));
  app.addHook('preValidation', async (req) => {
    if (req.method !== 'POST' || !req.body || typeof req.body !== 'object' || Array.isArray(req.body)) return;
    const doc = docs.get(req.routeOptions.url ?? '');
    if (!doc) return;
    const props = allProperties(doc.schema);
    const errors: Array<{ field: string; message: string }> = [];
    for (const [field, v] of Object.entries(req.body as Record<string, unknown>)) {
      const f = props[field];
      // numeric strings ("1", "2.5") count as numbers, as the submit itself takes them (BladeX clients send them)
      if (!f || f.readOnly || hasType(f.type, numericString(f, v))) continue;
      const title = f.title;
      const message = app.ctx.i18n.t(req.lang, messageKey(doc, field, 'type'), { field: title ? app.ctx.i18n.t(req.lang, title) : field });
      errors.push({ field, message });
    }
    if (errors.length) throw new HttpError(400, 'error.validation', {}, errors, errors[0].message);
  });
}

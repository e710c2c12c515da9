/**
 * Action forms checked on the server with the form's own schema (issue 14, fuzz finding): a list action
 * with a form (order refund, employee recharge, settlement gen, …) is served by its module, which reads the
 * fields it needs; without this check a value the dialog refuses could still be sent (a 20,000-character
 * refund remark was cut to 144 and the refund made). A preValidation hook validates the JSON or form body
 * of every POST action with a form: each field whose value has the field's JSON type is checked against the
 * field's schema (limits, formats, multipleOf…) before the module runs. Other shapes (ids as "1,2", amounts
 * as text) and missing fields are left to the module, which accepts and checks them itself (a refund without
 * an amount refunds what is left). Multipart bodies (imports) are the module's own.
 */
import { Ajv, type ValidateFunction } from 'ajv';
import type { FastifyInstance } from 'fastify';
import type { ActionDef } from '../../shared/document.js';
import { CUSTOM_FORMATS } from '../../shared/form.js';
import { HttpError } from './http.js';

const ajv = new Ajv({ allErrors: true, strict: false });
for (const [name, re] of Object.entries(CUSTOM_FORMATS)) ajv.addFormat(name, re);

interface FieldCheck {
  type: string | undefined;
  validate: ValidateFunction;
  title?: string;
  messages: Record<string, string>;
  field: Record<string, unknown>;
}

/** Does the value have the field's JSON type? (A module may take other shapes, e.g. ids as "1,2".) */
function sameType(type: string | undefined, v: unknown): boolean {
  if (type === 'string') return typeof v === 'string';
  if (type === 'number') return typeof v === 'number';
  if (type === 'integer') return typeof v === 'number';
  if (type === 'array') return Array.isArray(v);
  if (type === 'boolean') return typeof v === 'boolean';
  return false;
}

export function registerActionFormChecks(app: FastifyInstance): void {
  const checks = new Map<string, Map<string, FieldCheck>>();
  for (const doc of app.ctx.docs.all) {
    for (const a of (doc.list?.actions ?? []) as ActionDef[]) {
      if (a.method !== 'POST' || !a.form?.schema) continue;
      const fields = new Map<string, FieldCheck>();
      for (const [k, f] of Object.entries((a.form.schema.properties ?? {}) as Record<string, Record<string, unknown>>)) {
        const clean = Object.fromEntries(Object.entries(f).filter(([p]) => !p.startsWith('x-') && !['title', 'readOnly', 'default'].includes(p)));
        const ui = (a.form.uiSchema ?? {})[k] as { 'ui:messages'?: Record<string, string> } | undefined;
        fields.set(k, { type: f.type as string | undefined, validate: ajv.compile(clean), title: f.title as string | undefined, messages: ui?.['ui:messages'] ?? {}, field: f });
      }
      checks.set(`${doc.resource.api}/${a.endpoint}`, fields);
    }
  }
  app.addHook('preValidation', async (req) => {
    if (req.method !== 'POST' || !req.body || typeof req.body !== 'object' || Array.isArray(req.body)) return;
    const fields = checks.get(req.routeOptions.url ?? '');
    if (!fields) return;
    const errors: Array<{ field: string; message: string }> = [];
    for (const [name, c] of fields) {
      const v = (req.body as Record<string, unknown>)[name];
      if (!sameType(c.type, v) || c.validate(v)) continue;
      const e = c.validate.errors![0];
      const key = c.messages[e.keyword] ?? `common.validation.${e.keyword}`;
      const message = app.ctx.i18n.t(req.lang, key, { field: c.title ? app.ctx.i18n.t(req.lang, c.title) : name, limit: c.field[e.keyword] }, e.message);
      errors.push({ field: name, message });
    }
    if (errors.length) throw new HttpError(400, 'error.validation', {}, errors, errors[0].message);
  });
}

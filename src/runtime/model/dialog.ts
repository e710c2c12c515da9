/**
 * The add/edit/view dialog as data: the rjsf schema + uiSchema of a mode (built from the shared
 * `formSchema`, so the dialog validates exactly what the server validates), the error transformer that
 * turns ajv errors into the document's messages, and the form data going in and out.
 */
import type { EntitySchema, FieldSchema, FieldUi, Mode, ScreenDocument } from '../../shared/document.js';
import { allProperties, conditionalFields, conditionHolds, fieldUi, isWriteOnly } from '../../shared/fields.js';
import { formSchema, messageKey, messageParams } from '../../shared/form.js';
import { defaultWidget, widgetNames } from '../../shared/registry.js';

/** i18next-style translate function. */
export type Translate = (key: string, params?: Record<string, unknown>) => string;

export type JsonObject = Record<string, unknown>;

export interface DialogModel {
  mode: Mode;
  /** JSON Schema for rjsf (titles translated; standard keywords only). */
  schema: JsonObject;
  /** rjsf uiSchema (widgets are names in our widget registry). */
  uiSchema: JsonObject;
  /** Fields shown in this mode (conditional ones included), in dialog order. */
  order: string[];
  readonly: string[];
  required: string[];
  width: number;
  columns: 1 | 2;
  titleKey: string;
}

/**
 * Widget names (src/shared/registry.ts, read at call time so a module's `extendRegistry` counts).
 * @deprecated read `widgetNames()`; kept for readers written before the shared registry.
 */
export const WIDGETS: readonly string[] = widgetNames();
export type WidgetName = string;

/**
 * The registry widget for a field: the document's `ui:widget` (a name of the shared registry), else the one the
 * shared registry infers for the schema (`defaultWidget`, as the lint does); plain text is rjsf's own input.
 */
export function widgetFor(f: FieldSchema, ui: FieldUi): WidgetName | undefined {
  const declared = ui['ui:widget'];
  if (declared) return widgetNames().includes(declared) ? declared : undefined;
  const inferred = defaultWidget({ ...f, writeOnly: isWriteOnly(f) });
  return inferred === 'text' ? undefined : inferred;
}

const CHOICE_WIDGETS = new Set(['dict', 'date', 'datetime', 'daterange', 'datetimerange', 'month', 'select', 'upload', 'file', 'treeSelect', 'icon']);

function translateTitles(node: unknown, t: Translate): unknown {
  if (Array.isArray(node)) return node.map((n) => translateTitles(n, t));
  if (!node || typeof node !== 'object') return node;
  const out: JsonObject = {};
  // `title` and `description` hold i18n keys; property names like `properties.title` are objects, not strings
  for (const [k, v] of Object.entries(node)) out[k] = (k === 'title' || k === 'description') && typeof v === 'string' ? t(v) : translateTitles(v, t);
  return out;
}

/** The rjsf schema + uiSchema of one dialog mode. */
export function dialogModel(doc: ScreenDocument, mode: Mode, t: Translate): DialogModel {
  const form = formSchema(doc, mode);
  const props = allProperties(doc.schema);
  const columns = doc.dialog?.columns ?? 1;
  const uiSchema: JsonObject = { 'ui:order': [...form.order, '*'], 'ui:submitButtonOptions': { norender: true } };
  for (const field of form.order) {
    const f = props[field];
    const ui = fieldUi(doc, field);
    const title = t(f.title ?? `${doc.id}.field.${field}`);
    const widget = widgetFor(f, ui);
    const readonly = form.readonly.includes(field);
    const docOptions = ui['ui:options'] ?? {};
    const options: JsonObject = {
      ...docOptions,
      span: ui['ui:span'] ?? (columns === 2 ? (widget === 'textarea' || widget === 'json' || widget === 'bpmn' ? 24 : 12) : 24),
      screen: doc.id,
      field,
      numeric: f.type === 'integer' || f.type === 'number' || f.items?.type === 'integer',
    };
    if (f['x-joined']) options.joined = true;
    if (typeof docOptions.tip === 'string') options.tip = t(docOptions.tip);
    if (f['x-dict'] || f.items?.['x-dict']) options.dictCode = f['x-dict'] ?? f.items?.['x-dict'];
    if (f.maxLength) options.maxLength = f.maxLength;
    const entry: JsonObject = { 'ui:title': title, 'ui:options': options };
    if (widget) entry['ui:widget'] = widget;
    if (readonly) entry['ui:readonly'] = true;
    if (ui['ui:help']) entry['ui:help'] = t(ui['ui:help']);
    if (!readonly) {
      const ph = ui['ui:placeholder'];
      entry['ui:placeholder'] = ph ? t(ph) : t(CHOICE_WIDGETS.has(widget ?? '') ? 'common.placeholder.select' : 'common.placeholder.input', { field: title });
    }
    uiSchema[field] = entry;
  }
  const required = [
    ...(form.schema.required ?? []),
    ...(form.schema.allOf ?? []).flatMap((b) => [...(b.then?.required ?? []), ...(b.else?.required ?? [])]),
  ];
  return {
    mode,
    schema: translateTitles(form.schema, t) as JsonObject,
    uiSchema,
    order: form.order,
    readonly: form.readonly,
    required,
    // a BPMN designer needs room for its canvas and properties panel
    width: doc.dialog?.width ?? (form.order.some((f) => uiSchema[f] && (uiSchema[f] as JsonObject)['ui:widget'] === 'bpmn') ? 1200 : columns === 2 ? 780 : 600),
    columns,
    titleKey: `common.action.${mode}`,
  };
}

/** Fields of the mode that are present for these form values (conditional fields only when their test holds). */
export function visibleFields(doc: ScreenDocument, mode: Mode, values: JsonObject): string[] {
  const conds = conditionalFields(doc.schema);
  return formSchema(doc, mode).order.filter((f) => !conds[f] || conditionHolds(conds[f], values));
}

/** The subset of rjsf's RJSFValidationError we read and write. */
export interface FormError {
  name?: string;
  message?: string;
  params?: any;
  property?: string;
  schemaPath?: string;
  stack: string;
  title?: string;
}

/** The field an error belongs to (top-level property). */
export function errorField(e: FormError): string | undefined {
  if (e.name === 'required' && e.params?.missingProperty && !(e.property ?? '').replace(/^\./, '').includes('.')) {
    return String(e.params.missingProperty);
  }
  const path = (e.property ?? '').replace(/^\./, '');
  const first = path.split(/[.[]/)[0];
  return first || (e.params?.missingProperty ? String(e.params.missingProperty) : undefined);
}

/**
 * rjsf `transformErrors`: every error gets the document's message (ui:messages key, else the common
 * one with the field's limits), is attached to its top-level field so it shows under that field, and
 * only the first error of a field is kept (length before format, like the spec's phone check). `if` wrapper errors are dropped.
 */
export function createTransformErrors(doc: ScreenDocument, t: Translate) {
  const props = allProperties(doc.schema);
  return function transformErrors<E extends FormError>(errors: E[]): E[] {
    const seen = new Set<string>();
    const out: E[] = [];
    for (const e of errors) {
      if (e.name === 'if' || e.name === 'allOf') continue;
      const field = errorField(e);
      if (!field) {
        out.push(e);
        continue;
      }
      const keyword = e.name ?? 'format';
      const f = props[field];
      const title = f?.title ? t(f.title) : field;
      const message = t(messageKey(doc, field, keyword), { ...messageParams(doc, field, keyword), field: title });
      // One message per field, the first ajv reports (length before format, as the spec's phone check).
      if (seen.has(field)) continue;
      seen.add(field);
      out.push({ ...e, property: `.${field}`, message, stack: `${title}: ${message}`, title });
    }
    return out;
  };
}

/** Keep only errors of touched fields (live validation on blur shows what the user has left). */
export function errorsOfTouched<E extends FormError>(errors: E[], touched: Set<string> | 'all'): E[] {
  if (touched === 'all') return errors;
  return errors.filter((e) => {
    const f = errorField(e);
    return !f || touched.has(f);
  });
}

/** rjsf field id (`root_contractDaterange_0`) → top-level field name. */
export function fieldOfId(id: string): string {
  return id.replace(/^root_?/, '').split('_')[0];
}

function coerce(f: FieldSchema | undefined, v: unknown): unknown {
  if (v === null || v === undefined || v === '') return undefined;
  if (!f) return v;
  if ((f.type === 'integer' || f.type === 'number') && typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  if (f.type === 'string' && typeof v === 'number') return String(v);
  if (f.format === 'date' && typeof v === 'string') return v.slice(0, 10);
  if (f.format === 'date-time' && typeof v === 'string') return v.slice(0, 19).replace('T', ' ');
  if (f.type === 'array') {
    let arr: unknown = v;
    if (typeof v === 'string') {
      try {
        arr = v.trim().startsWith('[') ? JSON.parse(v) : v.split(',');
      } catch {
        arr = v.split(',');
      }
    }
    if (!Array.isArray(arr)) return undefined;
    const items = arr.map((x) => coerce(f.items, x)).filter((x) => x !== undefined);
    return items.length ? items : undefined;
  }
  if (f.type === 'object' && typeof v === 'string') {
    try {
      return JSON.parse(v);
    } catch {
      return v;
    }
  }
  return v;
}

/**
 * A record (from `detail`) → rjsf formData: nulls and '' dropped, write-only fields dropped, numbers and
 * dates in the types the schema expects; `id` kept.
 */
export function prepareFormData(doc: ScreenDocument, record: JsonObject | undefined): JsonObject {
  const props = allProperties(doc.schema);
  const out: JsonObject = {};
  if (!record) return out;
  if (record.id !== undefined && record.id !== null && record.id !== '') out.id = String(record.id);
  for (const [k, f] of Object.entries(props)) {
    if (isWriteOnly(f)) continue;
    const v = coerce(f, record[k]);
    if (v !== undefined) out[k] = v;
  }
  return out;
}

/**
 * rjsf formData → submit body: only fields the mode accepts (shown, not read-only); conditional fields
 * whose condition fails are left out; in edit mode an emptied field is sent as null so the server
 * clears it, and `id` is kept.
 */
export function submitPayload(doc: ScreenDocument, mode: Exclude<Mode, 'view'>, formData: JsonObject): JsonObject {
  const form = formSchema(doc, mode);
  const conds = conditionalFields(doc.schema);
  const out: JsonObject = {};
  if (mode === 'edit' && formData.id !== undefined) out.id = formData.id;
  for (const f of form.order) {
    if (form.readonly.includes(f)) continue;
    const present = !conds[f] || conditionHolds(conds[f], formData);
    const v = formData[f];
    const empty = v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);
    if (present && !empty) out[f] = typeof v === 'string' ? v.trim() : v;
    else if (mode === 'edit') out[f] = null;
  }
  return out;
}

/**
 * Field errors from a server 400 reply, as an rjsf `extraErrors` schema. Accepts the shapes our server
 * may send in `data`: `{field: message}`, `[{field|property, message|msg}]` or `{errors: [...]}`.
 */
export function serverFieldErrors(data: unknown, t: Translate): Record<string, { __errors: string[] }> | undefined {
  const out: Record<string, { __errors: string[] }> = {};
  // `messageKey` is an i18n key; `message`/`msg` is text the server already translated (shown as is).
  const add = (field: unknown, text: unknown) => {
    if (typeof field !== 'string' || !field || typeof text !== 'string' || !text) return;
    const f = field.replace(/^[./]+/, '').split(/[./[]/)[0];
    (out[f] ??= { __errors: [] }).__errors.push(text);
  };
  const list = (arr: unknown[]) => {
    for (const e of arr) {
      if (e && typeof e === 'object') {
        const o = e as JsonObject;
        const text = typeof o.messageKey === 'string' ? t(o.messageKey, o.messageParams as Record<string, unknown> | undefined) : (o.message ?? o.msg);
        add(o.field ?? o.property ?? o.path ?? o.instancePath, text);
      }
    }
  };
  if (Array.isArray(data)) list(data);
  else if (data && typeof data === 'object') {
    const o = data as JsonObject;
    if (Array.isArray(o.errors)) list(o.errors);
    else if (o.errors && typeof o.errors === 'object') for (const [k, v] of Object.entries(o.errors)) add(k, Array.isArray(v) ? v[0] : v);
    else for (const [k, v] of Object.entries(o)) if (typeof v === 'string') add(k, v);
  }
  return Object.keys(out).length ? out : undefined;
}

/** An `EntitySchema`-only pseudo document (for named actions with a form). */
export function actionFormDoc(doc: ScreenDocument, name: string, form: { schema: EntitySchema; uiSchema?: ScreenDocument['uiSchema']; width?: number }): ScreenDocument {
  return {
    id: doc.id,
    schemaVersion: doc.schemaVersion,
    title: doc.title,
    route: doc.route,
    resource: { ...doc.resource },
    schema: form.schema,
    uiSchema: form.uiSchema,
    list: { columns: [] },
    dialog: { width: form.width ?? 560, columns: 1 },
    [`x-action`]: name,
  } as ScreenDocument;
}

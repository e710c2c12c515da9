/** Search form: fields, widgets, defaults, required checks and the request params. */
import type { ScreenDocument, SearchOp } from '../../shared/document.js';
import { listableProperties } from '../../shared/fields.js';
import { buildSearchParams, resolveRangeDefault } from '../../shared/search.js';

export type SearchWidget = 'text' | 'number' | 'dict' | 'dateRange' | 'numberRange';

export interface SearchFieldModel {
  field: string;
  op: SearchOp;
  widget: SearchWidget;
  /** i18n key of the label. */
  labelKey: string;
  dictCode?: string;
  /** Integer/number field (dict select values are numbers then). */
  numeric: boolean;
  /** i18n key of the message when the search is required and missing. */
  required?: string;
  default?: unknown;
}

export interface SearchModel {
  fields: SearchFieldModel[];
}

export function searchModel(doc: ScreenDocument): SearchModel {
  const props = listableProperties(doc);
  // the aside tree's field is chosen in the tree, not typed in the search bar
  const fields = (doc.list.search ?? []).filter((s) => s.field !== doc.list.aside?.field).map((s): SearchFieldModel => {
    const f = props[s.field];
    const numeric = f?.type === 'integer' || f?.type === 'number';
    let widget: SearchWidget = 'text';
    if (s.op === 'dateRange') widget = 'dateRange';
    else if (s.op === 'range') widget = 'numberRange';
    else if (f?.['x-dict']) widget = 'dict';
    else if (numeric) widget = 'number';
    return {
      field: s.field,
      op: s.op,
      widget,
      labelKey: s.label ?? f?.title ?? `${doc.id}.field.${s.field}`,
      dictCode: f?.['x-dict'],
      numeric,
      required: s.required,
      default: s.default,
    };
  });
  return { fields };
}

/** Initial search values: dateRange defaults resolved to [from, to] yyyy-MM-dd, others as declared. */
export function searchDefaults(model: SearchModel, now = new Date()): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of model.fields) {
    if (f.default === undefined) continue;
    out[f.field] = f.widget === 'dateRange' ? resolveRangeDefault(f.default, now) : f.default;
  }
  return out;
}

function isEmpty(v: unknown): boolean {
  if (v === undefined || v === null || v === '') return true;
  if (Array.isArray(v)) return v.length === 0 || v.every((x) => x === undefined || x === null || x === '');
  return false;
}

/** Required searches that are missing: field and the i18n key of its message. */
export function validateSearch(model: SearchModel, values: Record<string, unknown>): Array<{ field: string; message: string }> {
  return model.fields.filter((f) => f.required && isEmpty(values[f.field])).map((f) => ({ field: f.field, message: f.required! }));
}

/** Search values (strings, numbers, [from, to] yyyy-MM-dd) → query params in the wire format. */
export function toParams(doc: ScreenDocument, values: Record<string, unknown>): Record<string, string> {
  return buildSearchParams(doc, values);
}

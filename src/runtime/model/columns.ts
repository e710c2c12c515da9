/** List columns: what the table shows, derived from `list.columns` and the field schemas. */
import type { FieldSchema, ScreenDocument } from '../../shared/document.js';
import { listableProperties, toSnake } from '../../shared/fields.js';
import { dictLabel, type DictMap } from './dicts.js';

export type RenderKind = 'dict' | 'image' | 'link' | 'money' | 'percent' | 'json' | 'date' | 'date-time' | 'text' | 'lookup' | 'icon' | 'daterange' | 'tag' | (string & {});

export interface ColumnModel {
  field: string;
  /** i18n key of the header. */
  titleKey: string;
  width?: number;
  sortable: boolean;
  /** Hidden by default (the user may show it). */
  hidden: boolean;
  fixed?: 'left' | 'right';
  render: RenderKind;
  dictCode?: string;
  /** Lookup cells: the read-only field holding the label(s) of the referenced record(s). */
  labelField?: string;
}

export interface ListModel {
  columns: ColumnModel[];
  index: boolean;
  selection: boolean;
  pageSizes: number[];
  defaultPageSize: number;
  defaultSort: Array<{ field: string; dir: 'asc' | 'desc' }>;
}

export const DEFAULT_PAGE_SIZES = [10, 30, 50, 100, 200];

function renderKind(f: FieldSchema | undefined, hint: string | undefined): RenderKind {
  if (hint && hint !== 'text') return hint as RenderKind;
  if (f?.['x-dict']) return 'dict';
  if (f?.['x-lookup']) return 'lookup';
  if (f?.format === 'date-time') return 'date-time';
  if (f?.type === 'array' && (f.items?.format === 'date' || f.items?.format === 'date-time') && f.maxItems === 2) return 'daterange';
  if (f?.format === 'date') return 'date';
  if (!hint && (f?.type === 'object' || f?.type === 'array')) return 'json';
  return 'text';
}

/** The read-only field the server sends a lookup's label in (`as`, default `<field>Name`). */
export function lookupLabelField(field: string, f: FieldSchema | undefined): string | undefined {
  const l = f?.['x-lookup'];
  return l ? (l.as ?? `${field}Name`) : undefined;
}

function dateText(v: unknown): string {
  const s = String(v ?? '').slice(0, 19).replace('T', ' ');
  return s.endsWith(' 00:00:00') ? s.slice(0, 10) : s;
}

/** A pair of dates (array, or the JSON text of one) as "2026-01-01 ~ 2026-02-01". */
export function rangeText(value: unknown): string {
  let v = value;
  if (typeof v === 'string' && v.trim().startsWith('[')) {
    try {
      v = JSON.parse(v);
    } catch {
      return String(value);
    }
  }
  if (!Array.isArray(v)) return String(v ?? '');
  return v.filter((x) => x !== null && x !== undefined && x !== '').map(dateText).join(' ~ ');
}

export function columnsModel(doc: ScreenDocument): ListModel {
  const props = listableProperties(doc);
  const columns = doc.list.columns.map((c): ColumnModel => {
    const f = props[c.field];
    const render = c.render === 'text' ? 'text' : f?.['x-dict'] && !c.render ? 'dict' : renderKind(f, c.render);
    return {
      field: c.field,
      titleKey: c.label ?? f?.title ?? `${doc.id}.field.${c.field}`,
      width: c.width,
      sortable: !!c.sortable,
      hidden: !!c.hidden,
      fixed: c.fixed,
      render,
      dictCode: render === 'dict' ? f?.['x-dict'] : undefined,
      labelField: render === 'lookup' ? lookupLabelField(c.field, f) : undefined,
    };
  });
  const pageSizes = doc.list.pageSizes?.length ? doc.list.pageSizes : DEFAULT_PAGE_SIZES;
  return {
    columns,
    index: doc.list.index !== false,
    selection: doc.list.selection !== false,
    pageSizes,
    defaultPageSize: doc.list.defaultPageSize ?? pageSizes[0],
    defaultSort: doc.list.defaultSort ?? [],
  };
}

/** The visibility map a table starts with: hidden columns → false. */
export function initialVisibility(model: ListModel): Record<string, boolean> {
  return Object.fromEntries(model.columns.filter((c) => c.hidden).map((c) => [c.field, false]));
}

/** Sorting state (field, desc) → BladeX `ascs`/`descs` (snake_case columns, comma-joined). */
export function sortParams(sorting: Array<{ id: string; desc: boolean }>): { ascs?: string; descs?: string } {
  const ascs = sorting.filter((s) => !s.desc).map((s) => toSnake(s.id));
  const descs = sorting.filter((s) => s.desc).map((s) => toSnake(s.id));
  const out: { ascs?: string; descs?: string } = {};
  if (ascs.length) out.ascs = ascs.join(',');
  if (descs.length) out.descs = descs.join(',');
  return out;
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

/** Text of a cell for a render kind (images and links are drawn by the renderer; this gives their text). */
export function formatCell(col: Pick<ColumnModel, 'render' | 'dictCode'>, value: unknown, dicts: DictMap, lang: string): string {
  if (value === undefined || value === null || value === '') return '';
  switch (col.render) {
    case 'dict':
      return dictLabel(col.dictCode ? dicts[col.dictCode] : undefined, value, lang);
    case 'money': {
      const n = Number(value);
      if (!Number.isFinite(n)) return String(value);
      // Amounts arrive as decimal strings or numbers with at most 2 decimals: format without float sums.
      const s = typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value) ? value : n.toFixed(2);
      const [int, frac = ''] = s.split('.');
      return `${int}.${(frac + '00').slice(0, 2)}`;
    }
    case 'percent':
      return `${value}%`;
    case 'json':
      return typeof value === 'string' ? value : JSON.stringify(value);
    case 'daterange':
      return rangeText(value);
    case 'date':
      return String(value).slice(0, 10);
    case 'date-time': {
      if (typeof value === 'string') return value.slice(0, 19).replace('T', ' ');
      if (value instanceof Date) {
        const d = value;
        return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
      }
      return String(value);
    }
    default:
      return typeof value === 'object' ? JSON.stringify(value) : String(value);
  }
}

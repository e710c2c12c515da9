/**
 * The search wire format, one definition for both sides. It is BladeX's suffix convention
 * (`name_equal`, `createTime_datege` …), but only the suffixes that match the operator a document
 * declares for a field are accepted; anything else a client sends is dropped before SQL is built.
 */
import type { ScreenDocument, SearchField, SearchOp } from './document.js';
import { listableProperties, toCamel } from './fields.js';
import { isDate } from './form.js';

export type SqlOp = '=' | '>' | '>=' | '<' | '<=' | 'contains' | 'prefix' | 'under';

/** Suffixes accepted per declared operator ('' = the bare field name). */
export const OP_SUFFIXES: Record<SearchOp, Record<string, SqlOp>> = {
  equal: { '': '=', _equal: '=' },
  contains: { '': 'contains', _like: 'contains' },
  prefix: { '': 'prefix', _likeright: 'prefix' },
  dateRange: { _datege: '>=', _dategt: '>', _datele: '<=', _datelt: '<' },
  range: { _ge: '>=', _gt: '>', _le: '<=', _lt: '<' },
  under: { '': 'under' },
};

/** Request keys that are never search conditions. */
export const RESERVED_KEYS = new Set(['current', 'size', 'ascs', 'descs', 'blade-auth', 'columns', 'lang', '_t']);

export interface Condition {
  field: string;
  op: SqlOp;
  value: string | number;
  /** `under`: the tree the key is a node of (resolved by the server from the field's x-lookup screen). */
  tree?: { table: string; tenantScoped: boolean; ancestorsColumn: string };
}

/** A day, optionally with a time (seconds optional); the day is also checked against the calendar (isDate). */
const DATE_TIME = /^\d{4}-\d{2}-\d{2}( ([01]\d|2[0-3]):[0-5]\d(:[0-5]\d)?)?$/;

export class SearchError extends Error {}

/**
 * `createTime_datege|dategt|datele|datelt` are honoured on every list whose records have a create time, declared
 * as a search or not: BladeX clients send them to any list (its Query convention), and the time is indexed.
 */
const CREATE_TIME_RANGE: SearchField = { field: 'createTime', op: 'dateRange' };

/**
 * Server side: turn query parameters into conditions over declared fields only.
 * Values are type-checked against the field (a bad number or date is an error, not a silent miss).
 */
export function parseSearchParams(doc: ScreenDocument, query: Record<string, unknown>): Condition[] {
  const props = listableProperties(doc);
  const declared = new Map((doc.list.search ?? []).map((s) => [s.field, s]));
  const out: Condition[] = [];
  for (const [key, raw] of Object.entries(query)) {
    if (RESERVED_KEYS.has(key) || raw === undefined || raw === null || raw === '') continue;
    const value = Array.isArray(raw) ? raw[raw.length - 1] : raw;
    if (typeof value !== 'string' && typeof value !== 'number') continue;
    const us = key.indexOf('_');
    const field = us < 0 ? key : key.slice(0, us);
    const suffix = us < 0 ? '' : key.slice(us);
    const s = declared.get(field) ?? (field === 'createTime' && props.createTime ? CREATE_TIME_RANGE : undefined);
    if (!s) continue;
    const op = OP_SUFFIXES[s.op][suffix];
    if (!op) continue;
    const f = props[field];
    let v: string | number = typeof value === 'number' ? value : value.trim();
    if (v === '') continue;
    if (s.op === 'under') {
      if (!/^[0-9]{1,19}$/.test(String(v))) throw new SearchError(`${key}: id`);
      v = String(v);
    } else if (s.op === 'dateRange') {
      if (typeof v !== 'string' || !DATE_TIME.test(v) || !isDate(v.slice(0, 10))) throw new SearchError(`${key}=${v}: yyyy-MM-dd HH:mm:ss`);
    } else if (f?.type === 'integer' || f?.type === 'number') {
      const n = Number(v);
      if (!Number.isFinite(n) || (f.type === 'integer' && !Number.isInteger(n))) throw new SearchError(`${key}: number`);
      v = n;
    } else if (typeof v === 'string' && v.length > 200) {
      throw new SearchError(`${key}: too long`);
    }
    out.push({ field, op, value: v });
  }
  return out;
}

/** Required searches the request lacks (their message keys). */
export function missingRequiredSearches(doc: ScreenDocument, conditions: Condition[]): SearchField[] {
  const have = new Set(conditions.map((c) => c.field));
  return (doc.list.search ?? []).filter((s) => s.required && !have.has(s.field));
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

/** yyyy-MM-dd of a Date in local time. */
export function ymd(d: Date): string {
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** The day after a yyyy-MM-dd date, as yyyy-MM-dd (calendar arithmetic, no time zone). */
export function nextDay(date: string): string {
  const [y, m, d] = date.slice(0, 10).split('-').map(Number);
  const t = new Date(Date.UTC(y, m - 1, d + 1));
  return `${t.getUTCFullYear()}-${pad(t.getUTCMonth() + 1)}-${pad(t.getUTCDate())}`;
}

/** Resolve a dateRange default (`today`, `thisMonth`, or a pair) to [from, to] yyyy-MM-dd. */
export function resolveRangeDefault(def: unknown, now = new Date()): [string, string] | undefined {
  if (def === 'today') return [ymd(now), ymd(now)];
  if (def === 'thisMonth') return [ymd(new Date(now.getFullYear(), now.getMonth(), 1)), ymd(now)];
  if (Array.isArray(def) && def.length === 2) return [String(def[0]), String(def[1])];
  return undefined;
}

/**
 * Client side: search form values → query params. A date range [from, to] (days, inclusive) becomes
 * `<f>_datege=<from> 00:00:00` and `<f>_datelt=<to + 1 day> 00:00:00`, so the whole last day is included.
 */
export function buildSearchParams(doc: ScreenDocument, values: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const s of doc.list.search ?? []) {
    const v = values[s.field];
    if (v === undefined || v === null || v === '') continue;
    switch (s.op) {
      case 'dateRange': {
        if (!Array.isArray(v) || v.length !== 2 || !v[0] || !v[1]) break;
        const from = String(v[0]).slice(0, 10);
        const to = String(v[1]).slice(0, 10);
        out[`${s.field}_datege`] = `${from} 00:00:00`;
        out[`${s.field}_datelt`] = `${nextDay(to)} 00:00:00`;
        break;
      }
      case 'range': {
        if (!Array.isArray(v)) break;
        if (v[0] !== undefined && v[0] !== null && v[0] !== '') out[`${s.field}_ge`] = String(v[0]);
        if (v[1] !== undefined && v[1] !== null && v[1] !== '') out[`${s.field}_le`] = String(v[1]);
        break;
      }
      case 'equal':
        out[`${s.field}_equal`] = String(v);
        break;
      case 'prefix':
        out[`${s.field}_likeright`] = String(v).trim();
        break;
      default:
        out[s.field] = String(v).trim();
    }
  }
  return out;
}

/** Sort keys a client may send (ascs/descs): only sortable columns, mapped back to fields. */
export function parseSort(doc: ScreenDocument, ascs: unknown, descs: unknown): Array<{ field: string; dir: 'asc' | 'desc' }> {
  const sortable = new Set(doc.list.columns.filter((c) => c.sortable).map((c) => c.field));
  const out: Array<{ field: string; dir: 'asc' | 'desc' }> = [];
  const take = (raw: unknown, dir: 'asc' | 'desc') => {
    if (typeof raw !== 'string') return;
    for (const k of raw.split(',')) {
      const f = toCamel(k.trim());
      if (sortable.has(f)) out.push({ field: f, dir });
    }
  };
  take(ascs, 'asc');
  take(descs, 'desc');
  return out.length ? out : doc.list.defaultSort ?? [];
}

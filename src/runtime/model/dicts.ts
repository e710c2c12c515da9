/** Dictionaries: which codes a screen uses, and label lookup in the current language. */
import type { EntitySchema, ScreenDocument } from '../../shared/document.js';
import { allProperties, listableProperties, looseEqual } from '../../shared/fields.js';

/** One dictionary entry as the dictionary endpoints return it. */
export interface DictItem {
  dictKey: string | number;
  dictValue: string;
  dictValueEn?: string | null;
  code?: string;
  sort?: number;
  [k: string]: unknown;
}

/** code → entries. */
export type DictMap = Record<string, DictItem[]>;

function schemaDictCodes(schema: EntitySchema | undefined, out: Set<string>): void {
  if (!schema) return;
  for (const f of Object.values(allProperties(schema))) {
    if (f['x-dict']) out.add(f['x-dict']);
    if (f.items?.['x-dict']) out.add(f.items['x-dict']);
  }
}

/** Every dictionary code the screen uses (columns, searches, dialog fields, action forms), sorted. */
export function dictCodes(doc: ScreenDocument): string[] {
  const out = new Set<string>();
  const props = listableProperties(doc);
  for (const c of doc.list.columns) {
    const code = props[c.field]?.['x-dict'];
    if (code) out.add(code);
  }
  for (const s of doc.list.search ?? []) {
    const code = props[s.field]?.['x-dict'];
    if (code) out.add(code);
  }
  schemaDictCodes(doc.schema, out);
  for (const a of doc.list.actions ?? []) schemaDictCodes(a.form?.schema, out);
  return [...out].sort();
}

/** Label of one entry in a language (dictValueEn for en when present, else dictValue). */
export function itemLabel(item: DictItem, lang: string): string {
  if (lang.startsWith('en') && item.dictValueEn) return String(item.dictValueEn);
  return String(item.dictValue ?? '');
}

/**
 * Label for a value: keys compare loosely ('1' == 1); a comma-joined value gives joined labels;
 * an unknown key shows the raw value; empty values give ''.
 */
export function dictLabel(items: DictItem[] | undefined, value: unknown, lang: string): string {
  if (value === undefined || value === null || value === '') return '';
  const one = (v: unknown) => {
    const hit = items?.find((i) => looseEqual(i.dictKey, v));
    return hit ? itemLabel(hit, lang) : String(v);
  };
  if (Array.isArray(value)) return value.map(one).join(', ');
  if (typeof value === 'string' && value.includes(',')) return value.split(',').map((v) => one(v.trim())).join(', ');
  return one(value);
}

/** Select options for a dictionary; values typed to the field (integer fields get numbers). */
export function dictOptions(items: DictItem[] | undefined, lang: string, numeric = false): Array<{ value: string | number; label: string }> {
  return [...(items ?? [])]
    .sort((a, b) => (a.sort ?? 0) - (b.sort ?? 0))
    .map((i) => ({ value: numeric && /^-?\d+$/.test(String(i.dictKey)) ? Number(i.dictKey) : String(i.dictKey), label: itemLabel(i, lang) }));
}

/**
 * The batch endpoint's `data`, normalised to code → entries. Accepts a map (`{code: [...]}`) or a flat
 * list of entries that carry their `code`.
 */
export function normalizeDictBatch(data: unknown, codes: string[]): DictMap {
  const out: DictMap = {};
  for (const c of codes) out[c] = [];
  if (Array.isArray(data)) {
    for (const raw of data as DictItem[]) if (raw && raw.code) (out[raw.code] ??= []).push(raw);
  } else if (data && typeof data === 'object') {
    for (const [code, items] of Object.entries(data as Record<string, unknown>)) if (Array.isArray(items)) out[code] = items as DictItem[];
  }
  return out;
}

/** The swr key / query value of a set of codes: unique, sorted, comma-joined. */
export function dictKey(codes: string[]): string {
  return [...new Set(codes.filter(Boolean))].sort().join(',');
}

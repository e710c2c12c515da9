/**
 * The tree-select widget as data: TreeNode replies (BladeX: id, parentId, title, key, value, children) as antd
 * tree options, where the nodes come from (`ui:options.tree`), and the value going in and out: one key, an
 * array of keys, or — for `x-joined` string fields — the comma-joined string BladeX sends ("1,2,3").
 */
import type { TreeSource } from '../../shared/document.js';

export interface TreeNode {
  id?: string | number;
  parentId?: string | number;
  key?: string | number;
  value?: string | number;
  title?: string;
  label?: string;
  name?: string;
  hasChildren?: boolean;
  children?: TreeNode[];
  [k: string]: unknown;
}

export interface TreeOption {
  value: string;
  title: string;
  key: string;
  selectable?: boolean;
  disableCheckbox?: boolean;
  isLeaf?: boolean;
  children?: TreeOption[];
}

export function nodeValue(n: TreeNode): string {
  return String(n.value ?? n.key ?? n.id ?? '');
}

/** TreeNodes → antd TreeSelect treeData; with `leafOnly` a node that has children can't be chosen. */
export function treeOptions(nodes: TreeNode[] | undefined, opts: { leafOnly?: boolean } = {}): TreeOption[] {
  return (nodes ?? []).map((n) => {
    const value = nodeValue(n);
    const kids = n.children?.length ? treeOptions(n.children, opts) : undefined;
    const parent = !!kids || !!n.hasChildren;
    const o: TreeOption = { value, key: value, title: String(n.title ?? n.label ?? n.name ?? value) };
    if (kids) o.children = kids;
    if (opts.leafOnly && parent) {
      o.selectable = false;
      o.disableCheckbox = true;
    }
    if (!parent) o.isLeaf = true;
    return o;
  });
}

/** Title of each value in a tree (labels for values the widget shows). */
export function treeTitles(options: TreeOption[], out: Map<string, string> = new Map()): Map<string, string> {
  for (const o of options) {
    out.set(o.value, o.title);
    if (o.children) treeTitles(o.children, out);
  }
  return out;
}

export interface TreeValueOptions {
  multiple?: boolean;
  /** The field is a comma-joined string ("1,2,3"). */
  joined?: boolean;
  /** The field (or its items) are numbers. */
  numeric?: boolean;
}

/** A form value → the widget's value (keys as strings). */
export function treeValueIn(value: unknown, o: TreeValueOptions): string | string[] | undefined {
  if (value === undefined || value === null || value === '') return o.multiple ? [] : undefined;
  const list = Array.isArray(value) ? value : typeof value === 'string' && (o.joined || o.multiple) ? value.split(',') : [value];
  const keys = list.map((v) => (v && typeof v === 'object' && 'value' in v ? String((v as { value: unknown }).value) : String(v))).filter((v) => v !== '');
  return o.multiple ? keys : keys[0];
}

/** The widget's value (keys, or antd's labelled values under checkStrictly) → the form value. */
export function treeValueOut(v: unknown, o: TreeValueOptions): unknown {
  const raw = Array.isArray(v) ? v : v === undefined || v === null || v === '' ? [] : [v];
  const keys = raw.map((x) => (x && typeof x === 'object' && 'value' in x ? String((x as { value: unknown }).value) : String(x))).filter((x) => x !== '');
  if (!keys.length) return undefined;
  if (o.joined) return o.multiple ? keys.join(',') : keys[0];
  const typed = o.numeric ? keys.map(Number) : keys;
  return o.multiple ? typed : typed[0];
}

/**
 * The request for a tree's nodes: `screen` → that document's `{api}/tree` (the api is resolved by the caller),
 * else `endpoint`; fixed `params` plus `paramsFrom` (query param → form field). Null while a `paramsFrom` field
 * the tree depends on is still empty (a tenant's departments before the tenant is chosen).
 */
export function treeRequest(
  source: TreeSource | undefined,
  form: Record<string, unknown>,
  screenApi?: string,
): { url: string; params: Record<string, unknown> } | null {
  if (!source) return null;
  const url = source.endpoint ?? (source.screen && screenApi ? `${screenApi.replace(/\/$/, '')}/tree` : undefined);
  if (!url) return null;
  const params: Record<string, unknown> = { ...(source.params ?? {}) };
  for (const [param, field] of Object.entries(source.paramsFrom ?? {})) {
    const v = form[field];
    if (v === undefined || v === null || v === '') return null;
    params[param] = v;
  }
  return { url, params };
}

/** Which buttons a user sees: built-ins and named actions gated by permission codes and row rules. */
import type { ActionDef, RowRule, ScreenDocument } from '../../shared/document.js';
import { builtinPermission, builtins, looseEqual } from '../../shared/fields.js';
import { importAction } from '../../shared/import.js';
import { columnsModel, type ColumnModel } from './columns.js';

export type Permissions = Record<string, boolean | undefined>;

export type ToolbarItem =
  | { kind: 'add' | 'delete' | 'export'; labelKey: string; permission: string }
  | { kind: 'action'; labelKey: string; permission: string; action: ActionDef };

export type RowItem =
  | { kind: 'view' | 'edit' | 'delete'; labelKey: string; permission: string }
  | { kind: 'action'; labelKey: string; permission: string; action: ActionDef };

export interface ActionsModel {
  toolbar: ToolbarItem[];
  row: RowItem[];
}

const LABELS = {
  add: 'common.action.add',
  edit: 'common.action.edit',
  view: 'common.action.view',
  delete: 'common.action.delete',
  export: 'common.action.export',
} as const;

export function allowed(permissions: Permissions | undefined, code: string): boolean {
  return permissions?.[code] === true;
}

/** Buttons for a permission map `{code: true}`. */
export function actionsModel(doc: ScreenDocument, permissions: Permissions | undefined): ActionsModel {
  const offered = builtins(doc);
  const readOnly = !!doc.resource.readOnlyApi;
  const can = (a: 'add' | 'edit' | 'view' | 'delete' | 'export') =>
    offered.has(a) && !(readOnly && (a === 'add' || a === 'edit' || a === 'delete')) && allowed(permissions, builtinPermission(doc, a));
  const toolbar: ToolbarItem[] = [];
  const row: RowItem[] = [];
  if (can('add')) toolbar.push({ kind: 'add', labelKey: LABELS.add, permission: builtinPermission(doc, 'add') });
  if (can('delete') && doc.list.selection !== false)
    toolbar.push({ kind: 'delete', labelKey: LABELS.delete, permission: builtinPermission(doc, 'delete') });
  if (can('export')) toolbar.push({ kind: 'export', labelKey: LABELS.export, permission: builtinPermission(doc, 'export') });
  for (const k of ['view', 'edit', 'delete'] as const) {
    if (can(k)) row.push({ kind: k, labelKey: LABELS[k], permission: builtinPermission(doc, k) });
  }
  const importing = offered.has('import') && !readOnly ? [importAction(doc)] : [];
  for (const a of [...importing, ...(doc.list.actions ?? [])]) {
    if (!allowed(permissions, a.permission)) continue;
    const item = { kind: 'action' as const, labelKey: a.label, permission: a.permission, action: a };
    if (a.position === 'toolbar') toolbar.push(item);
    else row.push(item);
  }
  return { toolbar, row };
}

/** One rule against a row: eq / ne / in, loose on keys ('2' == 2). */
export function ruleHolds(rule: RowRule, row: Record<string, unknown>): boolean {
  const v = row[rule.field];
  const isNull = (x: unknown) => x === null || x === undefined || x === '';
  if ('eq' in rule && (rule.eq === null ? !isNull(v) : !looseEqual(v, rule.eq))) return false;
  if ('ne' in rule && (rule.ne === null ? isNull(v) : looseEqual(v, rule.ne))) return false;
  if (rule.in && !rule.in.some((x) => looseEqual(v, x))) return false;
  return true;
}

/** A `visibleWhen` list: every rule must hold (absent or empty = always visible). */
export function visibleWhen(rules: RowRule[] | undefined, row: Record<string, unknown>): boolean {
  return (rules ?? []).every((r) => ruleHolds(r, row));
}

/** The row buttons for one record. */
export function rowActions(model: ActionsModel, row: Record<string, unknown>): RowItem[] {
  return model.row.filter((i) => i.kind !== 'action' || actionShownFor(i.action, row));
}

/** Does a named row action show for this record: its row rules hold, and a page link has every part it needs. */
export function actionShownFor(action: ActionDef, row: Record<string, unknown>): boolean {
  return visibleWhen(action.visibleWhen, row) && (!action.navigate || navigateTarget(action.navigate, row) !== null);
}

/**
 * Row buttons shown inline and the rest folded into a "more" menu, so the operation column stays narrow
 * (a merchant row has six buttons: inline they take ~450 px, the whole width of a phone).
 */
export function splitRowItems<T>(items: T[], maxInline = 3): { inline: T[]; more: T[] } {
  if (items.length <= maxInline + 1) return { inline: items, more: [] };
  return { inline: items.slice(0, maxInline), more: items.slice(maxInline) };
}

/** Batch delete / selection actions: the warning key when nothing is selected, else null. */
export function checkSelection(ids: unknown[]): string | null {
  return ids.length ? null : 'common.msg.selectOne';
}

/** URL of a named action: its endpoint under resource.api, or an absolute `/api/…` path as it stands. */
export function actionUrl(doc: ScreenDocument, action: Pick<ActionDef, 'endpoint'>): string {
  const endpoint = action.endpoint ?? '';
  if (endpoint.startsWith('/api/')) return endpoint;
  return `${doc.resource.api.replace(/\/$/, '')}/${endpoint.replace(/^\//, '')}`;
}

/**
 * Where a `navigate` action goes for a row: its route with each `{field}` replaced by the row's value (URL-encoded);
 * null when the row lacks one of them (no button leads to a broken page).
 */
export function navigateTarget(route: string, row: Record<string, unknown>): string | null {
  let missing = false;
  const path = route.replace(/\{([A-Za-z][A-Za-z0-9_]*)\}/g, (_, field: string) => {
    const v = row[field];
    if (v === null || v === undefined || v === '') missing = true;
    return encodeURIComponent(String(v ?? ''));
  });
  return missing ? null : path;
}

/** A `dialog` action's query for a row: each param from its row field. */
export function dialogParams(action: ActionDef, row: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(action.dialog?.params ?? {}).map(([param, field]) => [param, row[field]]));
}

/**
 * A `show` action's request for one page of the records of a row: GET the endpoint with
 * `<show.param>=<row id>` and `current`/`size`.
 */
export function showRequest(
  doc: ScreenDocument,
  action: ActionDef,
  row: Record<string, unknown>,
  page: { current: number; size: number },
): { method: 'GET'; url: string; params: Record<string, unknown> } {
  if (!action.show) throw new Error(`action ${action.name} of ${doc.id} has no "show"`);
  return { method: 'GET', url: actionUrl(doc, action), params: { [action.show.param]: row.id, current: page.current, size: page.size } };
}

export interface ShowModel {
  /** The referenced screen's list columns the dialog draws (hidden-by-default ones left out: no column chooser here). */
  columns: ColumnModel[];
  index: boolean;
  pageSizes: number[];
  defaultPageSize: number;
  /** Dialog width in px. */
  width: number;
}

/** The read-only table of a `show` action, from the list of the screen it names (`target`). */
export function showModel(action: ActionDef, target: ScreenDocument): ShowModel {
  const list = columnsModel(target);
  return {
    columns: list.columns.filter((c) => !c.hidden),
    index: list.index,
    pageSizes: list.pageSizes,
    defaultPageSize: list.defaultPageSize,
    width: action.show?.width ?? 1000,
  };
}

/** Request of a named action: GET → params, POST → params too (BladeX style `?id=` / `?ids=`), or a form body. */
export function actionRequest(
  doc: ScreenDocument,
  action: ActionDef,
  target: { row?: Record<string, unknown>; ids?: string[] },
  form?: Record<string, unknown>,
): { method: 'GET' | 'POST'; url: string; params: Record<string, unknown>; data?: Record<string, unknown> } {
  const url = actionUrl(doc, action);
  const params: Record<string, unknown> = {};
  if (target.row) params.id = target.row.id;
  if (target.ids) params.ids = target.ids.join(',');
  if (action.method === 'GET') return { method: 'GET', url, params: { ...params, ...(form ?? {}) } };
  return { method: 'POST', url, params, data: form ? { ...form, ...(target.row ? { id: target.row.id } : {}), ...(target.ids ? { ids: target.ids.join(',') } : {}) } : undefined };
}

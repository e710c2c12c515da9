/** The list request: page, size, search params and sort in the BladeX wire format. */
import type { ScreenDocument } from '../../shared/document.js';
import { sortParams } from './columns.js';
import { toParams } from './search.js';

export interface ListQuery {
  current: number;
  size: number;
  search: Record<string, unknown>;
  sorting: Array<{ id: string; desc: boolean }>;
}

export function listParams(doc: ScreenDocument, q: ListQuery): Record<string, string | number> {
  return { ...toParams(doc, q.search), ...sortParams(q.sorting), current: q.current, size: q.size };
}

export function listUrl(doc: ScreenDocument, endpoint: 'list' | 'detail' | 'submit' | 'remove' | 'export' | string): string {
  return `${doc.resource.api.replace(/\/$/, '')}/${endpoint.replace(/^\//, '')}`;
}

/** The initial sorting state from the document's default sort. */
export function initialSorting(doc: ScreenDocument): Array<{ id: string; desc: boolean }> {
  return (doc.list.defaultSort ?? []).map((s) => ({ id: s.field, desc: s.dir === 'desc' }));
}

/** Export params: the list's search and sort, plus visible columns and the language (no paging). */
export function exportParams(doc: ScreenDocument, q: Omit<ListQuery, 'current' | 'size'>, visibleFields: string[], lang: string): Record<string, string> {
  return { ...toParams(doc, q.search), ...sortParams(q.sorting), columns: visibleFields.join(','), lang: lang.startsWith('en') ? 'en' : 'zh' };
}

/** A page as list endpoints answer it (SpringBlade IPage); `totalEstimated` marks a planner estimate. */
export interface ListPage<R = Record<string, unknown>> {
  records: R[];
  total: number;
  size?: number;
  current?: number;
  totalEstimated?: boolean;
}

/** The i18n key and params of the pager's total text: "共 N 条", or "约 N 条" when the server estimated it. */
export function totalText(page: Pick<ListPage, 'totalEstimated'> | undefined, total: number): [key: string, params: { total: string }] {
  return [page?.totalEstimated ? 'common.list.totalAbout' : 'common.list.total', { total: groupedThousands(total) }];
}

/**
 * 1234567 → "1,234,567" (what toLocaleString('en-US') gives for a count): the pager draws it on every list's first
 * render, and the first toLocaleString of a page costs tens of milliseconds of ICU set-up on a slow machine.
 */
export function groupedThousands(n: number): string {
  return Number.isInteger(n) ? String(n).replace(/\B(?=(\d{3})+$)/g, ',') : n.toLocaleString('en-US');
}

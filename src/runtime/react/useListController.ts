/**
 * The headless list controller (react-admin's useListController, in our wire dialect): it owns the list's
 * params (search, page, size, sort) synced to the URL query, the fetch, the selection, and moves back to the
 * last page that has rows when a page comes back empty (the last row of the last page was deleted). Views
 * (list, tree, master-detail panes) only draw what it returns.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import useSWR from 'swr';
import { useFirstAnswer } from './useFirstAnswer.js';
import type { ScreenDocument } from '../../shared/document.js';
import {
  baseState,
  clampedPage,
  columnsModel,
  listParams,
  listUrl,
  queryFromState,
  searchModel,
  stateFromQuery,
  validateSearch,
  type ListPage,
  type ListState,
} from '../model/index.js';
import { browserQuery, useRuntime } from './context.js';
import type { PageSummary } from './Summary.js';

export type Rec = Record<string, unknown>;

export interface ListReply extends ListPage<Rec> {
  /** Totals/series for the searched range (statistics screens). */
  summary?: PageSummary;
}

export interface ListControllerOptions {
  /** List endpoint relative to the api (default `list`; master-detail: `parent-list`, `child-list`). */
  endpoint?: string;
  /** Params sent with every request (the master's key in a detail pane). */
  fixed?: Record<string, unknown>;
  /** Prefix of this list's URL query keys; `false` keeps the state in memory only. Default ''. */
  urlPrefix?: string | false;
  /** `false`: the endpoint answers everything at once (a whole tree), no paging params. Default true. */
  paged?: boolean;
  /** `false`: do not fetch yet (a detail pane before a master row is chosen). */
  enabled?: boolean;
  /** Endpoint and params chosen by the state (a lazy tree lists its roots, but the matches while searching). */
  target?: (state: ListState) => { endpoint?: string; fixed?: Record<string, unknown> };
}

/** What a list controller returns to its view. */
export interface ListController {
  doc: ScreenDocument;
  state: ListState;
  /** Search fields whose required value is missing (no request is sent until they are filled). */
  missing: Array<{ field: string; message: string }>;
  records: Rec[];
  total: number;
  reply: ListReply | undefined;
  loading: boolean;
  selectedIds: string[];
  setSelectedIds(ids: string[]): void;
  setSearch(values: Rec): void;
  setPage(current: number, size: number): void;
  setSorting(sorting: ListState['sorting']): void;
  /** Fetch again (after a change), clearing the selection. */
  refresh(): void;
  /** The params of the current request (export reuses search and sort). */
  params: Record<string, unknown>;
}

export function useListController(doc: ScreenDocument, opts: ListControllerOptions = {}): ListController {
  const { request, query, takeAnswer } = useRuntime();
  const store = query ?? browserQuery;
  const prefix = opts.urlPrefix === false ? null : (opts.urlPrefix ?? '');
  const paged = opts.paged !== false;
  const base = useMemo(() => baseState(doc), [doc]);
  const search = useMemo(() => searchModel(doc), [doc]);
  const [state, setState] = useState<ListState>(() => (prefix === null ? base : stateFromQuery(store.get(), base, prefix, columnsModel(doc).pageSizes)));
  const [selectedIds, setSelectedIds] = useState<string[]>([]);

  // The address follows the state (replaced in place: Back leaves the screen, and comes back to this state).
  useEffect(() => {
    if (prefix === null) return;
    const next = queryFromState(store.get(), state, base, prefix);
    if (next !== store.get()) store.replace(next);
  }, [state, base, prefix, store]);

  const missing = validateSearch(search, state.search);
  const target = opts.target?.(state);
  const params: Record<string, unknown> = { ...listParams(doc, state), ...(opts.fixed ?? {}), ...(target?.fixed ?? {}) };
  if (!paged) {
    delete params.current;
    delete params.size;
  }
  const url = listUrl(doc, target?.endpoint ?? opts.endpoint ?? 'list');
  const enabled = opts.enabled !== false && !missing.length;
  const key = enabled ? ['runtime:list', url, JSON.stringify(params)] : null;
  const first = useFirstAnswer(key, () => takeAnswer?.<ListReply>(url, params));
  const { data, isLoading, isValidating, mutate } = useSWR<ListReply>(key, () => request<ListReply>('GET', url, { params }), {
    keepPreviousData: true,
    revalidateOnFocus: false,
    ...first,
  });
  // A whole tree may come as a bare array.
  const reply = useMemo(() => (Array.isArray(data) ? ({ records: data as Rec[], total: (data as Rec[]).length } as ListReply) : data), [data]);
  const records = reply?.records ?? NO_RECORDS;
  const total = Number(reply?.total ?? 0);

  // An empty page past the first: go to the last page that still has rows.
  const last = useRef<ListReply | undefined>(undefined);
  useEffect(() => {
    if (!reply || reply === last.current || !paged) return;
    last.current = reply;
    const to = clampedPage(state.current, state.size, total, records.length);
    if (to) setState((s) => ({ ...s, current: to }));
  }, [reply, paged, state.current, state.size, total, records.length]);

  const refresh = useCallback(() => {
    setSelectedIds([]);
    void mutate();
  }, [mutate]);

  return {
    doc,
    state,
    missing,
    records,
    total,
    reply,
    loading: isLoading || isValidating,
    selectedIds,
    setSelectedIds,
    setSearch: useCallback((values: Rec) => {
      setState((s) => ({ ...s, search: values, current: 1 }));
      setSelectedIds([]);
    }, []),
    setPage: useCallback((current: number, size: number) => {
      setState((s) => ({ ...s, current: size !== s.size ? 1 : current, size }));
      setSelectedIds([]);
    }, []),
    setSorting: useCallback((sorting: ListState['sorting']) => setState((s) => ({ ...s, sorting })), []),
    refresh,
    params,
  };
}

const NO_RECORDS: Rec[] = [];

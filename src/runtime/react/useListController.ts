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

  // The read a state makes (this render's, and the one a change starts at once: see `change` below).
  const readOf = (s: ListState) => {
    const missing = validateSearch(search, s.search);
    const target = opts.target?.(s);
    const params: Record<string, unknown> = { ...listParams(doc, s), ...(opts.fixed ?? {}), ...(target?.fixed ?? {}) };
    if (!paged) {
      delete params.current;
      delete params.size;
    }
    const url = listUrl(doc, target?.endpoint ?? opts.endpoint ?? 'list');
    const enabled = opts.enabled !== false && !missing.length;
    return { missing, params, url, key: enabled ? ['runtime:list', url, JSON.stringify(params)] : null };
  };
  const { missing, params, url, key } = readOf(state);
  const latest = useRef({ state, readOf });
  latest.current = { state, readOf };

  // A change of page, size, sort or search starts its read at once, so the server works while the list redraws
  // its loading state (the read otherwise starts after that commit). The hook's next read of that key takes it;
  // a later change, a refresh, or EARLY_READ_MS without a read drops it (never a stale page).
  const early = useRef<{ key: string; at: number; reply: Promise<ListReply> } | null>(null);
  const change = useCallback(
    (next: (s: ListState) => ListState) => {
      const { state: now, readOf: read } = latest.current;
      const r = read(next(now));
      early.current = null;
      if (r.key && JSON.stringify(r.key) !== JSON.stringify(read(now).key)) {
        const reply = request<ListReply>('GET', r.url, { params: r.params });
        reply.catch(() => undefined); // the hook's read reports a failure
        early.current = { key: JSON.stringify(r.key), at: Date.now(), reply };
      }
      setState(next);
    },
    [request],
  );
  const readNow = () => {
    const e = early.current;
    early.current = null;
    if (e && e.key === JSON.stringify(key) && Date.now() - e.at < EARLY_READ_MS) return e.reply;
    return request<ListReply>('GET', url, { params });
  };

  const first = useFirstAnswer(key, () => takeAnswer?.<ListReply>(url, params));
  const { data, isLoading, isValidating, mutate } = useSWR<ListReply>(key, readNow, {
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
    early.current = null;
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
    setSearch: useCallback(
      (values: Rec) => {
        change((s) => ({ ...s, search: values, current: 1 }));
        setSelectedIds([]);
      },
      [change],
    ),
    setPage: useCallback(
      (current: number, size: number) => {
        change((s) => ({ ...s, current: size !== s.size ? 1 : current, size }));
        setSelectedIds([]);
      },
      [change],
    ),
    setSorting: useCallback((sorting: ListState['sorting']) => change((s) => ({ ...s, sorting })), [change]),
    refresh,
    params,
  };
}

const NO_RECORDS: Rec[] = [];
/** How long a read started by a change waits for the hook to take it (it takes it within a render or two). */
const EARLY_READ_MS = 5_000;

/**
 * The runtime's environment, supplied by the web app: how to call the server, the user's button
 * permissions. Translation and language come from react-i18next. The runtime never imports the web shell.
 */
import { createContext, useContext, useMemo, type ReactNode } from 'react';
import { useSWRConfig } from 'swr';
import { useTranslation } from 'react-i18next';
import type { Permissions, Translate } from '../model/index.js';

export interface RequestOptions {
  params?: Record<string, unknown>;
  data?: unknown;
  /** 'blob' for downloads (export); the reply is then the Blob itself. */
  responseType?: 'json' | 'blob';
  /** No toast on a refusal: the caller shows it where it belongs (the cron widget under its field). */
  silent?: boolean;
}

/**
 * Calls the server and resolves with the R envelope's `data` (or the Blob for `responseType: 'blob'`).
 * It rejects on any non-200 code after the web client has shown its toast (and handled 401); a rejection
 * may carry the reply's `data` (e.g. field errors of a 400) as `error.data`.
 */
export type RequestFn = <T = any>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, options?: RequestOptions) => Promise<T>;

export interface RuntimeEnv {
  request: RequestFn;
  /** Button permission codes of the user: `{code: true}`. */
  permissions: Permissions;
  /** Where lists keep their page, sort and search (default: the browser's address, replaced in place). */
  query?: QueryStore;
  /** Opens another page of the app (a `navigate` row action, a process form going back); default: the address. */
  navigate?: (path: string) => void;
  /** The part of the address below the screen's route (a process form: form/:processDefinitionId …), split. */
  subPath?: string[];
  /**
   * The data of a GET the app has already read (start-up reads a reloaded screen's document, page and
   * dictionaries while the code loads), taken once; undefined when it has none. The screen's first render then
   * draws with its data (useFirstAnswer). Same answer `request` would resolve with.
   */
  takeAnswer?: <T = any>(url: string, params?: Record<string, unknown>) => T | undefined;
}

/** The URL query a list reads at start and rewrites as it changes (tests pass an in-memory one). */
export interface QueryStore {
  get(): string;
  replace(query: string): void;
}

/** The address bar: the query is replaced without a new history entry, keeping the router's history state. */
export const browserQuery: QueryStore = {
  get: () => (typeof window === 'undefined' ? '' : window.location.search),
  replace(query) {
    if (typeof window === 'undefined') return;
    const { pathname, hash } = window.location;
    window.history.replaceState(window.history.state, '', `${pathname}${query}${hash}`);
  },
};

const RuntimeContext = createContext<RuntimeEnv | null>(null);

export function RuntimeProvider({ env, children }: { env: RuntimeEnv; children: ReactNode }) {
  const { mutate } = useSWRConfig();
  const value = useMemo(() => ({ ...env, request: refreshingDictionaries(env.request, mutate) }), [env, mutate]);
  return <RuntimeContext.Provider value={value}>{children}</RuntimeContext.Provider>;
}

/** Writes that change dictionary entries (system and business dictionaries: submit, remove). */
const DICTIONARY_WRITE = /^\/api\/blade-system\/dict(-biz)?\/(?!batch)/;

type Mutate = (matcher: (key: unknown) => boolean, data: undefined, opts: { revalidate: boolean }) => unknown;

/**
 * `request`, plus: after a successful write to a dictionary, every cached dictionary batch is dropped and the
 * mounted ones fetched again, so a new or changed entry shows on every open screen at once (no reload). Dropping
 * (not only revalidating) matters for screens not mounted now: their batches would otherwise stay stale.
 */
export function refreshingDictionaries(request: RequestFn, mutate: Mutate): RequestFn {
  return (async (method, url, options) => {
    const reply = await request(method, url, options);
    if (method !== 'GET' && DICTIONARY_WRITE.test(url)) void mutate((key) => Array.isArray(key) && key[0] === DICT_CACHE_KEY, undefined, { revalidate: true });
    return reply;
  }) as RequestFn;
}

/** The swr key prefix of dictionary batches (useDictionaries). */
export const DICT_CACHE_KEY = 'runtime:dict-batch';

export interface Runtime extends RuntimeEnv {
  t: Translate;
  /** Current language ('zh' | 'en'). */
  lang: string;
}

export function useRuntime(): Runtime {
  const env = useContext(RuntimeContext);
  if (!env) throw new Error('useRuntime: wrap the screen in <RuntimeProvider env={…}>');
  const { t, i18n } = useTranslation();
  const lang = i18n.language?.startsWith('en') ? 'en' : 'zh';
  return useMemo(() => ({ ...env, t: t as unknown as Translate, lang }), [env, t, lang]);
}

/** Error thrown by `request`: the reply's data (field errors) when the web client attached it. */
export function errorData(e: unknown): unknown {
  if (!e || typeof e !== 'object') return undefined;
  const o = e as Record<string, any>;
  return o.data ?? o.body?.data ?? o.response?.data?.data;
}

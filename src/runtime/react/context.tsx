/**
 * The runtime's environment, supplied by the web app: how to call the server, the user's button
 * permissions. Translation and language come from react-i18next. The runtime never imports the web shell.
 */
import { createContext, useContext, useMemo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { Permissions, Translate } from '../model/index.js';

export interface RequestOptions {
  params?: Record<string, unknown>;
  data?: unknown;
  /** 'blob' for downloads (export); the reply is then the Blob itself. */
  responseType?: 'json' | 'blob';
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
  return <RuntimeContext.Provider value={env}>{children}</RuntimeContext.Provider>;
}

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

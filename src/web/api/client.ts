/**
 * The ONE api client. fetch-based, base `/api`, BladeX headers, the error catalogue of spec §8:
 * - HTTP 200–500 are answers; code = body.code || HTTP status; anything but 200 → error toast with
 *   msg || error_description || 未知错误 and the call rejects (codes in the whitelist reject silently);
 * - 401 → local logout → /login;
 * - network failures (and HTTP > 500, time-outs) reject and end the progress bar;
 * - progress bar on every request; 100000 ms time-out.
 */
import { website } from '../config.js';
import { i18n } from '../i18n.js';
import { progressDone, progressStart } from '../lib/progress.js';
import { toast } from '../lib/toast.js';
import { session } from '../auth/session.js';

export const API_BASE = '/api';

export type Params = Record<string, unknown>;

export interface RequestConfig {
  /** `/api/...` path (or a path under /api without the prefix). */
  url: string;
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  params?: Params;
  /** Plain object → JSON body; FormData → multipart; URLSearchParams → form body. */
  data?: unknown;
  headers?: Record<string, string>;
  /** Send the client Basic header (default true). */
  authorization?: boolean;
  /** Send the user token (default true). */
  withToken?: boolean;
  responseType?: 'json' | 'blob' | 'text';
  timeout?: number;
  /** Reject without a toast (the caller shows its own message). */
  silent?: boolean;
}

/** The R envelope. */
export interface R<T = unknown> {
  code: number;
  success: boolean;
  data: T;
  msg: string;
}

export class ApiError extends Error {
  code: number;
  body: unknown;
  network: boolean;
  constructor(message: string, code: number, body: unknown, network = false) {
    super(message);
    this.name = 'ApiError';
    this.code = code;
    this.body = body;
    this.network = network;
  }
}

let unauthorizedHandler: (() => void) | null = null;
/** Registered by the session actions: local logout + redirect to /login. */
export function onUnauthorized(fn: () => void): void {
  unauthorizedHandler = fn;
}

export function basicAuth(): string {
  return `Basic ${btoa(`${website.clientId}:${website.clientSecret}`)}`;
}

export function buildUrl(url: string, params?: Params): string {
  let path = /^https?:\/\//.test(url) || url.startsWith(API_BASE + '/') ? url : `${API_BASE}/${url.replace(/^\/+/, '')}`;
  if (params) {
    const qs = new URLSearchParams();
    for (const [k, v] of Object.entries(params)) {
      if (v === undefined || v === null || v === '') continue;
      if (Array.isArray(v)) qs.append(k, v.join(','));
      else qs.append(k, String(v));
    }
    const s = qs.toString();
    if (s) path += (path.includes('?') ? '&' : '?') + s;
  }
  return path;
}

function messageOf(body: unknown): string {
  const b = (body ?? {}) as { msg?: unknown; error_description?: unknown };
  const m = (typeof b.msg === 'string' && b.msg) || (typeof b.error_description === 'string' && b.error_description);
  return m || i18n.t('error.unknown');
}

/** The headers every call carries: client Basic auth, the user's token, the tenant, the UI's language. */
function requestHeaders(cfg: RequestConfig): Record<string, string> {
  const headers: Record<string, string> = { ...(cfg.headers ?? {}) };
  if (cfg.authorization !== false) headers.Authorization = basicAuth();
  const { token, tenantId } = session.get();
  if (cfg.withToken !== false && token) headers[website.tokenHeader] = `bearer ${token}`;
  if (!Object.keys(headers).some((h) => h.toLowerCase() === 'tenant-id')) headers['Tenant-Id'] = tenantId || website.tenantId;
  // Server messages (validation, business errors) come back in the language the UI shows.
  if (!Object.keys(headers).some((h) => h.toLowerCase() === 'accept-language')) headers['Accept-Language'] = i18n.language === 'en' ? 'en' : 'zh-CN';
  return headers;
}

/**
 * GETs started before the code that needs them has loaded (issue 13: the first screen in one round trip, not a
 * chain): start-up knows from the address and the stored session which reads the first screen will make
 * (lib/startup.ts). A started read is handed, once, to the first request for the same address with the same
 * headers within PREFETCH_TTL_MS; that request then reads the answer as if it had fetched it itself (same
 * error handling, toasts, 401). A prefetch that failed to arrive is forgotten and the request fetches anew.
 */
const PREFETCH_TTL_MS = 15_000;
const prefetched = new Map<string, { at: number; response: Promise<Response>; answer?: R }>();
const prefetchKey = (url: string, headers: Record<string, string>) => `${url}\n${JSON.stringify(headers)}`;

/** Starts a GET now for a request the app will make soon; resolves with a copy of the answer's R envelope. */
export function prefetch<T = unknown>(url: string, params?: Params): Promise<R<T> | undefined> {
  const full = buildUrl(url, params);
  const key = prefetchKey(full, requestHeaders({ url }));
  let entry = prefetched.get(key);
  if (!entry) {
    entry = { at: Date.now(), response: fetch(full, { headers: requestHeaders({ url }), credentials: 'include' }) };
    entry.response.catch(() => prefetched.delete(key));
    prefetched.set(key, entry);
  }
  // A copy for the caller (the one the request reads stays untouched); kept on the entry for takeAnswer.
  const started = entry;
  return entry.response.then(
    async (res) => {
      if (!res.ok) return undefined;
      const answer = (await res.clone().json()) as R<T>;
      started.answer ??= answer;
      return answer;
    },
    () => undefined,
  );
}

/**
 * The data of a prefetched read that has already answered successfully (code 200), taken at once instead of
 * through a request: a screen can then draw its first render with its data rather than empty and again when
 * the answer is read. Taken once (a later read fetches anew), and only if `accept` agrees (default: any).
 */
export function takeAnswer<T = unknown>(url: string, params?: Params, accept: (data: T) => boolean = () => true): T | undefined {
  const key = prefetchKey(buildUrl(url, params), requestHeaders({ url }));
  const entry = prefetched.get(key);
  const answer = entry?.answer as R<T> | undefined;
  if (!entry || answer?.code !== 200 || Date.now() - entry.at > PREFETCH_TTL_MS || !accept(answer.data)) return undefined;
  prefetched.delete(key);
  return answer.data;
}

function takePrefetched(url: string, headers: Record<string, string>): Promise<Response> | undefined {
  const key = prefetchKey(url, headers);
  const entry = prefetched.get(key);
  if (!entry) return undefined;
  prefetched.delete(key);
  return Date.now() - entry.at <= PREFETCH_TTL_MS ? entry.response : undefined;
}

export async function request<T = any>(cfg: RequestConfig): Promise<T> {
  const method = cfg.method ?? 'GET';
  const headers = requestHeaders(cfg);
  let body: BodyInit | undefined;
  if (cfg.data instanceof FormData || cfg.data instanceof URLSearchParams || cfg.data instanceof Blob) body = cfg.data;
  else if (cfg.data !== undefined) {
    body = JSON.stringify(cfg.data);
    headers['Content-Type'] = 'application/json';
  }
  const url = buildUrl(cfg.url, cfg.params);
  const ctrl = new AbortController();
  const timer = setTimeout(() => ctrl.abort(), cfg.timeout ?? website.requestTimeout);
  progressStart();
  let res: Response;
  try {
    const early = method === 'GET' && body === undefined ? takePrefetched(url, headers) : undefined;
    res = (early && (await early.catch(() => undefined))) || (await fetch(url, { method, headers, body, signal: ctrl.signal, credentials: 'include' }));
  } catch (e) {
    clearTimeout(timer);
    progressDone();
    const aborted = (e as Error).name === 'AbortError';
    throw new ApiError(aborted ? i18n.t('error.timeout') : i18n.t('error.network'), 0, null, true);
  }
  try {
    if (res.status < 200 || res.status > 500) throw new ApiError(i18n.t('error.network'), res.status, null, true);
    const ctype = res.headers.get('content-type') ?? '';
    let parsed: unknown;
    if (cfg.responseType === 'blob' && !ctype.includes('application/json')) {
      if (res.status === 200) return (await res.blob()) as T;
      parsed = {};
    } else if (cfg.responseType === 'text' && !ctype.includes('application/json')) {
      parsed = await res.text();
      if (res.status === 200) return parsed as T;
      parsed = { msg: parsed };
    } else {
      const text = await res.text();
      try {
        parsed = text ? JSON.parse(text) : {};
      } catch {
        parsed = { msg: text };
      }
    }
    const b = (parsed ?? {}) as { code?: unknown };
    const code = (typeof b.code === 'number' && b.code) || Number(b.code) || res.status;
    if (code === 200) return parsed as T;
    const msg = messageOf(parsed);
    const err = new ApiError(msg, code, parsed);
    if (website.statusWhiteList.includes(code)) throw err;
    if (code === 401) {
      if (!cfg.silent) toast.error(msg);
      unauthorizedHandler?.();
      throw err;
    }
    if (!cfg.silent) toast.error(msg);
    throw err;
  } finally {
    clearTimeout(timer);
    progressDone();
  }
}

/** GET returning the R envelope's data. */
export async function getData<T = any>(url: string, params?: Params): Promise<T> {
  const r = await request<R<T>>({ url, params });
  return r.data;
}

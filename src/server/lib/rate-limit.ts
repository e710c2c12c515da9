/**
 * Rate limits and body caps of the routes that write for cheap or without a token (issue 14, finding 3).
 * One table, ROUTE_LIMITS, read by two hooks registered in buildApp: onRoute (sets the route's bodyLimit)
 * and onRequest after the auth hook (counts the call per client address and, with a token, per user).
 * Over a limit the answer is 429 R with Retry-After (seconds until the window ends). Counters are fixed
 * windows kept in memory per server process: with several instances a client gets up to the limit from
 * each, which still bounds the writes; the failed-login locks (auth module) are the cross-instance guard.
 *
 * The limits (also in README.md, "Rate limits"):
 *   captcha                   30 / minute per address                      (a row per call)
 *   oauth/token (sign-in)     100 / minute per address, body ≤ 16 KB        (+ the failed-login locks)
 *   user/register-guest       30 / hour per address, 10 / hour per user, body ≤ 8 KB
 *   shell/send-logs           10 / minute per user, 30 / minute per address, body ≤ 64 KB
 *   oss put-file(-attach)     60 / minute per user, 120 / minute per address (sizes: resource module)
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HttpError } from './http.js';

export interface Window {
  max: number;
  seconds: number;
}

export interface RouteLimit {
  perAddress?: Window;
  perUser?: Window;
  /** Largest accepted request body in bytes (JSON/form; uploads are limited by the resource module). */
  bodyLimit?: number;
}

const KB = 1024;
const UPLOAD: RouteLimit = { perUser: { max: 60, seconds: 60 }, perAddress: { max: 120, seconds: 60 } };

/** Keyed by `METHOD path` as registered. */
export const ROUTE_LIMITS: Record<string, RouteLimit> = {
  'GET /api/blade-auth/oauth/captcha': { perAddress: { max: 30, seconds: 60 } },
  'POST /api/blade-auth/oauth/token': { perAddress: { max: 100, seconds: 60 }, bodyLimit: 16 * KB },
  'POST /api/blade-system/user/register-guest': { perAddress: { max: 30, seconds: 3600 }, perUser: { max: 10, seconds: 3600 }, bodyLimit: 8 * KB },
  'POST /api/blade-desk/shell/send-logs': { perUser: { max: 10, seconds: 60 }, perAddress: { max: 30, seconds: 60 }, bodyLimit: 64 * KB },
  // Saber's logout posts the browser's error log too
  'POST /api/blade-auth/oauth/logout': { perAddress: { max: 60, seconds: 60 }, bodyLimit: 64 * KB },
  'POST /api/blade-resource/oss/endpoint/put-file': UPLOAD,
  'POST /api/blade-resource/oss/endpoint/put-file-attach': UPLOAD,
};

/** Fixed-window counters; entries whose window ended are dropped when the map grows. */
export class RateLimiter {
  private hits = new Map<string, { count: number; resetAt: number }>();

  constructor(private maxKeys = 50_000) {}

  /** Counts one call; undefined when allowed, else the seconds until the window ends. */
  hit(key: string, w: Window, now = Date.now()): number | undefined {
    let e = this.hits.get(key);
    if (!e || e.resetAt <= now) {
      if (this.hits.size >= this.maxKeys) this.prune(now);
      e = { count: 0, resetAt: now + w.seconds * 1000 };
      this.hits.set(key, e);
    }
    e.count++;
    return e.count > w.max ? Math.max(1, Math.ceil((e.resetAt - now) / 1000)) : undefined;
  }

  private prune(now: number): void {
    for (const [k, e] of this.hits) if (e.resetAt <= now) this.hits.delete(k);
    // Still full (a flood of distinct keys): forget the oldest half rather than grow without bound.
    if (this.hits.size >= this.maxKeys) {
      let n = Math.floor(this.hits.size / 2);
      for (const k of this.hits.keys()) {
        if (n-- <= 0) break;
        this.hits.delete(k);
      }
    }
  }
}

/** The client's address (req.ip honours TRUST_PROXY). */
export function clientAddress(req: FastifyRequest): string {
  return (req.ip || req.socket?.remoteAddress || 'unknown').slice(0, 64);
}

export class TooManyRequests extends HttpError {
  constructor(public retryAfter: number) {
    super(429, 'error.tooManyRequests', { seconds: retryAfter });
  }
}

/** onRoute (body caps) — register before the modules; onRequest (counting) — register after the auth hook. */
export function registerRateLimits(app: FastifyInstance, limits: Record<string, RouteLimit> = ROUTE_LIMITS): void {
  const limiter = new RateLimiter();
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) {
      const l = limits[`${method} ${route.url}`];
      if (l?.bodyLimit && route.bodyLimit === undefined) route.bodyLimit = l.bodyLimit;
    }
  });
  app.addHook('onRequest', async (req, reply) => {
    const l = limits[`${req.method} ${req.routeOptions.url}`];
    if (!l) return;
    const route = `${req.method} ${req.routeOptions.url}`;
    const waits: number[] = [];
    if (l.perAddress) waits.push(limiter.hit(`a|${route}|${clientAddress(req)}`, l.perAddress) ?? 0);
    if (l.perUser && req.user) waits.push(limiter.hit(`u|${route}|${req.user.tenantId}|${req.user.userId}`, l.perUser) ?? 0);
    const wait = Math.max(0, ...waits);
    if (wait > 0) {
      reply.header('Retry-After', String(wait));
      throw new TooManyRequests(wait);
    }
  });
}

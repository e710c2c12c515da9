/**
 * The server's own logs (BladeX blade_log_api / blade_log_error / blade_log_usual), written off the request path:
 * an entry is queued and the queue is flushed in batches on the next turn of the event loop (or every 250 ms
 * under load), so a request never waits for its log and a failing insert never fails it — the failure is
 * counted and printed once per minute. The queue is bounded (10,000 entries): past it the oldest are dropped
 * and counted, memory never grows with a flood. `flush()` is awaited on close and by tests.
 */
import os from 'node:os';
import type { DB } from '../../db/index.js';
import { newId } from '../../lib/ids.js';
import { localDateTime } from '../../lib/time.js';

export type LogKind = 'api' | 'error' | 'usual';

const TABLE: Record<LogKind, string> = { api: 'blade_log_api', error: 'blade_log_error', usual: 'blade_log_usual' };
const MAX_QUEUE = 10_000;
const BATCH = 500;

/** Keys whose values are never stored: passwords, tokens, keys, secrets, captcha answers, signatures. */
const SECRET_KEY = /(pass(word)?|pwd|psw|secret|token|credential|authorization|captcha|access_?key|private_?key|signature|blade-auth|^code$)/i;
export const REDACTED = '******';

/** A copy of request params with every secret value replaced (nested objects and arrays too), as JSON text ≤ `max` chars. */
export function redactedParams(params: unknown, max = 4000): string {
  const walk = (v: unknown, depth: number): unknown => {
    if (Buffer.isBuffer(v)) return `[${v.length} bytes]`;
    if (Array.isArray(v)) return depth > 5 ? '[…]' : v.slice(0, 50).map((x) => walk(x, depth + 1));
    if (v && typeof v === 'object') {
      if (depth > 5) return '{…}';
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v as Record<string, unknown>).slice(0, 100)) out[k] = SECRET_KEY.test(k) ? REDACTED : walk(x, depth + 1);
      return out;
    }
    if (typeof v === 'string' && v.length > 500) return `${v.slice(0, 500)}…`;
    return v;
  };
  const text = JSON.stringify(walk(params ?? {}, 0)) ?? '';
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

export interface LogCommon {
  tenantId: string;
  /** The account that made the request ('' when anonymous). */
  createBy: string;
  method?: string;
  requestUri?: string;
  remoteIp?: string;
  userAgent?: string;
  params?: string;
}

export interface ApiLogEntry extends LogCommon {
  title: string;
  /** Duration in ms. */
  time: number;
  status: number;
}

export interface ErrorLogEntry extends LogCommon {
  /** 'server' for the server's own errors, 'client' for the browser's uploaded error log. */
  type: 'server' | 'client';
  exceptionName: string;
  message: string;
  stackTrace: string;
  fileName?: string;
  lineNumber?: number;
}

export interface UsualLogEntry extends LogCommon {
  /** What happened: login, loginFailed, lockout, passwordChanged, grant, settlementGenerate … */
  logId: string;
  logLevel: 'info' | 'warn' | 'error';
  /** The event's details, in words and figures (never a secret). */
  logData: string;
}

const cut = (v: unknown, n: number) => (v === undefined || v === null ? null : String(v).slice(0, n));

/** The first frame of a stack that is ours (not node_modules, not node:internal): file and line. */
export function whereThrown(stack: string): { fileName?: string; lineNumber?: number } {
  for (const line of stack.split('\n').slice(1)) {
    const m = /\(?((?:file:\/\/)?[^()\s]+):(\d+):\d+\)?\s*$/.exec(line);
    if (!m || m[1].includes('node_modules') || m[1].startsWith('node:')) continue;
    return { fileName: m[1].replace(/^file:\/\//, '').split('/').slice(-3).join('/'), lineNumber: Number(m[2]) };
  }
  return {};
}

export class LogWriter {
  private queue: Array<{ kind: LogKind; row: Record<string, unknown> }> = [];
  private scheduled: Promise<void> | undefined;
  private failures = 0;
  private lastReport = 0;
  /** Entries dropped because the queue was full, and inserts that failed (for the health of the log itself). */
  readonly stats = { dropped: 0, failed: 0, written: 0 };
  private readonly host = os.hostname();

  constructor(private readonly db: () => DB | undefined, private readonly tz: string, private readonly env: string) {}

  private common(e: LogCommon): Record<string, unknown> {
    return {
      id: newId(), tenant_id: cut(e.tenantId || '000000', 12), service_id: 'canteen-admin', server_host: cut(this.host, 255), server_ip: null, env: cut(this.env, 255),
      method: cut(e.method, 10), request_uri: cut(e.requestUri, 255), user_agent: cut(e.userAgent, 1000), remote_ip: cut(e.remoteIp, 255),
      params: e.params ?? null, create_by: cut(e.createBy, 64), create_time: localDateTime(this.tz),
    };
  }

  api(e: ApiLogEntry): void {
    this.push('api', { ...this.common(e), type: String(e.status).slice(0, 3), title: cut(e.title, 255), time: String(Math.round(e.time)) });
  }

  error(e: ErrorLogEntry): void {
    this.push('error', {
      ...this.common(e), type: e.type, exception_name: cut(e.exceptionName, 255), message: cut(e.message, 10_000), stack_trace: cut(e.stackTrace, 20_000),
      file_name: cut(e.fileName, 1000), line_number: e.lineNumber ?? null, time: localDateTime(this.tz),
    });
  }

  usual(e: UsualLogEntry): void {
    this.push('usual', { ...this.common(e), log_id: cut(e.logId, 100), log_level: e.logLevel, log_data: cut(e.logData, 10_000), time: localDateTime(this.tz) });
  }

  private push(kind: LogKind, row: Record<string, unknown>): void {
    if (this.queue.length >= MAX_QUEUE) {
      this.queue.shift();
      this.stats.dropped++;
    }
    this.queue.push({ kind, row });
    this.scheduled ??= new Promise<void>((resolve) => setImmediate(resolve)).then(() => this.drain());
  }

  private async drain(): Promise<void> {
    try {
      while (this.queue.length) {
        const batch = this.queue.splice(0, BATCH);
        const db = this.db();
        if (!db) continue;
        for (const kind of ['api', 'error', 'usual'] as const) {
          const rows = batch.filter((b) => b.kind === kind).map((b) => b.row);
          if (!rows.length) continue;
          try {
            await db.insertInto(TABLE[kind]).values(rows).execute();
            this.stats.written += rows.length;
          } catch (err) {
            this.stats.failed += rows.length;
            this.report(err);
          }
        }
      }
    } finally {
      this.scheduled = undefined;
    }
  }

  private report(err: unknown): void {
    this.failures++;
    const now = Date.now();
    if (now - this.lastReport < 60_000) return;
    this.lastReport = now;
    console.error(`[canteen-admin] writing the server logs failed (${this.failures} times so far):`, (err as Error)?.message ?? err);
  }

  /** Resolves once every queued entry has been written (or has failed). */
  async flush(): Promise<void> {
    while (this.scheduled || this.queue.length) {
      if (!this.scheduled) this.scheduled = this.drain();
      await this.scheduled;
    }
  }
}

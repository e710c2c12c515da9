/**
 * The server's logs (BladeX blade-log): three read-only screens (documents `schemas/monitor/log-*.json` on the
 * tables this module creates), filled by
 * - the API log: every /api request that changes something (any method but GET, HEAD, OPTIONS) and every request
 *   slower than LOG_SLOW_MS (default 1000 ms): method, route, uri, params with secrets redacted, user, tenant,
 *   address, user agent, status, duration;
 * - the error log: every 5xx answer with the error's name, message, stack, file and line, params redacted;
 * - the usual log: business events modules record with `recordEvent` (sign-in, failed sign-in, lockout, password
 *   changes, grants, settlements, recharges …).
 * Entries are written off the request path by the LogWriter (writer.ts); a failure to log never fails a request.
 */
import { sql } from 'kysely';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ServerModule } from '../../context.js';
import type { DB } from '../../db/index.js';
import { readParam } from '../param/index.js';
import { LogWriter, redactedParams, whereThrown } from './writer.js';

export { LogWriter, REDACTED, redactedParams } from './writer.js';

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

function common(req: FastifyRequest) {
  const q = req.query && typeof req.query === 'object' ? (req.query as Record<string, unknown>) : {};
  const b = req.body && typeof req.body === 'object' && !Buffer.isBuffer(req.body) ? (req.body as Record<string, unknown>) : Buffer.isBuffer(req.body) ? { body: req.body } : {};
  const asked = req.headers['tenant-id'];
  return {
    // a request without a token (a sign-in) belongs to the tenant it names
    tenantId: req.user?.tenantId ?? (typeof asked === 'string' && /^\d{6}$/.test(asked) ? asked : '000000'),
    createBy: req.user?.account ?? '',
    method: req.method,
    requestUri: req.url.split('?')[0],
    remoteIp: req.ip,
    userAgent: typeof req.headers['user-agent'] === 'string' ? req.headers['user-agent'] : undefined,
    params: redactedParams({ ...q, ...b }),
  };
}

/**
 * The request hooks of the API and error logs, on the root instance (every route of every module), registered by
 * app.ts before the modules.
 */
export function registerRequestLogging(app: FastifyInstance): void {
  const slowMs = app.ctx.config.logSlowMs;
  app.addHook('onResponse', async (req: FastifyRequest, reply: FastifyReply) => {
    const url = req.url.split('?')[0];
    if (!url.startsWith('/api/')) return;
    const elapsed = reply.elapsedTime;
    if (READS.has(req.method) && elapsed < slowMs) return;
    app.ctx.logs.api({ ...common(req), title: req.routeOptions?.url ?? url, time: elapsed, status: reply.statusCode });
  });
}

/** An error answered with a 5xx, into the error log (called by app.ts's error handler). */
export function recordServerError(app: FastifyInstance, req: FastifyRequest, err: unknown): void {
  const e = err instanceof Error ? err : new Error(String(err));
  const stack = e.stack ?? '';
  app.ctx.logs.error({ ...common(req), type: 'server', exceptionName: e.name || e.constructor?.name || 'Error', message: e.message, stackTrace: stack, ...whereThrown(stack) });
}

/** The web app's uploaded error log (send-logs, Saber's logout): each entry into the error log as type client; how many. */
export function recordClientErrors(req: FastifyRequest, entries: unknown[]): number {
  const c = common(req);
  const list = entries.slice(0, 100);
  for (const raw of list) {
    const e = (raw && typeof raw === 'object' ? raw : { message: raw }) as Record<string, unknown>;
    const text = (v: unknown) => (v === undefined || v === null ? '' : String(v));
    req.server.ctx.logs.error({
      ...c, type: 'client', method: undefined, requestUri: text(e.url), params: redactedParams({ info: e.info, time: e.time }),
      exceptionName: text(e.type) || 'error', message: text(e.message), stackTrace: text(e.stack),
    });
  }
  return list.length;
}

/** A business event into the usual log: what happened (`logId`) and its details in words (never a secret). */
export function recordEvent(req: FastifyRequest, logId: string, logData: string, opts: { level?: 'info' | 'warn' | 'error'; tenantId?: string; account?: string } = {}): void {
  const c = common(req);
  req.server.ctx.logs.usual({
    ...c, params: undefined, tenantId: opts.tenantId ?? c.tenantId, createBy: opts.account ?? c.createBy, logId, logLevel: opts.level ?? 'info', logData,
  });
}

const COMMON_COLUMNS = `id bigint primary key, tenant_id varchar(12) not null default '000000', service_id varchar(32), server_host varchar(255),
  server_ip varchar(255), env varchar(255), method varchar(10), request_uri varchar(255), user_agent varchar(1000), remote_ip varchar(255),
  method_class varchar(255), method_name varchar(255), params text, create_by varchar(64), create_time timestamp(0)`;

/** Days the logs are kept when the parameter log.retentionDays is not set. */
export const DEFAULT_RETENTION_DAYS = 30;

/** Removes the log rows older than the parameter log.retentionDays (default 30; 0 or less keeps everything). */
export async function purgeOldLogs(db: DB): Promise<{ days: number; removed: number }> {
  const raw = (await readParam(db, 'log.retentionDays'))?.trim();
  const n = raw ? Number(raw) : NaN;
  const days = Number.isFinite(n) ? Math.floor(n) : DEFAULT_RETENTION_DAYS;
  if (days <= 0) return { days, removed: 0 };
  let removed = 0;
  for (const t of ['blade_log_api', 'blade_log_error', 'blade_log_usual']) {
    const r = await sql`delete from ${sql.table(t)} where create_time < localtimestamp - make_interval(days => ${days})`.execute(db);
    removed += Number(r.numAffectedRows ?? 0);
  }
  return { days, removed };
}

const logModule: ServerModule = {
  name: 'log',
  // retention is the scheduled job logRetention (modules/job, added daily at 03:30)
  migrations: [
    {
      name: 'log_0001_tables',
      up: async (db) => {
        await sql.raw(`create table blade_log_api (${COMMON_COLUMNS}, type varchar(3), title varchar(255), time varchar(64))`).execute(db);
        await sql.raw(`create table blade_log_error (${COMMON_COLUMNS}, type varchar(10), stack_trace text, exception_name varchar(255), message text,
          line_number integer, file_name varchar(1000), time timestamp(0))`).execute(db);
        await sql.raw(`create table blade_log_usual (${COMMON_COLUMNS}, log_level varchar(10), log_id varchar(100), log_data text, time timestamp(0))`).execute(db);
        for (const t of ['blade_log_api', 'blade_log_error', 'blade_log_usual']) await sql.raw(`create index ${t}_tenant_time on ${t} (tenant_id, create_time desc)`).execute(db);
      },
    },
  ],
};

export default logModule;

/** The writer of an app (app.ts builds one per app). */
export function createLogWriter(db: () => DB | undefined, tz: string): LogWriter {
  return new LogWriter(db, tz, process.env.NODE_ENV ?? 'production');
}

/**
 * The registry of job handlers: what a scheduled job can run. A handler has a name (what a job stores), a title
 * (i18n key), a JSON Schema of its params (checked when a job is saved and before each run) and `run`, which gets
 * the job's tenant and params and returns a line for the job log. A module adds its own with `registerJobHandler`.
 */
import { Ajv, type ValidateFunction } from 'ajv';
import type { DB } from '../../db/index.js';
import { syncBannerStatus } from '../banner/index.js';
import { purgeExpiredCaptchas } from '../auth/index.js';
import { generateSettlements } from '../ledger/settlement.js';
import { purgeOldLogs } from '../log/index.js';

export interface JobRunContext {
  db: DB;
  /** The tenant of the job. */
  tenantId: string;
  params: Record<string, unknown>;
  /** The time zone of the app (local times, months). */
  timezone: string;
}

export interface JobHandler {
  name: string;
  title: string;
  paramsSchema: Record<string, unknown>;
  run(ctx: JobRunContext): Promise<string>;
}

const handlers = new Map<string, JobHandler & { validate: ValidateFunction }>();
const ajv = new Ajv({ allErrors: true, strict: false });

export function registerJobHandler(h: JobHandler): void {
  handlers.set(h.name, { ...h, validate: ajv.compile(h.paramsSchema) });
}

export function jobHandler(name: string) {
  return handlers.get(name);
}

export function jobHandlers(): JobHandler[] {
  return [...handlers.values()].map(({ name, title, paramsSchema, run }) => ({ name, title, paramsSchema, run }));
}

/** The params of `handler` as an object, or the reason they are not acceptable. */
export function checkJobParams(handler: string, raw: unknown): { params: Record<string, unknown> } | { error: string } {
  const h = handlers.get(handler);
  if (!h) return { error: `unknown handler ${handler}` };
  let params: unknown = {};
  if (typeof raw === 'string' && raw.trim()) {
    try {
      params = JSON.parse(raw);
    } catch {
      return { error: 'not JSON' };
    }
  } else if (raw && typeof raw === 'object') params = raw;
  if (!params || typeof params !== 'object' || Array.isArray(params)) return { error: 'not a JSON object' };
  if (!h.validate(params)) return { error: (h.validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message}`).join('; ') };
  return { params: params as Record<string, unknown> };
}

/** The month before `now`'s month in the app's time zone, as yyyyMM. */
function previousMonth(timezone: string, now = new Date()): string {
  const [y, m] = new Intl.DateTimeFormat('en-CA', { timeZone: timezone, year: 'numeric', month: '2-digit' }).format(now).split('-').map(Number);
  const py = m === 1 ? y - 1 : y;
  const pm = m === 1 ? 12 : m - 1;
  return `${py}${String(pm).padStart(2, '0')}`;
}

registerJobHandler({
  name: 'bannerStatus',
  title: 'job.handler.bannerStatus',
  paramsSchema: { type: 'object', additionalProperties: false, properties: {} },
  async run({ db }) {
    const n = await syncBannerStatus(db);
    return `banners changed: ${n}`;
  },
});

registerJobHandler({
  name: 'settlementMonthly',
  title: 'job.handler.settlementMonthly',
  paramsSchema: {
    type: 'object', additionalProperties: false,
    properties: { settlementCycle: { type: 'string', pattern: '^[0-9]{4}(0[1-9]|1[0-2])$', description: 'yyyyMM; empty: the month before' } },
  },
  async run({ db, tenantId, params, timezone }) {
    const cycle = typeof params.settlementCycle === 'string' && params.settlementCycle ? params.settlementCycle : previousMonth(timezone);
    const r = await generateSettlements(db, { tenantId, userId: null, deptId: null }, { settlementCycle: cycle });
    return `settlements of ${cycle}: ${JSON.stringify(r)}`;
  },
});

registerJobHandler({
  name: 'logRetention',
  title: 'job.handler.logRetention',
  paramsSchema: { type: 'object', additionalProperties: false, properties: {} },
  async run({ db }) {
    const r = await purgeOldLogs(db);
    return `kept ${r.days} days, removed ${r.removed} rows`;
  },
});

registerJobHandler({
  name: 'captchaCleanup',
  title: 'job.handler.captchaCleanup',
  paramsSchema: { type: 'object', additionalProperties: false, properties: {} },
  async run({ db }) {
    return `expired captchas removed: ${await purgeExpiredCaptchas(db)}`;
  },
});

/** A handler for tests and drills: fails when asked to (params.fail), else says hello. */
registerJobHandler({
  name: 'echo',
  title: 'job.handler.echo',
  paramsSchema: { type: 'object', additionalProperties: false, properties: { message: { type: 'string', maxLength: 200 }, fail: { type: 'boolean' } } },
  async run({ params }) {
    if (params.fail) throw new Error(String(params.message ?? 'asked to fail'));
    return String(params.message ?? 'hello');
  },
});

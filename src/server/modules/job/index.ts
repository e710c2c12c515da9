/**
 * Scheduled jobs (BladeX quartz): the jobs are a screen document (`schemas/job/job.json` on blade_job, generic CRUD,
 * also at BladeX's page / get / add / update / del/{id}), their runs the job log (`schemas/job/job-log.json` on
 * blade_job_log, which this module creates). This module adds
 *   GET  /api/quartz/job/handlers                    (job)        the handler registry: name, title, params schema
 *   GET  /api/quartz/job/next-times?cronExpression=  (job)        the next five run times, or why the expression is wrong
 *   POST /api/quartz/job/run?id[&jobGroup]           (job_run)    run now (logged as manual), answered at once
 *   POST /api/quartz/job/changeStatus?id&status, pause?id, resume?id  (job_status)  1 running, 2 paused
 *   DELETE|POST /api/quartz/job/log/clean            (job_log_clean)  the tenant's job logs
 * and checks a job on save: the cron expression parses (Quartz syntax, seconds first), the handler exists, the
 * params are a JSON object its schema accepts. The scheduler is scheduler.ts; the handlers handlers.ts.
 */
import { sql } from 'kysely';
import type { FastifyRequest } from 'fastify';
import { PLATFORM_TENANT, requirePermission, type ScreenHooks, type ServerModule } from '../../context.js';
import type { DB } from '../../db/index.js';
import { HttpError, ok, okStatus } from '../../lib/http.js';
import { isId, newId } from '../../lib/ids.js';
import { requestParams } from '../../lib/params.js';
import { localDateTime } from '../../lib/time.js';
import { checkJobParams, jobHandler, jobHandlers } from './handlers.js';
import { JOB_PAUSED, JOB_RUNNING, JobScheduler, nextRunTimes, parseCron, type JobRow } from './scheduler.js';

export { registerJobHandler } from './handlers.js';

const schedulers = new WeakMap<object, JobScheduler>();
const schedulerOf = (req: FastifyRequest) => schedulers.get(req.server.ctx);
/** The scheduler of an app (its figures: ticks run and lost to another instance). */
export const jobSchedulerOf = (app: { ctx: object }) => schedulers.get(app.ctx);

function fieldError(req: FastifyRequest, field: string, key: string, params: Record<string, unknown> = {}): HttpError {
  const message = req.server.ctx.i18n.t(req.lang, key, params);
  return new HttpError(400, 'error.validation', {}, [{ field, message }], message);
}

const jobHooks: ScreenHooks = {
  async beforeSave({ mode, values, existing, req }) {
    const merged = { ...(existing ?? {}), ...values };
    if (values.cronExpression !== undefined) {
      const parsed = parseCron(String(values.cronExpression ?? ''), req.server.ctx.config.appTimezone);
      if ('error' in parsed) throw fieldError(req, 'cronExpression', 'job.msg.cronInvalid', { reason: parsed.error });
      parsed.cron.stop();
    }
    if (values.handler !== undefined || values.params !== undefined) {
      const handler = String(merged.handler ?? '');
      if (!jobHandler(handler)) throw fieldError(req, 'handler', 'job.msg.handlerUnknown', { handler });
      const checked = checkJobParams(handler, merged.params ?? '');
      if ('error' in checked) throw fieldError(req, 'params', 'job.msg.paramsInvalid', { reason: checked.error });
    }
    if (mode === 'add') values.status = JOB_RUNNING;
  },
  afterSave({ req }) {
    schedulerOf(req)?.requestReload();
  },
  beforeRemove({ req }) {
    schedulerOf(req)?.requestReload();
  },
};

/**
 * The platform's housekeeping jobs, added once (a job an operator removed is not added again): log retention every
 * day at 03:30, expired captchas every hour.
 */
const DEFAULT_JOBS = [
  { job_name: '日志清理', job_group: 'SYSTEM', cron_expression: '0 30 3 * * ?', handler: 'logRetention', description: '按参数 log.retentionDays 清理接口、错误、通用日志' },
  { job_name: '过期验证码清理', job_group: 'SYSTEM', cron_expression: '0 0 * * * ?', handler: 'captchaCleanup', description: '删除已过期的验证码' },
];

async function seedDefaultJobs(db: DB, tz: string): Promise<void> {
  const have = new Set((await db.selectFrom('blade_job').select('handler').where('tenant_id', '=', PLATFORM_TENANT).execute()).map((r) => String(r.handler)));
  const now = localDateTime(tz);
  const missing = DEFAULT_JOBS.filter((j) => !have.has(j.handler));
  if (!missing.length) return;
  await db.insertInto('blade_job').values(missing.map((j) => ({
    ...j, id: newId(), tenant_id: PLATFORM_TENANT, params: null, status: JOB_RUNNING, is_deleted: 0, create_time: now, update_time: now,
  }))).execute();
}

const jobModule: ServerModule = {
  name: 'job',
  migrations: [
    {
      name: 'job_0001_log_and_ticks',
      up: async (db) => {
        await sql`create table blade_job_log (id bigint primary key, tenant_id varchar(12) not null default '000000', job_id bigint, job_name varchar(64),
          job_group varchar(64), handler varchar(64), params text, trigger_type varchar(10), status integer, message text, exception text,
          start_time timestamp(0), end_time timestamp(0), duration_ms integer, server_host varchar(255), create_time timestamp(0))`.execute(db);
        await sql`create index blade_job_log_tenant_time on blade_job_log (tenant_id, create_time desc)`.execute(db);
        // a tick (job, scheduled time) is run by the one instance whose insert wins
        await sql`create table blade_job_tick (job_id bigint not null, fire_time timestamptz not null, primary key (job_id, fire_time))`.execute(db);
      },
    },
  ],
  screenHooks: { job: jobHooks },
  async plugin(app) {
    const scheduler = new JobScheduler(app);
    schedulers.set(app.ctx, scheduler);
    app.addHook('onReady', async () => {
      if (!app.ctx.database) return;
      await seedDefaultJobs(app.ctx.database, app.ctx.config.appTimezone)
        .then(() => scheduler.start())
        .then(() => scheduler.pruneTicks())
        .catch((e) => console.error('[canteen-admin] job scheduler:', (e as Error).message));
    });
    app.addHook('onClose', async () => scheduler.stop());

    const loadJob = async (req: FastifyRequest, tenantId: string): Promise<JobRow & { status: number }> => {
      const id = String(requestParams(req).id ?? '');
      if (!isId(id)) throw new HttpError(400, 'error.paramMissing', { name: 'id' });
      const row = await app.ctx.db().selectFrom('blade_job').select(['id', 'tenant_id', 'job_name', 'job_group', 'cron_expression', 'handler', 'params', 'status'])
        .where('id', '=', id).where('tenant_id', '=', tenantId).where('is_deleted', '=', 0).executeTakeFirst();
      if (!row) throw new HttpError(404, 'job.msg.notFound');
      return { ...(row as unknown as JobRow & { status: number }), id: String(row.id) };
    };

    app.get('/api/quartz/job/handlers', async (req) => {
      await requirePermission(app, req, 'job');
      return ok(jobHandlers().map((h) => ({ name: h.name, title: app.ctx.i18n.t(req.lang, h.title), paramsSchema: h.paramsSchema })));
    });

    app.get('/api/quartz/job/next-times', async (req) => {
      await requirePermission(app, req, 'job');
      const expression = String(requestParams(req).cronExpression ?? '').slice(0, 120);
      const times = nextRunTimes(expression, app.ctx.config.appTimezone);
      if (!Array.isArray(times)) throw new HttpError(400, 'job.msg.cronInvalid', { reason: times.error });
      return ok(times);
    });

    app.post('/api/quartz/job/run', async (req) => {
      const user = await requirePermission(app, req, 'job_run');
      const job = await loadJob(req, user.tenantId);
      scheduler.runNow(job);
      return okStatus();
    });

    const setStatus = async (req: FastifyRequest, status: number) => {
      const user = await requirePermission(app, req, 'job_status');
      if (status !== JOB_RUNNING && status !== JOB_PAUSED) throw new HttpError(400, 'job.msg.status');
      const job = await loadJob(req, user.tenantId);
      await app.ctx.db().updateTable('blade_job').set({ status, update_user: user.userId, update_time: localDateTime(app.ctx.config.appTimezone) }).where('id', '=', job.id).execute();
      scheduler.requestReload();
      return okStatus();
    };
    app.post('/api/quartz/job/changeStatus', async (req) => {
      return setStatus(req, Number(requestParams(req).status));
    });
    app.post('/api/quartz/job/pause', async (req) => setStatus(req, JOB_PAUSED));
    app.post('/api/quartz/job/resume', async (req) => setStatus(req, JOB_RUNNING));

    const clean = async (req: FastifyRequest) => {
      const user = await requirePermission(app, req, 'job_log_clean');
      // the whole log of the tenant: a call naming rows (ids) means something else and is refused
      const given = requestParams(req);
      if (given.id !== undefined || given.ids !== undefined) throw new HttpError(400, 'error.badRequest');
      const r = await app.ctx.db().deleteFrom('blade_job_log').where('tenant_id', '=', user.tenantId).executeTakeFirst();
      return ok({ removed: Number(r.numDeletedRows ?? 0) });
    };
    app.delete('/api/quartz/job/log/clean', clean);
    app.post('/api/quartz/job/log/clean', clean);
  },
};

export default jobModule;

/**
 * Scheduled jobs (issue 11): the handler registry, the cron check with the next five times, jobs saved only with a
 * valid expression, a known handler and params its schema accepts; runs logged (scheduled and manual), a failing
 * handler logged with its error while the job keeps its schedule, pause and resume, missed runs not replayed,
 * BladeX's paths, the job-log clean; and on PostgreSQL two instances running an every-second job once a tick.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app.js';
import { openDatabase } from '../../src/server/db/index.js';
import { jobSchedulerOf } from '../../src/server/modules/job/index.js';
import { startTestServer, type TestServer } from './helpers.js';
import { data, operator } from './system-helpers.js';

const API = '/api/quartz/job';
let t: TestServer;
let admin: string;
beforeAll(async () => {
  t = await startTestServer();
  admin = await t.login();
});
afterAll(async () => t?.close());

const get = (url: string, token = admin) => t.call(token, { method: 'GET', url });
const post = (url: string, payload?: unknown, token = admin) => t.call(token, { method: 'POST', url, payload: payload as any });
const logsOf = async (jobId: string) =>
  (await t.database.db.selectFrom('blade_job_log').select(['status', 'trigger_type', 'message', 'exception', 'start_time']).where('job_id', '=', jobId).orderBy('id').execute());
/** Waits until the job has at least `n` logs (what the job-log screen would show). */
const runsOf = async (jobId: string, n: number) => {
  await expect.poll(async () => (await logsOf(jobId)).length, { timeout: 15_000, interval: 100 }).toBeGreaterThanOrEqual(n);
  return logsOf(jobId);
};
const addJob = async (over: Record<string, unknown>) => {
  const r = await post(`${API}/submit`, { jobName: 'echo', jobGroup: 'DEFAULT', cronExpression: '* * * * * ?', handler: 'echo', params: '{"message":"hi"}', ...over });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return String(r.body.data.id);
};

describe('the housekeeping jobs', () => {
  it('are there from the start, once: log retention daily, expired captchas hourly', async () => {
    const rows = data(await get(`${API}/list?jobGroup=SYSTEM`)).records;
    expect(rows.map((r: any) => `${r.handler} ${r.cronExpression}`).sort()).toEqual(['captchaCleanup 0 0 * * * ?', 'logRetention 0 30 3 * * ?']);
  });
});

describe('the job dialog', () => {
  it('lists the handlers with their titles and params schemas', async () => {
    const handlers = data(await get(`${API}/handlers`));
    expect(handlers.map((h: any) => h.name)).toEqual(expect.arrayContaining(['bannerStatus', 'settlementMonthly', 'logRetention', 'captchaCleanup']));
    expect(handlers.find((h: any) => h.name === 'logRetention').title).toBe('日志清理');
    expect(handlers.find((h: any) => h.name === 'settlementMonthly').paramsSchema.properties.settlementCycle).toBeDefined();
  });

  it('shows the next five run times of an expression, or why it is wrong', async () => {
    const times = data(await get(`${API}/next-times?cronExpression=${encodeURIComponent('0 0 2 * * ?')}`));
    expect(times).toHaveLength(5);
    expect(times.every((x: string) => /^\d{4}-\d\d-\d\d 02:00:00$/.test(x))).toBe(true);
    expect([...times].sort()).toEqual(times);
    const bad = await get(`${API}/next-times?cronExpression=${encodeURIComponent('0 0 25 * * ?')}`);
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toMatch(/^Cron 表达式不正确：/);
    expect((await get(`${API}/next-times?cronExpression=${encodeURIComponent('0 2 * * *')}`)).status).toBe(400); // 5 fields: no seconds
  });

  it('saves a job only with a valid expression, a known handler and params its schema accepts', async () => {
    const field = async (over: Record<string, unknown>) => {
      const r = await post(`${API}/submit`, { jobName: 'x', jobGroup: 'G', cronExpression: '0 0 2 * * ?', handler: 'logRetention', ...over });
      expect(r.status).toBe(400);
      return r.body.data[0];
    };
    expect((await field({ cronExpression: 'every day' })).field).toBe('cronExpression');
    expect((await field({ handler: 'rm -rf' })).field).toBe('handler');
    expect((await field({ handler: 'settlementMonthly', params: '{"settlementCycle":"2026-13"}' })).field).toBe('params');
    expect((await field({ params: '[1,2]' })).message).toMatch(/^参数不正确/);
    const missing = await post(`${API}/submit`, {});
    expect(missing.body.data.map((e: any) => e.field).sort()).toEqual(['cronExpression', 'handler', 'jobGroup', 'jobName']);
  });
});

describe('runs', () => {
  it('an every-second job runs and is logged as scheduled; a failing one is logged with its error and keeps running', async () => {
    const ok = await addJob({ jobName: 'every second' });
    const failing = await addJob({ jobName: 'always fails', params: '{"fail":true,"message":"the printer is on fire"}' });
    const runs = await runsOf(ok, 2);
    expect(runs[0]).toMatchObject({ status: 1, trigger_type: 'schedule', message: 'hi' });
    const failures = await runsOf(failing, 3);
    expect(failures.every((r) => r.status === 2 && r.message === 'the printer is on fire')).toBe(true);
    expect(failures[0].exception).toContain('Error: the printer is on fire');
    // the job log screen lists them, newest first
    const listed = data(await get(`/api/quartz/job/log/list?jobId=${failing}`)).records;
    expect(listed[0]).toMatchObject({ jobName: 'always fails', status: 2, triggerType: 'schedule' });
    for (const id of [ok, failing]) data(await post(`${API}/remove?ids=${id}`));
  });

  it('pause stops a job, run-now still runs it (logged as manual), resume starts it again; missed runs are not replayed', async () => {
    const id = await addJob({ jobName: 'pausable' });
    await runsOf(id, 1);
    data(await post(`${API}/pause?id=${id}`));
    expect((await t.database.db.selectFrom('blade_job').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status).toBe(2);
    // a witness job shows the clock going on: while it runs 3 times, the paused one gains at most the run in flight
    const pausedAt = (await logsOf(id)).length;
    const witness = await addJob({ jobName: 'witness' });
    await runsOf(witness, 3);
    const whilePaused = (await logsOf(id)).length;
    expect(whilePaused - pausedAt).toBeLessThanOrEqual(1);
    data(await post(`${API}/run?id=${id}`));
    const manual = await runsOf(id, whilePaused + 1);
    expect(manual.at(-1)).toMatchObject({ trigger_type: 'manual', status: 1 });
    data(await post(`${API}/resume?id=${id}`));
    const resumed = await runsOf(id, whilePaused + 3);
    // no burst for the seconds it was paused: the scheduled runs after resuming are a second apart
    const scheduled = resumed.slice(whilePaused + 1).map((r) => String(r.start_time));
    expect(new Set(scheduled).size).toBe(scheduled.length);
    for (const j of [id, witness]) data(await post(`${API}/remove?ids=${j}`));
  });

  it('BladeX paths: page, get, add, update, del/{id}, changeStatus; the job log clean', async () => {
    const add = data(await post(`${API}/add`, { jobName: 'bladex', jobGroup: 'B', cronExpression: '0 0 3 * * ?', handler: 'captchaCleanup' }));
    const page = data(await get(`${API}/page?jobName=bladex`));
    expect(page.records.map((r: any) => r.jobName)).toEqual(['bladex']);
    expect(data(await get(`${API}/get?id=${add.id}`))).toMatchObject({ jobGroup: 'B', status: 1 });
    data(await post(`${API}/update`, { id: add.id, description: '每天三点' }));
    data(await post(`${API}/changeStatus?id=${add.id}&status=2`));
    expect(data(await get(`${API}/get?id=${add.id}`))).toMatchObject({ description: '每天三点', status: 2 });
    expect((await post(`${API}/changeStatus?id=${add.id}&status=7`)).status).toBe(400);
    data(await post(`${API}/run?id=${add.id}&jobGroup=B`));
    await runsOf(add.id, 1);
    data(await post(`${API}/del/${add.id}`));
    expect((await get(`${API}/get?id=${add.id}`)).status).toBe(404);
    const clean = await t.call(admin, { method: 'DELETE', url: '/api/quartz/job/log/clean' });
    expect(clean.body.data.removed).toBeGreaterThan(0);
    expect(data(await get('/api/quartz/job/log/list')).records).toEqual([]);
  });

  it('needs the codes: job for the lists, job_run to run, job_status to pause, job_log_clean to clean', async () => {
    const viewer = await operator(t, 'jobview', ['job', 'job_view']);
    const id = await addJob({ jobName: 'guarded', cronExpression: '0 0 4 * * ?' });
    expect((await get(`${API}/handlers`, viewer.token)).status).toBe(200);
    expect((await post(`${API}/run?id=${id}`, undefined, viewer.token)).status).toBe(403);
    expect((await post(`${API}/pause?id=${id}`, undefined, viewer.token)).status).toBe(403);
    expect((await t.call(viewer.token, { method: 'DELETE', url: '/api/quartz/job/log/clean' })).status).toBe(403);
    expect((await post(`${API}/add`, { jobName: 'x', jobGroup: 'x', cronExpression: '0 0 4 * * ?', handler: 'echo' }, viewer.token)).status).toBe(403);
    data(await post(`${API}/remove?ids=${id}`));
  });
});

const PG = process.env.DATABASE_URL;
describe.runIf(PG)('two instances on one PostgreSQL', () => {
  it('run an every-second job once a tick over a minute', async () => {
    const second = await openDatabase(t.config);
    const app2 = buildApp({ db: second.db, config: t.config, docs: t.app.ctx.docs });
    await app2.ready();
    try {
      const id = await addJob({ jobName: 'two instances' });
      // both instances see the job: this one at once, the other at its next reload
      const started = Date.now();
      await expect.poll(async () => (await logsOf(id)).length, { timeout: 90_000, interval: 1000 }).toBeGreaterThanOrEqual(60);
      data(await post(`${API}/pause?id=${id}`));
      const ticks = await sql<{ n: string; distinct_ticks: string }>`select count(*) as n, count(distinct fire_time) as distinct_ticks from blade_job_tick where job_id = ${id}`.execute(t.database.db);
      const logs = await logsOf(id);
      expect(Number(ticks.rows[0].n)).toBe(Number(ticks.rows[0].distinct_ticks));
      // one log a claimed tick (the run in flight at the pause may still be writing)
      expect(logs.length).toBeGreaterThanOrEqual(Number(ticks.rows[0].n) - 1);
      expect(logs.length).toBeLessThanOrEqual(Number(ticks.rows[0].n));
      const perSecond = new Map<string, number>();
      for (const l of logs) perSecond.set(String(l.start_time), (perSecond.get(String(l.start_time)) ?? 0) + 1);
      expect([...perSecond.values()].every((n) => n === 1)).toBe(true);
      const [a, b] = [jobSchedulerOf(t.app)!.stats, jobSchedulerOf(app2)!.stats];
      // both were in the race: each lost ticks the other had claimed
      expect(a.lost + b.lost).toBeGreaterThan(0);
      console.log(`two instances: ${logs.length} runs over ${Math.round((Date.now() - started) / 1000)} s, ${ticks.rows[0].n} ticks claimed (instance A ran ${a.ran}, lost ${a.lost}; B ran ${b.ran}, lost ${b.lost}), 0 run twice`);
      data(await post(`${API}/remove?ids=${id}`));
    } finally {
      await app2.close();
      await second.close();
    }
  }, 150_000);
});

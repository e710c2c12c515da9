/**
 * The scheduler of the jobs (blade_job, status 1 = running): croner in process, one timer a job, with Quartz's cron
 * syntax (seconds first, 6 or 7 fields, `?` allowed) in the app's time zone.
 * - Several instances on one PostgreSQL run each tick once: before running, an instance claims (job, scheduled
 *   time) in blade_job_tick with an insert that only one can win (primary key, on conflict do nothing).
 * - A run writes a job log: trigger (schedule | manual), start, end, duration, the handler's line or the error; a
 *   failing handler is logged with its error and the job keeps its schedule (a run in progress is not started twice).
 * - Missed runs are not replayed (Quartz's "do nothing" misfire policy): runs that fell while the server was down,
 *   or while a job was paused, are skipped; the job goes on from its next time.
 * - Every instance reloads the jobs 50 ms after a change it made and every 15 s (changes made by another instance).
 */
import os from 'node:os';
import { Cron } from 'croner';
import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import type { DB } from '../../db/index.js';
import { newId } from '../../lib/ids.js';
import { localDateTime } from '../../lib/time.js';
import { checkJobParams, jobHandler } from './handlers.js';

export const JOB_RUNNING = 1;
export const JOB_PAUSED = 2;
const RELOAD_MS = 15_000;

export interface JobRow {
  id: string;
  tenant_id: string;
  job_name: string;
  job_group: string;
  cron_expression: string;
  handler: string;
  params: string | null;
}

/** The cron of a Quartz expression (6 or 7 fields, seconds first), or the parser's reason. */
export function parseCron(expression: string, timezone: string): { cron: Cron } | { error: string } {
  try {
    return { cron: new Cron(expression.trim(), { mode: '6-or-7-parts', timezone, paused: true }) };
  } catch (e) {
    return { error: (e as Error).message.replace(/^CronPattern: /, '') };
  }
}

/** The next `n` run times of an expression, as local yyyy-MM-dd HH:mm:ss in `timezone`. */
export function nextRunTimes(expression: string, timezone: string, n = 5): string[] | { error: string } {
  const parsed = parseCron(expression, timezone);
  if ('error' in parsed) return parsed;
  const times = parsed.cron.nextRuns(n).map((d) => localDateTime(timezone, d));
  parsed.cron.stop();
  return times;
}

export class JobScheduler {
  private readonly crons = new Map<string, { cron: Cron; signature: string }>();
  private readonly running = new Set<Promise<unknown>>();
  private timer: NodeJS.Timeout | undefined;
  private pending: NodeJS.Timeout | undefined;
  private stopped = true;
  private readonly host = os.hostname();
  /** Ticks this instance ran, and ticks another instance had claimed first. */
  readonly stats = { ran: 0, lost: 0 };

  constructor(private readonly app: FastifyInstance) {}

  private get db(): DB {
    return this.app.ctx.db();
  }

  private get tz(): string {
    return this.app.ctx.config.appTimezone;
  }

  async start(): Promise<void> {
    this.stopped = false;
    await this.reload();
    this.timer = setInterval(() => void this.reload().catch(() => undefined), RELOAD_MS);
    this.timer.unref();
  }

  /** Stops every timer and waits for the runs in progress. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    clearTimeout(this.pending);
    for (const { cron } of this.crons.values()) cron.stop();
    this.crons.clear();
    await Promise.allSettled([...this.running]);
  }

  /** After a change of the jobs (this instance's): reload soon, once for a burst of changes. */
  requestReload(): void {
    if (this.stopped) return;
    clearTimeout(this.pending);
    this.pending = setTimeout(() => void this.reload().catch(() => undefined), 50);
    this.pending.unref();
  }

  async reload(): Promise<void> {
    if (this.stopped) return;
    const rows = (await this.db.selectFrom('blade_job')
      .select(['id', 'tenant_id', 'job_name', 'job_group', 'cron_expression', 'handler', 'params'])
      .where('is_deleted', '=', 0).where('status', '=', JOB_RUNNING).execute()) as unknown as JobRow[];
    if (this.stopped) return;
    const wanted = new Set<string>();
    for (const raw of rows) {
      const job = { ...raw, id: String(raw.id) };
      wanted.add(job.id);
      const signature = [job.cron_expression, job.handler, job.params ?? '', job.tenant_id, job.job_name, job.job_group].join('\u0000');
      const had = this.crons.get(job.id);
      if (had?.signature === signature) continue;
      had?.cron.stop();
      this.crons.delete(job.id);
      const parsed = parseCron(job.cron_expression, this.tz);
      if ('error' in parsed) continue; // refused on save; an old row that no longer parses does not run
      parsed.cron.stop();
      let due = null as Date | null;
      const cron = new Cron(job.cron_expression.trim(), { mode: '6-or-7-parts', timezone: this.tz, protect: true, catch: true, unref: true }, async (self: Cron) => {
        const scheduled = due ?? new Date();
        due = self.nextRun();
        await this.track(this.fire(job, scheduled));
      });
      due = cron.nextRun();
      this.crons.set(job.id, { cron, signature });
    }
    for (const [id, { cron }] of this.crons) {
      if (wanted.has(id)) continue;
      cron.stop();
      this.crons.delete(id);
    }
  }

  private async track<T>(p: Promise<T>): Promise<T | undefined> {
    this.running.add(p);
    try {
      return await p;
    } catch {
      return undefined;
    } finally {
      this.running.delete(p);
    }
  }

  /** A scheduled tick: run it if this instance claims it. */
  private async fire(job: JobRow, scheduled: Date): Promise<void> {
    if (this.stopped) return;
    const claimed = await sql<{ job_id: string }>`insert into blade_job_tick (job_id, fire_time) values (${job.id}, ${scheduled.toISOString()}::timestamptz)
      on conflict do nothing returning job_id`.execute(this.db);
    if (!claimed.rows.length) {
      this.stats.lost++;
      return;
    }
    this.stats.ran++;
    await this.runJob(job, 'schedule');
  }

  /** Runs `job` now (a tick this instance won, or "run now") and writes its log; the log's id. */
  async runJob(job: JobRow, trigger: 'schedule' | 'manual'): Promise<string> {
    const started = Date.now();
    const startTime = localDateTime(this.tz);
    let status = 1;
    let message = '';
    let exception: string | null = null;
    try {
      const handler = jobHandler(job.handler);
      if (!handler) throw new Error(`unknown handler ${job.handler}`);
      const checked = checkJobParams(job.handler, job.params);
      if ('error' in checked) throw new Error(`params: ${checked.error}`);
      message = await handler.run({ db: this.db, tenantId: job.tenant_id, params: checked.params, timezone: this.tz });
    } catch (e) {
      status = 2;
      message = (e as Error)?.message ?? String(e);
      exception = (e as Error)?.stack ?? null;
    }
    const id = newId();
    await this.db.insertInto('blade_job_log').values({
      id, tenant_id: job.tenant_id, job_id: job.id, job_name: job.job_name, job_group: job.job_group, handler: job.handler, params: job.params,
      trigger_type: trigger, status, message: message.slice(0, 4000), exception: exception?.slice(0, 20_000) ?? null,
      start_time: startTime, end_time: localDateTime(this.tz), duration_ms: Date.now() - started, server_host: this.host.slice(0, 255),
      create_time: startTime,
    }).execute();
    return id;
  }

  /** Forgets the claims older than a day (they only guard ticks happening now). */
  async pruneTicks(): Promise<void> {
    await sql`delete from blade_job_tick where fire_time < now() - interval '1 day'`.execute(this.db);
  }

  /** "Run now" outside the schedule: started at once, logged when done. */
  runNow(job: JobRow): void {
    void this.track(this.runJob(job, 'manual'));
  }
}

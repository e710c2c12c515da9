/**
 * Banners: the CRUD plugin serves list/detail/submit/remove; this module adds
 *   GET /api/banner/status/update?id=&status=2|3   take one on line (2) or off line (3) by hand; this puts the
 *                                                  banner under manual control (enableFlag 1)
 * and the status rules: enableFlag 1 (online now) → status 2 on add; enableFlag 2 (scheduled) → status
 * follows enableDaterange [start, end): before start 1 pending, inside 2 online, after end 3 offline, and
 * disableTime = end. A scheduled banner's status is computed on read (afterRead), persisted every minute
 * by a job guarded by a transaction-level advisory lock, so several instances never run it twice, and
 * persisted again right before an export reads the table (beforeExport), so the sheet shows it too.
 * The job skips (and logs) a row whose period is not two real `yyyy-MM-dd HH:mm:ss` times instead of
 * failing on it: one bad row written behind the app's back must not stop every other banner's status.
 */
import type { ServerModule } from '../../context.js';
import { requirePermission } from '../../context.js';
import type { DB } from '../../db/index.js';
import { ok } from '../../lib/http.js';
import { isDateTime } from '../../../shared/form.js';
import { localDateTime } from '../../lib/time.js';
import { BusinessError } from '../../lib/errors.js';
import { checkDocumentColumns } from '../../lib/document-columns.js';
import { idParam, param } from '../../lib/params.js';
import { query } from '../../lib/sql.js';
import { BANNER_COLUMNS, scheduledBanners, setBannerStatus, storeBannerStatus } from './service.js';

function scheduledStatus(range: unknown, now: string): 1 | 2 | 3 | undefined {
  if (!Array.isArray(range) || range.length !== 2) return undefined;
  const [start, end] = range.map(String);
  if (now < start) return 1;
  if (now < end) return 2;
  return 3;
}

/**
 * Persist the status of scheduled banners (returns how many changed; 0 when another instance holds the lock).
 * The status is decided by scheduledStatus — the rule afterRead shows — against the database's local time;
 * rows with an unreadable period are left as they are and reported through `log`.
 */
export async function syncBannerStatus(db: DB, log: (msg: string) => void = () => undefined): Promise<number> {
  return db.transaction().execute(async (t) => {
    const [lock] = await query<{ ok: boolean }>(t, `select pg_try_advisory_xact_lock(hashtext('canteen_banner_status')) as ok`);
    if (!lock.ok) return 0;
    const rows = await scheduledBanners(t);
    const changes: Array<{ id: string; status: number; end: string }> = [];
    const bad: string[] = [];
    for (const r of rows) {
      if (typeof r.range === 'string') {
        try {
          r.range = JSON.parse(r.range);
        } catch {
          /* reported below */
        }
      }
      const range = Array.isArray(r.range) && r.range.length === 2 && r.range.every((x) => typeof x === 'string' && isDateTime(x)) ? (r.range as [string, string]) : undefined;
      if (!range) {
        bad.push(`${r.id} ${JSON.stringify(r.range)}`);
        continue;
      }
      const status = scheduledStatus(range, r.now)!;
      if (status !== r.status || r.disable !== range[1]) changes.push({ id: r.id, status, end: range[1] });
    }
    if (bad.length) log(`banner status job: skipped ${bad.length} banner(s) whose enableDaterange is not two yyyy-MM-dd HH:mm:ss times: ${bad.join('; ')}`);
    if (!changes.length) return 0;
    await storeBannerStatus(t, changes);
    return changes.length;
  });
}

function parseRange(v: unknown): [string, string] | undefined {
  if (typeof v === 'string') {
    try {
      v = JSON.parse(v);
    } catch {
      return undefined;
    }
  }
  return Array.isArray(v) && v.length === 2 ? [String(v[0]), String(v[1])] : undefined;
}

export const bannerModule: ServerModule = {
  name: 'banner',
  screenHooks: {
    banner: {
      beforeSave: ({ mode, values, existing, req }) => {
        const tz = (req.server as any).ctx.config.appTimezone as string;
        const flag = Number(values.enableFlag ?? existing?.enableFlag ?? 1);
        if (flag === 2) {
          const range = parseRange(values.enableDaterange ?? existing?.enableDaterange);
          if (!range) throw new BusinessError('banner.msg.enableDaterange');
          if (!(range[0] < range[1])) throw new BusinessError('banner.msg.rangeOrder');
          values.status = scheduledStatus(range, localDateTime(tz));
          values.disableTime = range[1];
        } else {
          if (mode === 'add' || Number(existing?.enableFlag) === 2) values.status = 2;
          if (mode === 'add' || Number(existing?.enableFlag) === 2) values.disableTime = null;
        }
      },
      // The export reads the stored status: bring it up to date first (the minute job's work, done now).
      beforeExport: async ({ db, req }) => {
        await syncBannerStatus(db, (msg) => req.log.warn(msg));
      },
      afterRead: ({ rows, req }) => {
        const now = localDateTime((req.server as any).ctx.config.appTimezone);
        for (const r of rows) {
          if (Number(r.enableFlag) !== 2) continue;
          const s = scheduledStatus(parseRange(r.enableDaterange), now);
          if (s) r.status = s;
        }
      },
    },
  },
  plugin: async (app) => {
    checkDocumentColumns(app.ctx.docs, 'banner', BANNER_COLUMNS);
    app.get('/api/banner/status/update', async (req) => {
      const user = await requirePermission(app, req, 'banner_status');
      const id = idParam(req);
      const status = Number(param(req, 'status'));
      if (status !== 2 && status !== 3) throw new BusinessError('banner.msg.badStatus');
      if (!(await setBannerStatus(app.ctx.db(), user.tenantId, id, status, user.userId))) throw new BusinessError('banner.msg.notFound', {}, 404);
      return ok({ id, status });
    });
    if (app.ctx.database) {
      const timer = setInterval(() => {
        syncBannerStatus(app.ctx.db(), (msg) => app.log.warn(msg)).catch((err) => app.log.error({ err }, 'banner status job failed'));
      }, 60_000);
      timer.unref();
      app.addHook('onClose', async () => clearInterval(timer));
    }
  },
};

export default bannerModule;

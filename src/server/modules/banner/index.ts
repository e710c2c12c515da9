/**
 * Banners: the CRUD plugin serves list/detail/submit/remove; this module adds
 *   GET /api/banner/status/update?id=&status=2|3   take one on line (2) or off line (3) by hand; this puts the
 *                                                  banner under manual control (enableFlag 1)
 * and the status rules: enableFlag 1 (online now) → status 2 on add; enableFlag 2 (scheduled) → status
 * follows enableDaterange [start, end): before start 1 pending, inside 2 online, after end 3 offline, and
 * disableTime = end. A scheduled banner's status is computed on read (afterRead) and persisted every minute
 * by a job guarded by a transaction-level advisory lock, so several instances never run it twice.
 */
import type { ServerModule } from '../../context.js';
import { requirePermission } from '../../context.js';
import type { DB } from '../../db/index.js';
import { ok } from '../../lib/http.js';
import { localDateTime } from '../../lib/time.js';
import { BusinessError } from '../ledger/errors.js';
import { idParam, param } from '../ledger/index.js';
import { query } from '../ledger/service.js';

export function scheduledStatus(range: unknown, now: string): 1 | 2 | 3 | undefined {
  if (!Array.isArray(range) || range.length !== 2) return undefined;
  const [start, end] = range.map(String);
  if (now < start) return 1;
  if (now < end) return 2;
  return 3;
}

const STATUS_SQL = `case when localtimestamp < (enable_daterange->>0)::timestamp then 1
                         when localtimestamp < (enable_daterange->>1)::timestamp then 2 else 3 end`;

/** Persist the status of scheduled banners (returns how many changed; 0 when another instance holds the lock). */
export async function syncBannerStatus(db: DB): Promise<number> {
  return db.transaction().execute(async (t) => {
    const [lock] = await query<{ ok: boolean }>(t, `select pg_try_advisory_xact_lock(hashtext('canteen_banner_status')) as ok`);
    if (!lock.ok) return 0;
    const rows = await query(
      t,
      `update canteen_banner set status = ${STATUS_SQL}, disable_time = (enable_daterange->>1)::timestamp
        where is_deleted = 0 and enable_flag = 2 and jsonb_typeof(enable_daterange) = 'array'
          and status is distinct from ${STATUS_SQL} returning id`,
    );
    return rows.length;
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
    app.get('/api/banner/status/update', async (req) => {
      const user = await requirePermission(app, req, 'banner_status');
      const id = idParam(req);
      const status = Number(param(req, 'status'));
      if (status !== 2 && status !== 3) throw new BusinessError('banner.msg.badStatus');
      const rows = await query(
        app.ctx.db(),
        `update canteen_banner set status = $3, enable_flag = 1,
                disable_time = case when $3 = 3 then localtimestamp(0) else null end, update_user = $4, update_time = localtimestamp(0)
          where id = $1 and tenant_id = $2 and is_deleted = 0 returning id`,
        [id, user.tenantId, status, user.userId],
      );
      if (!rows.length) throw new BusinessError('banner.msg.notFound', {}, 404);
      return ok({ id, status });
    });
    if (app.ctx.database) {
      const timer = setInterval(() => {
        syncBannerStatus(app.ctx.db()).catch(() => undefined);
      }, 60_000);
      timer.unref();
      app.addHook('onClose', async () => clearInterval(timer));
    }
  },
};

export default bannerModule;

/**
 * The banner module's SQL on its table (canteen_banner, the banner document's). Columns derive from the document
 * fields in BANNER_COLUMNS, checked against the document at start (a renamed field stops the start, not a request).
 */
import { documentColumns } from '../../lib/document-columns.js';
import { newId } from '../../lib/ids.js';
import { query, type Queryable } from '../../lib/sql.js';
import type { LedgerContext } from '../ledger/service.js';

export const BANNER_COLUMNS = documentColumns('banner', 'canteen_banner', [
  'putPlatform', 'bannerTitle', 'sort', 'banner', 'enableFlag', 'enableDaterange', 'disableTime', 'status', 'remarks',
] as const);
const { c, table: T } = BANNER_COLUMNS;

/** Three demo banners (online now, online for a week, scheduled), only into an empty table, dated `nowSql`. */
export async function seedDemoBanners(db: Queryable, ctx: LedgerContext, nowSql: string): Promise<void> {
  const [{ n }] = await query<{ n: string }>(db, `select count(*) as n from ${T}`);
  if (Number(n) !== 0) return;
  const N = nowSql;
  await query(
    db,
    `insert into ${T} (id, tenant_id, create_user, create_dept, create_time, update_user, update_time, is_deleted,
            ${c.putPlatform}, ${c.bannerTitle}, ${c.sort}, ${c.enableFlag}, ${c.enableDaterange}, ${c.disableTime}, ${c.status}, ${c.banner}, ${c.remarks})
     values ($4::bigint, $1::varchar, $2::bigint, $3::bigint, ${N}, $2::bigint, ${N}, 0, 1, '本周新菜', 900, 1, null, null, 2, null, '演示数据'),
            ($5::bigint, $1::varchar, $2::bigint, $3::bigint, ${N}, $2::bigint, ${N}, 0, 1, '月度餐补已发放', 800, 2,
               jsonb_build_array(to_char(${N} - interval '1 day', 'YYYY-MM-DD HH24:MI:SS'), to_char(${N} + interval '7 day', 'YYYY-MM-DD HH24:MI:SS')),
               ${N} + interval '7 day', 2, null, '演示数据'),
            ($6::bigint, $1::varchar, $2::bigint, $3::bigint, ${N}, $2::bigint, ${N}, 0, 2, '商家结算说明', 500, 2,
               jsonb_build_array(to_char(${N} + interval '3 day', 'YYYY-MM-DD HH24:MI:SS'), to_char(${N} + interval '30 day', 'YYYY-MM-DD HH24:MI:SS')),
               ${N} + interval '30 day', 1, null, '演示数据')`,
    [ctx.tenantId, ctx.userId ?? null, ctx.deptId ?? null, newId(), newId(), newId()],
  );
}

/** Scheduled banners (enableFlag 2) of every tenant, with their period and the database's local time. */
export async function scheduledBanners(t: Queryable) {
  return query<{ id: string; status: number | null; disable: string | null; range: unknown; now: string }>(
    t,
    `select id::text as id, ${c.status} as status, to_char(${c.disableTime}, 'YYYY-MM-DD HH24:MI:SS') as disable, ${c.enableDaterange} as range,
            to_char(localtimestamp, 'YYYY-MM-DD HH24:MI:SS') as now
       from ${T} where is_deleted = 0 and ${c.enableFlag} = 2`,
  );
}

/** Store the computed status and end time of scheduled banners. */
export async function storeBannerStatus(t: Queryable, changes: Array<{ id: string; status: number; end: string }>): Promise<void> {
  await query(
    t,
    `update ${T} b set ${c.status} = x.status, ${c.disableTime} = x."end"::timestamp
       from json_to_recordset($1::json) as x(id bigint, status int, "end" text) where b.id = x.id`,
    [JSON.stringify(changes)],
  );
}

/** Put a banner on line (2) or off line (3) by hand (manual control: enableFlag 1); false when the tenant has no such banner. */
export async function setBannerStatus(db: Queryable, tenantId: string, id: string, status: 2 | 3, userId: string): Promise<boolean> {
  const rows = await query(
    db,
    `update ${T} set ${c.status} = $3, ${c.enableFlag} = 1,
            ${c.disableTime} = case when $3 = 3 then localtimestamp(0) else null end, update_user = $4, update_time = localtimestamp(0)
      where id = $1 and tenant_id = $2 and is_deleted = 0 returning id`,
    [id, tenantId, status, userId],
  );
  return rows.length > 0;
}

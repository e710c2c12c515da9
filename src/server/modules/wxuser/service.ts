/**
 * The messaging-app users screen (schemas/business/wx-user.json) is served by the CRUD plugin alone; its table's
 * only hand-written SQL, the demo users, lives here with the screen it belongs to. Columns derive from the
 * document fields in WX_USER_COLUMNS (tests/api/business/boundaries.test.ts checks them against the document).
 */
import { documentColumns } from '../../lib/document-columns.js';
import { newId } from '../../lib/ids.js';
import { query, type Queryable } from '../../lib/sql.js';
import type { LedgerContext } from '../ledger/service.js';

export const WX_USER_COLUMNS = documentColumns('wxUser', 'canteen_wx_user', ['nickname', 'userType', 'name', 'phone', 'sex', 'openid', 'unionId', 'status', 'remarks'] as const);
const { c, table: T } = WX_USER_COLUMNS;

/** Twelve demo messaging-app users, only into an empty table, joined one a day before `nowSql`. */
export async function seedDemoWxUsers(db: Queryable, ctx: LedgerContext, nowSql: string): Promise<void> {
  const [{ w }] = await query<{ w: string }>(db, `select count(*) as w from ${T}`);
  if (Number(w) !== 0) return;
  await query(
    db,
    `insert into ${T} (id, tenant_id, create_user, create_dept, create_time, update_user, update_time, is_deleted, ${c.status},
            ${c.nickname}, ${c.userType}, ${c.name}, ${c.phone}, ${c.sex}, ${c.openid}, ${c.unionId}, ${c.remarks})
     select x.id, $1::varchar, $2::bigint, $3::bigint, ${nowSql} - g * interval '1 day', $2::bigint, ${nowSql}, 0, 1,
            '微信用户' || g, 1 + (g % 3), '用户' || g, '136' || lpad(g::text, 8, '0'), 1 + (g % 2), 'oDemo' || md5(g::text), 'uDemo' || md5('u' || g), null
       from unnest($4::bigint[]) with ordinality as x(id, g)`,
    [ctx.tenantId, ctx.userId ?? null, ctx.deptId ?? null, Array.from({ length: 12 }, () => newId())],
  );
}

/**
 * The message center's own SQL on its table (canteen_msg_center, the msgCenter document's): the demo messages.
 * Columns derive from the document fields in MSG_CENTER_COLUMNS, checked against the document at start.
 */
import { documentColumns } from '../../lib/document-columns.js';
import { newId } from '../../lib/ids.js';
import { query, type Queryable } from '../../lib/sql.js';
import type { LedgerContext } from '../ledger/service.js';

export const MSG_CENTER_COLUMNS = documentColumns('msgCenter', 'canteen_msg_center', ['msgType', 'msgTitle', 'contents', 'bizId', 'bizName'] as const);
const { c, table: T } = MSG_CENTER_COLUMNS;

export interface DemoSubject {
  id: string;
  name: string;
}

/**
 * Demo messages, only into an empty table: an allowance notice to each of `employees` (msgType 2) and a
 * settlement notice to each of `merchants` (msgType 1), dated `nowSql`.
 */
export async function seedDemoMessages(db: Queryable, ctx: LedgerContext, nowSql: string, subjects: { employees: DemoSubject[]; merchants: DemoSubject[] }): Promise<void> {
  const [{ m }] = await query<{ m: string }>(db, `select count(*) as m from ${T}`);
  if (Number(m) !== 0) return;
  const batches: Array<[number, string, string, DemoSubject[]]> = [
    [2, '餐补到账通知', '本月餐补已充值到您的饭卡，请查收。', subjects.employees],
    [1, '结算单已生成', '上月结算单已生成，请核对。', subjects.merchants],
  ];
  for (const [type, title, text, to] of batches) {
    if (!to.length) continue;
    await query(
      db,
      `insert into ${T} (id, tenant_id, create_user, create_dept, create_time, update_user, update_time, is_deleted, status,
              ${c.msgType}, ${c.msgTitle}, ${c.contents}, ${c.bizId}, ${c.bizName})
       select x.id, $1::varchar, $2::bigint, $3::bigint, ${nowSql}, $2::bigint, ${nowSql}, 0, 1, $4, $5, $6, x.biz_id, x.biz_name
         from json_to_recordset($7::json) as x(id bigint, biz_id bigint, biz_name text)`,
      [ctx.tenantId, ctx.userId ?? null, ctx.deptId ?? null, type, title, text, JSON.stringify(to.map((s) => ({ id: newId(), biz_id: s.id, biz_name: s.name })))],
    );
  }
}

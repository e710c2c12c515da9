/**
 * Employee cards (canteen_employee, a ledger table: it holds the balances the ledger moves) as other modules see
 * them: the employee screen's actions (messaging-app unbind and sync, .xlsx import), the message center's
 * subject names, the home page's count, the demo messages. Money never moves here (service.ts does that).
 */
import { query, tx, type Queryable } from '../../lib/sql.js';
import type { LedgerContext } from './service.js';

export interface CardHolder {
  id: string;
  cardNo: string;
  phone: string | null;
  wxUserId: string | null;
  employeeName: string;
}

/** A card of the tenant (not removed), or undefined. */
export async function findCard(db: Queryable, tenantId: string, id: string): Promise<CardHolder | undefined> {
  const [e] = await query<CardHolder>(
    db,
    `select id::text, card_no as "cardNo", phone, wx_user_id as "wxUserId", employee_name as "employeeName"
       from canteen_employee where id = $1 and tenant_id = $2 and is_deleted = 0`,
    [id, tenantId],
  );
  return e;
}

/** The name on a card of the tenant (not removed). */
export async function cardHolderName(db: Queryable, tenantId: string, id: string): Promise<string | undefined> {
  return (await findCard(db, tenantId, id))?.employeeName;
}

/** Clear the messaging-app binding of a card; false when the tenant has no such card. */
export async function unbindCard(db: Queryable, ctx: LedgerContext, id: string): Promise<boolean> {
  const rows = await query(
    db,
    `update canteen_employee set wx_user_id = null, update_user = $3, update_time = localtimestamp(0)
      where id = $1 and tenant_id = $2 and is_deleted = 0 returning id`,
    [id, ctx.tenantId, ctx.userId ?? null],
  );
  return rows.length > 0;
}

/** What the messaging app knows of a card holder: absent keys stay as they are. */
export interface CardSync {
  wxUserId?: string | null;
  phone?: string;
  employeeName?: string;
}

/** Apply a messaging-app sync to a card; the card as the employee list shows those fields. */
export async function applyCardSync(db: Queryable, ctx: LedgerContext, id: string, got: CardSync) {
  const [row] = await query<{ id: string; employeeName: string; cardNo: string; phone: string | null; wxUserId: string | null }>(
    db,
    `update canteen_employee set wx_user_id = case when $3 then $4 else wx_user_id end, phone = coalesce($5, phone),
            employee_name = coalesce($6, employee_name), update_user = $7, update_time = localtimestamp(0)
      where id = $1 and tenant_id = $2
      returning id::text, employee_name as "employeeName", card_no as "cardNo", phone, wx_user_id as "wxUserId"`,
    [id, ctx.tenantId, 'wxUserId' in got, got.wxUserId ?? null, got.phone ?? null, got.employeeName ?? null, ctx.userId ?? null],
  );
  return row;
}

/** The card numbers of `cardNos` the tenant already uses. */
export async function takenCardNumbers(db: Queryable, tenantId: string, cardNos: string[]): Promise<string[]> {
  const rows = await query<{ card_no: string }>(db, `select card_no from canteen_employee where tenant_id = $1 and is_deleted = 0 and card_no = any($2)`, [tenantId, cardNos]);
  return rows.map((r) => r.card_no);
}

/** A new card (import), by employee document field: balance 0; pswFree 1 and status 1 (active) unless said. */
export type NewCard = Partial<Record<'employeeName' | 'cardNo' | 'phone' | 'idcard' | 'gender' | 'birthday' | 'address' | 'pswFree' | 'details' | 'status' | 'remarks', unknown>>;

/** Issue cards, all in one statement inside one transaction (all or none); how many were issued. */
export async function issueCards(db: Queryable, ctx: LedgerContext, cards: NewCard[]): Promise<number> {
  const json = JSON.stringify(
    cards.map((v) => ({
      employee_name: v.employeeName, card_no: v.cardNo, phone: v.phone ?? null, idcard: v.idcard ?? null, gender: v.gender ?? null,
      birthday: v.birthday ?? null, address: v.address ?? null, psw_free: v.pswFree ?? 1, details: v.details ?? null,
      status: v.status ?? 1, remarks: v.remarks ?? null,
    })),
  );
  return tx(db, async (t) => {
    const rows = await query<{ id: string }>(
      t,
      `insert into canteen_employee (tenant_id, create_user, create_dept, employee_name, card_no, phone, idcard, gender, birthday, address,
              psw_free, details, status, remarks)
       select $2, $3, $4, employee_name, card_no, phone, idcard, gender, birthday, address, coalesce(psw_free, 1), details, coalesce(status, 1), remarks
         from json_to_recordset($1::json) as x(employee_name text, card_no text, phone text, idcard text, gender int, birthday date,
              address text, psw_free int, details text, status int, remarks text)
       returning id`,
      [json, ctx.tenantId, ctx.userId ?? null, ctx.deptId ?? null],
    );
    return rows.length;
  });
}

/** Card holders of the tenant: cards not cancelled (status 4) nor removed. */
export async function countCardHolders(db: Queryable, tenantId: string): Promise<number> {
  const [r] = await query<{ n: string }>(db, `select count(*)::text as n from canteen_employee where tenant_id = $1 and is_deleted = 0 and status <> 4`, [tenantId]);
  return Number(r?.n ?? 0);
}

/** The tenant's first `n` cards (by id), removed ones included: the demo messages' subjects. */
export async function firstCards(db: Queryable, tenantId: string, n: number): Promise<Array<{ id: string; employeeName: string }>> {
  return query(db, `select id::text as id, employee_name as "employeeName" from canteen_employee where tenant_id = $1 order by id limit $2`, [tenantId, n]);
}

/**
 * The ledger: every money movement of the canteen, each in ONE transaction with row locks.
 *
 *   recharge      employee card += amount            order type 3 (status 2) + record type 1 (+amount)
 *   pay           employee card -= amount → merchant  order type 1 (status 2) + record type 2 (-amount, employee)
 *                                                       + record type 4 (+amount, merchant)
 *   refund        part or all of a payment back       refund order type 2 (status 4) + record type 3 (+amount, employee)
 *                                                       + record type 5 (-amount, merchant); the payment becomes
 *                                                       status 4 (refunded) or 5 (partly refunded)
 *
 * Invariants (tests/api/business/invariants.test.ts): a card balance equals the sum of its account records
 * and never goes negative (also a CHECK); a payment has exactly its two records; a refund never exceeds
 * what is left of the payment (also a CHECK); the daily rollup equals the orders it summarises (per day,
 * merchant and the fee ratio the orders carry: a payment keeps the merchant's ratio of that moment, its
 * refunds the payment's ratio).
 *
 * Locks are always taken in the order: payment order → employee card → daily rollup row, so concurrent
 * payments and refunds of the same card cannot deadlock. All arithmetic is SQL numeric; amounts travel as
 * validated decimal text (money.ts).
 */
import type { Transaction } from 'kysely';
import { describeChoices, loadDictionaries } from '../../crud/dictionaries.js';
import { BusinessError } from '../../lib/errors.js';
import { query, tx, type Queryable as Q } from '../../lib/sql.js';
import { lockMerchantForPayment } from '../merchant/service.js';
import { MAX_AMOUNT, money2, parseAmount } from './money.js';

export interface LedgerContext {
  tenantId: string;
  userId?: string | null;
  deptId?: string | null;
}

/** `at` (yyyy-MM-dd HH:mm:ss) lets the seeder and tests date a movement; HTTP callers never pass it. */
const TIME = (i: number) => `coalesce($${i}::timestamp(0), localtimestamp(0))`;
const AT = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
function at(v?: string): string | null {
  if (v === undefined || v === null) return null;
  if (!AT.test(v)) throw new Error(`ledger: bad time ${v}`);
  return v;
}

export interface EmployeeCard {
  id: string;
  employee_name: string;
  card_no: string;
  balance: string;
  status: number;
}

async function lockEmployee(t: Transaction<any>, ctx: LedgerContext, employeeId: string): Promise<EmployeeCard> {
  if (!/^[0-9]{1,19}$/.test(String(employeeId))) throw new BusinessError('ledger.msg.employeeNotFound', {}, 404);
  const [e] = await query<EmployeeCard>(
    t,
    `select id, employee_name, card_no, balance, status from canteen_employee
      where id = $1 and tenant_id = $2 and is_deleted = 0 for update`,
    [employeeId, ctx.tenantId],
  );
  if (!e) throw new BusinessError('ledger.msg.employeeNotFound', {}, 404);
  return e;
}

async function addDaily(t: Transaction<any>, ctx: LedgerContext, orderId: string): Promise<void> {
  await query(
    t,
    `insert into canteen_order_daily as d (tenant_id, day, merchant_id, fee_ratio, paid_count, paid_amount, refund_count, refund_amount)
     select tenant_id, create_time::date, merchant_id, coalesce(fee_ratio, 0),
            case order_type when 1 then 1 else 0 end, case order_type when 1 then pay_amount else 0 end,
            case order_type when 2 then 1 else 0 end, case order_type when 2 then pay_amount else 0 end
       from canteen_order where id = $1 and order_type in (1, 2)
     on conflict (tenant_id, day, merchant_id, fee_ratio) do update set
       paid_count = d.paid_count + excluded.paid_count, paid_amount = d.paid_amount + excluded.paid_amount,
       refund_count = d.refund_count + excluded.refund_count, refund_amount = d.refund_amount + excluded.refund_amount`,
    [orderId],
  );
}

export interface RechargeInput {
  employeeId: string;
  amount: unknown;
  remarks?: string;
  at?: string;
}

export async function recharge(db: Q, ctx: LedgerContext, input: RechargeInput) {
  const amount = parseAmount(input.amount, MAX_AMOUNT);
  return tx(db, async (t) => {
    const e = await lockEmployee(t, ctx, input.employeeId);
    if (e.status === 4) throw new BusinessError('employee.msg.cancelled');
    // Only the card states that may receive money (employee_status 1 active, 2 frozen, 3 lost), not "anything but 4".
    if (!RECHARGEABLE.includes(Number(e.status))) throw new BusinessError('employee.msg.cardInactive');
    const [order] = await query(
      t,
      `with upd as (update canteen_employee set balance = balance + $1::numeric, update_time = localtimestamp(0)
                     where id = $2 returning balance),
            nid as (select nextval('canteen_ledger_id_seq') as oid),
            o as (insert into canteen_order (id, tenant_id, create_user, create_dept, create_time, update_time, status, order_no, order_type,
                    order_desc, employee_id, employee_name, card_no, order_amount, pay_amount, remarks)
                  select oid, $3, $4, $5, ${TIME(6)}, ${TIME(6)}, 2, 'CZ' || oid, 3, '充值', $2, $7, $8, $1::numeric, $1::numeric, $9 from nid
                  returning id, order_no, create_time)
       insert into canteen_account_records (tenant_id, create_user, create_dept, create_time, update_time, order_id, order_no, records_desc,
              account_type, account_id, account_no, account_name, amount, balance_after, records_type, remarks)
       select $3, $4, $5, o.create_time, o.create_time, o.id, o.order_no, '充值', 2, $2, $8, $7, $1::numeric, upd.balance, 1, $9
         from o, upd
       returning order_id as id, order_no, balance_after as balance`,
      [amount, e.id, ctx.tenantId, ctx.userId ?? null, ctx.deptId ?? null, at(input.at), e.employee_name, e.card_no, input.remarks ?? null],
    );
    // Reply keys in camelCase like pay and refund (orderNo, not order_no).
    return { id: String(order.id), orderNo: order.order_no as string, amount: money2(amount), balance: order.balance as string };
  });
}

export interface BatchRechargeInput {
  amount: unknown;
  /** employee_status to target (default 1, active); as sent (a bad value is named in the refusal). */
  status?: unknown;
  /** Restrict to these employees (else every employee with that status). */
  employeeIds?: string[];
  remarks?: string;
  at?: string;
}

/** employee_status values a recharge may target: 1 active, 2 frozen, 3 lost (never 4 cancelled). */
const RECHARGEABLE = [1, 2, 3];

/**
 * The target of a batch recharge, checked: a status that is one of RECHARGEABLE (4 → 卡已注销; anything else,
 * e.g. "x", → the choices), and ids that all name employees of the tenant (unknown ones are named, never
 * silently left out of the count).
 */
async function batchFilter(db: Q, ctx: LedgerContext, input: BatchRechargeInput, amount: string) {
  const raw = input.status ?? 1;
  const status = typeof raw === 'number' ? raw : typeof raw === 'string' && /^\s*\d+\s*$/.test(raw) ? Number(raw) : NaN;
  if (status === 4) throw new BusinessError('employee.msg.cancelled');
  if (!RECHARGEABLE.includes(status)) {
    const entries = (await loadDictionaries(db as any, ['employee_status'], ctx.tenantId)).get('employee_status') ?? [];
    const allowed = entries.filter((e) => RECHARGEABLE.includes(Number(e.key)));
    // The message is resolved later in the request language: both wordings of the choices travel (zh {{options}}, en {{optionsEn}}).
    const [options, optionsEn] = allowed.length ? [describeChoices(allowed, 'zh'), describeChoices(allowed, 'en')] : [RECHARGEABLE.join('、'), RECHARGEABLE.join(', ')];
    throw new BusinessError('employee.msg.statusInvalid', { status: typeof raw === 'object' ? JSON.stringify(raw) : String(raw), options, optionsEn });
  }
  const ids = [...new Set((input.employeeIds ?? []).map(String))];
  if (ids.length) {
    const valid = ids.filter((i) => /^[0-9]{1,19}$/.test(i));
    const found = valid.length
      ? await query<{ id: string }>(db, `select id::text as id from canteen_employee where tenant_id = $1 and is_deleted = 0 and id = any($2::bigint[])`, [ctx.tenantId, valid])
      : [];
    const have = new Set(found.map((r) => r.id));
    const unknown = ids.filter((i) => !have.has(i));
    if (unknown.length) throw new BusinessError('employee.msg.unknownEmployees', { ids: unknown.join(', ') });
  }
  return { params: [ctx.tenantId, status, ids.length ? ids : null, amount], ids };
}

/** What a batch recharge would do: how many cards, the amount each, the total (SQL numeric). */
export async function previewBatchRecharge(db: Q, ctx: LedgerContext, input: BatchRechargeInput) {
  const amount = parseAmount(input.amount, MAX_AMOUNT);
  const { params } = await batchFilter(db, ctx, input, amount);
  const [r] = await query<{ count: string; amount: string; total: string }>(
    db,
    `select count(*)::int as count, $4::numeric(12,2)::text as amount, (count(*) * $4::numeric)::numeric(14,2)::text as total from canteen_employee
      where tenant_id = $1 and is_deleted = 0 and status = $2 and ($3::bigint[] is null or id = any($3::bigint[]))`,
    params,
  );
  // Money always with 2 decimals ("50" → "50.00"), formatted by SQL.
  return { count: Number(r.count), amount: r.amount, total: r.total };
}

/**
 * Batch recharge (e.g. the monthly allowance): one set-based statement inside one transaction; every card is
 * locked (ordered by id), credited, and gets its own recharge order and account record. All or nothing.
 * `expectCount` (from the preview) guards against confirming a preview that no longer holds.
 */
export async function batchRecharge(db: Q, ctx: LedgerContext, input: BatchRechargeInput & { expectCount?: number }) {
  const amount = parseAmount(input.amount, MAX_AMOUNT);
  const { params } = await batchFilter(db, ctx, input, amount);
  return tx(db, async (t) => {
    const locked = await query<{ id: string }>(
      t,
      `select id from canteen_employee where tenant_id = $1 and is_deleted = 0 and status = $2
          and ($3::bigint[] is null or id = any($3::bigint[])) order by id for update`,
      params.slice(0, 3),
    );
    if (!locked.length) throw new BusinessError('ledger.msg.noEmployees');
    if (input.expectCount !== undefined && Number(input.expectCount) !== locked.length) {
      // What confirming would do now, the total computed by SQL like the preview's (never a float product).
      const [now] = await query<{ amount: string; total: string }>(
        t,
        `select $1::numeric(12,2)::text as amount, ($1::numeric * $2::int)::numeric(14,2)::text as total`,
        [amount, locked.length],
      );
      throw new BusinessError('employee.msg.previewStale', { count: locked.length, amount: now.amount, total: now.total }, 409);
    }
    const [r] = await query<{ count: number; amount: string; total: string }>(
      t,
      `with upd as (update canteen_employee e set balance = balance + $4::numeric, update_time = localtimestamp(0)
                     where tenant_id = $1 and is_deleted = 0 and status = $2 and ($3::bigint[] is null or id = any($3::bigint[]))
                     returning e.id, e.employee_name, e.card_no, e.balance),
            numbered as (select upd.*, nextval('canteen_ledger_id_seq') as oid from upd),
            o as (insert into canteen_order (id, tenant_id, create_user, create_dept, create_time, update_time, status, order_no, order_type,
                    order_desc, employee_id, employee_name, card_no, order_amount, pay_amount, remarks)
                  select oid, $1, $5, $6, ${TIME(7)}, ${TIME(7)}, 2, 'CZ' || oid, 3, '充值', id, employee_name, card_no, $4::numeric, $4::numeric, $8
                    from numbered returning id, order_no, employee_id, create_time),
            r as (insert into canteen_account_records (tenant_id, create_user, create_dept, create_time, update_time, order_id, order_no,
                    records_desc, account_type, account_id, account_no, account_name, amount, balance_after, records_type, remarks)
                  select $1, $5, $6, o.create_time, o.create_time, o.id, o.order_no, '充值', 2, n.id, n.card_no, n.employee_name,
                         $4::numeric, n.balance, 1, $8
                    from o join numbered n on n.oid = o.id returning amount)
       select count(*)::int as count, $4::numeric(12,2)::text as amount, coalesce(sum(amount), 0)::numeric(14,2)::text as total from r`,
      [...params, ctx.userId ?? null, ctx.deptId ?? null, at(input.at), input.remarks ?? null],
    );
    return { count: Number(r.count), amount: r.amount, total: r.total };
  });
}

export interface PayInput {
  employeeId: string;
  merchantId: string;
  amount: unknown;
  /** Order amount before discounts (default = amount); must be ≥ amount. */
  orderAmount?: unknown;
  orderDesc?: string;
  details?: unknown;
  at?: string;
}

export async function pay(db: Q, ctx: LedgerContext, input: PayInput) {
  const amount = parseAmount(input.amount, MAX_AMOUNT);
  const orderAmount = input.orderAmount === undefined ? amount : parseAmount(input.orderAmount, MAX_AMOUNT);
  if (!/^[0-9]{1,19}$/.test(String(input.merchantId))) throw new BusinessError('ledger.msg.merchantNotFound', {}, 404);
  return tx(db, async (t) => {
    const e = await lockEmployee(t, ctx, input.employeeId);
    // The card's employee_status (1 active, 2 frozen, 3 lost, 4 cancelled): only an active card pays. A
    // whitelist, so a status the code does not know (0, 5, null …) is refused too, not let through.
    if (e.status === 2 || e.status === 3) throw new BusinessError('ledger.msg.cardFrozen');
    if (e.status === 4) throw new BusinessError('ledger.msg.cardCancelled');
    if (e.status !== 1) throw new BusinessError('ledger.msg.cardInactive');
    const m = await lockMerchantForPayment(t, ctx.tenantId, String(input.merchantId));
    if (!m) throw new BusinessError('ledger.msg.merchantNotFound', {}, 404);
    if (Number(m.status) !== 1) throw new BusinessError('ledger.msg.merchantClosed');
    const [ok] = await query<{ enough: boolean; sane: boolean }>(t, `select $1::numeric >= $2::numeric as enough, $3::numeric >= $2::numeric as sane`, [
      e.balance,
      amount,
      orderAmount,
    ]);
    if (!ok.sane) throw new BusinessError('ledger.msg.amountInvalid');
    if (!ok.enough) throw new BusinessError('ledger.msg.insufficient');
    const details = input.details === undefined ? null : JSON.stringify(input.details);
    const [o] = await query<{ id: string; order_no: string; create_time: string; balance: string }>(
      t,
      `with upd as (update canteen_employee set balance = balance - $1::numeric, update_time = localtimestamp(0)
                     where id = $2 returning balance),
            nid as (select nextval('canteen_ledger_id_seq') as oid),
            o as (insert into canteen_order (id, tenant_id, create_user, create_dept, create_time, update_time, status, order_no, order_type,
                    order_desc, employee_id, employee_name, card_no, merchant_id, merchant_name, merchant_no,
                    order_amount, pay_amount, fee_ratio, details)
                  select oid, $3, $4, $5, ${TIME(6)}, ${TIME(6)}, 2, 'XF' || oid, 1, $7, $2, $8, $9, $10, $11, $12,
                         $13::numeric, $1::numeric, $14::numeric, $15::jsonb from nid
                  returning id, order_no, create_time),
            r as (insert into canteen_account_records (tenant_id, create_user, create_dept, create_time, update_time, order_id, order_no,
                    records_desc, account_type, account_id, account_no, account_name, amount, balance_after, records_type)
                  select $3, $4, $5, o.create_time, o.create_time, o.id, o.order_no, $7, 2, $2, $9, $8, -$1::numeric, upd.balance, 2 from o, upd
                  union all
                  select $3, $4, $5, o.create_time, o.create_time, o.id, o.order_no, $7, 1, $10, $12, $11, $1::numeric, null, 4 from o
                  returning 1)
       select o.id, o.order_no, o.create_time, upd.balance, (select count(*) from r) as n from o, upd`,
      [amount, e.id, ctx.tenantId, ctx.userId ?? null, ctx.deptId ?? null, at(input.at), input.orderDesc ?? '消费', e.employee_name, e.card_no,
        m.id, m.merchantName, m.merchantNo, orderAmount, m.feeRatio, details],
    );
    await addDaily(t, ctx, o.id);
    return { id: o.id, orderNo: o.order_no, createTime: o.create_time, balance: o.balance, payAmount: money2(amount) };
  });
}

export interface RefundInput {
  orderId: string;
  /** Default: everything not yet refunded. */
  amount?: unknown;
  remarks?: string;
  at?: string;
}

export async function refund(db: Q, ctx: LedgerContext, input: RefundInput) {
  if (!/^[0-9]{1,19}$/.test(String(input.orderId))) throw new BusinessError('order.msg.notFound', {}, 404);
  const wanted = input.amount === undefined || input.amount === null || input.amount === '' ? undefined : parseAmount(input.amount, MAX_AMOUNT);
  return tx(db, async (t) => {
    const [o] = await query<any>(
      t,
      `select id, order_no, order_type, status, employee_id, employee_name, card_no, merchant_id, merchant_name, merchant_no, fee_ratio,
              (pay_amount - refund_amount)::text as refundable
         from canteen_order where id = $1 and tenant_id = $2 and is_deleted = 0 for update`,
      [input.orderId, ctx.tenantId],
    );
    if (!o) throw new BusinessError('order.msg.notFound', {}, 404);
    if (o.order_type !== 1 || ![2, 5].includes(o.status)) throw new BusinessError('order.msg.notRefundable');
    const amount = wanted ?? o.refundable;
    const [chk] = await query<{ ok: boolean; positive: boolean }>(t, `select $1::numeric <= $2::numeric as ok, $2::numeric > 0 as positive`, [
      amount,
      o.refundable,
    ]);
    if (!chk.positive) throw new BusinessError('order.msg.notRefundable');
    if (!chk.ok) throw new BusinessError('order.msg.refundTooMuch', { max: o.refundable });
    await lockEmployee(t, ctx, o.employee_id);
    const [r] = await query<any>(
      t,
      `with upd as (update canteen_employee set balance = balance + $1::numeric, update_time = localtimestamp(0)
                     where id = $2 returning balance),
            nid as (select nextval('canteen_ledger_id_seq') as oid),
            ro as (insert into canteen_order (id, tenant_id, create_user, create_dept, create_time, update_time, status, order_no, order_type,
                    order_desc, employee_id, employee_name, card_no, merchant_id, merchant_name, merchant_no,
                    order_amount, pay_amount, fee_ratio, original_order_id, original_order_no, remarks)
                  select oid, $3, $4, $5, ${TIME(6)}, ${TIME(6)}, 4, 'TK' || oid, 2, '退款', $2, $7, $8, $9, $10, $11,
                         $1::numeric, $1::numeric, $12::numeric, $13, $14, $15 from nid
                  returning id, order_no, create_time),
            orig as (update canteen_order p set refund_amount = p.refund_amount + $1::numeric,
                       status = case when p.refund_amount + $1::numeric = p.pay_amount then 4 else 5 end,
                       refund_order_no = ro.order_no, update_time = localtimestamp(0)
                       from ro where p.id = $13 returning p.status, p.refund_amount),
            r as (insert into canteen_account_records (tenant_id, create_user, create_dept, create_time, update_time, order_id, order_no,
                    records_desc, account_type, account_id, account_no, account_name, amount, balance_after, records_type, remarks)
                  select $3, $4, $5, ro.create_time, ro.create_time, ro.id, ro.order_no, '退款', 2, $2, $8, $7, $1::numeric, upd.balance, 3, $15 from ro, upd
                  union all
                  select $3, $4, $5, ro.create_time, ro.create_time, ro.id, ro.order_no, '退款', 1, $9, $11, $10, -$1::numeric, null, 5, $15 from ro
                  returning 1)
       select ro.id, ro.order_no, upd.balance, orig.status as original_status, orig.refund_amount::text as refunded,
              (select count(*) from r) as n from ro, upd, orig`,
      [amount, o.employee_id, ctx.tenantId, ctx.userId ?? null, ctx.deptId ?? null, at(input.at), o.employee_name, o.card_no, o.merchant_id,
        o.merchant_name, o.merchant_no, o.fee_ratio, o.id, o.order_no, input.remarks ?? null],
    );
    await addDaily(t, ctx, r.id);
    return { id: r.id, orderNo: r.order_no, amount: money2(amount), balance: r.balance, originalStatus: r.original_status, refunded: r.refunded };
  });
}

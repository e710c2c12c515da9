/**
 * Monthly settlement of merchants, on the ledger tables.
 *
 *   amount = Σ payments − Σ refunds of the merchant whose order time falls in the month (payments: order
 *            type 1, refunds: order type 2; a refund counts in the month it was made),
 *   fee    = Σ over the fee ratios r the month's orders carry of round((payments_r − refunds_r) × r / 100, 2):
 *            each order keeps the merchant's ratio at the time it was paid (a refund the ratio of its
 *            payment), so a ratio changed later never re-prices past orders; a month with one ratio (the
 *            usual case) is simply round(amount × r / 100, 2),
 *   net    = amount − fee.
 * Rounding: PostgreSQL numeric round(x, 2) rounds half away from zero — 0.255 → 0.26 and −0.255 → −0.26 (a
 * month with more refunds than payments has a negative fee) — on exact decimals; money is never a float.
 * The settlement's feeRatio is the ratio of its latest payment (the one ratio, unless it changed during the
 * month; a month of refunds only: the latest refund's). The same rule gives the fees of the transaction statistics (statistics.ts), so a calendar month's
 * statistics equal the sum of that month's settlements.
 * Each covered order points at its settlement (canteen_order.settlement_id): detail/list reads them back,
 * and the invariant "every settlement equals its orders" is checkable in SQL.
 *
 * Generating again replaces the pending (status 1) settlements in scope and never touches audited ones
 * (status 2): a merchant with an audited settlement for the month is skipped. Generation and audit take a
 * per-tenant transaction-level advisory lock and row locks, and (tenant, merchant, cycle) is unique, so
 * concurrent calls serialise instead of doubling anything. A month can be generated while it runs (a
 * preview that later generations refresh) but only audited once it has ended: audited means final, so the
 * audit recomputes every figure from the month's orders in its own transaction (a settlement generated
 * mid-month is audited with the whole month, never with its stale preview figures).
 */
import type { Transaction } from 'kysely';
import { BusinessError } from '../../lib/errors.js';
import { query, tx, type Queryable as Q } from '../../lib/sql.js';
import { merchantLabels, unknownMerchantIds } from '../merchant/service.js';
import type { LedgerContext } from './service.js';

/**
 * Per (group, fee ratio) of orders `o`: count, payments, refunds, the ratio and the times of the latest payment and order.
 * FIGURES folds those rows per group into the settlement figures (see the header for the formulas).
 */
const PER_RATIO = `coalesce(o.fee_ratio, 0)::numeric(5,2) as r, count(*)::int as n,
                coalesce(sum(o.pay_amount) filter (where o.order_type = 1), 0) as paid,
                coalesce(sum(o.pay_amount) filter (where o.order_type = 2), 0) as refunded,
                max(o.create_time) filter (where o.order_type = 1) as last_paid, max(o.create_time) as last`;
const FIGURES = `sum(n)::int as order_count, sum(paid) as paid, sum(refunded) as refunded,
                sum(round((paid - refunded) * r / 100, 2)) as fee, (array_agg(r order by last_paid desc nulls last, last desc, r desc))[1] as fee_ratio`;

const CYCLE = /^\d{4}(0[1-9]|1[0-2])$/;

async function lockTenant(t: Transaction<any>, ctx: LedgerContext): Promise<void> {
  await query(t, `select pg_advisory_xact_lock(hashtext('canteen_settlement:' || $1::text))`, [ctx.tenantId]);
}

export interface GenInput {
  settlementCycle: unknown;
  merchantIds?: unknown;
}

export async function generateSettlements(db: Q, ctx: LedgerContext, input: GenInput) {
  const cycle = String(input.settlementCycle ?? '').trim();
  if (!cycle) throw new BusinessError('settlement.msg.settlementCycle');
  if (!CYCLE.test(cycle)) throw new BusinessError('settlement.msg.settlementCycleFormat');
  let ids: string[] | null = null;
  if (input.merchantIds !== undefined && input.merchantIds !== null && input.merchantIds !== '') {
    const raw = Array.isArray(input.merchantIds) ? input.merchantIds : String(input.merchantIds).split(',');
    ids = [...new Set(raw.map((x) => String(x).trim()).filter(Boolean))];
    if (!ids.length) ids = null;
  }
  return tx(db, async (t) => {
    await lockTenant(t, ctx);
    if (ids) {
      // Every id must be a merchant of the tenant: unknown ones are named, not silently settled as nothing.
      const unknown = await unknownMerchantIds(t, ctx.tenantId, ids);
      if (unknown.length) throw new BusinessError('settlement.msg.unknownMerchants', { ids: unknown.join(', ') });
    }
    const [now] = await query<{ cur: string }>(t, `select to_char(localtimestamp, 'YYYYMM') as cur`);
    if (cycle > now.cur) throw new BusinessError('settlement.msg.futureCycle');
    const from = `${cycle.slice(0, 4)}-${cycle.slice(4)}-01 00:00:00`;
    // The settled merchants' number and name as they are now (the merchant module's, by id): those with orders in scope.
    const inScope = await query<{ id: string }>(
      t,
      `select distinct merchant_id::text as id from canteen_order
        where tenant_id = $1 and is_deleted = 0 and order_type in (1, 2) and merchant_id is not null
          and create_time >= $2::timestamp and create_time < $2::timestamp + interval '1 month' and ($3::bigint[] is null or merchant_id = any($3::bigint[]))`,
      [ctx.tenantId, from, ids],
    );
    const labels = await merchantLabels(t, ctx.tenantId, inScope.map((r) => r.id));
    const params = [ctx.tenantId, cycle, ids, from, ctx.userId ?? null, JSON.stringify(labels)];
    // Pending settlements in scope: lock them, release their orders.
    await query(
      t,
      `with p as (select id from canteen_settlement where tenant_id = $1 and settlement_cycle = $2 and is_deleted = 0 and status = 1
                   and ($3::bigint[] is null or merchant_id = any($3::bigint[])) for update)
       update canteen_order o set settlement_id = null from p where o.settlement_id = p.id`,
      params.slice(0, 3),
    );
    // Aggregate the month per merchant in SQL and upsert (only pending rows are overwritten).
    const rows = await query<{ id: string; merchant_id: string }>(
      t,
      `with per as (
         select o.merchant_id, ${PER_RATIO}
           from canteen_order o
          where o.tenant_id = $1 and o.is_deleted = 0 and o.order_type in (1, 2)
            and o.create_time >= $4::timestamp and o.create_time < $4::timestamp + interval '1 month'
            and ($3::bigint[] is null or o.merchant_id = any($3::bigint[]))
            and not exists (select 1 from canteen_settlement a where a.tenant_id = $1 and a.merchant_id = o.merchant_id
                             and a.settlement_cycle = $2 and a.is_deleted = 0 and a.status = 2)
          group by o.merchant_id, coalesce(o.fee_ratio, 0)),
       agg as (select merchant_id, ${FIGURES} from per group by merchant_id),
       calc as (
         select a.*, m."merchantNo" as merchant_no, m."merchantName" as merchant_name
           from agg a join json_to_recordset($6::json) as m(id bigint, "merchantNo" text, "merchantName" text) on m.id = a.merchant_id)
       insert into canteen_settlement as s (tenant_id, create_user, update_user, merchant_id, merchant_no, merchant_name, settlement_cycle,
              order_count, paid_amount, refund_amount, amount, fee_ratio, fee_amount, net_amount, status)
       select $1, $5, $5, merchant_id, merchant_no, merchant_name, $2, order_count, paid, refunded, paid - refunded, fee_ratio, fee, paid - refunded - fee, 1 from calc
       on conflict (tenant_id, merchant_id, settlement_cycle) where is_deleted = 0 do update set
         merchant_no = excluded.merchant_no, merchant_name = excluded.merchant_name, order_count = excluded.order_count,
         paid_amount = excluded.paid_amount, refund_amount = excluded.refund_amount, amount = excluded.amount,
         fee_ratio = excluded.fee_ratio, fee_amount = excluded.fee_amount, net_amount = excluded.net_amount,
         update_user = excluded.update_user, update_time = localtimestamp(0)
         where s.status = 1
       returning s.id, s.merchant_id`,
      params,
    );
    // Pending settlements in scope that no longer have orders are replaced by nothing.
    await query(
      t,
      `delete from canteen_settlement where tenant_id = $1 and settlement_cycle = $2 and is_deleted = 0 and status = 1
          and ($3::bigint[] is null or merchant_id = any($3::bigint[])) and not (id = any($4::bigint[]))`,
      [ctx.tenantId, cycle, ids, rows.map((r) => r.id)],
    );
    if (rows.length) {
      await query(
        t,
        `update canteen_order o set settlement_id = s.id
           from canteen_settlement s
          where s.id = any($1::bigint[]) and o.tenant_id = s.tenant_id and o.merchant_id = s.merchant_id and o.is_deleted = 0
            and o.order_type in (1, 2) and o.create_time >= $2::timestamp and o.create_time < $2::timestamp + interval '1 month'`,
        [rows.map((r) => r.id), from],
      );
    }
    return { count: rows.length, settlementCycle: cycle, ids: rows.map((r) => r.id) };
  });
}

/** Audit settlements (idempotent: already audited ones are left as they are and reported). */
export async function auditSettlements(db: Q, ctx: LedgerContext, idsRaw: unknown) {
  const ids = (Array.isArray(idsRaw) ? idsRaw : String(idsRaw ?? '').split(','))
    .map((x) => String(x).trim())
    .filter(Boolean);
  if (!ids.length) throw new BusinessError('settlement.msg.selectOne');
  if (ids.some((i) => !/^[0-9]{1,19}$/.test(i))) throw new BusinessError('settlement.msg.notFound', {}, 404);
  return tx(db, async (t) => {
    await lockTenant(t, ctx);
    const rows = await query<{ id: string; status: number; open: boolean }>(
      t,
      `select id, status, settlement_cycle >= to_char(localtimestamp, 'YYYYMM') as open from canteen_settlement
        where tenant_id = $1 and is_deleted = 0 and id = any($2::bigint[]) order by id for update`,
      [ctx.tenantId, ids],
    );
    if (rows.length !== new Set(ids).size) throw new BusinessError('settlement.msg.notFound', {}, 404);
    if (rows.some((r) => r.status === 1 && r.open)) throw new BusinessError('settlement.msg.notEnded');
    const pending = rows.filter((r) => r.status === 1).map((r) => r.id);
    if (!pending.length) return { audited: 0, alreadyAudited: rows.length };
    // Recompute each pending settlement from its merchant-month's orders (the generation formulas), link every
    // one of those orders to it, and only then mark it audited: what is audited is the month as it ended.
    const MONTH = `(substr(s.settlement_cycle, 1, 4) || '-' || substr(s.settlement_cycle, 5, 2) || '-01')::timestamp`;
    const done = await query<{ id: string }>(
      t,
      `with target as (select s.id, s.merchant_id, ${MONTH} as f from canteen_settlement s
                        where s.tenant_id = $1 and s.id = any($2::bigint[]) and s.status = 1),
            per as (select t.id, ${PER_RATIO}
                      from target t join canteen_order o on o.tenant_id = $1 and o.merchant_id = t.merchant_id and o.is_deleted = 0
                       and o.order_type in (1, 2) and o.create_time >= t.f and o.create_time < t.f + interval '1 month'
                     group by t.id, coalesce(o.fee_ratio, 0)),
            agg as (select id, ${FIGURES} from per group by id)
       update canteen_settlement s set
              order_count = coalesce(a.order_count, 0), paid_amount = coalesce(a.paid, 0), refund_amount = coalesce(a.refunded, 0),
              amount = coalesce(a.paid - a.refunded, 0), fee_ratio = coalesce(a.fee_ratio, s.fee_ratio), fee_amount = coalesce(a.fee, 0),
              net_amount = coalesce(a.paid - a.refunded - a.fee, 0),
              status = 2, audit_time = localtimestamp(0), audit_user = $3, update_time = localtimestamp(0), update_user = $3
         from target t left join agg a on a.id = t.id
        where s.id = t.id
        returning s.id`,
      [ctx.tenantId, pending, ctx.userId ?? null],
    );
    await query(
      t,
      `update canteen_order o set settlement_id = s.id
         from canteen_settlement s
        where s.id = any($1::bigint[]) and o.tenant_id = s.tenant_id and o.merchant_id = s.merchant_id and o.is_deleted = 0 and o.order_type in (1, 2)
          and o.create_time >= ${MONTH} and o.create_time < ${MONTH} + interval '1 month'
          and o.settlement_id is distinct from s.id`,
      [done.map((r) => r.id)],
    );
    return { audited: done.length, alreadyAudited: rows.length - done.length };
  });
}

/** A page of the orders a settlement covers (tenant's only), in time order, with their count. */
export async function settlementOrders(db: Q, tenantId: string, settlementId: string, page: { limit: number; offset: number }) {
  const [cnt] = await query<{ n: number }>(db, `select count(*)::int as n from canteen_order where settlement_id = $1 and tenant_id = $2`, [settlementId, tenantId]);
  const rows = await query<Record<string, unknown>>(
    db,
    `select id::text, order_no as "orderNo", order_type as "orderType", status, order_desc as "orderDesc", employee_name as "employeeName",
            card_no as "cardNo", merchant_name as "merchantName", order_amount::text as "orderAmount", pay_amount::text as "payAmount",
            refund_amount::text as "refundAmount", original_order_no as "originalOrderNo",
            to_char(create_time, 'YYYY-MM-DD HH24:MI:SS') as "createTime"
       from canteen_order where settlement_id = $1 and tenant_id = $2 order by create_time, id limit $3 offset $4`,
    [settlementId, tenantId, page.limit, page.offset],
  );
  return { rows, total: Number(cnt.n) };
}

/** How many settlements of the tenant wait for their audit (status 1). */
export async function pendingSettlementCount(db: Q, tenantId: string): Promise<number> {
  const [r] = await query<{ n: string }>(db, `select count(*)::text as n from canteen_settlement where tenant_id = $1 and is_deleted = 0 and status = 1`, [tenantId]);
  return Number(r?.n ?? 0);
}

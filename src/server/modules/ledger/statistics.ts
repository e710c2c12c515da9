/**
 * Transaction statistics over a time range [from, to): totals (payments, refunds, fees, net) and a per-day
 * series, all computed in SQL. Whole days come from the rollups: canteen_order_daily, which the ledger
 * maintains in the same transaction as each payment/refund, and its trigger-maintained sums
 * canteen_order_day_total (per day) and canteen_order_monthly (per month, merchant and ratio) — a year is
 * ~365 + 12 × merchants rows (plus the daily rows of a partial first/last month) instead of ~1M orders; only the
 * partial first and last days are read from the orders, each a range on the (tenant_id, create_time) index.
 * So any range costs about what its whole days cost, at any time of day.
 *
 * fees = Σ per merchant and fee ratio r round((paid_r − refunded_r) × r / 100, 2), r being the ratio stored on
 * each order when it was paid (a refund carries its payment's ratio) — never the merchant's current ratio,
 * which may have changed since: the settlement formula (settlement.ts), so a calendar month's totals equal
 * the sum of that month's settlements. Rounding is numeric round(): half away from zero.
 * net = paid − refunded − fees.
 */
import { query, type Queryable as Q } from '../../lib/sql.js';

export interface StatTotals {
  paidCount: number;
  paid: string;
  refundCount: number;
  refunded: string;
  fees: string;
  net: string;
}

export interface StatDay {
  day: string;
  paidCount: number;
  paid: string;
  refundCount: number;
  refunded: string;
}

/** The date part of a local timestamp text ('YYYY-MM-DD[ HH:mm[:ss]]'). */
function datePart(ts: string): string {
  return ts.slice(0, 10);
}

function isMidnight(ts: string): boolean {
  return /^\d{4}-\d{2}-\d{2}( 00:00(:00)?)?$/.test(ts);
}

/** The day after a 'YYYY-MM-DD' date (calendar arithmetic in UTC, so no time zone can shift it). */
function nextDay(day: string): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}

/**
 * How [from, to) splits: whole days [wholeFrom, wholeTo) from the rollup, the partial head [from, wholeFrom)
 * and tail [wholeTo, to) from the orders. Without a whole day inside, everything comes from the orders.
 */
export function splitRange(from: string, to: string): { wholeFrom: string; wholeTo: string } | null {
  const wholeFrom = isMidnight(from) ? datePart(from) : nextDay(datePart(from));
  const wholeTo = datePart(to);
  return wholeFrom < wholeTo ? { wholeFrom, wholeTo } : null;
}

const ORDER_ROWS = `select create_time::date as day, merchant_id, coalesce(fee_ratio, 0) as r,
              (order_type = 1)::int as pc, case when order_type = 1 then pay_amount else 0 end as pa,
              (order_type = 2)::int as rc, case when order_type = 2 then pay_amount else 0 end as ra
         from canteen_order where tenant_id = $1 and is_deleted = 0 and order_type in (1, 2)`;

export type StatSource = 'rollup' | 'orders' | 'mixed';

/** The first day of the month of a 'YYYY-MM-DD' date, and the first day of the next month. */
function monthStart(day: string): string {
  return `${day.slice(0, 7)}-01`;
}
function nextMonthStart(day: string): string {
  const d = new Date(`${day.slice(0, 7)}-01T00:00:00Z`);
  d.setUTCMonth(d.getUTCMonth() + 1);
  return d.toISOString().slice(0, 10);
}

/**
 * The whole months [monthFrom, monthTo) inside the whole days [wholeFrom, wholeTo); none → both wholeTo.
 */
export function splitMonths(wholeFrom: string, wholeTo: string): { monthFrom: string; monthTo: string } {
  const monthFrom = monthStart(wholeFrom) === wholeFrom ? wholeFrom : nextMonthStart(wholeFrom);
  const monthTo = monthStart(wholeTo);
  return monthFrom < monthTo ? { monthFrom, monthTo } : { monthFrom: wholeTo, monthTo: wholeTo };
}

/**
 * `only: 'orders'` reads every order of the range (the reference the rollup path is tested against).
 *
 * With whole days inside the range, nothing is summed over ~365 × merchants daily rows any more (issue 13: that
 * was ~100 ms a year): the series and the totals come from canteen_order_day_total (one row a day) plus the
 * partial first/last days' orders; the fees' per-(merchant, ratio) sums from canteen_order_monthly for whole
 * months, canteen_order_daily for the days of the partial first/last months, and the partial days' orders.
 * Both coarser rollups are trigger-maintained sums of the daily one (migration ledger_0004), so the answer is
 * the same, to the cent, as summing the daily rollup or the orders.
 */
export async function orderStatistics(db: Q, tenantId: string, from: string, to: string, opts: { only?: 'orders' } = {}): Promise<{ totals: StatTotals; series: StatDay[]; source: StatSource }> {
  const split = opts.only === 'orders' ? null : splitRange(from, to);
  const source: StatSource = !split ? 'orders' : split.wholeFrom === datePart(from) && isMidnight(to) ? 'rollup' : 'mixed';
  const rows = await query<any>(db, split ? ROLLUP_STATEMENT : ORDERS_STATEMENT, split ? rollupParams(tenantId, from, to, split) : [tenantId, from, to]);
  const tot = rows.find((r) => r.kind === 'total');
  const series = rows.filter((r) => r.kind === 'day');
  return {
    totals: {
      paidCount: Number(tot.paid_count),
      paid: tot.paid,
      refundCount: Number(tot.refund_count),
      refunded: tot.refunded,
      fees: tot.fees,
      net: tot.net,
    },
    series: series.map((r) => ({ day: r.day, paidCount: Number(r.paid_count), paid: r.paid, refundCount: Number(r.refund_count), refunded: r.refunded })),
    source,
  };
}

function rollupParams(tenantId: string, from: string, to: string, split: { wholeFrom: string; wholeTo: string }): string[] {
  const { monthFrom, monthTo } = splitMonths(split.wholeFrom, split.wholeTo);
  return [tenantId, from, to, split.wholeFrom, split.wholeTo, monthFrom, monthTo];
}

/**
 * Every order of [from, to): one statement, one pass over the rows — grouping sets give the per-day series and
 * the per-(merchant, ratio) sums that the fees are rounded on; the totals row sums the latter (numeric all the
 * way, never JS floats). $1 tenant, $2 from, $3 to.
 */
const ORDERS_STATEMENT = `with per as (${ORDER_ROWS} and create_time >= $2::timestamp and create_time < $3::timestamp),
          g as (select day, merchant_id, r, sum(pc) pc, sum(pa) pa, sum(rc) rc, sum(ra) ra, grouping(day) as by_merchant
                  from per group by grouping sets ((day), (merchant_id, r)))
     select 'day' as kind, to_char(day, 'YYYY-MM-DD') as day, pc::int as paid_count, pa::numeric(14,2)::text as paid,
            rc::int as refund_count, ra::numeric(14,2)::text as refunded, null as fees, null as net
       from g where by_merchant = 0
     union all
     select 'total', null, coalesce(sum(pc), 0)::int, coalesce(sum(pa), 0)::numeric(14,2)::text,
            coalesce(sum(rc), 0)::int, coalesce(sum(ra), 0)::numeric(14,2)::text,
            coalesce(sum(round((pa - ra) * r / 100, 2)), 0)::numeric(14,2)::text,
            (coalesce(sum(pa), 0) - coalesce(sum(ra), 0) - coalesce(sum(round((pa - ra) * r / 100, 2)), 0))::numeric(14,2)::text
       from g where by_merchant = 1
     order by kind, day`;

/**
 * Whole days [$4, $5) from the rollups, the partial head [$2, $4) and tail [$5, $3) from the orders; whole
 * months [$6, $7) of the fees from the monthly rollup, the rest of [$4, $5) from the daily one. Each piece is a
 * range on a primary key or on the (tenant_id, create_time) index. Fees: Σ over (merchant, ratio) of
 * round(Σ(paid − refunded) × r / 100, 2), exactly as before (the sum per (merchant, ratio) is the same
 * whichever rollup level its parts come from).
 */
const ROLLUP_STATEMENT = `with o as (${ORDER_ROWS} and create_time >= $2::timestamp and create_time < $4::timestamp
              union all ${ORDER_ROWS} and create_time >= $5::timestamp and create_time < $3::timestamp),
          d as (select day, sum(pc) pc, sum(pa) pa, sum(rc) rc, sum(ra) ra
                  from (select day, paid_count pc, paid_amount pa, refund_count rc, refund_amount ra from canteen_order_day_total
                         where tenant_id = $1 and day >= $4::date and day < $5::date
                        union all select day, pc, pa, rc, ra from o) x
                 group by day),
          f as (select round(sum(amount) * r / 100, 2) as fee
                  from (select merchant_id, fee_ratio r, paid_amount - refund_amount as amount from canteen_order_monthly
                         where tenant_id = $1 and month >= $6::date and month < $7::date
                        union all select merchant_id, fee_ratio, paid_amount - refund_amount from canteen_order_daily
                         where tenant_id = $1 and day >= $4::date and day < $6::date
                        union all select merchant_id, fee_ratio, paid_amount - refund_amount from canteen_order_daily
                         where tenant_id = $1 and day >= $7::date and day < $5::date
                        union all select merchant_id, r, pa - ra from o) x
                 group by merchant_id, r),
          t as (select coalesce(sum(pc), 0) pc, coalesce(sum(pa), 0) pa, coalesce(sum(rc), 0) rc, coalesce(sum(ra), 0) ra,
                       (select coalesce(sum(fee), 0) from f) fees
                  from d)
     select 'day' as kind, to_char(day, 'YYYY-MM-DD') as day, pc::int as paid_count, pa::numeric(14,2)::text as paid,
            rc::int as refund_count, ra::numeric(14,2)::text as refunded, null as fees, null as net
       from d
     union all
     select 'total', null, pc::int, pa::numeric(14,2)::text, rc::int, ra::numeric(14,2)::text, fees::numeric(14,2)::text,
            (pa - ra - fees)::numeric(14,2)::text
       from t
     order by kind, day`;

/**
 * Paid payments per day over [from, to] (whole days, yyyy-MM-dd; every day listed, zeros included): payment
 * orders that were paid (status 2 paid, 4 refunded, 5 partly refunded), their count and amount (SQL numeric
 * text) — the day's business as the home page shows it.
 */
export async function paidPaymentsPerDay(db: Q, tenantId: string, from: string, to: string): Promise<Array<{ date: string; orders: number; amount: string }>> {
  const rows = await query<{ day: string; n: string; amount: string }>(
    db,
    `select to_char(d.day, 'YYYY-MM-DD') as day, coalesce(o.n, 0)::text as n, coalesce(o.amount, 0)::numeric(14,2)::text as amount
       from generate_series($2::date, $3::date, interval '1 day') as d(day)
       left join (
         select create_time::date as day, count(*) as n, sum(pay_amount) as amount from canteen_order
          where tenant_id = $1 and is_deleted = 0 and order_type = 1 and status in (2, 4, 5)
            and create_time >= $2::timestamp and create_time < $3::timestamp + interval '1 day'
          group by 1
       ) o on o.day = d.day::date
      order by d.day`,
    [tenantId, from, to],
  );
  return rows.map((x) => ({ date: x.day, orders: Number(x.n), amount: x.amount }));
}

/**
 * Transaction statistics over a time range [from, to): totals (payments, refunds, fees, net) and a per-day
 * series, all computed in SQL. Whole days come from the daily rollup canteen_order_daily that the ledger
 * maintains in the same transaction as each payment/refund (a year is ~365 × merchants rows instead of ~1M
 * orders); only the partial first and last days are read from the orders, each a range on the
 * (tenant_id, create_time) index. So any range costs about what its whole days cost, at any time of day.
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

/**
 * `only: 'orders'` reads every order of the range (the reference the rollup path is tested against).
 */
export async function orderStatistics(db: Q, tenantId: string, from: string, to: string, opts: { only?: 'orders' } = {}): Promise<{ totals: StatTotals; series: StatDay[]; source: StatSource }> {
  const split = opts.only === 'orders' ? null : splitRange(from, to);
  const per = split
    ? `select day, merchant_id, fee_ratio as r, paid_count as pc, paid_amount as pa, refund_count as rc, refund_amount as ra from canteen_order_daily
        where tenant_id = $1 and day >= $4::date and day < $5::date
       union all ${ORDER_ROWS} and create_time >= $2::timestamp and create_time < $4::timestamp
       union all ${ORDER_ROWS} and create_time >= $5::timestamp and create_time < $3::timestamp`
    : `${ORDER_ROWS} and create_time >= $2::timestamp and create_time < $3::timestamp`;
  const params = split ? [tenantId, from, to, split.wholeFrom, split.wholeTo] : [tenantId, from, to];
  const source: StatSource = !split ? 'orders' : split.wholeFrom === datePart(from) && isMidnight(to) ? 'rollup' : 'mixed';
  // One statement, one pass over the rows: grouping sets give the per-day series and the per-(merchant, ratio)
  // sums that the fees are rounded on; the totals row sums the latter (numeric all the way, never JS floats).
  const rows = await query<any>(
    db,
    `with per as (${per}),
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
     order by kind, day`,
    params,
  );
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

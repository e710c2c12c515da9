/**
 * Demo data for the canteen ledger, deterministic for a given seed on an empty ledger: employees, extra
 * merchants when asked for more than exist, payments over the last T months (skewed towards some
 * merchants), ~2% full and ~1% half refunds, and a monthly allowance per employee (200 + what the employee
 * spends that month, credited at 00:00 on the 1st, before any meal: no balance ever dips below zero); every
 * 5th card is bound to the messaging app (wxUserId `wx_<cardNo>`), so the unbind action has rows to act on.
 * Then the settlements of every ended month (same formula as settlement.ts; the last ended month pending,
 * older ones audited), a few banners, messaging-app users and messages.
 *
 * It is the ledger's bulk path: set-based SQL in one transaction that writes exactly what recharge/pay/
 * refund would (orders, both account records with running balances, refund links, the daily rollup), so the
 * invariants of tests/api/business/invariants.test.ts hold; 1,000,000 orders load in a few minutes.
 * Used by `npm run seed:demo` and, small, at first start (see scripts/seed-demo.ts).
 *
 * Reproducible: every time in the data is reckoned from one "now" — the database's local time when the run
 * starts, or `opts.now` (`npm run seed:demo -- --now 2026-03-15T12:00:00`) — so the same seed and the same
 * now give the same data on any day; without `now`, two runs agree only within the same clock hour (the
 * payments end an hour before now and the months are counted back from it).
 */
import { isDate } from '../../../shared/form.js';
import type { Kysely } from 'kysely';
import { query, tx } from '../../lib/sql.js';
import { countMerchants, firstMerchants, openMerchants, seedDemoMerchants } from '../merchant/service.js';
import { seedDemoBanners } from '../banner/service.js';
import { seedDemoMessages } from '../msgcenter/service.js';
import { seedDemoWxUsers } from '../wxuser/service.js';
import { firstCards } from './cards.js';
import type { LedgerContext } from './service.js';

export interface DemoOptions {
  employees: number;
  merchants: number;
  orders: number;
  months: number;
  seed: number;
  /** The moment the demo is generated at: local `yyyy-MM-dd[ HH:mm[:ss]]` (APP_TIMEZONE, also with `T`), or an ISO
   *  time with a zone (Z, +08:00), converted to local time. Default: the database's local time now. */
  now?: string;
  /** Log progress lines (the CLI). */
  log?: (line: string) => void;
}

const NOW_INPUT = /^(\d{4}-\d{2}-\d{2})([T ]([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d{1,6})?)?)?(Z|[+-]([01]\d|2[0-3])(:?[0-5]\d)?)?$/;

/** The run's "now" as local `yyyy-MM-dd HH:mm:ss` (whole seconds), validated: a bad --now is an error, not a guess. */
export async function demoNow(db: Kysely<any>, now?: string): Promise<string> {
  if (now !== undefined) {
    const m = NOW_INPUT.exec(now.trim());
    if (!m || !isDate(m[1])) throw new Error(`seed-demo: --now ${JSON.stringify(now)} is not a date-time like 2026-03-15T12:00:00 (local) or 2026-03-15T04:00:00Z`);
  }
  const [r] = await query<{ now: string }>(
    db,
    `select to_char(date_trunc('second', coalesce($1::timestamptz, now()) at time zone current_setting('TimeZone')), 'YYYY-MM-DD HH24:MI:SS') as now`,
    [now?.trim() ?? null],
  );
  return r.now;
}

export const SMALL_DEMO: DemoOptions = { employees: 60, merchants: 0, orders: 400, months: 3, seed: 42 };

const SURNAMES = ['王', '李', '张', '刘', '陈', '杨', '赵', '黄', '周', '吴', '徐', '孙', '胡', '朱', '高', '林'];
const GIVEN = ['伟', '芳', '娜', '敏', '静', '磊', '强', '艳', '军', '涛', '洋', '勇', '杰', '娟', '霞', '明', '超', '秀英', '桂英', '建华'];
const DISHES = ['早餐', '午餐', '晚餐', '面食', '盖浇饭', '水果', '饮品', '小炒', '麻辣烫', '粥'];

export async function seedDemoLedger(db: Kysely<any>, ctx: LedgerContext, opts: DemoOptions): Promise<Record<string, number>> {
  const log = opts.log ?? (() => undefined);
  const seed = ((Math.abs(Math.trunc(opts.seed)) % 1000) + 1) / 1001; // setseed() wants [-1, 1]
  const t0 = Date.now();
  const stamp = (what: string) => log(`${what} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
  const [{ n: existing }] = await query<{ n: string }>(db, `select count(*) as n from canteen_order where tenant_id = $1`, [ctx.tenantId]);
  if (Number(existing) > 0) throw new Error('seed-demo: the ledger already has orders; use an empty database');
  // One moment for the whole run (a validated literal, never client text): see the header.
  const nowText = await demoNow(db, opts.now);
  const NOW = `'${nowText}'::timestamp(0)`;
  stamp(`now: ${nowText}`);

  await tx(db, async (t) => {
    await query(t, `select setseed($1)`, [seed]);
    // Merchants: top up to the requested count (through the merchant module, whose table it is; demo rows only).
    const extra = Math.max(0, opts.merchants - (await countMerchants(t, ctx.tenantId)));
    await seedDemoMerchants(t, ctx, extra, NOW);
    stamp(`merchants: ${extra} added`);
    await query(
      t,
      `insert into canteen_employee (tenant_id, create_user, create_dept, create_time, update_time, employee_name, card_no, phone, gender,
              status, psw_free, wx_user_id, remarks)
       select $1, $3, $4, ${NOW}, ${NOW},
              ($5::text[])[1 + floor(random() * array_length($5::text[], 1))::int] || ($6::text[])[1 + floor(random() * array_length($6::text[], 1))::int],
              'K' || lpad(g::text, 8, '0'), '137' || lpad(g::text, 8, '0'), 1 + (g % 2),
              case when g % 97 = 0 then 2 when g % 89 = 0 then 3 else 1 end, 1,
              case when g % 5 = 0 then 'wx_K' || lpad(g::text, 8, '0') end, '演示数据'
         from generate_series(1, $2::int) g`,
      [ctx.tenantId, opts.employees, ctx.userId ?? null, ctx.deptId ?? null, SURNAMES, GIVEN],
    );
    stamp(`employees: ${opts.employees}`);

    // Payments: employee index, merchant index (skewed), amount, time in [start of the first month, now).
    // Numbered employees and merchants as analysed temp tables: the rows were inserted in this transaction,
    // so the planner has no statistics for them and would nest-loop a million draws over them.
    await query(t, `create temp table demo_e on commit drop as
      select row_number() over (order by id)::int as i, id, employee_name, card_no from canteen_employee where tenant_id = $1::varchar and status = 1`, [ctx.tenantId]);
    await query(t, `create temp table demo_m on commit drop as
      select row_number() over (order by id)::int as i, id, merchant_name, merchant_no, fee_ratio
        from json_to_recordset($1::json) as x(id bigint, merchant_name text, merchant_no text, fee_ratio numeric(5,2))`,
      [JSON.stringify((await openMerchants(t, ctx.tenantId)).map((m) => ({ id: m.id, merchant_name: m.merchantName, merchant_no: m.merchantNo, fee_ratio: m.feeRatio })))]);
    await query(t, `create unique index on demo_e (i)`);
    await query(t, `create unique index on demo_m (i)`);
    await query(t, `analyze demo_e`);
    await query(t, `analyze demo_m`);
    await query(t, `analyze canteen_employee`);
    await query(t, `create temp table demo_pay on commit drop as
      with e as (select * from demo_e), m as (select * from demo_m),
           span as (select date_trunc('month', ${NOW}) - make_interval(months => $3::int - 1) as s, date_trunc('hour', ${NOW}) - interval '1 hour' as e
                     where $1::varchar is not null),
           g as (select g, 1 + floor(random() * (select count(*) from e))::int as ei, 1 + floor(power(random(), 2) * (select count(*) from m))::int as mi,
                        round((4 + random() * 26)::numeric, 2) as amount, random() as tr, random() as dr, random() as rr
                   from generate_series(1, $2::int) g)
      select nextval('canteen_ledger_id_seq') as id, e.id as employee_id, e.employee_name, e.card_no, m.id as merchant_id, m.merchant_name,
             m.merchant_no, m.fee_ratio, g.amount, g.rr,
             least(span.e, date_trunc('day', span.s + g.tr * (span.e - span.s)) + interval '7 hour' + g.dr * interval '13 hour')::timestamp(0) as at,
             ($4::text[])[1 + (g.g % array_length($4::text[], 1))] as descr
        from g join e on e.i = g.ei join m on m.i = g.mi, span`, [ctx.tenantId, opts.orders, Math.max(1, opts.months), DISHES]);
    stamp(`payments drawn: ${opts.orders}`);
    // Refunds: ~2% full (an hour later), ~1% half.
    await query(t, `create temp table demo_ref on commit drop as
      select nextval('canteen_ledger_id_seq') as id, p.id as pay_id, case when p.rr < 0.02 then p.amount else round(p.amount / 2, 2) end as amount,
             least(p.at + interval '1 hour', ${NOW})::timestamp(0) as at
        from demo_pay p where p.rr < 0.03 and round(p.amount / 2, 2) > 0`);
    // Allowance per employee and month: 200 + that month's spending, at 00:00 on the 1st (or on the first day of the span).
    await query(t, `create temp table demo_rech on commit drop as
      with spend as (select employee_id, date_trunc('month', at) as m, sum(amount) as s from demo_pay group by 1, 2)
      select nextval('canteen_ledger_id_seq') as id, e.id as employee_id, e.employee_name, e.card_no, mo.m as at,
             (200 + coalesce(sp.s, 0))::numeric(12,2) as amount
        from canteen_employee e
        cross join generate_series(date_trunc('month', ${NOW}) - make_interval(months => $2::int - 1), date_trunc('month', ${NOW}), interval '1 month') as mo(m)
        left join spend sp on sp.employee_id = e.id and sp.m = mo.m
       where e.tenant_id = $1 and e.status <> 4
       order by e.id, mo.m`, [ctx.tenantId, Math.max(1, opts.months)]);
    await query(t, `create index on demo_pay (id)`);
    await query(t, `analyze demo_pay`);
    await query(t, `analyze demo_ref`);
    await query(t, `analyze demo_rech`);
    stamp('refunds and allowances drawn');

    // One settlement per merchant and ENDED month, numbered before the orders so each order is written with
    // its settlement_id (a later UPDATE of a million indexed rows would cost minutes).
    await query(t, `create temp table demo_set on commit drop as
      select nextval('canteen_ledger_id_seq') as id, merchant_id, m from (
        select p.merchant_id, date_trunc('month', p.at) as m from demo_pay p
        union
        select p.merchant_id, date_trunc('month', r.at) from demo_ref r join demo_pay p on p.id = r.pay_id) x
       where m < date_trunc('month', ${NOW})`);
    await query(t, `create unique index on demo_set (merchant_id, m)`);
    await query(t, `analyze demo_set`);
    const A = [ctx.tenantId, ctx.userId ?? null, ctx.deptId ?? null];
    await query(t, `insert into canteen_order (id, tenant_id, create_user, create_dept, create_time, update_time, status, order_no, order_type, order_desc,
              employee_id, employee_name, card_no, order_amount, pay_amount)
       select id, $1, $2, $3, at, at, 2, 'CZ' || id, 3, '充值', employee_id, employee_name, card_no, amount, amount from demo_rech`, A);
    await query(t, `insert into canteen_order (id, tenant_id, create_user, create_dept, create_time, update_time, status, order_no, order_type, order_desc,
              employee_id, employee_name, card_no, merchant_id, merchant_name, merchant_no, order_amount, pay_amount, refund_amount, fee_ratio,
              refund_order_no, details, settlement_id)
       select p.id, $1, $2, $3, p.at, coalesce(r.at, p.at), case when r.id is null then 2 when r.amount = p.amount then 4 else 5 end,
              'XF' || p.id, 1, p.descr, p.employee_id, p.employee_name, p.card_no, p.merchant_id, p.merchant_name, p.merchant_no,
              p.amount, p.amount, coalesce(r.amount, 0), p.fee_ratio, case when r.id is null then null else 'TK' || r.id end,
              jsonb_build_object('channel', 'card', 'terminal', 'POS-' || (p.id % 50)), s.id
         from demo_pay p left join demo_ref r on r.pay_id = p.id
         left join demo_set s on s.merchant_id = p.merchant_id and s.m = date_trunc('month', p.at)`, A);
    await query(t, `insert into canteen_order (id, tenant_id, create_user, create_dept, create_time, update_time, status, order_no, order_type, order_desc,
              employee_id, employee_name, card_no, merchant_id, merchant_name, merchant_no, order_amount, pay_amount, fee_ratio,
              original_order_id, original_order_no, settlement_id)
       select r.id, $1, $2, $3, r.at, r.at, 4, 'TK' || r.id, 2, '退款', p.employee_id, p.employee_name, p.card_no, p.merchant_id, p.merchant_name,
              p.merchant_no, r.amount, r.amount, p.fee_ratio, p.id, 'XF' || p.id, s.id
         from demo_ref r join demo_pay p on p.id = r.pay_id
         left join demo_set s on s.merchant_id = p.merchant_id and s.m = date_trunc('month', r.at)`, A);
    stamp('orders written');
    // Account records: employee side with the running balance, then merchant side.
    await query(t, `insert into canteen_account_records (tenant_id, create_user, create_dept, create_time, update_time, order_id, order_no, records_desc,
              account_type, account_id, account_no, account_name, amount, balance_after, records_type)
       select $1::varchar, $2::bigint, $3::bigint, at, at, oid, ono, descr, 2, employee_id, card_no, employee_name, amount,
              sum(amount) over (partition by employee_id order by at, oid rows unbounded preceding), rtype
         from (select id as oid, 'CZ' || id as ono, at, '充值' as descr, employee_id, card_no, employee_name, amount, 1 as rtype from demo_rech
               union all
               select id, 'XF' || id, at, descr, employee_id, card_no, employee_name, -amount, 2 from demo_pay
               union all
               select r.id, 'TK' || r.id, r.at, '退款', p.employee_id, p.card_no, p.employee_name, r.amount, 3 from demo_ref r join demo_pay p on p.id = r.pay_id) x`, A);
    await query(t, `insert into canteen_account_records (tenant_id, create_user, create_dept, create_time, update_time, order_id, order_no, records_desc,
              account_type, account_id, account_no, account_name, amount, records_type)
       select $1::varchar, $2::bigint, $3::bigint, at, at, id, 'XF' || id, descr, 1, merchant_id, merchant_no, merchant_name, amount, 4 from demo_pay
       union all
       select $1::varchar, $2::bigint, $3::bigint, r.at, r.at, r.id, 'TK' || r.id, '退款', 1, p.merchant_id, p.merchant_no, p.merchant_name, -r.amount, 5
         from demo_ref r join demo_pay p on p.id = r.pay_id`, A);
    stamp('account records written');
    await query(t, `update canteen_employee e set balance = s.b from
       (select account_id, sum(amount) as b from canteen_account_records where account_type = 2 and tenant_id = $1 group by account_id) s
       where e.id = s.account_id`, [ctx.tenantId]);
    await query(t, `insert into canteen_order_daily (tenant_id, day, merchant_id, fee_ratio, paid_count, paid_amount, refund_count, refund_amount)
       select tenant_id, create_time::date, merchant_id, coalesce(fee_ratio, 0),
              count(*) filter (where order_type = 1), coalesce(sum(pay_amount) filter (where order_type = 1), 0),
              count(*) filter (where order_type = 2), coalesce(sum(pay_amount) filter (where order_type = 2), 0)
         from canteen_order where tenant_id = $1 and order_type in (1, 2) group by 1, 2, 3, 4`, [ctx.tenantId]);
    stamp('balances and daily rollup');
    await query(t, `insert into canteen_settlement (id, tenant_id, create_user, update_user, merchant_id, merchant_no, merchant_name, settlement_cycle,
              order_count, paid_amount, refund_amount, amount, fee_ratio, fee_amount, net_amount, status, audit_user, audit_time)
       select s.id, $1::varchar, $2::bigint, $2::bigint, s.merchant_id, m.merchant_no, m.merchant_name, to_char(s.m, 'YYYYMM'),
              a.n, a.paid, a.ref, a.paid - a.ref, coalesce(m.fee_ratio, 0), round((a.paid - a.ref) * coalesce(m.fee_ratio, 0) / 100, 2),
              (a.paid - a.ref) - round((a.paid - a.ref) * coalesce(m.fee_ratio, 0) / 100, 2),
              case when s.m < date_trunc('month', ${NOW}) - interval '1 month' then 2 else 1 end,
              case when s.m < date_trunc('month', ${NOW}) - interval '1 month' then $2::bigint end,
              case when s.m < date_trunc('month', ${NOW}) - interval '1 month' then ${NOW} end
         from demo_set s join demo_m m on m.id = s.merchant_id
         join (select settlement_id, count(*)::int as n, coalesce(sum(pay_amount) filter (where order_type = 1), 0) as paid,
                      coalesce(sum(pay_amount) filter (where order_type = 2), 0) as ref
                 from canteen_order where settlement_id is not null group by settlement_id) a on a.settlement_id = s.id`, A.slice(0, 2));
    stamp('settlements');
  });

  await seedDemoExtras(db, ctx, stamp, NOW);
  await query(db, 'analyze canteen_order');
  await query(db, 'analyze canteen_account_records');
  stamp('done');
  const [c] = await query<any>(
    db,
    `select (select count(*) from canteen_order)::int as "orderRows", (select count(*) from canteen_account_records)::int as "recordRows",
            (select count(*) from canteen_employee)::int as "employeeRows"`,
  );
  const [{ settlements }] = await query<{ settlements: number }>(db, `select count(*)::int as settlements from canteen_settlement`);
  return { ...c, settlements };
}

/** A few banners, messaging-app users and messages (each through the module whose table it is; only into empty tables). */
async function seedDemoExtras(db: Kysely<any>, ctx: LedgerContext, stamp: (s: string) => void, NOW: string): Promise<void> {
  stamp('extras');
  await seedDemoBanners(db, ctx, NOW);
  stamp('banners');
  await seedDemoWxUsers(db, ctx, NOW);
  stamp('wx users');
  const employees = (await firstCards(db, ctx.tenantId, 3)).map((e) => ({ id: e.id, name: e.employeeName }));
  const merchants = (await firstMerchants(db, ctx.tenantId, 2)).map((m) => ({ id: m.id, name: m.merchantName }));
  await seedDemoMessages(db, ctx, NOW, { employees, merchants });
}

/** The demo generator keeps every ledger invariant, and is deterministic for a seed. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoNow, seedDemoLedger } from '../../../src/server/modules/ledger/demo.js';
import { query } from '../../../src/server/lib/sql.js';
import { ledgerViolations, startHarness, type Harness } from './_harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => h?.close());

const fingerprint = async () =>
  (
    await query<any>(
      h.db,
      `select (select count(*) from canteen_order)::int as orders,
              (select sum(pay_amount) from canteen_order where order_type = 1)::text as paid,
              (select sum(pay_amount) from canteen_order where order_type = 2)::text as refunded,
              (select sum(balance) from canteen_employee)::text as balances,
              (select string_agg(employee_name, ',' order by card_no) from canteen_employee) as names,
              (select count(*) from canteen_settlement)::int as settlements`,
    )
  )[0];

describe('seed-demo', () => {
  it('produces data where every invariant holds, twice the same for one seed', async () => {
    await h.reset();
    const opts = { employees: 40, merchants: 6, orders: 600, months: 3, seed: 7 };
    const c = await seedDemoLedger(h.db, h.ctx, opts);
    expect(c.orderRows).toBeGreaterThan(600);
    expect(await ledgerViolations(h.db)).toEqual([]);
    const [neg] = await query<any>(
      h.db,
      `select count(*)::int as n from canteen_account_records where account_type = 2 and balance_after < 0`,
    );
    expect(neg.n).toBe(0);
    const [audited] = await query<any>(h.db, `select count(*) filter (where status = 2)::int as a, count(*)::int as n from canteen_settlement`);
    expect(audited.n).toBeGreaterThan(0);
    // every 5th card is bound to the messaging app (wx_<cardNo>), the others are not: unbind has rows to act on
    const bound = await query<any>(h.db, `select card_no, wx_user_id from canteen_employee where wx_user_id is not null order by card_no`);
    expect(bound.map((e: any) => e.card_no)).toEqual(Array.from({ length: 8 }, (_, i) => 'K' + String(5 * (i + 1)).padStart(8, '0')));
    for (const e of bound) expect(e.wx_user_id).toBe(`wx_${e.card_no}`);
    const first = await fingerprint();
    await h.reset();
    await query(h.db, `delete from canteen_merchant where merchant_no like 'SHD%'`);
    await seedDemoLedger(h.db, h.ctx, opts);
    expect(await fingerprint()).toEqual(first);
    // the list endpoints serve it
    const list = await h.get('/api/order/list?current=1&size=10&orderType=1');
    expect(list.body.data.records.length).toBe(10);
    await expect(seedDemoLedger(h.db, h.ctx, opts)).rejects.toThrow(/already has orders/);
  });

  it('with a pinned now (--now) the same seed gives the same data, times included, on any day', async () => {
    const times = async () =>
      (
        await query<any>(
          h.db,
          `select md5(string_agg(to_char(o.create_time, 'YYYY-MM-DD HH24:MI:SS') || o.order_type || o.pay_amount, ',' order by o.create_time, o.order_type, o.pay_amount, o.card_no)) as orders,
                  to_char(max(o.create_time), 'YYYY-MM-DD HH24:MI:SS') as last,
                  (select string_agg(settlement_cycle || ':' || status || ':' || amount, ',' order by settlement_cycle, merchant_no) from canteen_settlement) as settlements
             from canteen_order o`,
        )
      )[0];
    const opts = { employees: 30, merchants: 6, orders: 300, months: 2, seed: 11, now: '2025-06-15T12:30:00' };
    const clean = async () => {
      await h.reset();
      await query(h.db, `delete from canteen_merchant where merchant_no like 'SHD%'`);
    };
    await clean();
    await seedDemoLedger(h.db, h.ctx, opts);
    const first = await times();
    // payments end an hour before that now; settlements exist for the ended month only (May 2025)
    expect(first.last <= '2025-06-15 11:00:00').toBe(true);
    expect(first.last >= '2025-06-01 00:00:00').toBe(true);
    expect(first.settlements.split(',').every((x: string) => x.startsWith('202505:1:'))).toBe(true);
    expect(await ledgerViolations(h.db)).toEqual([]);
    await clean();
    await seedDemoLedger(h.db, h.ctx, { ...opts, now: '2025-06-15 12:30:00' });
    expect(await times()).toEqual(first);
    // the forms --now accepts, and refusals (never a guess)
    expect(await demoNow(h.db, '2025-06-15')).toBe('2025-06-15 00:00:00');
    expect(await demoNow(h.db, '2025-06-15T12:30')).toBe('2025-06-15 12:30:00');
    const [tz] = await query<any>(h.db, `select to_char(timestamptz '2025-06-15 04:00:00+00' at time zone current_setting('TimeZone'), 'YYYY-MM-DD HH24:MI:SS') as t`);
    expect(await demoNow(h.db, '2025-06-15T04:00:00Z')).toBe(tz.t);
    for (const bad of ['2025-02-30T12:00:00', 'yesterday', '2025-06-15T25:00:00']) await expect(demoNow(h.db, bad)).rejects.toThrow(/--now/);
  });
});

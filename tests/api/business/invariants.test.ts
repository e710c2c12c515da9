/** The demo generator keeps every ledger invariant, and is deterministic for a seed. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoLedger } from '../../../src/server/modules/ledger/demo.js';
import { query } from '../../../src/server/modules/ledger/service.js';
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
});

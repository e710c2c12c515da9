/**
 * Invariants under concurrency (issue 14): 50 concurrent operations of each kind — payments, refunds,
 * recharges — interleaved, then settlement generation and 50 concurrent audits of last month's settlements
 * mixed with more payments and refunds; the ledger's SQL invariants (business/_harness.ts) hold after each
 * round, on PGlite and on PostgreSQL. A refused operation (card overdrawn, refund beyond the payment) is
 * fine; a broken invariant is not.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pay, recharge, refund } from '../../src/server/modules/ledger/service.js';
import { query } from '../../src/server/lib/sql.js';
import { auditSettlements, generateSettlements } from '../../src/server/modules/ledger/settlement.js';
import { ledgerViolations, startHarness, type Harness } from './business/_harness.js';
import { recordSuite } from './suite-report.js';

let h: Harness;
const counts = { operations: 0, refused: 0, invariantViolations: 0 };
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  recordSuite('concurrency', counts);
  await h?.close();
});

async function settle<T>(ops: Array<() => Promise<T>>): Promise<Array<PromiseSettledResult<T>>> {
  counts.operations += ops.length;
  const r = await Promise.allSettled(ops.map((op) => op()));
  counts.refused += r.filter((x) => x.status === 'rejected').length;
  return r;
}

async function violations(): Promise<string[]> {
  const v = await ledgerViolations(h.db);
  counts.invariantViolations += v.length;
  return v;
}

describe('ledger invariants under concurrency', () => {
  it('50 payments, 50 refunds and 50 recharges at once on a few cards', async () => {
    await h.reset();
    const merchants = (await h.merchants()).filter((m) => m.status === 1);
    const cards = await h.addEmployees(5);
    for (const c of cards) await recharge(h.db, h.ctx, { employeeId: c, amount: '100' });
    const paid = await Promise.all(cards.map((c, i) => pay(h.db, h.ctx, { employeeId: c, merchantId: merchants[i % merchants.length].id, amount: '20' })));
    const ops: Array<() => Promise<unknown>> = [];
    for (let i = 0; i < 50; i++) {
      ops.push(() => pay(h.db, h.ctx, { employeeId: cards[i % cards.length], merchantId: merchants[i % merchants.length].id, amount: '7.35' }));
      ops.push(() => refund(h.db, h.ctx, { orderId: paid[i % paid.length].id, amount: '1.10' }));
      ops.push(() => recharge(h.db, h.ctx, { employeeId: cards[(i * 3) % cards.length], amount: '2.50' }));
    }
    const results = await settle(ops);
    expect(results.filter((r) => r.status === 'fulfilled').length).toBeGreaterThan(0);
    // nothing but business refusals
    for (const r of results) if (r.status === 'rejected') expect(String((r.reason as Error)?.constructor?.name)).toMatch(/BusinessError|HttpError/);
    expect(await violations()).toEqual([]);
    const [neg] = await query<{ n: number }>(h.db, `select count(*)::int as n from canteen_employee where balance < 0`);
    expect(neg.n).toBe(0);
  }, 120_000);

  it('50 concurrent settlement audits mixed with payments and refunds', async () => {
    await h.reset();
    const [r] = await query<{ cycle: string; day: string }>(h.db, `select to_char(localtimestamp - interval '1 month', 'YYYYMM') as cycle, to_char(date_trunc('month', localtimestamp) - interval '1 month', 'YYYY-MM-DD') as day`);
    const lastMonth = (d: number) => `${r.day.slice(0, 8)}${String(d).padStart(2, '0')} 12:00:00`;
    const merchants = (await h.merchants()).filter((m) => m.status === 1);
    const cards = await h.addEmployees(4);
    for (const c of cards) await recharge(h.db, h.ctx, { employeeId: c, amount: '500', at: lastMonth(1) });
    const orders: Array<{ id: string }> = [];
    for (let i = 0; i < 12; i++) orders.push(await pay(h.db, h.ctx, { employeeId: cards[i % cards.length], merchantId: merchants[i % merchants.length].id, amount: '12.30', at: lastMonth(2 + (i % 20)) }));
    await generateSettlements(h.db, h.ctx, { settlementCycle: r.cycle });
    const ids = (await query<{ id: string }>(h.db, `select id::text as id from canteen_settlement where is_deleted = 0`)).map((x) => x.id);
    expect(ids.length).toBeGreaterThan(0);
    const ops: Array<() => Promise<unknown>> = [];
    for (let i = 0; i < 50; i++) {
      ops.push(() => auditSettlements(h.db, h.ctx, [ids[i % ids.length]]));
      ops.push(() => pay(h.db, h.ctx, { employeeId: cards[i % cards.length], merchantId: merchants[i % merchants.length].id, amount: '3.00' }));
      ops.push(() => refund(h.db, h.ctx, { orderId: orders[i % orders.length].id, amount: '0.50' }));
    }
    await settle(ops);
    expect(await violations()).toEqual([]);
    const [audited] = await query<{ n: number }>(h.db, `select count(*) filter (where status = 2)::int as n from canteen_settlement where is_deleted = 0`);
    expect(audited.n).toBe(ids.length);
  }, 120_000);
});

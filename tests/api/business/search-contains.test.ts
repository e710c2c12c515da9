/**
 * A plain string search on a name means "contains" (issue 9): order employeeName/merchantName, account-record
 * accountName, settlement and statistics merchant names; `%` and `_` are taken literally. Codes (order and card
 * numbers) keep their exact match, as their documents say.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pay, recharge } from '../../../src/server/modules/ledger/service.js';
import { query } from '../../../src/server/lib/sql.js';
import { startHarness, type Harness } from './_harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
  await h.reset();
});
afterAll(async () => h?.close());

describe('contains by default', () => {
  it('finds names by a middle part on orders, account records and statistics; wildcards are literal', async () => {
    const [a, b] = await h.addEmployees(2);
    await query(h.db, `update canteen_employee set employee_name = '欧阳明远' where id = $1`, [a]);
    await query(h.db, `update canteen_employee set employee_name = '李100%_x' where id = $1`, [b]);
    const [m] = (await h.merchants()).filter((x) => x.status === 1);
    for (const e of [a, b]) {
      await recharge(h.db, h.ctx, { employeeId: e, amount: '50' });
      await pay(h.db, h.ctx, { employeeId: e, merchantId: m.id, amount: '5.00' });
    }
    const middle = m.merchant_name.slice(1, Math.max(2, m.merchant_name.length - 1));
    const orders = (await h.get(`/api/order/list?size=50&orderType=1&employeeName=${encodeURIComponent('阳明')}`)).body.data;
    expect(orders.records.map((o: any) => o.employeeName)).toEqual(['欧阳明远']);
    const byMerchant = (await h.get(`/api/order/list?size=50&orderType=1&merchantName=${encodeURIComponent(middle)}`)).body.data;
    expect(byMerchant.total).toBe(2);
    const records = (await h.get(`/api/account/records/list?size=50&accountName=${encodeURIComponent('阳明')}`)).body.data;
    expect(records.total).toBeGreaterThan(0);
    for (const r of records.records) expect(r.accountName).toContain('阳明');
    // % and _ match themselves only
    const literal = (await h.get(`/api/order/list?size=50&orderType=1&employeeName=${encodeURIComponent('0%_')}`)).body.data;
    expect(literal.records.map((o: any) => o.employeeName)).toEqual(['李100%_x']);
    expect((await h.get(`/api/order/list?size=50&orderType=1&employeeName=${encodeURIComponent('%')}`)).body.data.total).toBe(1);
    // order numbers stay exact
    const no: string = orders.records[0].orderNo;
    expect((await h.get(`/api/order/list?size=50&orderNo=${no.slice(2)}`)).body.data.total).toBe(0);
    expect((await h.get(`/api/order/list?size=50&orderNo=${no}`)).body.data.total).toBe(1);
  });
});

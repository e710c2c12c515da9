/** The ledger through HTTP and the service: recharge, pay, refund, their refusals and invariants. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { query } from '../../../src/server/lib/sql.js';
import { pay, recharge, refund } from '../../../src/server/modules/ledger/service.js';
import { ledgerViolations, startHarness, type Harness } from './_harness.js';

let h: Harness;
let merchantId: string;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => h?.close());
beforeEach(async () => {
  await h.reset();
  merchantId = (await h.merchants())[0].id;
});

const balanceOf = async (id: string) => (await query<{ b: string }>(h.db, `select balance::text as b from canteen_employee where id = $1`, [id]))[0].b;
const count = async (table: string) => Number((await query<{ n: string }>(h.db, `select count(*) as n from ${table}`))[0].n);

describe('recharge', () => {
  it('credits one card with an order and a record', async () => {
    const [e] = await h.addEmployees(1);
    const r = await h.post('/api/employee/recharge', { id: e, amount: '100.50' });
    expect(r.status).toBe(200);
    // camelCase reply keys like pay and refund (orderNo, not order_no), money with 2 decimals
    expect(r.body.data).toEqual({ id: expect.stringMatching(/^\d+$/), orderNo: expect.stringMatching(/^CZ\d+$/), amount: '100.50', balance: '100.50' });
    expect(await balanceOf(e)).toBe('100.50');
    const list = await h.get('/api/account/records/list?recordsType=1');
    expect(list.body.data.total).toBe(1);
    expect(list.body.data.records[0].amount).toBe(100.5);
    expect(await ledgerViolations(h.db)).toEqual([]);
  });

  it.each([
    ['0', 'amountInvalid'],
    ['-5', 'amountInvalid'],
    ['1.234', 'amountInvalid'],
    ['abc', 'amountInvalid'],
    [0.1 + 0.2, 'amountInvalid'],
    ['100000.01', 'amountMax'],
  ])('refuses amount %s and writes nothing', async (amount, _key) => {
    const [e] = await h.addEmployees(1);
    const r = await h.post('/api/employee/recharge', { id: e, amount });
    expect(r.status).toBe(400);
    expect(r.body.success).toBe(false);
    expect(r.body.msg).toMatch(/金额/);
    expect(await count('canteen_order')).toBe(0);
    expect(await balanceOf(e)).toBe('0.00');
  });

  it('refuses a cancelled card', async () => {
    const [e] = await h.addEmployees(1, 4);
    const r = await h.post('/api/employee/recharge', { id: e, amount: 10 });
    expect(r.status).toBe(400);
    expect(r.body.msg).toBe('卡已注销，不能充值');
    expect(await count('canteen_order')).toBe(0);
  });

  it('batch: preview then confirm credits every active card, all or nothing', async () => {
    await h.addEmployees(5);
    await h.addEmployees(2, 2);
    const p = await h.post('/api/employee/recharge/preview', { amount: '300' });
    expect(p.body.data).toEqual({ count: 5, amount: '300.00', total: '1500.00' });
    // always 2 decimals, formatted exactly (no float): 50 → 50.00, 0.1 → 0.10
    expect((await h.post('/api/employee/recharge/preview', { amount: 50 })).body.data).toEqual({ count: 5, amount: '50.00', total: '250.00' });
    expect((await h.post('/api/employee/recharge/preview', { amount: '0.1' })).body.data).toEqual({ count: 5, amount: '0.10', total: '0.50' });
    const stale = await h.post('/api/employee/recharge/batch', { amount: '300', expectCount: 4 });
    expect(stale.status).toBe(409);
    // what confirming would do now, with the real total (regression: the total read "?")
    expect(stale.body.msg).toBe('预览已过期：现在将为 5 名员工各充值 300.00，合计 1500.00，请重新确认');
    const staleEn = await h.post('/api/employee/recharge/batch?lang=en', { amount: '0.1', expectCount: 9 });
    expect(staleEn.body.msg).toBe('The preview is out of date: now 5 employees would each get 0.10, 0.50 in total; please confirm again');
    expect(await count('canteen_order')).toBe(0);
    const b = await h.post('/api/employee/recharge/batch', { amount: '300', expectCount: 5 });
    expect(b.body.data).toEqual({ count: 5, amount: '300.00', total: '1500.00' });
    const [s] = await query<any>(h.db, `select sum(balance)::text as s, count(*) filter (where balance = 300) as n from canteen_employee`);
    expect(s).toEqual({ s: '1500.00', n: '5' });
    expect(await ledgerViolations(h.db)).toEqual([]);
  });
});

describe('batch recharge target', () => {
  it('names unknown employee ids instead of leaving them out of the count', async () => {
    const [a, b] = await h.addEmployees(2);
    const ok = await h.post('/api/employee/recharge/preview', { amount: '10', ids: `${a},${b}` });
    expect(ok.body.data).toEqual({ count: 2, amount: '10.00', total: '20.00' });
    const p = await h.post('/api/employee/recharge/preview', { amount: '10', ids: `${a},123,abc` });
    expect(p.status).toBe(400);
    expect(p.body.msg).toBe('员工不存在：123, abc');
    const batch = await h.post('/api/employee/recharge/batch?lang=en', { amount: '10', ids: [b, '999'] });
    expect(batch.status).toBe(400);
    expect(batch.body.msg).toBe('Unknown employees: 999');
    expect(await count('canteen_order')).toBe(0);
  });

  it('a status that is not a rechargeable card state names the choices (regression: "x" said 卡已注销)', async () => {
    await h.addEmployees(2);
    const x = await h.post('/api/employee/recharge/preview', { amount: '10', status: 'x' });
    expect(x.status).toBe(400);
    expect(x.body.msg).toBe('卡状态 x 无效，可选：1 正常、2 冻结、3 挂失');
    const nine = await h.post('/api/employee/recharge/batch?lang=en', { amount: '10', status: 9 });
    expect(nine.body.msg).toBe('Card status 9 is not valid; choose one of: 1 Active, 2 Frozen, 3 Lost');
    const cancelled = await h.post('/api/employee/recharge/preview', { amount: '10', status: '4' });
    expect(cancelled.body.msg).toBe('卡已注销，不能充值');
    expect((await h.post('/api/employee/recharge/preview', { amount: '10', status: '1' })).body.data.count).toBe(2);
    expect(await count('canteen_order')).toBe(0);
  });
});

describe('payment and refund', () => {
  it('pays only from an active card: a cancelled card or a status the code does not know is refused, nothing written', async () => {
    const [a, cancelled, odd] = await h.addEmployees(3);
    for (const e of [a, cancelled, odd]) await recharge(h.db, h.ctx, { employeeId: e, amount: '50' });
    await query(h.db, `update canteen_employee set status = 4 where id = $1`, [cancelled]);
    await query(h.db, `update canteen_employee set status = 7 where id = $1`, [odd]);
    await expect(pay(h.db, h.ctx, { employeeId: cancelled, merchantId, amount: '1' })).rejects.toThrow('卡已注销');
    await expect(pay(h.db, h.ctx, { employeeId: odd, merchantId, amount: '1' })).rejects.toThrow('卡状态异常，不能支付');
    // nor recharged, for a status that is not a card state
    const r = await h.post('/api/employee/recharge', { id: odd, amount: '1' });
    expect(r.status).toBe(400);
    expect(r.body.msg).toBe('卡状态异常，不能充值');
    expect(await count('canteen_order where order_type = 1')).toBe(0);
    expect(await balanceOf(odd)).toBe('50.00');
    await pay(h.db, h.ctx, { employeeId: a, merchantId, amount: '1' });
    expect(await ledgerViolations(h.db)).toEqual([]);
  });

  it('a closed, unpaid or refunded order cannot be refunded (only paid / partly refunded payments)', async () => {
    const [a] = await h.addEmployees(1);
    await recharge(h.db, h.ctx, { employeeId: a, amount: '50' });
    const o = await pay(h.db, h.ctx, { employeeId: a, merchantId, amount: '5' });
    for (const status of [1, 3, 4]) {
      await query(h.db, `update canteen_order set status = $2 where id = $1`, [o.id, status]);
      const r = await h.post('/api/order/refund', { id: o.id });
      expect(r.status, `status ${status}`).toBe(400);
      expect(r.body.msg).toBe('该订单不能退款');
    }
    expect(await count('canteen_order where order_type = 2')).toBe(0);
  });

  it('pays: order + both records; refuses insufficient balance, frozen/lost cards, closed merchants', async () => {
    const [a, frozen, lost] = await h.addEmployees(3);
    await query(h.db, `update canteen_employee set status = 2 where id = $1`, [frozen]);
    await query(h.db, `update canteen_employee set status = 3 where id = $1`, [lost]);
    for (const e of [a, frozen, lost]) await recharge(h.db, h.ctx, { employeeId: e, amount: '50' });
    const o = await pay(h.db, h.ctx, { employeeId: a, merchantId, amount: '12.30' });
    expect(o.balance).toBe('37.70');
    await expect(pay(h.db, h.ctx, { employeeId: a, merchantId, amount: '37.71' })).rejects.toThrow('余额不足');
    await expect(pay(h.db, h.ctx, { employeeId: frozen, merchantId, amount: '1' })).rejects.toThrow('卡已冻结或挂失，不能支付');
    await expect(pay(h.db, h.ctx, { employeeId: lost, merchantId, amount: '1' })).rejects.toThrow('卡已冻结或挂失，不能支付');
    await query(h.db, `update canteen_merchant set status = 2 where id = $1`, [merchantId]);
    await expect(pay(h.db, h.ctx, { employeeId: a, merchantId, amount: '1' })).rejects.toThrow('商家未营业，不能收款');
    expect(await count("canteen_order where order_type = 1")).toBe(1);
    const detail = await h.get(`/api/order/detail?id=${o.id}`);
    expect(detail.body.data).toMatchObject({ orderNo: o.orderNo, status: 2, orderType: 1, payAmount: 12.3 });
    expect(await ledgerViolations(h.db)).toEqual([]);
  });

  it('refunds partly then fully, never more than paid, through HTTP', async () => {
    const [a] = await h.addEmployees(1);
    await recharge(h.db, h.ctx, { employeeId: a, amount: '100' });
    const o = await pay(h.db, h.ctx, { employeeId: a, merchantId, amount: '20.00' });
    const r1 = await h.post('/api/order/refund', { id: o.id, amount: '5.5' });
    expect(r1.status).toBe(200);
    expect(r1.body.data.originalStatus).toBe(5);
    const tooMuch = await h.post('/api/order/refund', { id: o.id, amount: '14.51' });
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.body.msg).toBe('退款金额不能超过可退金额 14.50');
    const r2 = await h.post('/api/order/refund', { id: o.id });
    expect(r2.body.data).toMatchObject({ amount: '14.50', originalStatus: 4, refunded: '20.00', balance: '100.00' });
    const again = await h.post('/api/order/refund', { id: o.id, amount: '1' });
    expect(again.status).toBe(400);
    expect(again.body.msg).toBe('该订单不能退款');
    const refunds = await h.get('/api/order/list?orderType=2');
    expect(refunds.body.data.total).toBe(2);
    expect(await ledgerViolations(h.db)).toEqual([]);
  });

  it('concurrent payments on one card never overdraw it', async () => {
    const [a] = await h.addEmployees(1);
    await recharge(h.db, h.ctx, { employeeId: a, amount: '10' });
    const results = await Promise.allSettled(Array.from({ length: 8 }, () => pay(h.db, h.ctx, { employeeId: a, merchantId, amount: '3' })));
    expect(results.filter((r) => r.status === 'fulfilled').length).toBe(3);
    expect(await balanceOf(a)).toBe('1.00');
    expect(await ledgerViolations(h.db)).toEqual([]);
  });

  it('concurrent refunds of one payment never exceed it', async () => {
    const [a] = await h.addEmployees(1);
    await recharge(h.db, h.ctx, { employeeId: a, amount: '10' });
    const o = await pay(h.db, h.ctx, { employeeId: a, merchantId, amount: '9' });
    const results = await Promise.allSettled(Array.from({ length: 5 }, () => refund(h.db, h.ctx, { orderId: o.id, amount: '4' })));
    expect(results.filter((r) => r.status === 'fulfilled').length).toBe(2);
    expect(await balanceOf(a)).toBe('9.00');
    expect(await ledgerViolations(h.db)).toEqual([]);
  });
});

describe('view-only screens', () => {
  it('orders and account records refuse submit and remove, and write nothing', async () => {
    const [a] = await h.addEmployees(1);
    const { id } = await recharge(h.db, h.ctx, { employeeId: a, amount: '10' });
    for (const [api, msg] of [
      ['/api/order', '订单为只读数据，不能新增、修改或删除'],
      ['/api/account/records', '账户流水为只读数据，不能新增、修改或删除'],
      ['/api/settlement', '结算单为只读数据，不能新增、修改或删除'],
      ['/api/statistic/orderStatistics', '交易统计为只读数据，不能新增、修改或删除'],
    ]) {
      // the screen's own read-only message, not the generic 请求被拒绝
      const s = await h.post(`${api}/submit`, { orderNo: 'X', amount: 1 });
      expect(s.status).toBe(403);
      expect(s.body.msg).toBe(msg);
      const e = await h.post(`${api}/submit`, { id, orderNo: 'X' });
      expect(e.body.msg).toBe(msg);
      const r = await h.post(`${api}/remove?ids=${id}`);
      expect(r.status).toBe(403);
      expect(r.body.msg).toBe(msg);
    }
    expect((await h.post(`/api/order/remove?ids=${id}&lang=en`)).body.msg).toBe('Orders are read-only: they cannot be added, changed or deleted');
    expect(await count('canteen_order')).toBe(1);
    expect(await count('canteen_account_records')).toBe(1);
  });

  it('employees: no add/edit/delete through the CRUD endpoints', async () => {
    const [a] = await h.addEmployees(1);
    const add = await h.post('/api/employee/submit', { employeeName: 'x', cardNo: 'C9', phone: '13800000000' });
    expect(add.status).toBe(403);
    expect(add.body.msg).toBe('该页面不提供「新增」操作');
    const edit = await h.post('/api/employee/submit', { id: a, employeeName: 'x' });
    expect(edit.status).toBe(403);
    expect(edit.body.msg).toBe('该页面不提供「编辑」操作');
    const del = await h.post(`/api/employee/remove?ids=${a}&lang=en`);
    expect(del.status).toBe(403);
    expect(del.body.msg).toBe('This screen does not offer “Delete”');
    expect(await count('canteen_employee')).toBe(1);
  });
});

/** Settlements (gen/audit/auditBatch/detail list) and transaction statistics over the ledger. */
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { query } from '../../../src/server/lib/sql.js';
import { pay, recharge, refund } from '../../../src/server/modules/ledger/service.js';
import { generateSettlements, auditSettlements } from '../../../src/server/modules/ledger/settlement.js';
import { orderStatistics, splitMonths, splitRange } from '../../../src/server/modules/ledger/statistics.js';
import { ledgerViolations, startHarness, type Harness } from './_harness.js';

let h: Harness;
let m1: string;
let m2: string;
let last: { cycle: string; day: string; next: string };
let cur: string;
beforeAll(async () => {
  h = await startHarness();
  const [r] = await query<any>(
    h.db,
    `select to_char(localtimestamp - interval '1 month', 'YYYYMM') as cycle,
            to_char(date_trunc('month', localtimestamp) - interval '1 month', 'YYYY-MM-DD') as day,
            to_char(date_trunc('month', localtimestamp), 'YYYY-MM-DD') as next, to_char(localtimestamp, 'YYYYMM') as cur`,
  );
  last = { cycle: r.cycle, day: r.day, next: r.next };
  cur = r.cur;
});
afterAll(async () => h?.close());
beforeEach(async () => {
  await h.reset();
  const ms = (await h.merchants()).filter((m) => m.status === 1);
  [m1, m2] = [ms[0].id, ms[1].id];
  await query(h.db, `update canteen_merchant set fee_ratio = 2.5 where id = $1`, [m1]);
  await query(h.db, `update canteen_merchant set fee_ratio = 0 where id = $1`, [m2]);
});

const at = (day: string, time = '12:00:00') => `${day} ${time}`;
const lastDay = (n: number, time?: string) => at(last.day.slice(0, 8) + String(n).padStart(2, '0'), time);

async function fixture() {
  const [a, b] = await h.addEmployees(2);
  for (const e of [a, b]) await recharge(h.db, h.ctx, { employeeId: e, amount: '500', at: lastDay(1, '00:00:00') });
  const p1 = await pay(h.db, h.ctx, { employeeId: a, merchantId: m1, amount: '10.20', at: lastDay(3) });
  const p2 = await pay(h.db, h.ctx, { employeeId: b, merchantId: m1, amount: '30.00', at: lastDay(4) });
  await refund(h.db, h.ctx, { orderId: p2.id, amount: '5.00', at: lastDay(5) });
  const p3 = await pay(h.db, h.ctx, { employeeId: a, merchantId: m2, amount: '7.77', at: lastDay(6) });
  await pay(h.db, h.ctx, { employeeId: b, merchantId: m1, amount: '99.00' }); // this month: not in last month's settlement
  return { a, b, p1, p2, p3 };
}

describe('settlement', () => {
  it('refuses a missing, malformed or future cycle and writes nothing', async () => {
    await fixture();
    for (const [body, msg] of [
      [{}, '请选择结算周期'],
      [{ settlementCycle: '2026-1' }, '结算周期格式为 yyyyMM'],
      [{ settlementCycle: '209912' }, '不能为未来月份生成结算单'],
    ] as const) {
      const r = await h.post('/api/settlement/gen', body);
      expect(r.status).toBe(400);
      expect(r.body.msg).toBe(msg);
    }
    expect((await query(h.db, `select 1 from canteen_settlement`)).length).toBe(0);
  });

  it('generates amount = paid − refunded, fee rounded half-up, net; detail lists its orders', async () => {
    await fixture();
    const g = await h.post('/api/settlement/gen', { settlementCycle: last.cycle });
    expect(g.status).toBe(200);
    expect(g.body.data.count).toBe(2);
    const list = await h.get(`/api/settlement/list?settlementCycle=${last.cycle}&descs=amount`);
    const s1 = list.body.data.records.find((r: any) => r.merchantId === m1);
    // 10.20 + 30.00 − 5.00 = 35.20; 35.20 × 2.5% = 0.88
    expect(s1).toMatchObject({ amount: 35.2, paidAmount: 40.2, refundAmount: 5, feeRatio: 2.5, feeAmount: 0.88, netAmount: 34.32, status: 1, orderCount: 3 });
    const s2 = list.body.data.records.find((r: any) => r.merchantId === m2);
    expect(s2).toMatchObject({ amount: 7.77, feeAmount: 0, netAmount: 7.77 });
    const d = await h.get(`/api/settlement/detail/list?settlementId=${s1.id}&size=10`);
    expect(d.body.data.total).toBe(3);
    expect(d.body.data.records.map((r: any) => r.orderType).sort()).toEqual([1, 1, 2]);
    // money as numbers, like every other list (the order document's serialization)
    expect(d.body.data.records.map((r: any) => r.payAmount).sort((x: number, y: number) => x - y)).toEqual([5, 10.2, 30]);
    expect(d.body.data.records.find((r: any) => r.payAmount === 30)).toMatchObject({ orderAmount: 30, refundAmount: 5, orderType: 1, status: 5 });
    // paged by the order document's rule, like the order list: the largest of its pageSizes (200), page 1 for nonsense
    const big = await h.get(`/api/settlement/detail/list?settlementId=${s1.id}&size=5000&current=x`);
    expect(big.body.data).toMatchObject({ size: 200, current: 1, total: 3 });
    const second = await h.get(`/api/settlement/detail/list?settlementId=${s1.id}&size=2&current=2`);
    expect(second.body.data.records).toHaveLength(1);
    expect(await ledgerViolations(h.db)).toEqual([]);
  });

  it('rounds the fee half-up at exactly half a cent', async () => {
    const [a] = await h.addEmployees(1);
    await recharge(h.db, h.ctx, { employeeId: a, amount: '100', at: lastDay(1, '00:00:00') });
    await pay(h.db, h.ctx, { employeeId: a, merchantId: m1, amount: '10.20', at: lastDay(2) }); // 0.255 → 0.26
    await generateSettlements(h.db, h.ctx, { settlementCycle: last.cycle });
    const [s] = await query<any>(h.db, `select fee_amount::text as f, net_amount::text as n from canteen_settlement`);
    expect(s).toEqual({ f: '0.26', n: '9.94' });
  });

  it('regenerating replaces pending ones, never audited ones; audit is idempotent', async () => {
    const { a } = await fixture();
    await generateSettlements(h.db, h.ctx, { settlementCycle: last.cycle });
    const [before] = await query<any>(h.db, `select id::text, amount::text from canteen_settlement where merchant_id = $1`, [m1]);
    await pay(h.db, h.ctx, { employeeId: a, merchantId: m1, amount: '1.00', at: lastDay(20) });
    const again = await h.post('/api/settlement/gen', { settlementCycle: last.cycle, merchantIds: [m1] });
    expect(again.body.data.count).toBe(1);
    const [after] = await query<any>(h.db, `select id::text, amount::text, status from canteen_settlement where merchant_id = $1`, [m1]);
    expect(after).toEqual({ id: before.id, amount: '36.20', status: 1 });
    const au = await h.get(`/api/settlement/audit?id=${after.id}`);
    expect(au.body.data).toEqual({ audited: 1, alreadyAudited: 0 });
    const au2 = await h.get(`/api/settlement/audit?id=${after.id}`);
    expect(au2.status).toBe(200);
    expect(au2.body.data).toEqual({ audited: 0, alreadyAudited: 1 });
    await pay(h.db, h.ctx, { employeeId: a, merchantId: m1, amount: '2.00', at: lastDay(21) });
    const g3 = await h.post('/api/settlement/gen', { settlementCycle: last.cycle });
    expect(g3.body.data.count).toBe(1); // only m2 (pending) is regenerated
    const [frozen] = await query<any>(h.db, `select amount::text, status, order_count from canteen_settlement where id = $1`, [after.id]);
    expect(frozen).toEqual({ amount: '36.20', status: 2, order_count: 4 });
    // That backdated payment (only the seeder and tests can date one) changed an audited month behind its back:
    // exactly what the invariant "an audited settlement equals its whole merchant-month" reports.
    expect(await ledgerViolations(h.db)).toEqual([`audited settlement ${after.id}: amount 36.20 ≠ its month's paid 43.20 − refunded 5.00`]);
  });

  it('audit recomputes a settlement generated mid-month: the whole month is audited, never the stale preview', async () => {
    const { a, b, p1 } = await fixture();
    // generated while only the first days of the month had orders…
    const g = await h.post('/api/settlement/gen', { settlementCycle: last.cycle, merchantIds: m1 });
    expect(g.body.data.count).toBe(1);
    const id = g.body.data.ids[0];
    const before = (await h.get(`/api/settlement/detail?id=${id}`)).body.data;
    expect(before).toMatchObject({ amount: 35.2, orderCount: 3, feeAmount: 0.88 });
    // …then the rest of the month happened (payments and a refund dated later in that month) and the merchant's
    // ratio changed after the month: the orders keep the ratio they were paid at (2.5%)
    await pay(h.db, h.ctx, { employeeId: a, merchantId: m1, amount: '20.00', at: lastDay(25) });
    await pay(h.db, h.ctx, { employeeId: b, merchantId: m1, amount: '4.80', at: lastDay(27) });
    await refund(h.db, h.ctx, { orderId: p1.id, amount: '0.20', at: lastDay(28) });
    await query(h.db, `update canteen_merchant set fee_ratio = 9 where id = $1`, [m1]);
    const au = await h.get(`/api/settlement/audit?id=${id}`);
    expect(au.status).toBe(200);
    expect(au.body.data).toEqual({ audited: 1, alreadyAudited: 0 });
    // paid 10.20 + 30.00 + 20.00 + 4.80 = 65.00, refunded 5.00 + 0.20 = 5.20, amount 59.80; fee 59.80 × 2.5% = 1.495 → 1.50
    const after = (await h.get(`/api/settlement/detail?id=${id}`)).body.data;
    expect(after).toMatchObject({ status: 2, orderCount: 6, paidAmount: 65, refundAmount: 5.2, amount: 59.8, feeRatio: 2.5, feeAmount: 1.5, netAmount: 58.3 });
    const d = await h.get(`/api/settlement/detail/list?settlementId=${id}&size=10`);
    expect(d.body.data.total).toBe(6);
    expect(await ledgerViolations(h.db)).toEqual([]);
    // auditing again changes nothing (already audited)
    expect((await h.get(`/api/settlement/audit?id=${id}`)).body.data).toEqual({ audited: 0, alreadyAudited: 1 });
  });

  it('refuses merchant ids that are not merchants of the tenant, naming them, and writes nothing', async () => {
    await fixture();
    const r = await h.post('/api/settlement/gen', { settlementCycle: last.cycle, merchantIds: [m1, '999999999', 'abc'] });
    expect(r.status).toBe(400);
    expect(r.body.msg).toBe('商家不存在：999999999, abc');
    const csv = await h.post('/api/settlement/gen?lang=en', { settlementCycle: last.cycle, merchantIds: `${m2},123` });
    expect(csv.status).toBe(400);
    expect(csv.body.msg).toBe('Unknown merchants: 123');
    expect((await query(h.db, `select 1 from canteen_settlement`)).length).toBe(0);
    // known ids (also without orders in the month) are fine
    const ok = await h.post('/api/settlement/gen', { settlementCycle: last.cycle, merchantIds: [m1, m2] });
    expect(ok.body.data.count).toBe(2);
  });

  it('fees use the ratio each order was paid at (refunds their payment\'s), in settlements and statistics alike', async () => {
    const [a] = await h.addEmployees(1);
    await recharge(h.db, h.ctx, { employeeId: a, amount: '100', at: lastDay(1, '00:00:00') });
    const p1 = await pay(h.db, h.ctx, { employeeId: a, merchantId: m1, amount: '10.00', at: lastDay(2) }); // at 2.5%
    await query(h.db, `update canteen_merchant set fee_ratio = 10 where id = $1`, [m1]);
    await pay(h.db, h.ctx, { employeeId: a, merchantId: m1, amount: '10.00', at: lastDay(3) }); // at 10%
    await refund(h.db, h.ctx, { orderId: p1.id, amount: '4.00', at: lastDay(4) }); // a 2.5% refund
    await query(h.db, `update canteen_merchant set fee_ratio = 50 where id = $1`, [m1]); // today's ratio: irrelevant
    // 2.5%: (10.00 − 4.00) × 2.5% = 0.15; 10%: 10.00 × 10% = 1.00 → 1.15 (with today's 50%: 8.00)
    const range = `createTime_datege=${last.day}%2000:00:00&createTime_datelt=${last.next}%2000:00:00`;
    const rollup = await h.get(`/api/statistic/orderStatistics/summary?${range}`);
    expect(rollup.body.data.source).toBe('rollup');
    expect(rollup.body.data.totals).toEqual({ paidCount: 2, paid: '20.00', refundCount: 1, refunded: '4.00', fees: '1.15', net: '14.85' });
    const orders = await h.get(`/api/statistic/orderStatistics/summary?createTime_datege=${last.day}%2000:00:01&createTime_datelt=${last.next}%2000:00:00`);
    expect(orders.body.data.source).toBe('mixed');
    expect(orders.body.data.totals).toEqual(rollup.body.data.totals);
    await generateSettlements(h.db, h.ctx, { settlementCycle: last.cycle });
    const [s] = await query<any>(h.db, `select amount::text as a, fee_ratio::text as r, fee_amount::text as f, net_amount::text as n from canteen_settlement`);
    expect(s).toEqual({ a: '16.00', r: '10.00', f: '1.15', n: '14.85' }); // feeRatio: the latest payment's
    expect(await ledgerViolations(h.db)).toEqual([]);
  });

  it('auditBatch audits the selection; the running month cannot be audited', async () => {
    await fixture();
    const g = await generateSettlements(h.db, h.ctx, { settlementCycle: last.cycle });
    const b = await h.post(`/api/settlement/auditBatch?ids=${g.ids.join(',')}`);
    expect(b.body.data).toEqual({ audited: 2, alreadyAudited: 0 });
    const none = await h.post(`/api/settlement/auditBatch?ids=`);
    expect(none.status).toBe(400);
    const curGen = await generateSettlements(h.db, h.ctx, { settlementCycle: cur });
    expect(curGen.count).toBe(1);
    const r = await h.get(`/api/settlement/audit?id=${curGen.ids[0]}`);
    expect(r.status).toBe(400);
    expect(r.body.msg).toBe('结算周期尚未结束，不能审核');
  });

  it('parallel generations and audits do not double anything', async () => {
    await fixture();
    const gens = await Promise.all(Array.from({ length: 4 }, () => generateSettlements(h.db, h.ctx, { settlementCycle: last.cycle })));
    expect(gens.every((g) => g.count === 2)).toBe(true);
    const rows = await query<any>(h.db, `select id::text from canteen_settlement where settlement_cycle = $1`, [last.cycle]);
    expect(rows.length).toBe(2);
    const audits = await Promise.all(Array.from({ length: 4 }, () => auditSettlements(h.db, h.ctx, rows.map((r) => r.id))));
    expect(audits.reduce((n, a) => n + a.audited, 0)).toBe(2);
    expect(await ledgerViolations(h.db)).toEqual([]);
  });
});

describe('settlement details (a show action)', () => {
  it('a user with settlements but not the order screen may load the order document the details dialog draws with', async () => {
    const USER_ROLE = '1123598816738675202';
    const removed = await query<any>(
      h.db,
      `delete from blade_role_menu rm using blade_menu m where rm.menu_id = m.id and rm.role_id = $1 and (m.code = 'order' or m.code like 'order\\_%')
        returning rm.*`,
      [USER_ROLE],
    );
    expect(removed.length).toBeGreaterThan(0);
    try {
      const [admin] = await query<any>(h.db, `select password from blade_user where account = 'admin'`);
      await query(h.db, `insert into blade_user (id, tenant_id, account, password, role_id, is_deleted, status) values (900000000000000077, '000000', 'clerk', $1, $2, 0, 1)
        on conflict (id) do nothing`, [admin.password, USER_ROLE]);
      h.app.ctx.permissions.clear();
      const tok = await h.app.inject({
        method: 'POST',
        url: `/api/blade-auth/oauth/token?tenantId=000000&username=clerk&password=${createHash('md5').update('admin').digest('hex')}&grant_type=password&scope=all&type=account`,
        headers: { authorization: 'Basic ' + Buffer.from('saber:saber_secret').toString('base64'), 'tenant-id': '000000' },
      });
      const token = tok.json().access_token as string;
      expect(token).toBeTruthy();
      const screens = await h.get('/api/blade-system/screen/list', { token });
      expect(screens.body.data.map((d: any) => d.id)).toContain('settlement');
      expect(screens.body.data.map((d: any) => d.id)).not.toContain('order');
      // the settlement document's details action draws with the order list columns: that document is served
      const settlement = await h.get('/api/blade-system/screen/detail?id=settlement', { token });
      expect(settlement.body.data.list.actions.find((a: any) => a.name === 'details')).toMatchObject({ show: { screen: 'order', param: 'settlementId' } });
      const order = await h.get('/api/blade-system/screen/detail?id=order', { token });
      expect(order.status).toBe(200);
      expect(order.body.data.id).toBe('order');
      // but not any other screen, and the order list itself stays refused
      expect((await h.get('/api/blade-system/screen/detail?id=user', { token })).status).toBe(404);
      expect((await h.get('/api/order/list?current=1&size=10', { token })).status).toBe(403);
    } finally {
      for (const r of removed) await query(h.db, `insert into blade_role_menu (id, menu_id, role_id) values ($1, $2, $3)`, [r.id, r.menu_id, r.role_id]);
      h.app.ctx.permissions.clear();
    }
  });
});

describe('transaction statistics', () => {
  it('requires the time range (请选择时间范围), in the request language', async () => {
    const r = await h.get('/api/statistic/orderStatistics?current=1&size=10');
    expect(r.status).toBe(400);
    expect(r.body.msg).toBe('请选择时间范围');
    const en = await h.get('/api/statistic/orderStatistics/list?current=1&size=10&createTime_datege=2026-01-01%2000:00:00', { lang: 'en' });
    expect(en.status).toBe(400);
    expect(en.body.msg).toBe('Please choose a time range');
    const exp = await h.get('/api/statistic/orderStatistics/export');
    expect(exp.status).toBe(400);
  });

  it('a day that is not in the calendar is a date format error, not "请选择时间范围" nor a server error', async () => {
    for (const url of [
      '/api/statistic/orderStatistics?createTime_datege=2026-02-01%2000:00:00&createTime_datelt=2026-02-30%2000:00:00',
      '/api/statistic/orderStatistics/summary?createTime_datege=2026-02-30%2000:00:00&createTime_datelt=2026-03-02%2000:00:00',
    ]) {
      const r = await h.get(url);
      expect(r.status, url).toBe(400);
      expect(r.body.msg).toContain('2026-02-30');
      expect(r.body.msg).toMatch(/^查询条件格式不正确/);
    }
    // a real 29 February is fine
    expect((await h.get('/api/statistic/orderStatistics/summary?createTime_datege=2024-02-29%2000:00:00&createTime_datelt=2024-03-01%2000:00:00')).status).toBe(200);
  });

  it('refuses a range longer than 366 days; 366 days is allowed', async () => {
    const long = await h.get('/api/statistic/orderStatistics?createTime_datege=2025-01-01%2000:00:00&createTime_datelt=2026-01-03%2000:00:00');
    expect(long.status).toBe(400);
    expect(long.body.msg).toBe('时间范围不能超过 366 天');
    const en = await h.get('/api/statistic/orderStatistics/summary?createTime_datege=2025-01-01%2000:00:00&createTime_datelt=2026-01-03%2000:00:00', { lang: 'en' });
    expect(en.body.msg).toBe('The time range is at most 366 days');
    expect((await h.get('/api/statistic/orderStatistics/summary?createTime_datege=2024-01-01%2000:00:00&createTime_datelt=2025-01-01%2000:00:00')).status).toBe(200);
  });

  it('gives the record fields, totals (paid, refunded, fees, net) and a per-day series equal to the settlements', async () => {
    await fixture();
    const range = `createTime_datege=${last.day}%2000:00:00&createTime_datelt=${last.next}%2000:00:00`;
    const r = await h.get(`/api/statistic/orderStatistics?current=1&size=10&${range}`);
    expect(r.status).toBe(200);
    const d = r.body.data;
    expect(d.total).toBe(4);
    const refundRow = d.records.find((x: any) => x.orderType === 2);
    expect(refundRow).toMatchObject({ status: 4, refund: 2, payAmount: 5, orderTypeName: '退款' });
    const payRow = d.records.find((x: any) => x.orderType === 1 && x.payAmount === 10.2);
    expect(payRow).toMatchObject({ status: 2, refund: 1, feeRatio: 2.5, receiveAmount: 9.94 });
    for (const k of ['orderNo', 'createTime', 'accountNo', 'accountName', 'payAccountNo', 'payAccountName', 'receiveAccountNo', 'receiveAccountName', 'refundAmount'])
      expect(payRow).toHaveProperty(k);
    expect(d.summary.source).toBe('rollup');
    expect(d.summary.totals).toEqual({ paidCount: 3, paid: '47.97', refundCount: 1, refunded: '5.00', fees: '0.88', net: '42.09' });
    expect(d.summary.series.map((s: any) => s.day)).toEqual([3, 4, 5, 6].map((n) => last.day.slice(0, 8) + '0' + n));
    await generateSettlements(h.db, h.ctx, { settlementCycle: last.cycle });
    const [s] = await query<any>(h.db, `select sum(amount)::text as a, sum(fee_amount)::text as f, sum(net_amount)::text as n from canteen_settlement`);
    expect(s).toEqual({ a: '42.97', f: '0.88', n: '42.09' });
    // a range that is not whole days: whole days from the rollup, the partial first day from the orders, same answer
    const odd = await h.get(`/api/statistic/orderStatistics/summary?createTime_datege=${last.day}%2000:00:01&createTime_datelt=${last.next}%2000:00:00`);
    expect(odd.body.data.source).toBe('mixed');
    expect(odd.body.data.totals).toEqual(d.summary.totals);
    // the runtime's `<api>/list` carries the same summary as the root (the screen's totals panel and chart)
    const viaList = await h.get(`/api/statistic/orderStatistics/list?current=1&size=10&${range}`);
    expect(viaList.status).toBe(200);
    expect(viaList.body.data.total).toBe(4);
    expect(viaList.body.data.summary).toEqual(d.summary);
    const onlyRefunds = await h.get(`/api/statistic/orderStatistics/list?${range}&orderType=2`, { lang: 'en' });
    expect(onlyRefunds.body.data.records.map((x: any) => x.orderTypeName)).toEqual(['Refund']);
  });

  it('names the order type by the order_type dictionary in the list and the export, in either language', async () => {
    await fixture();
    const range = `createTime_datege=${last.day}%2000:00:00&createTime_datelt=${last.next}%2000:00:00`;
    const names = async (lang: string) =>
      Object.fromEntries((await h.get(`/api/statistic/orderStatistics/list?current=1&size=10&${range}`, { lang })).body.data.records.map((x: any) => [x.orderType, x.orderTypeName]));
    expect(await names('en')).toEqual({ 1: 'Payment', 2: 'Refund' });
    expect(await names('zh')).toEqual({ 1: '消费', 2: '退款' });
    const sheet = async (lang: string) => {
      const r = await h.get(`/api/statistic/orderStatistics/export?${range}&columns=orderNo,orderTypeName&lang=${lang}`);
      expect(r.status).toBe(200);
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.load(r.raw as any);
      const rows: unknown[][] = [];
      wb.worksheets[0].eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
      return rows;
    };
    const en = await sheet('en');
    expect(en.length).toBe(5);
    expect(new Set(en.slice(1).map((r) => r[1]))).toEqual(new Set(['Payment', 'Refund']));
    const zh = await sheet('zh');
    expect(new Set(zh.slice(1).map((r) => r[1]))).toEqual(new Set(['消费', '退款']));
  });
});

describe('statistics over any time range', () => {
  it('splits a range into a partial head, whole days and a partial tail', () => {
    expect(splitRange('2026-03-01 00:00:00', '2026-04-01 00:00:00')).toEqual({ wholeFrom: '2026-03-01', wholeTo: '2026-04-01' });
    expect(splitRange('2026-03-01 08:30:00', '2026-03-31 17:00:00')).toEqual({ wholeFrom: '2026-03-02', wholeTo: '2026-03-31' });
    expect(splitRange('2026-02-28 08:30:00', '2026-03-02 00:00:00')).toEqual({ wholeFrom: '2026-03-01', wholeTo: '2026-03-02' });
    expect(splitRange('2026-03-01 08:30:00', '2026-03-02 17:00:00')).toBeNull(); // no whole day inside
    expect(splitRange('2026-03-01 00:00:00', '2026-03-01 17:00:00')).toBeNull();
  });

  it('takes whole months of the fees from the monthly rollup, the days around them from the daily one', () => {
    expect(splitMonths('2026-03-01', '2026-06-01')).toEqual({ monthFrom: '2026-03-01', monthTo: '2026-06-01' });
    expect(splitMonths('2026-02-15', '2026-06-14')).toEqual({ monthFrom: '2026-03-01', monthTo: '2026-06-01' });
    expect(splitMonths('2025-12-31', '2026-01-31')).toEqual({ monthFrom: '2026-01-31', monthTo: '2026-01-31' }); // no whole month
    expect(splitMonths('2026-03-02', '2026-03-30')).toEqual({ monthFrom: '2026-03-30', monthTo: '2026-03-30' });
    expect(splitMonths('2025-11-20', '2026-01-01')).toEqual({ monthFrom: '2025-12-01', monthTo: '2026-01-01' });
  });

  it('gives the same answer as every order across months (monthly + daily + day-total rollups), fee ratios changing on the way', async () => {
    const [mo] = await query<any>(
      h.db,
      `select to_char(date_trunc('month', localtimestamp) - interval '3 month', 'YYYY-MM-') as m3,
              to_char(date_trunc('month', localtimestamp) - interval '2 month', 'YYYY-MM-') as m2,
              to_char(date_trunc('month', localtimestamp) - interval '1 month', 'YYYY-MM-') as m1`,
    );
    const [a, b] = await h.addEmployees(2);
    for (const e of [a, b]) await recharge(h.db, h.ctx, { employeeId: e, amount: '900', at: `${mo.m3}01 00:00:00` });
    const p = await pay(h.db, h.ctx, { employeeId: a, merchantId: m1, amount: '10.05', at: `${mo.m3}01 00:00:00` });
    await pay(h.db, h.ctx, { employeeId: b, merchantId: m2, amount: '3.33', at: `${mo.m3}14 23:59:59` });
    await pay(h.db, h.ctx, { employeeId: a, merchantId: m1, amount: '7.77', at: `${mo.m3}28 12:00:00` });
    await query(h.db, `update canteen_merchant set fee_ratio = 3.3 where id = $1`, [m1]); // later payments at 3.3 %
    await query(h.db, `update canteen_merchant set fee_ratio = 1.7 where id = $1`, [m2]);
    const q = await pay(h.db, h.ctx, { employeeId: b, merchantId: m1, amount: '20.01', at: `${mo.m2}01 00:00:00` });
    await pay(h.db, h.ctx, { employeeId: a, merchantId: m2, amount: '5.55', at: `${mo.m2}15 08:30:00` });
    await refund(h.db, h.ctx, { orderId: p.id, amount: '2.01', at: `${mo.m2}20 17:45:00` }); // at its payment's 2.5 %
    await pay(h.db, h.ctx, { employeeId: b, merchantId: m1, amount: '0.99', at: `${mo.m1}01 00:00:01` });
    await refund(h.db, h.ctx, { orderId: q.id, amount: '20.01', at: `${mo.m1}14 12:00:00` });
    await pay(h.db, h.ctx, { employeeId: a, merchantId: m2, amount: '9.99', at: `${mo.m1}28 23:59:59` });
    await pay(h.db, h.ctx, { employeeId: b, merchantId: m1, amount: '1.23' }); // now
    // the coarser rollups are exactly the sums of the daily one
    const dayDiff = await query<any>(
      h.db,
      `select tenant_id, day, sum(paid_count) pc, sum(paid_amount) pa, sum(refund_count) rc, sum(refund_amount) ra from canteen_order_daily group by 1, 2
       except select tenant_id, day, paid_count, paid_amount, refund_count, refund_amount from canteen_order_day_total`,
    );
    const monthDiff = await query<any>(
      h.db,
      `select tenant_id, date_trunc('month', day::timestamp)::date m, merchant_id, fee_ratio, sum(paid_count) pc, sum(paid_amount) pa, sum(refund_count) rc, sum(refund_amount) ra
         from canteen_order_daily group by 1, 2, 3, 4
       except select tenant_id, month, merchant_id, fee_ratio, paid_count, paid_amount, refund_count, refund_amount from canteen_order_monthly`,
    );
    expect({ dayDiff, monthDiff }).toEqual({ dayDiff: [], monthDiff: [] });
    expect((await query<any>(h.db, `select count(*)::int as n from canteen_order_monthly`))[0].n).toBeGreaterThan(4);
    const days = [`${mo.m3}01`, `${mo.m3}14`, `${mo.m3}28`, `${mo.m2}01`, `${mo.m2}15`, `${mo.m2}20`, `${mo.m1}01`, `${mo.m1}14`, `${mo.m1}28`];
    const cuts = ['00:00:00', '00:00:01', '08:30:00', '23:59:59'];
    let compared = 0;
    let monthly = 0;
    for (const d1 of days) {
      for (const d2 of days) {
        if (d1 >= d2) continue;
        for (const [t1, t2] of [[cuts[0], cuts[0]], [cuts[1], cuts[3]], [cuts[2], cuts[1]], [cuts[3], cuts[2]]]) {
          const from = `${d1} ${t1}`;
          const to = `${d2} ${t2}`;
          const fast = await orderStatistics(h.db, h.ctx.tenantId, from, to);
          const ref = await orderStatistics(h.db, h.ctx.tenantId, from, to, { only: 'orders' });
          expect({ from, to, totals: fast.totals, series: fast.series }).toEqual({ from, to, totals: ref.totals, series: ref.series });
          const split = splitRange(from, to);
          if (split && splitMonths(split.wholeFrom, split.wholeTo).monthFrom < split.wholeTo) monthly++;
          compared++;
        }
      }
    }
    expect(compared).toBe(144);
    expect(monthly).toBeGreaterThan(40);
    const all = await orderStatistics(h.db, h.ctx.tenantId, `${mo.m3}01 00:00:00`, `${mo.m1}28 23:59:59`);
    expect(all.source).toBe('mixed');
    // fees per (merchant, ratio): m1 at 2.5 % (10.05 + 7.77 − 2.01) → 0.40, m1 at 3.3 % (20.01 + 0.99 − 20.01) → 0.03,
    // m2 at 0 % (3.33) → 0, m2 at 1.7 % (5.55; 9.99 is at the excluded end) → 0.09
    expect(all.totals).toEqual({ paidCount: 6, paid: '47.70', refundCount: 2, refunded: '22.02', fees: '0.52', net: '25.16' });
    // a truncate of the daily rollup empties the coarser ones too (tests reset the ledger that way)
    await h.reset();
    expect(await query<any>(h.db, `select (select count(*) from canteen_order_day_total)::int as d, (select count(*) from canteen_order_monthly)::int as m`)).toEqual([
      { d: 0, m: 0 },
    ]);
  });

  it('gives the same totals and series as reading every order, for ranges starting and ending at any time', async () => {
    await fixture();
    const [a] = await h.addEmployees(1);
    await recharge(h.db, h.ctx, { employeeId: a, amount: '300', at: lastDay(1, '00:00:00') });
    // orders right at and around midnight and late in the day, so head and tail cut through them
    await pay(h.db, h.ctx, { employeeId: a, merchantId: m1, amount: '1.11', at: lastDay(4, '00:00:00') });
    await pay(h.db, h.ctx, { employeeId: a, merchantId: m2, amount: '2.22', at: lastDay(4, '23:59:59') });
    const p = await pay(h.db, h.ctx, { employeeId: a, merchantId: m1, amount: '3.33', at: lastDay(5, '06:15:00') });
    await refund(h.db, h.ctx, { orderId: p.id, amount: '1.00', at: lastDay(6, '00:00:01') });
    const cuts = ['00:00:00', '00:00:01', '06:15:00', '12:00:00', '23:59:59'];
    let compared = 0;
    for (const [d1, d2] of [[3, 6], [4, 5], [4, 7], [2, 9], [5, 5]]) {
      for (const t1 of cuts) {
        for (const t2 of cuts) {
          const from = lastDay(d1, t1);
          const to = lastDay(d2, t2);
          if (from >= to) continue;
          const fast = await orderStatistics(h.db, h.ctx.tenantId, from, to);
          const ref = await orderStatistics(h.db, h.ctx.tenantId, from, to, { only: 'orders' });
          expect(ref.source).toBe('orders');
          expect({ from, to, totals: fast.totals, series: fast.series }).toEqual({ from, to, totals: ref.totals, series: ref.series });
          compared++;
        }
      }
    }
    expect(compared).toBeGreaterThan(80);
    // and the mixed path really has something to compare: money in head, whole days and tail
    const r = await orderStatistics(h.db, '000000', lastDay(3, '12:00:00'), lastDay(6, '00:00:02'));
    expect(r.source).toBe('mixed');
    expect(r.totals.paidCount).toBe(5);
  });
});

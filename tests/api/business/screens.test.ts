/** Employees (import, unbind, sync seam), banners, messaging-app users, message center, export. */
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { exactNumber, readableFields, recordSerializer } from '../../../src/server/crud/index.js';
import { syncBannerStatus } from '../../../src/server/modules/banner/index.js';
import { forEachExportBatch } from '../../../src/server/modules/export/batches.js';
import { setMessagingProvider } from '../../../src/server/modules/employee/provider.js';
import { query } from '../../../src/server/lib/sql.js';
import { pay, recharge } from '../../../src/server/modules/ledger/service.js';
import { parseSort } from '../../../src/shared/search.js';
import { startHarness, type Harness } from './_harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => h?.close());
beforeEach(async () => {
  await h.reset();
  setMessagingProvider(null);
});

async function xlsx(rows: unknown[][]): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('s');
  for (const r of rows) ws.addRow(r);
  return Buffer.from(await wb.xlsx.writeBuffer());
}
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const count = async (t: string) => Number((await query<{ n: string }>(h.db, `select count(*) as n from ${t}`))[0].n);

describe('employee import', () => {
  it('imports valid rows (zh headers, dictionary labels) in one go', async () => {
    const file = await xlsx([
      ['员工姓名', '卡号', '手机号', '性别', '卡状态', '生日'],
      ['张三', 'E0001', '13800000001', '男', '正常', new Date(Date.UTC(1990, 4, 6))],
      ['Li Si', 'E0002', '13800000002', 'Female', 1, null],
    ]);
    const r = await h.post('/api/employee/import', undefined, { raw: file, headers: { 'content-type': XLSX } });
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual({ imported: 2 });
    const rows = await query<any>(h.db, `select card_no, gender, status, birthday from canteen_employee order by card_no`);
    expect(rows).toEqual([
      { card_no: 'E0001', gender: 1, status: 1, birthday: '1990-05-06' },
      { card_no: 'E0002', gender: 2, status: 1, birthday: null },
    ]);
  });

  it('reports every bad row and imports nothing', async () => {
    await h.addEmployees(1);
    const [existing] = await query<any>(h.db, `select card_no from canteen_employee`);
    const file = await xlsx([
      ['Name', 'Card no.', 'Phone'],
      ['OK', 'E1', '13800000001'],
      ['', 'E2', '13800000002'],
      ['Bad phone', 'E3', '1380000'],
      ['Dup', 'E1', '13800000004'],
      ['Exists', existing.card_no, '13800000005'],
    ]);
    const r = await h.post('/api/employee/import', undefined, { raw: file, headers: { 'content-type': XLSX } });
    expect(r.status).toBe(400);
    expect(r.body.msg).toBe('导入失败：4 行有错误，未导入任何数据');
    const errs = r.body.data.errors;
    expect(errs.map((e: any) => e.row)).toEqual([3, 4, 4, 5, 6]);
    expect(errs[0]).toMatchObject({ field: 'employeeName', message: '请输入员工姓名' });
    expect(errs.find((e: any) => e.row === 4 && e.field === 'phone').message).toBe('手机号码长度不为11位');
    expect(errs.find((e: any) => e.row === 5)).toEqual({ row: 5, column: 'B', field: 'cardNo', message: '卡号 E1 与第 2 行重复' });
    expect(errs.find((e: any) => e.row === 6)).toEqual({ row: 6, column: 'B', field: 'cardNo', message: `卡号 ${existing.card_no} 已存在` });
    expect(await count('canteen_employee')).toBe(1);
  });

  it('reports every repeated or taken card number, also on rows that have other errors', async () => {
    await h.addEmployees(1);
    const [existing] = await query<any>(h.db, `select card_no from canteen_employee`);
    const file = await xlsx([
      ['Name', 'Card no.', 'Phone'],
      ['Bad phone', 'D1', '1380000'], // 2: invalid phone
      ['Repeat', 'D1', '13800000003'], // 3: repeats row 2 (which is invalid itself)
      ['Taken', existing.card_no, '13800000004'], // 4: taken
      ['Taken again', existing.card_no, '13800000005'], // 5: repeats row 4 and is taken
      ['Fine', 'D9', '13800000006'],
    ]);
    const r = await h.post('/api/employee/import', undefined, { raw: file, headers: { 'content-type': XLSX } });
    expect(r.status).toBe(400);
    expect(r.body.msg).toBe('导入失败：4 行有错误，未导入任何数据');
    const card = r.body.data.errors.filter((e: any) => e.field === 'cardNo');
    expect(card).toEqual([
      { row: 3, column: 'B', field: 'cardNo', message: '卡号 D1 与第 2 行重复' },
      { row: 4, column: 'B', field: 'cardNo', message: `卡号 ${existing.card_no} 已存在` },
      { row: 5, column: 'B', field: 'cardNo', message: `卡号 ${existing.card_no} 与第 4 行重复` },
      { row: 5, column: 'B', field: 'cardNo', message: `卡号 ${existing.card_no} 已存在` },
    ]);
    expect(await count('canteen_employee')).toBe(1);
  });

  it('a dictionary cell that is neither a key nor a label names the row, the column and the allowed labels', async () => {
    const file = await xlsx([
      ['员工姓名', '卡号', '手机号', '性别', '卡状态'],
      ['甲', 'F1', '13800000001', '男性', '正常'],
      ['乙', 'F2', '13800000002', '女', 9],
      ['丙', 'F3', '13800000003', 'Female', 'Frozen'],
    ]);
    const r = await h.post('/api/employee/import', undefined, { raw: file, headers: { 'content-type': XLSX } });
    expect(r.status).toBe(400);
    expect(r.body.data.errors).toEqual([
      { row: 2, column: 'D', field: 'gender', message: '「男性」不是有效的性别，可选：男、女、未知' },
      { row: 3, column: 'E', field: 'status', message: '「9」不是有效的卡状态，可选：正常、冻结、挂失、注销' },
    ]);
    const en = await h.post('/api/employee/import?lang=en', undefined, { raw: file, headers: { 'content-type': XLSX } });
    expect(en.body.data.errors[0].message).toBe('“男性” is not a valid 性别; choose one of: Male, Female, Unknown');
    expect(await count('canteen_employee')).toBe(0);
  });

  it('refuses unknown headers and non-xlsx files; offers a template', async () => {
    const bad = await h.post('/api/employee/import', undefined, { raw: await xlsx([['Name', 'Shoe size'], ['a', 1]]), headers: { 'content-type': XLSX } });
    expect(bad.body.msg).toBe('无法识别的表头：Shoe size');
    const junk = await h.post('/api/employee/import', undefined, { raw: Buffer.from('hello'), headers: { 'content-type': XLSX } });
    expect(junk.body.msg).toBe('请上传 .xlsx 文件');
    const t = await h.get('/api/employee/import/template?lang=en');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(t.raw as any);
    expect((wb.worksheets[0].getRow(1).values as unknown[]).slice(1, 3)).toEqual(['Name', 'Card no.']);
  });
});

describe('employee actions', () => {
  it('unbind clears wxUserId; sync without a provider is a clear 400, with one it updates', async () => {
    const [e] = await h.addEmployees(1);
    await query(h.db, `update canteen_employee set wx_user_id = 'wx-1' where id = $1`, [e]);
    const u = await h.get(`/api/employee/unbind?id=${e}`);
    expect(u.status).toBe(200);
    expect((await h.get(`/api/employee/detail?id=${e}`)).body.data.wxUserId).toBeNull();
    expect((await h.get(`/api/employee/unbind?id=123`)).status).toBe(404);
    const s = await h.get(`/api/employee/getAndSyncById?id=${e}`);
    expect(s.status).toBe(400);
    expect(s.body.msg).toBe('未配置微信服务，无法同步');
    setMessagingProvider({ name: 'test', fetchEmployee: async () => ({ wxUserId: 'wx-9', phone: '13900000000' }) });
    const s2 = await h.get(`/api/employee/getAndSyncById?id=${e}`);
    expect(s2.body.data).toMatchObject({ wxUserId: 'wx-9', phone: '13900000000' });
  });

  it('the list never returns passwords', async () => {
    const [e] = await h.addEmployees(1);
    await query(h.db, `update canteen_employee set login_psw = 'secret', pay_psw = 'x' where id = $1`, [e]);
    const d = await h.get(`/api/employee/detail?id=${e}`);
    expect(d.body.data).not.toHaveProperty('loginPsw');
    expect(d.body.data).not.toHaveProperty('payPsw');
  });
});

describe('banner', () => {
  const base = { putPlatform: 1, bannerTitle: 'Hello', sort: 10 };
  it('validates platform, go-online flag, period, sort and remarks', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ ...base, putPlatform: undefined, enableFlag: 1 }, '请选择投放平台'],
      [{ ...base, enableFlag: 2 }, '请输入上线时段'],
      [{ ...base, enableFlag: 1, sort: 0 }, '排序范围为1-999'],
      [{ ...base, enableFlag: 1, sort: 1000 }, '排序范围为1-999'],
      [{ ...base, enableFlag: 1, remarks: 'x'.repeat(145) }, '备注不能超过144个字符'],
      [{ ...base, enableFlag: 2, enableDaterange: ['2026-02-01 00:00:00', '2026-01-01 00:00:00'] }, '上线时段的结束时间必须晚于开始时间'],
    ];
    for (const [body, msg] of cases) {
      const r = await h.post('/api/banner/submit', body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.msg).toBe(msg);
    }
    expect(await count('canteen_banner')).toBe(0);
  });

  it('refuses dictionary values that are not keys of the field\'s dictionary, with a field error (add and edit)', async () => {
    const r = await h.post('/api/banner/submit', { ...base, putPlatform: 9, enableFlag: 1 });
    expect(r.status).toBe(400);
    expect(r.body.msg).toBe('投放平台的值 9 无效，可选：1 员工端、2 商家端');
    expect(r.body.data).toEqual([{ field: 'putPlatform', message: '投放平台的值 9 无效，可选：1 员工端、2 商家端' }]);
    const flag = await h.post('/api/banner/submit?lang=en', { ...base, enableFlag: 7 });
    expect(flag.status).toBe(400);
    expect(flag.body.msg).toBe('7 is not a valid Go online; choose one of: 1 Online now, 2 Scheduled');
    expect(await count('canteen_banner')).toBe(0);
    const ok = await h.post('/api/banner/submit', { ...base, putPlatform: 2, enableFlag: 1 });
    expect(ok.status).toBe(200);
    const edit = await h.post('/api/banner/submit', { ...base, id: ok.body.data.id, enableFlag: 1, putPlatform: 3 });
    expect(edit.status).toBe(400);
    expect(edit.body.data).toEqual([{ field: 'putPlatform', message: '投放平台的值 3 无效，可选：1 员工端、2 商家端' }]);
    const [row] = await query<any>(h.db, `select put_platform from canteen_banner`);
    expect(row.put_platform).toBe(2);
  });

  it('status: online now → 2; scheduled follows its period; status/update takes it off line', async () => {
    const now = await h.post('/api/banner/submit', { ...base, enableFlag: 1, status: 3 });
    expect(now.status).toBe(200);
    const future = await h.post('/api/banner/submit', { ...base, enableFlag: 2, enableDaterange: ['2099-01-01 00:00:00', '2099-02-01 00:00:00'] });
    const past = await h.post('/api/banner/submit', { ...base, enableFlag: 2, enableDaterange: ['2020-01-01 00:00:00', '2020-02-01 00:00:00'] });
    const st = async (id: string) => (await h.get(`/api/banner/detail?id=${id}`)).body.data;
    expect((await st(now.body.data.id)).status).toBe(2);
    expect(await st(future.body.data.id)).toMatchObject({ status: 1, disableTime: '2099-02-01 00:00:00' });
    expect((await st(past.body.data.id)).status).toBe(3);
    const list = await h.get('/api/banner/list?status=2');
    expect(list.body.data.total).toBe(1);
    const off = await h.get(`/api/banner/status/update?id=${now.body.data.id}&status=3`);
    expect(off.status).toBe(200);
    expect((await st(now.body.data.id)).status).toBe(3);
    const bad = await h.get(`/api/banner/status/update?id=${now.body.data.id}&status=7`);
    expect(bad.body.msg).toBe('状态只能为上线(2)或下线(3)');
  });
});

describe('banner status job', () => {
  it('persists the period status of scheduled banners, once even when two instances run it together', async () => {
    const r = await h.post('/api/banner/submit', { putPlatform: 2, enableFlag: 2, enableDaterange: ['2020-01-01 00:00:00', '2099-01-01 00:00:00'] });
    const id = r.body.data.id;
    await query(h.db, `update canteen_banner set status = 1, enable_daterange = '["2020-01-01 00:00:00", "2021-01-01 00:00:00"]' where id = $1`, [id]);
    const runs = await Promise.all([syncBannerStatus(h.db), syncBannerStatus(h.db)]);
    expect(runs.reduce((a, b) => a + b, 0)).toBe(1);
    const [row] = await query<any>(h.db, `select status, disable_time from canteen_banner where id = $1`, [id]);
    expect(row).toEqual({ status: 3, disable_time: '2021-01-01 00:00:00' });
    expect(await syncBannerStatus(h.db)).toBe(0);
  });

  it('skips and logs a row whose period is not two real times, and still updates the others', async () => {
    const good = (await h.post('/api/banner/submit', { putPlatform: 1, enableFlag: 2, enableDaterange: ['2020-01-01 00:00:00', '2099-01-01 00:00:00'] })).body.data.id;
    const bad = (await h.post('/api/banner/submit', { putPlatform: 1, enableFlag: 2, enableDaterange: ['2020-01-01 00:00:00', '2099-01-01 00:00:00'] })).body.data.id;
    await query(h.db, `update canteen_banner set status = 1, enable_daterange = '["2020-01-01 00:00:00", "2021-01-01 00:00:00"]' where id = $1`, [good]);
    // written behind the app's back: a day that does not exist (the old job's ::timestamp cast failed on it, for every row)
    await query(h.db, `update canteen_banner set status = 1, enable_daterange = '["2021-02-30 00:00:00", "2021-03-01 00:00:00"]' where id = $1`, [bad]);
    const logged: string[] = [];
    expect(await syncBannerStatus(h.db, (m) => logged.push(m))).toBe(1);
    const rows = await query<any>(h.db, `select id::text, status from canteen_banner order by id`);
    expect(rows).toEqual([{ id: good, status: 3 }, { id: bad, status: 1 }]);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toContain(bad);
    expect(logged[0]).toContain('2021-02-30');
  });

  it('the export shows the status the period gives now, not a stale stored one', async () => {
    const id = (await h.post('/api/banner/submit', { putPlatform: 1, bannerTitle: 'Stale', enableFlag: 2, enableDaterange: ['2020-01-01 00:00:00', '2099-01-01 00:00:00'] })).body.data.id;
    // the period ended, the minute job has not run yet
    await query(h.db, `update canteen_banner set status = 2, enable_daterange = '["2020-01-01 00:00:00", "2021-01-01 00:00:00"]' where id = $1`, [id]);
    expect((await h.get(`/api/banner/detail?id=${id}`)).body.data.status).toBe(3);
    const r = await h.get('/api/banner/export?columns=bannerTitle,status');
    expect(r.status).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(r.raw as any);
    expect(wb.worksheets[0].getRow(2).values).toEqual([undefined, 'Stale', '已下线']);
  });
});

describe('messaging-app users and message center', () => {
  it('wx users: only remarks is editable; no add or delete', async () => {
    await query(h.db, `insert into canteen_wx_user (id, tenant_id, is_deleted, nickname, user_type, openid) values (7, '000000', 0, 'nick', 1, 'o1')`);
    const r = await h.post('/api/blade-wxUser/wxUser/submit', { id: '7', nickname: 'hacked', openid: 'x', remarks: 'vip' });
    expect(r.status).toBe(200);
    const [row] = await query<any>(h.db, `select nickname, openid, remarks from canteen_wx_user where id = 7`);
    expect(row).toEqual({ nickname: 'nick', openid: 'o1', remarks: 'vip' });
    expect((await h.post('/api/blade-wxUser/wxUser/submit', { nickname: 'new' })).status).toBe(403);
    expect((await h.post('/api/blade-wxUser/wxUser/remove?ids=7')).status).toBe(403);
    await query(h.db, `delete from canteen_wx_user`);
  });

  it('message center: bizId must be a merchant (type 1) or an employee (type 2) of the tenant', async () => {
    const [e] = await h.addEmployees(1);
    const m = (await h.merchants())[0];
    const ok1 = await h.post('/api/msgCenter/msgCenter/submit', { msgType: 2, msgTitle: 't', contents: 'c', bizId: e });
    expect(ok1.status).toBe(200);
    const ok2 = await h.post('/api/msgCenter/msgCenter/submit', { msgType: 1, msgTitle: 't', contents: 'c', bizId: m.id });
    expect(ok2.status).toBe(200);
    const wrong = await h.post('/api/msgCenter/msgCenter/submit', { msgType: 1, msgTitle: 't', contents: 'c', bizId: e });
    expect(wrong.body.msg).toBe('接收对象不存在');
    const missing = await h.post('/api/msgCenter/msgCenter/submit', { msgType: 1, msgTitle: 't', contents: 'c' });
    expect(missing.body.msg).toBe('请选择接收对象');
    const list = await h.get('/api/msgCenter/msgCenter/list');
    expect(list.body.data.records.map((r: any) => r.bizName).sort()).toEqual([m.merchant_name, '员工1'].sort());
  });
});

describe('money on the wire', () => {
  it('list money is a JSON number equal to the SQL decimal; a value a double cannot carry exactly stays text', async () => {
    const [a] = await h.addEmployees(1);
    await query(h.db, `update canteen_employee set balance = 9999999999.99 where id = $1`, [a]);
    const list = await h.get('/api/employee/list?current=1&size=10');
    expect(list.body.data.records[0].balance).toBe(9999999999.99);
    const [sql] = await query<any>(h.db, `select balance::text as b from canteen_employee where id = $1`, [a]);
    expect(String(list.body.data.records[0].balance)).toBe(sql.b);
    // the serializer converts only when exact
    expect(exactNumber('12.30')).toBe(12.3);
    expect(exactNumber('-0.50')).toBe(-0.5);
    expect(exactNumber('100.00')).toBe(100);
    expect(exactNumber('0.1234567890123456789')).toBeUndefined();
    expect(exactNumber('12345678901234567.89')).toBeUndefined();
    const serialize = recordSerializer(h.app.ctx.docs.get('order')!);
    expect(serialize({ payAmount: '12345678.90', orderAmount: '0.1234567890123456789' })).toEqual({ payAmount: 12345678.9, orderAmount: '0.1234567890123456789' });
  });
});

describe('export', () => {
  it('streams the filtered list as .xlsx with the requested columns, headers and dictionary labels in the language', async () => {
    const [a] = await h.addEmployees(1);
    await recharge(h.db, h.ctx, { employeeId: a, amount: '100' });
    const m = (await h.merchants()).find((x) => x.status === 1)!;
    for (let i = 0; i < 3; i++) await pay(h.db, h.ctx, { employeeId: a, merchantId: m.id, amount: `${i + 1}.50` });
    const r = await h.get('/api/order/export?orderType=1&columns=orderNo,status,payAmount&lang=en&ascs=pay_amount');
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toContain('spreadsheetml');
    expect(r.headers['content-disposition']).toContain('attachment');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(r.raw as any);
    const ws = wb.worksheets[0];
    const rows = ws.getSheetValues().slice(1).map((v: any) => v.slice(1));
    expect(rows).toEqual([
      ['Order no.', 'Status', 'Paid amount'],
      [expect.stringMatching(/^XF/), 'Paid', 1.5],
      [expect.stringMatching(/^XF/), 'Paid', 2.5],
      [expect.stringMatching(/^XF/), 'Paid', 3.5],
    ]);
    const zh = await h.get('/api/order/export?orderType=1&columns=status');
    const wz = new ExcelJS.Workbook();
    await wz.xlsx.load(zh.raw as any);
    expect(wz.worksheets[0].getRow(1).getCell(1).value).toBe('订单状态');
    expect(wz.worksheets[0].getRow(2).getCell(1).value).toBe('已支付');
    const bad = await h.get('/api/order/export?columns=orderNo,loginPsw');
    expect(bad.status).toBe(400);
    const noPerm = await h.get('/api/order/export', { token: 'x' });
    expect(noPerm.status).toBe(401);
  });

  it('reads every row in list order in batches, by cursor and by id batches alike', async () => {
    const [a] = await h.addEmployees(1);
    await recharge(h.db, h.ctx, { employeeId: a, amount: '500' });
    const m = (await h.merchants()).find((x) => x.status === 1)!;
    for (let i = 0; i < 23; i++) await pay(h.db, h.ctx, { employeeId: a, merchantId: m.id, amount: `${(i % 5) + 1}.00` });
    const doc = h.app.ctx.docs.get('order')!;
    const fields = readableFields(doc).filter((f) => ['orderNo', 'payAmount', 'orderType'].includes(f.field));
    const sort = parseSort(doc, 'pay_amount', undefined);
    const expected = await query<{ order_no: string }>(h.db, `select order_no from canteen_order where tenant_id = '000000' and is_deleted = 0 and order_type = 1 order by pay_amount asc, id desc`);
    for (const singleConnection of [true, false]) {
      const sizes: number[] = [];
      const got: Array<Record<string, unknown>> = [];
      await forEachExportBatch(h.db, doc, { conditions: [{ field: 'orderType', op: '=', value: 1 }], sort, tenantId: '000000', fields, singleConnection, batch: 5 }, async (rows) => {
        sizes.push(rows.length);
        got.push(...rows);
      });
      expect(got.map((r) => r.orderNo)).toEqual(expected.map((r) => r.order_no));
      expect(Object.keys(got[0]).sort()).toEqual(['orderNo', 'orderType', 'payAmount']);
      expect(sizes).toEqual([5, 5, 5, 5, 3]);
    }
  });

  it('on the embedded database, other requests are served while an export is being read', async () => {
    const [a] = await h.addEmployees(1);
    await recharge(h.db, h.ctx, { employeeId: a, amount: '500' });
    const m = (await h.merchants()).find((x) => x.status === 1)!;
    for (let i = 0; i < 20; i++) await pay(h.db, h.ctx, { employeeId: a, merchantId: m.id, amount: '1.00' });
    const doc = h.app.ctx.docs.get('order')!;
    const events: string[] = [];
    const exporting = forEachExportBatch(
      h.db,
      doc,
      { conditions: [], sort: [], tenantId: '000000', fields: readableFields(doc), singleConnection: !h.app.ctx.config.databaseUrl, batch: 4 },
      async () => {
        events.push('batch');
        await new Promise((r) => setTimeout(r, 5));
      },
    );
    await new Promise((r) => setTimeout(r, 1));
    const list = h.get('/api/order/list?current=1&size=10').then((r) => events.push(`list ${r.status}`));
    await Promise.all([exporting, list]);
    const total = await count('canteen_order');
    expect(total).toBeGreaterThanOrEqual(20);
    expect(events.filter((e) => e === 'batch')).toHaveLength(Math.ceil(total / 4));
    expect(events.indexOf('list 200')).toBeGreaterThan(-1);
    expect(events.indexOf('list 200')).toBeLessThan(events.lastIndexOf('batch'));
  });
});

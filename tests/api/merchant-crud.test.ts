import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../src/server/lib/password.js';
import { SEED_IDS } from '../../src/server/seed/index.js';
import { md5, merchantBody, startTestServer, type TestServer } from './helpers.js';

let t: TestServer;
let admin: string;
beforeAll(async () => {
  t = await startTestServer();
  admin = await t.login();
});
afterAll(async () => t?.close());

const list = async (query: string, token = admin) => (await t.call(token, { method: 'GET', url: `/api/merchant/list?${query}` })).body;
const submit = (payload: Record<string, unknown>, headers: Record<string, string> = {}, token = admin) => t.call(token, { method: 'POST', url: '/api/merchant/submit', payload, headers });
const names = (body: any) => body.data.records.map((r: any) => r.merchantName);

async function add(over: Record<string, unknown> = {}): Promise<string> {
  const r = await submit(merchantBody(over));
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.data.id;
}

describe('merchant submit (add/edit)', () => {
  it('adds with a generated merchantNo, hashed passwords, defaults and contractEnd', async () => {
    const id = await add({ merchantName: '新增商家A' });
    const d = (await t.call(admin, { method: 'GET', url: `/api/merchant/detail?id=${id}` })).body.data;
    expect(d.merchantNo).toMatch(/^SH\d{8}\d{6}$/);
    expect(d.merchantName).toBe('新增商家A');
    expect(d.feeRatio).toBe(1.5);
    expect(d.contractDaterange).toEqual(['2026-01-01', '2026-12-31']);
    expect(d.contractEnd).toBe('2026-12-31');
    expect(d.bind).toBe(1);
    expect(d.enableTime).toBeNull();
    expect(d).not.toHaveProperty('loginPsw');
    expect(d).not.toHaveProperty('payPsw');
    const raw = await t.database.db.selectFrom('canteen_merchant').select(['login_psw', 'pay_psw', 'create_user', 'tenant_id']).where('id', '=', id).executeTakeFirstOrThrow();
    expect(raw.login_psw).toMatch(/^scrypt\$/);
    expect(raw.pay_psw).toMatch(/^scrypt\$/);
    expect(raw.login_psw).not.toContain('secret123');
    expect(raw.create_user).toBe(SEED_IDS.admin);
    expect(raw.tenant_id).toBe('000000');
    const second = await add({ merchantName: '新增商家B' });
    const d2 = (await t.call(admin, { method: 'GET', url: `/api/merchant/detail?id=${second}` })).body.data;
    expect(Number(d2.merchantNo.slice(-6))).toBe(Number(d.merchantNo.slice(-6)) + 1);
  });

  it('ignores readOnly and unknown fields (merchantNo, bind, payCode, contractEnd, tenantId, isDeleted)', async () => {
    const id = await add({ merchantName: '只读测试', merchantNo: 'HACK', bind: 2, payCode: 'x', contractEnd: '2099-01-01', tenantId: '123456', isDeleted: 1, createUser: '1', hacker: 'drop table' });
    const d = (await t.call(admin, { method: 'GET', url: `/api/merchant/detail?id=${id}` })).body.data;
    expect(d.merchantNo).not.toBe('HACK');
    expect(d.bind).toBe(1);
    expect(d.payCode).toBeNull();
    expect(d.contractEnd).toBe('2026-12-31');
    expect(d.tenantId).toBe('000000');
    expect(d.createUser).toBe(SEED_IDS.admin);
  });

  it('validation messages come from the document, in zh by default and en when asked', async () => {
    const r = await submit(merchantBody({ merchantName: undefined }));
    expect(r.status).toBe(400);
    expect(r.body.code).toBe(400);
    expect(r.body.success).toBe(false);
    expect(r.body.msg).toBe('请输入商家名称');
    expect(r.body.data).toContainEqual({ field: 'merchantName', message: '请输入商家名称' });
    const en = await submit(merchantBody({ merchantName: undefined }), { 'accept-language': 'en' });
    expect(en.body.msg).toBe('Please enter the merchant name');
    const lang = await t.call(admin, { method: 'POST', url: '/api/merchant/submit?lang=en', payload: merchantBody({ feeRatio: 100.5 }) });
    expect(lang.body.msg).toBe('The service fee ratio is between 0 and 100');
  });

  it('reports every failing field with its own message', async () => {
    const r = await submit({ merchantName: 'x'.repeat(21), loginPhone: '12345', loginPsw: '123', payPsw: 'abc', feeRatio: 1.234, contractDaterange: ['2026-01-01'], enableFlag: 3 });
    const byField = Object.fromEntries(r.body.data.map((e: any) => [e.field, e.message]));
    expect(byField.merchantName).toBe('商家名称不能超过20个字符');
    expect(byField.loginPhone).toBe('手机号码长度不为11位');
    expect(byField.loginPsw).toBe('登录密码长度为6到16个字符');
    expect(byField.payPsw).toBe('支付密码只能是数字');
    expect(byField.feeRatio).toBe('服务费占比最多保留两位小数');
    expect(byField.contractDaterange).toBe('请输入合同有效期');
    expect(byField.enableTime).toBe('请输入上架时间');
  });

  it('enableTime only with enableFlag 3; cleared when the condition fails', async () => {
    const id = await add({ merchantName: '定时上架', enableFlag: 3, enableTime: '2026-12-01 08:00:00' });
    let d = (await t.call(admin, { method: 'GET', url: `/api/merchant/detail?id=${id}` })).body.data;
    expect(d.enableTime).toBe('2026-12-01 08:00:00');
    const { loginPsw, payPsw, ...editable } = merchantBody({ merchantName: '定时上架', enableFlag: 1, enableTime: '2026-12-01 08:00:00' });
    void loginPsw; void payPsw;
    const r = await submit({ ...editable, id });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    d = (await t.call(admin, { method: 'GET', url: `/api/merchant/detail?id=${id}` })).body.data;
    expect(d.enableFlag).toBe(1);
    expect(d.enableTime).toBeNull();
  });

  it('edit keeps hidden fields (passwords) and updates audit columns; missing id → 404', async () => {
    const id = await add({ merchantName: '编辑前' });
    const before = await t.database.db.selectFrom('canteen_merchant').select(['login_psw', 'merchant_no']).where('id', '=', id).executeTakeFirstOrThrow();
    const { loginPsw, payPsw, ...rest } = merchantBody({ merchantName: '编辑后', loginPsw: 'changed!!', remarks: '备注' });
    void payPsw;
    const r = await submit({ ...rest, loginPsw, id, merchantNo: 'X' });
    expect(r.status).toBe(200);
    const after = await t.database.db.selectFrom('canteen_merchant').select(['login_psw', 'merchant_no', 'merchant_name', 'remarks']).where('id', '=', id).executeTakeFirstOrThrow();
    expect(after.merchant_name).toBe('编辑后');
    expect(after.remarks).toBe('备注');
    expect(after.login_psw).toBe(before.login_psw); // loginPsw is hidden in edit mode
    expect(after.merchant_no).toBe(before.merchant_no);
    const missing = await submit({ ...rest, id: '123456789012345678' });
    expect(missing.status).toBe(404);
    expect(missing.body.msg).toBe('数据不存在或已删除');
  });

  it('cannot touch another tenant\'s row', async () => {
    const id = await add({ merchantName: '别的租户' });
    await t.database.db.updateTable('canteen_merchant').set({ tenant_id: '222222' }).where('id', '=', id).execute();
    const { loginPsw, payPsw, ...rest } = merchantBody();
    void loginPsw; void payPsw;
    expect((await submit({ ...rest, id })).status).toBe(404);
    expect((await t.call(admin, { method: 'GET', url: `/api/merchant/detail?id=${id}` })).status).toBe(404);
    expect((await t.call(admin, { method: 'POST', url: `/api/merchant/remove?ids=${id}` })).status).toBe(404);
    expect(names(await list('merchantName=别的租户'))).toEqual([]);
  });
});

describe('merchant list: search and sort', () => {
  beforeAll(async () => {
    await add({ merchantName: '搜索_甲', status: 2, enableFlag: 2 });
    await add({ merchantName: '搜索%乙', status: 3, enableFlag: 1 });
    await add({ merchantName: '搜索丙', status: 2, enableFlag: 1 });
  });

  it('contains (merchantName, ILIKE with % and _ escaped)', async () => {
    expect(names(await list('merchantName=搜索')).sort()).toEqual(['搜索%乙', '搜索_甲', '搜索丙'].sort());
    expect(names(await list('merchantName_like=搜索'))).toHaveLength(3);
    expect(names(await list(`merchantName=${encodeURIComponent('搜索_')}`))).toEqual(['搜索_甲']);
    expect(names(await list(`merchantName=${encodeURIComponent('%')}`))).toEqual(['搜索%乙']);
  });

  it('equal (merchantNo, status, enableFlag) — bare key and _equal', async () => {
    const all = (await list('merchantName=搜索')).data.records;
    const one = all[0];
    expect(names(await list(`merchantNo=${one.merchantNo}`))).toEqual([one.merchantName]);
    expect(names(await list(`merchantNo_equal=${one.merchantNo.slice(0, 6)}`))).toEqual([]);
    expect(names(await list('merchantName=搜索&status=2')).sort()).toEqual(['搜索_甲', '搜索丙'].sort());
    expect(names(await list('merchantName=搜索&status_equal=3'))).toEqual(['搜索%乙']);
    expect(names(await list('merchantName=搜索&enableFlag=2'))).toEqual(['搜索_甲']);
  });

  it('dateRange (createTime_datege / _datelt)', async () => {
    expect(names(await list('merchantName=搜索&createTime_datege=2000-01-01 00:00:00&createTime_datelt=2999-01-01 00:00:00'))).toHaveLength(3);
    expect(names(await list('merchantName=搜索&createTime_datelt=2000-01-01 00:00:00'))).toEqual([]);
    expect(names(await list('merchantName=搜索&createTime_dategt=2999-01-01'))).toEqual([]);
    const bad = await t.call(admin, { method: 'GET', url: '/api/merchant/list?createTime_datege=yesterday' });
    expect(bad.status).toBe(400);
    const badNum = await t.call(admin, { method: 'GET', url: '/api/merchant/list?status=abc' });
    expect(badNum.status).toBe(400);
  });

  it('undeclared keys and suffixes are ignored (never reach SQL)', async () => {
    const total = (await list('')).data.total;
    for (const q of ['liaison=nobody', 'foo=bar', 'status_like=2', 'merchantName_equal=none', 'loginPsw=x', encodeURIComponent('updatexml(1,concat(0x7e,user()),1)') + '=1', "merchantName;drop table canteen_merchant--=1", 'tenantId=222222']) {
      const r = await list(q);
      expect(r.code, q).toBe(200);
      expect(r.data.total, q).toBe(total);
    }
  });

  it('sort only on sortable columns (ascs/descs), anything else ignored', async () => {
    const asc = names(await list('merchantName=搜索&ascs=merchantName'));
    expect(asc).toEqual([...asc].sort());
    const desc = names(await list('merchantName=搜索&descs=merchant_name'));
    expect(desc).toEqual([...asc].reverse());
    for (const q of ['ascs=loginPsw', 'ascs=liaison', 'descs=' + encodeURIComponent('(select 1)'), 'ascs=id;drop']) {
      expect((await list(`merchantName=搜索&${q}`)).code, q).toBe(200);
    }
  });

  it('page size limited to the document page sizes (max 200)', async () => {
    expect((await list('size=5000')).data.size).toBe(200);
    expect((await list('size=-3')).data.size).toBe(10);
    expect((await list('current=999')).data.records).toEqual([]);
  });
});

describe('remove and permissions', () => {
  it('removes many (soft delete)', async () => {
    const a = await add({ merchantName: '删除1' });
    const b = await add({ merchantName: '删除2' });
    const r = await t.call(admin, { method: 'POST', url: `/api/merchant/remove?ids=${a},${b}` });
    expect(r.status).toBe(200);
    expect(names(await list('merchantName=删除'))).toEqual([]);
    const rows = await t.database.db.selectFrom('canteen_merchant').select('is_deleted').where('id', 'in', [a, b]).execute();
    expect(rows.map((x) => x.is_deleted)).toEqual([1, 1]);
    expect((await t.call(admin, { method: 'GET', url: `/api/merchant/detail?id=${a}` })).status).toBe(404);
    expect((await t.call(admin, { method: 'POST', url: '/api/merchant/remove?ids=1;drop' })).status).toBe(400);
    expect((await t.call(admin, { method: 'POST', url: '/api/merchant/remove' })).status).toBe(400);
  });

  it('a `user`-role account may list and view but not add, edit, delete or run actions (403, not 401)', async () => {
    await t.database.db.insertInto('blade_user').values({
      id: '900000000000000010', tenant_id: '000000', account: 'viewer', password: await hashPassword(md5('viewer1')), name: '只读', real_name: '只读',
      role_id: SEED_IDS.roleUser, dept_id: SEED_IDS.dept, is_deleted: 0, status: 1,
    }).execute();
    const viewer = await t.login('viewer', 'viewer1');
    const l = await list('', viewer);
    expect(l.code).toBe(200);
    const id = l.data.records[0].id;
    expect((await t.call(viewer, { method: 'GET', url: `/api/merchant/detail?id=${id}` })).status).toBe(200);
    for (const [method, url, payload] of [
      ['POST', '/api/merchant/submit', merchantBody()],
      ['POST', '/api/merchant/submit', { ...merchantBody(), id }],
      ['POST', `/api/merchant/remove?ids=${id}`, undefined],
      ['GET', `/api/merchant/reset/loginPsw?id=${id}`, undefined],
      ['GET', `/api/merchant/unbind?id=${id}`, undefined],
    ] as const) {
      const r = await t.call(viewer, { method, url, payload: payload as any });
      expect(r.status, url).toBe(403);
      expect(r.body).toEqual({ code: 403, success: false, data: null, msg: '请求被拒绝' });
    }
    const routes = (await t.call(viewer, { method: 'GET', url: '/api/blade-system/menu/routes' })).body.data;
    expect(routes.map((m: any) => m.code)).toEqual(['canteen']);
    const buttons = JSON.stringify((await t.call(viewer, { method: 'GET', url: '/api/blade-system/menu/buttons' })).body.data);
    expect(buttons).toContain('merchant_view');
    expect(buttons).not.toContain('merchant_add');
  });
});

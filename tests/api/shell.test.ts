import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { localDateTime } from '../../src/server/lib/time.js';
import { md5, merchantBody, startTestServer, type TestServer } from './helpers.js';

let t: TestServer;
let token: string;
beforeAll(async () => {
  t = await startTestServer();
  token = await t.login();
});
afterAll(async () => t?.close());

describe('shell config', () => {
  it('is public and carries the site switches', async () => {
    const r = await t.call(undefined, { method: 'GET', url: '/api/blade-desk/shell/config' });
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ tenantMode: false, captchaMode: false, switchMode: false, registerMode: true, tenantId: '000000' });
  });
});

describe('personal info', () => {
  it('reads the caller and updates the allowed fields', async () => {
    const r = await t.call(token, { method: 'GET', url: '/api/blade-system/user/info' });
    expect(r.body.code).toBe(200);
    expect(r.body.data).toMatchObject({ id: '1123598821738675201', account: 'admin' });
    expect(r.body.data).not.toHaveProperty('password');
    const u = await t.call(token, { method: 'POST', url: '/api/blade-system/user/update-info', payload: { realName: '管理员甲', phone: '13800138000', email: 'a@b.cn', account: 'hacker' } });
    expect(u.body.code).toBe(200);
    const r2 = await t.call(token, { method: 'GET', url: '/api/blade-system/user/info' });
    expect(r2.body.data).toMatchObject({ realName: '管理员甲', phone: '13800138000', email: 'a@b.cn', account: 'admin' });
  });

  it('applies the phone rules in order', async () => {
    const msg = async (phone: string) => (await t.call(token, { method: 'POST', url: '/api/blade-system/user/update-info', payload: { phone } })).body;
    expect((await msg('')).msg).toBe('手机号码不能为空');
    expect((await msg('1380013800')).msg).toBe('手机号码长度不为11位');
    const bad = await msg('12345678901');
    expect(bad.code).toBe(400);
    expect(bad.msg).toBe('手机号码格式不正确');
  });

  it('changes the password only with the right old one', async () => {
    const wrong = await t.call(token, { method: 'POST', url: '/api/blade-system/user/update-password', query: { oldPassword: md5('nope'), newPassword: md5('admin2'), newPassword1: md5('admin2') } });
    expect(wrong.status).toBe(400);
    expect(wrong.body.msg).toBe('原密码不正确');
    const mismatch = await t.call(token, { method: 'POST', url: '/api/blade-system/user/update-password', query: { oldPassword: md5('admin'), newPassword: md5('admin2'), newPassword1: md5('admin3') } });
    expect(mismatch.body.code).toBe(400);
    const good = await t.call(token, { method: 'POST', url: '/api/blade-system/user/update-password', query: { oldPassword: md5('admin'), newPassword: md5('admin2'), newPassword1: md5('admin2') } });
    expect(good.body.code).toBe(200);
    expect((await t.loginReply('admin', 'admin')).access_token).toBeUndefined();
    expect((await t.loginReply('admin', 'admin2')).access_token).toBeTruthy();
    const back = await t.call(token, { method: 'POST', url: '/api/blade-system/user/update-password', query: { oldPassword: md5('admin2'), newPassword: md5('admin'), newPassword1: md5('admin') } });
    expect(back.body.code).toBe(200);
  });

  it('needs a token', async () => {
    const r = await t.call(undefined, { method: 'GET', url: '/api/blade-system/user/info' });
    expect(r.status).toBe(401);
  });
});

describe('switch dialog selects', () => {
  it('lists the departments and roles of the user', async () => {
    const d = await t.call(token, { method: 'GET', url: '/api/blade-system/dept/select', query: { userId: '1123598821738675201' } });
    expect(d.body.code).toBe(200);
    expect(d.body.data.length).toBeGreaterThan(0);
    expect(typeof d.body.data[0].id).toBe('string');
    expect(d.body.data[0].deptName).toBeTruthy();
    const r = await t.call(token, { method: 'GET', url: '/api/blade-system/role/select', query: { userId: '1123598821738675201' } });
    expect(r.body.data.map((x: { roleAlias: string }) => x.roleAlias)).toContain('administrator');
  });
});

describe('register-guest', () => {
  it('creates a role-less account once, with the checks of the spec', async () => {
    const call = (query: Record<string, string>) => t.call(token, { method: 'POST', url: '/api/blade-system/user/register-guest', query });
    expect((await call({ tenantId: '', account: 'g1', password: md5('x') })).body.msg).toBe('请先输入租户编号');
    expect((await call({ tenantId: '000000', account: '', password: md5('x') })).body.msg).toBe('请先输入账号');
    expect((await call({ tenantId: '000000', account: 'g1', password: '' })).body.msg).toBe('请先输入密码');
    const ok = await call({ tenantId: '000000', name: 'Guest', account: 'guest1', password: md5('guest123'), oauthId: '42' });
    expect(ok.body.code).toBe(200);
    const dup = await call({ tenantId: '000000', account: 'guest1', password: md5('guest123') });
    expect(dup.body.code).toBe(400);
    // no role yet: the login is refused until an administrator grants one
    const login = await t.loginReply('guest1', 'guest123');
    expect(login.access_token).toBeUndefined();
    expect(login.error_description).toBeTruthy();
  });

  it('is open to a guest without a token only while account.registerUser is true (the sign-in page follows it)', async () => {
    const anon = (account: string) => t.call(undefined, { method: 'POST', url: '/api/blade-system/user/register-guest', query: { tenantId: '000000', account, password: md5('guest123') } });
    expect((await anon('guest2')).body.code).toBe(200);
    const row = await t.database.db.selectFrom('blade_user').select(['status', 'role_id']).where('account', '=', 'guest2').executeTakeFirstOrThrow();
    expect(row).toEqual({ status: 2, role_id: '' });
    await t.database.db.updateTable('blade_param').set({ param_value: 'false' }).where('param_key', '=', 'account.registerUser').execute();
    try {
      const closed = await anon('guest3');
      expect(closed.status).toBe(400);
      expect(closed.body.msg).toBe('系统未开放账号注册');
      expect((await t.call(undefined, { method: 'GET', url: '/api/blade-desk/shell/config' })).body.data.registerMode).toBe(false);
    } finally {
      await t.database.db.updateTable('blade_param').set({ param_value: 'true' }).where('param_key', '=', 'account.registerUser').execute();
    }
    // the tenant's account number holds for guests too
    const users = await t.database.db.selectFrom('blade_user').select((eb) => eb.fn.countAll().as('n')).where('tenant_id', '=', '000000').where('is_deleted', '=', 0).executeTakeFirstOrThrow();
    await t.database.db.updateTable('blade_tenant').set({ account_number: Number(users.n) }).where('tenant_id', '=', '000000').execute();
    try {
      const full = await anon('guest4');
      expect(full.status).toBe(400);
      expect(full.body.msg).toContain(String(users.n));
    } finally {
      await t.database.db.updateTable('blade_tenant').set({ account_number: -1 }).where('tenant_id', '=', '000000').execute();
    }
    // into an unknown tenant: refused
    const nowhere = await t.call(undefined, { method: 'POST', url: '/api/blade-system/user/register-guest', query: { tenantId: '999999', account: 'g9', password: md5('x1') } });
    expect(nowhere.status).toBe(400);
  });
});

describe('error log upload', () => {
  it('stores the entries', async () => {
    const logs = [{ type: 'error', url: 'http://x/wel/index', time: '2026-11-21 10:00:00', message: 'boom', stack: 'Error: boom\n at x', info: 'window.onerror' }];
    const r = await t.call(token, { method: 'POST', url: '/api/blade-desk/shell/send-logs', payload: logs });
    expect(r.body.code).toBe(200);
    expect(r.body.data.count).toBe(1);
    // into the error log as type client
    await t.app.ctx.logs.flush();
    const rows = await sql<{ message: string; type: string; request_uri: string; stack_trace: string }>`select message, type, request_uri, stack_trace from blade_log_error`.execute(t.database.db);
    expect(rows.rows).toEqual([{ message: 'boom', type: 'client', request_uri: 'http://x/wel/index', stack_trace: 'Error: boom\n at x' }]);
    const bad = await t.call(token, { method: 'POST', url: '/api/blade-desk/shell/send-logs', payload: { nope: 1 } });
    expect(bad.body.code).toBe(400);
  });
});

describe('dashboard summary', () => {
  const summary = async () => {
    const r = await t.call(token, { method: 'GET', url: '/api/blade-desk/dashboard/summary' });
    expect(r.body.code).toBe(200);
    return r.body.data;
  };
  let nextId = 9000000000000000001n;
  const id = () => String(nextId++);

  it('answers a 30-day trend of consecutive days ending today, money as SQL decimals', async () => {
    const d = await summary();
    expect(d.trend).toHaveLength(30);
    // today in the app's time zone (APP_TIMEZONE), whatever the database's
    expect(d.trend[29].date).toBe(localDateTime(t.config.appTimezone).slice(0, 10));
    for (let i = 1; i < 30; i++) expect(Date.parse(d.trend[i].date) - Date.parse(d.trend[i - 1].date)).toBe(86_400_000);
    expect(d.todayAmount).toMatch(/^\d+\.\d{2}$/);
    expect(d.trend.every((x: { amount: string }) => /^\d+\.\d{2}$/.test(x.amount))).toBe(true);
  });

  it('counts the merchants, card holders and pending settlements of the tenant', async () => {
    const db = t.database.db;
    const before = await summary();
    const add = await t.call(token, { method: 'POST', url: '/api/merchant/submit', payload: merchantBody({ merchantName: '看板商家' }) });
    expect(add.body.code).toBe(200);
    // cards: two active, one cancelled (status 4: no longer a card holder), one of another tenant
    for (const [status, tenant] of [[1, '000000'], [2, '000000'], [4, '000000'], [1, '111111']] as const) {
      await sql`insert into canteen_employee (id, tenant_id, employee_name, card_no, status) values (${id()}, ${tenant}, '看板', ${'DB' + nextId}, ${status})`.execute(db);
    }
    // settlements: one pending (1), one audited (2), one pending of another tenant
    for (const [status, tenant, cycle] of [[1, '000000', '202501'], [2, '000000', '202502'], [1, '111111', '202501']] as const) {
      await sql`insert into canteen_settlement (id, tenant_id, merchant_id, settlement_cycle, status) values (${id()}, ${tenant}, ${add.body.data.id}, ${cycle}, ${status})`.execute(db);
    }
    const after = await summary();
    expect(after.merchants - before.merchants).toBe(1);
    expect(after.cardHolders - before.cardHolders).toBe(2);
    expect(after.pendingSettlements - before.pendingSettlements).toBe(1);
    const removed = await t.call(token, { method: 'POST', url: '/api/merchant/remove', query: { ids: add.body.data.id } });
    expect(removed.body.code).toBe(200);
    expect((await summary()).merchants).toBe(before.merchants);
  });

  it('sums paid payment orders of today exactly, and only those', async () => {
    const db = t.database.db;
    const before = await summary();
    const today = before.trend[29].date;
    const yesterday = before.trend[28].date;
    const order = (type: number, status: number, amount: string, day: string, tenant = '000000') =>
      sql`insert into canteen_order (id, tenant_id, status, order_no, order_type, order_amount, pay_amount, create_time)
          values (${id()}, ${tenant}, ${status}, ${'T' + nextId}, ${type}, ${amount}, ${amount}, ${day + ' 12:00:00'}::timestamp)`.execute(db);
    // paid (2), refunded (4) and partly refunded (5) payments count; 0.10 + 0.20 + 0.30 is exactly 0.60
    await order(1, 2, '0.10', today);
    await order(1, 4, '0.20', today);
    await order(1, 5, '0.30', today);
    // not today's business: an unpaid payment, a refund, a recharge, another tenant's payment, yesterday's payment
    await order(1, 1, '7.00', today);
    await order(2, 4, '8.00', today);
    await order(3, 2, '9.00', today);
    await order(1, 2, '10.00', today, '111111');
    await order(1, 2, '11.00', yesterday);
    const after = await summary();
    expect(after.todayOrders - before.todayOrders).toBe(3);
    expect(after.todayAmount).toBe((Number(before.todayAmount) + 0.6).toFixed(2));
    expect(after.trend[29]).toEqual({ date: today, orders: before.trend[29].orders + 3, amount: after.todayAmount });
    expect(after.trend[28].orders - before.trend[28].orders).toBe(1);
    expect(after.trend[28].amount).toBe((Number(before.trend[28].amount) + 11).toFixed(2));
  });
});

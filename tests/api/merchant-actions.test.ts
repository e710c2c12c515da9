import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyPassword } from '../../src/server/lib/password.js';
import { merchantBody, startTestServer, type TestServer } from './helpers.js';

let t: TestServer;
let admin: string;
let id: string;
beforeAll(async () => {
  t = await startTestServer();
  admin = await t.login();
  id = (await t.call(admin, { method: 'POST', url: '/api/merchant/submit', payload: merchantBody({ merchantName: '动作商家' }) })).body.data.id;
  await t.database.db.updateTable('canteen_merchant').set({ bind: 2, wx_user_id: 'wx-openid-1' }).where('id', '=', id).execute();
});
afterAll(async () => t?.close());

const row = () => t.database.db.selectFrom('canteen_merchant').select(['login_psw', 'pay_psw', 'bind', 'wx_user_id', 'update_time']).where('id', '=', id).executeTakeFirstOrThrow();

describe('merchant row actions', () => {
  it('reset/loginPsw sets the login password to account.initPassword, hashed', async () => {
    const r = await t.call(admin, { method: 'GET', url: `/api/merchant/reset/loginPsw?id=${id}` });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ code: 200, success: true });
    const after = await row();
    expect(after.login_psw).toMatch(/^scrypt\$/);
    expect(await verifyPassword('123456', after.login_psw as string)).toBe(true);
    await t.database.db.updateTable('blade_param').set({ param_value: '654321' }).where('param_key', '=', 'account.initPassword').execute();
    await t.call(admin, { method: 'GET', url: `/api/merchant/reset/loginPsw?id=${id}` });
    expect(await verifyPassword('654321', (await row()).login_psw as string)).toBe(true);
  });

  it('setnull/payPsw clears the pay password', async () => {
    expect((await row()).pay_psw).not.toBeNull();
    const r = await t.call(admin, { method: 'GET', url: `/api/merchant/setnull/payPsw?id=${id}` });
    expect(r.status).toBe(200);
    expect((await row()).pay_psw).toBeNull();
  });

  it('unbind sets bind=1 and clears wxUserId', async () => {
    let d = (await t.call(admin, { method: 'GET', url: `/api/merchant/detail?id=${id}` })).body.data;
    expect(d.bind).toBe(2);
    expect(d.wxUserId).toBe('wx-openid-1');
    const r = await t.call(admin, { method: 'GET', url: `/api/merchant/unbind?id=${id}` });
    expect(r.status).toBe(200);
    d = (await t.call(admin, { method: 'GET', url: `/api/merchant/detail?id=${id}` })).body.data;
    expect(d.bind).toBe(1);
    expect(d.wxUserId).toBeNull();
  });

  it('unknown or malformed id → 404 R; no token → 401', async () => {
    for (const u of ['/api/merchant/unbind?id=123456789', '/api/merchant/unbind?id=abc', '/api/merchant/unbind']) {
      const r = await t.call(admin, { method: 'GET', url: u });
      expect(r.status, u).toBe(404);
      expect(r.body.success).toBe(false);
    }
    expect((await t.call(undefined, { method: 'GET', url: `/api/merchant/unbind?id=${id}` })).status).toBe(401);
  });
});

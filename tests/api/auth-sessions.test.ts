/**
 * Sessions (issue 10): refresh tokens are single use — a refresh token used twice was copied, and its whole
 * session ends (every token of the family); a token in the URL (`?blade-auth=`) counts only for GET.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASIC, startTestServer, type TestServer } from './helpers.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => t?.close());

async function refresh(refreshToken: string) {
  const r = await t.app.inject({ method: 'POST', url: '/api/blade-auth/oauth/token', headers: { authorization: BASIC }, query: { grant_type: 'refresh_token', refresh_token: refreshToken, scope: 'all' } });
  return { status: r.statusCode, body: JSON.parse(r.body) };
}
const routes = (token: string) => t.call(token, { method: 'GET', url: '/api/blade-system/menu/routes' });

describe('refresh rotation', () => {
  it('a refresh token works once; used again, the whole session ends', async () => {
    const first = await t.loginReply();
    const second = await refresh(first.refresh_token);
    expect(second.status).toBe(200);
    expect(second.body.refresh_token).not.toBe(first.refresh_token);
    expect((await routes(second.body.access_token)).status).toBe(200);
    // the first refresh token again: refused, and the tokens it led to stop working
    const replay = await refresh(first.refresh_token);
    expect(replay.status).toBe(400);
    expect(replay.body.error).toBe('invalid_grant');
    await expect.poll(async () => (await routes(second.body.access_token)).status).toBe(401);
    expect((await refresh(second.body.refresh_token)).status).toBe(400);
    // another session of the same user is not touched
    const other = await t.loginReply();
    expect((await routes(other.access_token)).status).toBe(200);
    expect((await refresh(other.refresh_token)).status).toBe(200);
  });

  it('two concurrent uses of one refresh token: at most one wins', async () => {
    const s = await t.loginReply();
    const replies = await Promise.all([refresh(s.refresh_token), refresh(s.refresh_token), refresh(s.refresh_token)]);
    expect(replies.filter((r) => r.status === 200).length).toBeLessThanOrEqual(1);
    expect(replies.filter((r) => r.status === 400).length).toBeGreaterThanOrEqual(2);
  });
});

describe('token in the URL', () => {
  it('is accepted for GET only', async () => {
    const token = await t.login();
    const get = await t.app.inject({ method: 'GET', url: `/api/blade-system/menu/routes?blade-auth=${encodeURIComponent(`bearer ${token}`)}` });
    expect(get.statusCode).toBe(200);
    const post = await t.app.inject({ method: 'POST', url: `/api/blade-system/param/submit?blade-auth=${encodeURIComponent(`bearer ${token}`)}`, payload: { paramName: 'x', paramKey: 'url.token', paramValue: 'y' } });
    expect(post.statusCode).toBe(401);
    expect((await t.call(token, { method: 'GET', url: '/api/blade-system/param/list?paramKey=url.token' })).body.data.total).toBe(0);
  });
});

describe('guest registration', () => {
  const register = (token: string, account: string, tenantId = '000000') =>
    t.call(token, { method: 'POST', url: '/api/blade-system/user/register-guest', payload: { tenantId, account, password: 'e10adc3949ba59abbe56e057f20f883e', name: account } });

  it('is open only while account.registerUser is true, only into an unexpired tenant, and the account has no roles', async () => {
    const { md5 } = await import('./helpers.js');
    const token = await t.login();
    const db = t.database.db;
    const set = (v: string) => db.updateTable('blade_param').set({ param_value: v }).where('param_key', '=', 'account.registerUser').execute();
    await set('false');
    const closed = await register(token, 'guest1');
    expect(closed.status).toBe(400);
    expect(closed.body.msg).toBe('系统未开放账号注册');
    await set('true');
    expect((await register(token, 'guest1')).status).toBe(200);
    const row = await db.selectFrom('blade_user').select(['role_id']).where('account', '=', 'guest1').executeTakeFirstOrThrow();
    expect(row.role_id).toBe('');
    // it can't sign in until an administrator grants it a role
    const reply = await t.loginReply('guest1', '123456');
    expect(reply.access_token).toBeUndefined();
    expect(md5('123456')).toBe('e10adc3949ba59abbe56e057f20f883e');
    await db.insertInto('blade_tenant').values({ id: '9800000001', tenant_id: '777777', tenant_name: '过期', expire_time: '2020-01-01 00:00:00', is_deleted: 0, status: 1 } as any).execute();
    const expired = await register(token, 'guest2', '777777');
    expect(expired.status).toBe(400);
    expect(expired.body.msg).toBe('租户授权已过期,请联系管理员');
    expect((await register(token, 'guest3', '999999')).status).toBe(400);
  });
});

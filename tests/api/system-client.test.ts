/**
 * Clients (/api/blade-system/client/) and the token endpoint: the secret is write-only and stored hashed,
 * the seeded saber/saber_secret keeps working, a client made in the screen can log in with its own grant
 * types and token validities, an edit without a secret keeps it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { md5, startTestServer, type TestServer } from './helpers.js';
import { data } from './system-helpers.js';

let t: TestServer;
let admin: string;
const API = '/api/blade-system/client';

beforeAll(async () => {
  t = await startTestServer();
  admin = await t.login();
});
afterAll(async () => t?.close());

function token(clientId: string, secret: string, query: Record<string, string> = {}) {
  return t.app.inject({
    method: 'POST',
    url: '/api/blade-auth/oauth/token',
    headers: { authorization: 'Basic ' + Buffer.from(`${clientId}:${secret}`).toString('base64'), 'tenant-id': '000000' },
    query: { grant_type: 'password', username: 'admin', password: md5('admin'), scope: 'all', tenantId: '000000', ...query },
  });
}

const body = (over: Record<string, unknown> = {}) => ({
  clientId: 'kiosk', clientSecret: 'kiosk_secret_1', scope: 'all', authorizedGrantTypes: 'password', accessTokenValidity: 600, refreshTokenValidity: 1200, ...over,
});

describe('client secrets', () => {
  it('the seeded saber secret is stored hashed and still authenticates', async () => {
    const row = await t.database.db.selectFrom('blade_client').select('client_secret').where('client_id', '=', 'saber').executeTakeFirstOrThrow();
    expect(row.client_secret).toMatch(/^scrypt\$/);
    expect(row.client_secret).not.toContain('saber_secret');
    expect(JSON.parse((await token('saber', 'saber_secret')).body).access_token).toBeTruthy();
    const wrong = await token('saber', 'saber_secreT');
    expect(wrong.statusCode).toBe(401);
  });

  it('is never returned by list or detail', async () => {
    const page = data(await t.call(admin, { method: 'GET', url: `${API}/list` }));
    const saber = page.records.find((r: any) => r.clientId === 'saber');
    expect(saber).toMatchObject({ scope: 'all', accessTokenValidity: 3600, refreshTokenValidity: 604800 });
    expect(saber).not.toHaveProperty('clientSecret');
    const detail = data(await t.call(admin, { method: 'GET', url: `${API}/detail?id=${saber.id}` }));
    expect(detail).not.toHaveProperty('clientSecret');
    expect(JSON.stringify(detail)).not.toContain('scrypt');
  });
});

describe('a client made in the screen', () => {
  let id: string;
  it('logs in with its secret; its access validity is the token\'s expires_in', async () => {
    id = data(await t.call(admin, { method: 'POST', url: `${API}/submit`, payload: body() })).id;
    const stored = await t.database.db.selectFrom('blade_client').select('client_secret').where('id', '=', id).executeTakeFirstOrThrow();
    expect(stored.client_secret).toMatch(/^scrypt\$/);
    const r = JSON.parse((await token('kiosk', 'kiosk_secret_1')).body);
    expect(r).toMatchObject({ client_id: 'kiosk', expires_in: 600 });
  });

  it('only its grant types are allowed (no refresh_token here)', async () => {
    const login = JSON.parse((await token('kiosk', 'kiosk_secret_1')).body);
    const refresh = await token('kiosk', 'kiosk_secret_1', { grant_type: 'refresh_token', refresh_token: login.refresh_token });
    expect(refresh.statusCode).toBe(400);
    expect(JSON.parse(refresh.body).error).toBe('unsupported_grant_type');
    data(await t.call(admin, { method: 'POST', url: `${API}/submit`, payload: body({ id, clientSecret: '', authorizedGrantTypes: 'password,refresh_token', accessTokenValidity: 900 }) }));
    const ok = JSON.parse((await token('kiosk', 'kiosk_secret_1', { grant_type: 'refresh_token', refresh_token: login.refresh_token })).body);
    // an edit without a secret kept it, and the new validity applies at once
    expect(ok).toMatchObject({ client_id: 'kiosk', expires_in: 900 });
  });

  it('a new secret replaces the old one', async () => {
    data(await t.call(admin, { method: 'POST', url: `${API}/submit`, payload: body({ id, clientSecret: 'kiosk_secret_2' }) }));
    expect((await token('kiosk', 'kiosk_secret_1')).statusCode).toBe(401);
    expect(JSON.parse((await token('kiosk', 'kiosk_secret_2')).body).access_token).toBeTruthy();
  });

  it('a removed client cannot log in; the client of one\'s own session is not removed', async () => {
    data(await t.call(admin, { method: 'POST', url: `${API}/remove?ids=${id}` }));
    expect((await token('kiosk', 'kiosk_secret_2')).statusCode).toBe(401);
    const saber = data(await t.call(admin, { method: 'GET', url: `${API}/list?clientId=saber` })).records[0];
    const self = await t.call(admin, { method: 'POST', url: `${API}/remove?ids=${saber.id}` });
    expect(self.status).toBe(400);
    expect(self.body.msg).toBe('不能删除当前登录所用的客户端');
  });

  it('required fields, grant-type list and unique client id', async () => {
    const miss = await t.call(admin, { method: 'POST', url: `${API}/submit`, payload: {} });
    const fields = (miss.body.data as any[]).map((e) => e.field);
    expect(fields).toEqual(expect.arrayContaining(['clientId', 'authorizedGrantTypes', 'accessTokenValidity']));
    const noSecret = await t.call(admin, { method: 'POST', url: `${API}/submit`, payload: body({ clientId: 'k3', clientSecret: undefined }) });
    expect(noSecret.status).toBe(400);
    expect(noSecret.body.data).toEqual([{ field: 'clientSecret', message: '请输入客户端密钥' }]);
    const badGrant = await t.call(admin, { method: 'POST', url: `${API}/submit`, payload: body({ clientId: 'k2', authorizedGrantTypes: 'password;drop' }) });
    expect(badGrant.status).toBe(400);
    const dup = await t.call(admin, { method: 'POST', url: `${API}/submit`, payload: body({ clientId: 'saber' }) });
    expect(dup.status).toBe(409);
    expect(dup.body.data[0]).toMatchObject({ field: 'clientId', message: '客户端ID已存在' });
  });
});

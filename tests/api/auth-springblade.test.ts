/**
 * The open-source SpringBlade sign-in dialect beside BladeX's (issue 10), as a stock Saber client speaks it
 * (shared/research/saber-client-contract.md): POST /blade-auth/token with camelCase query params and an SM2
 * password (sm-crypto doEncrypt mode 0 with the server's public key), an R-wrapped camelCase reply, refresh,
 * captcha as R {key, image}, logout; API_ROOT_ALIAS serves the same paths without /api.
 */
import { sm2 } from 'sm-crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASIC, md5, startTestServer, type TestServer } from './helpers.js';

let t: TestServer;
let publicKey: string;
beforeAll(async () => {
  t = await startTestServer();
  publicKey = (await t.call(undefined, { method: 'GET', url: '/api/blade-auth/sm2/public-key' })).body.data.publicKey;
});
afterAll(async () => t?.close());

const token = (query: Record<string, string>, prefix = '/api') =>
  t.app.inject({ method: 'POST', url: `${prefix}/blade-auth/token`, headers: { authorization: BASIC }, query }).then((r) => ({ status: r.statusCode, body: JSON.parse(r.body) }));
const signIn = (password: string, extra: Record<string, string> = {}) => token({ grantType: 'password', tenantId: '000000', account: 'admin', password, type: 'account', ...extra });

describe('SpringBlade sign-in', () => {
  it('serves its SM2 public key without a token (an uncompressed point, 130 hex), the same on every call', async () => {
    expect(publicKey).toMatch(/^04[0-9a-f]{128}$/);
    expect((await t.call(undefined, { method: 'GET', url: '/api/blade-auth/sm2/public-key' })).body.data.publicKey).toBe(publicKey);
  });

  it('signs in with an SM2-encrypted password and answers R with the camelCase fields Saber reads', async () => {
    const r = await signIn(sm2.doEncrypt('admin', publicKey, 0));
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ code: 200, success: true });
    const d = r.body.data;
    expect(d).toMatchObject({ tokenType: 'bearer', tenantId: '000000', account: 'admin', userName: 'admin' });
    expect(typeof d.accessToken).toBe('string');
    expect(typeof d.refreshToken).toBe('string');
    expect(Number(d.expiresIn)).toBeGreaterThan(0);
    expect(d.userId).toMatch(/^\d+$/);
    expect(typeof d.authority).toBe('string');
    expect(d.authority).toContain('admin');
    expect(d).toHaveProperty('avatar');
    // the token works on the shell's calls
    const routes = await t.call(d.accessToken, { method: 'GET', url: '/api/blade-system/menu/routes' });
    expect(routes.status).toBe(200);
    expect(Array.isArray(routes.body.data)).toBe(true);
  });

  it('still takes the md5 hex BladeX clients send', async () => {
    expect((await signIn(md5('admin'))).body.code).toBe(200);
  });

  it('refuses a wrong password, a ciphertext for another key and garbage with R code ≠ 200 and a message', async () => {
    const other = sm2.generateKeyPairHex();
    for (const password of [sm2.doEncrypt('wrong-password', publicKey, 0), sm2.doEncrypt('admin', other.publicKey, 0), 'ab'.repeat(120), '']) {
      const r = await signIn(password, { account: 'nobody' });
      expect(r.body.code, password.slice(0, 10)).not.toBe(200);
      expect(r.body.success).toBe(false);
      expect(r.body.msg).toBeTruthy();
      expect(r.body.data).toBeNull();
    }
  });

  it('refreshes with grantType=refresh_token (the old Blade-Auth ignored) and logs out through /blade-auth/logout', async () => {
    const first = (await signIn(md5('admin'))).body.data;
    const r = await t.app.inject({
      method: 'POST',
      url: '/api/blade-auth/token',
      headers: { authorization: BASIC, 'blade-auth': `bearer ${first.accessToken}` },
      query: { grantType: 'refresh_token', refreshToken: first.refreshToken, scope: 'all' },
    });
    const refreshed = JSON.parse(r.body);
    expect(refreshed.code).toBe(200);
    expect(refreshed.data.accessToken).not.toBe(first.accessToken);
    expect(refreshed.data.authority).toContain('admin');
    const out = await t.call(refreshed.data.accessToken, { method: 'POST', url: '/api/blade-auth/logout' });
    expect(out.body.code).toBe(200);
    expect((await t.call(refreshed.data.accessToken, { method: 'GET', url: '/api/blade-system/menu/routes' })).status).toBe(401);
    // logout without a token is fine too (Saber clears its state either way)
    expect((await t.call(undefined, { method: 'POST', url: '/api/blade-auth/logout' })).body.code).toBe(200);
  });

  it('gives a captcha as R {key, image} without a token', async () => {
    const r = await t.call(undefined, { method: 'GET', url: '/api/blade-auth/captcha' });
    expect(r.body.code).toBe(200);
    expect(r.body.data.key).toMatch(/^[0-9a-f-]{36}$/);
    expect(r.body.data.image).toMatch(/^data:image\/svg\+xml;base64,/);
  });
});

describe('configured key and root alias', () => {
  it('SM2_PRIVATE_KEY gives its own public key; API_ROOT_ALIAS answers /blade-* without /api', async () => {
    const pair = sm2.generateKeyPairHex();
    const s = await startTestServer({ env: { SM2_PRIVATE_KEY: pair.privateKey, API_ROOT_ALIAS: 'true' } });
    try {
      const key = await s.app.inject({ method: 'GET', url: '/blade-auth/sm2/public-key' });
      expect(JSON.parse(key.body).data.publicKey).toBe(pair.publicKey);
      const r = await s.app.inject({ method: 'POST', url: '/blade-auth/token', headers: { authorization: BASIC }, query: { grantType: 'password', tenantId: '000000', account: 'admin', password: sm2.doEncrypt('admin', pair.publicKey, 0) } });
      const d = JSON.parse(r.body).data;
      expect(d.accessToken).toBeTruthy();
      const routes = await s.app.inject({ method: 'GET', url: '/blade-system/menu/routes', headers: { 'blade-auth': `bearer ${d.accessToken}` } });
      expect(JSON.parse(routes.body).code).toBe(200);
    } finally {
      await s.close();
    }
    // without the alias, the root paths are not the API
    const plain = await t.app.inject({ method: 'POST', url: '/blade-auth/token', headers: { authorization: BASIC }, query: { grantType: 'password', account: 'admin', password: md5('admin') } });
    expect(plain.statusCode === 404 || !String(plain.headers['content-type']).includes('json') || JSON.parse(plain.body).code !== 200).toBe(true);
  });

  it('refuses a malformed SM2_PRIVATE_KEY at start', async () => {
    await expect(startTestServer({ env: { SM2_PRIVATE_KEY: 'not-a-key' } })).rejects.toThrow(/SM2_PRIVATE_KEY/);
  });
});

/** Finding 7 of issue 14: a correctly signed token must still carry an expiry to be accepted. */
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => t?.close());

/** The claims of a real login, re-signed with the server's own key (so only the claims differ). */
async function resign(mutate: (claims: Record<string, unknown>) => void): Promise<string> {
  const real = await t.login();
  const claims = JSON.parse(Buffer.from(real.split('.')[1], 'base64url').toString());
  mutate(claims);
  return new SignJWT(claims).setProtectedHeader({ alg: 'HS512', typ: 'JWT' }).sign(await t.app.ctx.tokens.key());
}

describe('signed tokens', () => {
  it('the re-signed claims of a login are accepted (the probe itself is sound)', async () => {
    const tok = await resign(() => {});
    expect((await t.call(tok, { method: 'GET', url: '/api/blade-auth/oauth/user-info' })).status).toBe(200);
  });

  it('a token without exp is refused with 401', async () => {
    const tok = await resign((c) => delete c.exp);
    const r = await t.call(tok, { method: 'GET', url: '/api/blade-auth/oauth/user-info' });
    expect(r.status).toBe(401);
    expect(r.body.code).toBe(401);
  });

  it('a token with a non-numeric or absurdly distant exp is refused', async () => {
    const far = await resign((c) => (c.exp = Math.floor(Date.now() / 1000) + 10 * 365 * 24 * 3600));
    expect((await t.call(far, { method: 'GET', url: '/api/blade-auth/oauth/user-info' })).status).toBe(401);
  });

  it('a refresh token without exp gives no new tokens', async () => {
    const reply = await t.loginReply();
    const claims = JSON.parse(Buffer.from(String(reply.refresh_token).split('.')[1], 'base64url').toString());
    delete claims.exp;
    const tok = await new SignJWT(claims).setProtectedHeader({ alg: 'HS512', typ: 'JWT' }).sign(await t.app.ctx.tokens.key());
    const { BASIC } = await import('./helpers.js');
    const r = await t.call(undefined, { method: 'POST', url: '/api/blade-auth/oauth/token', headers: { authorization: BASIC }, query: { grant_type: 'refresh_token', refresh_token: tok } });
    expect(r.status).toBe(400);
    expect(r.body.access_token).toBeUndefined();
  });
});

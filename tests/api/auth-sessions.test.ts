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

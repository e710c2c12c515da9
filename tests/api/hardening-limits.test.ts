/**
 * Findings 3 and 8 of issue 14: cheap or unauthenticated writes are rate limited per address and per user
 * (429 R + Retry-After), bodies are capped per route, expired captchas are removed, and wrong client
 * credentials count like wrong passwords. Limits: src/server/lib/rate-limit.ts (ROUTE_LIMITS).
 * Each case calls from its own client address (inject's remoteAddress), so the cases do not share counters.
 */
import { sql } from 'kysely';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_IP_FAILURES } from '../../src/server/modules/auth/index.js';
import { ROUTE_LIMITS } from '../../src/server/lib/rate-limit.js';
import { BASIC, md5, startTestServer, type TestServer } from './helpers.js';

let t: TestServer;
let admin: string;
beforeAll(async () => {
  t = await startTestServer();
  admin = await t.login();
});
afterAll(async () => t?.close());

async function from(address: string, opts: InjectOptions, token?: string) {
  const headers = { ...((opts.headers as Record<string, string>) ?? {}), ...(token ? { 'blade-auth': `bearer ${token}` } : {}) };
  const r = await t.app.inject({ ...opts, headers, remoteAddress: address });
  let body: any = r.body;
  try {
    body = JSON.parse(r.body);
  } catch {
    /* not JSON */
  }
  return { status: r.statusCode, body, headers: r.headers };
}
const count = async (table: string) => Number((await t.database.db.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
const limit = (route: string) => ROUTE_LIMITS[route];

function expect429(r: { status: number; body: any; headers: Record<string, unknown> }) {
  expect(r.status).toBe(429);
  expect(r.body).toMatchObject({ code: 429, success: false });
  expect(String(r.body.msg).length).toBeGreaterThan(0);
  expect(Number(r.headers['retry-after'])).toBeGreaterThan(0);
}

describe('captcha', () => {
  it('one address gets the limit per window, then 429 with Retry-After; rows stay bounded', async () => {
    const max = limit('GET /api/blade-auth/oauth/captcha').perAddress!.max;
    const before = await count('blade_captcha');
    for (let i = 0; i < max; i++) expect((await from('10.0.0.1', { method: 'GET', url: '/api/blade-auth/oauth/captcha' })).status).toBe(200);
    for (let i = 0; i < 5; i++) expect429(await from('10.0.0.1', { method: 'GET', url: '/api/blade-auth/oauth/captcha' }));
    expect(await count('blade_captcha')).toBe(before + max);
    // another address is not affected
    expect((await from('10.0.0.2', { method: 'GET', url: '/api/blade-auth/oauth/captcha' })).status).toBe(200);
  });

  it('expired captchas are removed', async () => {
    await t.database.db.insertInto('blade_captcha').values({ captcha_key: 'expired-one', code: 'abcd', expires_at: sql`localtimestamp(0) - interval '1 minute'` }).execute();
    expect((await from('10.0.0.3', { method: 'GET', url: '/api/blade-auth/oauth/captcha' })).status).toBe(200);
    expect(await t.database.db.selectFrom('blade_captcha').select('captcha_key').where('captcha_key', '=', 'expired-one').executeTakeFirst()).toBeUndefined();
  });
});

describe('sign-in', () => {
  const signIn = (address: string, authorization = BASIC, password = md5('admin')) =>
    from(address, { method: 'POST', url: '/api/blade-auth/oauth/token', headers: { authorization, 'tenant-id': '000000' }, query: { grant_type: 'password', username: 'admin', password } });

  it('calls per address are limited (429 even for good credentials once over)', async () => {
    const max = limit('POST /api/blade-auth/oauth/token').perAddress!.max;
    for (let i = 0; i < max; i++) expect((await signIn('10.0.1.1', BASIC, md5('admin'))).status, `call ${i}`).toBe(200);
    expect429(await signIn('10.0.1.1'));
  });

  it('the token body is capped', async () => {
    const r = await from('10.0.1.2', { method: 'POST', url: '/api/blade-auth/oauth/token', headers: { authorization: BASIC, 'content-type': 'application/x-www-form-urlencoded' }, payload: `grant_type=password&username=admin&password=${'x'.repeat(20_000)}` });
    expect(r.status).toBe(413);
    expect(r.body.success).toBe(false);
  });

  it('wrong client secrets count like wrong passwords: the address is blocked, even for the right secret', async () => {
    const wrong = 'Basic ' + Buffer.from('saber:guess').toString('base64');
    for (let i = 0; i < MAX_IP_FAILURES; i++) expect((await signIn('10.0.1.3', wrong)).status).toBe(401);
    const right = await signIn('10.0.1.3');
    expect(right.status).toBe(400);
    expect(right.body.access_token).toBeUndefined();
    expect(right.body.error_description).toBe('登录失败次数过多,该地址暂时禁止登录,请稍后再试');
    // a guess while blocked is refused without looking at it
    expect((await signIn('10.0.1.3', wrong)).body.error_description).toBe('登录失败次数过多,该地址暂时禁止登录,请稍后再试');
    expect((await signIn('10.0.1.4')).status).toBe(200);
  });
});

describe('authenticated cheap writes', () => {
  it('register-guest: per user, then 429; bodies capped', async () => {
    const big = await from('10.0.2.3', { method: 'POST', url: '/api/blade-system/user/register-guest', payload: { tenantId: '000000', account: 'big', password: md5('x'), name: 'x'.repeat(10_000) } }, admin);
    expect(big.status).toBe(413);
    const max = limit('POST /api/blade-system/user/register-guest').perUser!.max - 1;
    const users = await count('blade_user');
    for (let i = 0; i < max; i++) {
      const r = await from('10.0.2.1', { method: 'POST', url: '/api/blade-system/user/register-guest', query: { tenantId: '000000', account: `flood${i}`, password: md5('x') } }, admin);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
    }
    // the same user from another address is still limited
    expect429(await from('10.0.2.2', { method: 'POST', url: '/api/blade-system/user/register-guest', query: { tenantId: '000000', account: 'floodx', password: md5('x') } }, admin));
    expect(await count('blade_user')).toBe(users + max);
  });

  it('send-logs: per user, then 429; a 1 MB body is refused and nothing stored', async () => {
    const token = await t.login();
    const clientLogs = async () => {
      await t.app.ctx.logs.flush();
      return Number((await t.database.db.selectFrom('blade_log_error').select((eb) => eb.fn.countAll().as('n')).where('type', '=', 'client').executeTakeFirstOrThrow()).n);
    };
    const before = await clientLogs();
    const big = await from('10.0.3.1', { method: 'POST', url: '/api/blade-desk/shell/send-logs', payload: [{ type: 'error', message: 'x'.repeat(1024 * 1024) }] }, token);
    expect(big.status).toBe(413);
    expect(await clientLogs()).toBe(before);
    const max = limit('POST /api/blade-desk/shell/send-logs').perUser!.max;
    for (let i = 1; i < max; i++) expect((await from('10.0.3.1', { method: 'POST', url: '/api/blade-desk/shell/send-logs', payload: [{ type: 'error', message: `m${i}` }] }, token)).status).toBe(200);
    expect429(await from('10.0.3.2', { method: 'POST', url: '/api/blade-desk/shell/send-logs', payload: [{ type: 'error', message: 'over' }] }, token));
    expect(await clientLogs()).toBe(before + max - 1);
  });

  it('uploads: per user, then 429', async () => {
    const token = await t.login();
    const max = limit('POST /api/blade-resource/oss/endpoint/put-file-attach').perUser!.max;
    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 1)]);
    const boundary = '----lim';
    const payload = Buffer.concat([Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`), png, Buffer.from(`\r\n--${boundary}--\r\n`)]);
    const up = () => from('10.0.4.1', { method: 'POST', url: '/api/blade-resource/oss/endpoint/put-file-attach', payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } }, token);
    for (let i = 0; i < max; i++) expect((await up()).status).toBe(200);
    expect429(await up());
  });
});

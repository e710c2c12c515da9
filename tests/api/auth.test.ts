import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASIC, md5, startTestServer, type TestServer } from './helpers.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => t?.close());

const token = (query: Record<string, string>, headers: Record<string, string> = {}) =>
  t.call(undefined, { method: 'POST', url: '/api/blade-auth/oauth/token', headers: { authorization: BASIC, 'tenant-id': '000000', ...headers }, query });

describe('oauth/token', () => {
  it('password grant answers the raw OAuth reply with ids as strings', async () => {
    const r = await token({ grant_type: 'password', username: 'admin', password: md5('admin'), scope: 'all' });
    expect(r.status).toBe(200);
    for (const k of ['access_token', 'token_type', 'refresh_token', 'expires_in', 'scope', 'tenant_id', 'user_id', 'dept_id', 'post_id', 'role_id', 'oauth_id', 'account', 'user_name', 'nick_name', 'real_name', 'role_name', 'avatar', 'client_id', 'license', 'detail', 'jti']) {
      expect(r.body, k).toHaveProperty(k);
    }
    expect(r.body.code).toBeUndefined();
    expect(r.body.token_type).toBe('bearer');
    expect(r.body.expires_in).toBe(3600);
    expect(r.body.user_id).toBe('1123598821738675201');
    expect(r.body.role_name).toBe('administrator');
    expect(r.body.tenant_id).toBe('000000');
    expect(r.body.access_token.split('.')).toHaveLength(3);
    const header = JSON.parse(Buffer.from(r.body.access_token.split('.')[0], 'base64url').toString());
    expect(header.alg).toBe('HS512');
  });

  it('accepts the parameters as a form body too', async () => {
    const r = await t.call(undefined, {
      method: 'POST', url: '/api/blade-auth/oauth/token',
      headers: { authorization: BASIC, 'content-type': 'application/x-www-form-urlencoded' },
      payload: `grant_type=password&tenantId=000000&username=admin&password=${md5('admin')}`,
    });
    expect(r.status).toBe(200);
    expect(r.body.access_token).toBeTruthy();
  });

  it('wrong password → HTTP 400 with error_description (zh, or en when asked)', async () => {
    const r = await token({ grant_type: 'password', username: 'admin', password: md5('nope') });
    expect(r.status).toBe(400);
    expect(r.body.error_description).toBe('用户名或密码错误');
    expect(r.body.error).toBeTruthy();
    expect(r.body.error_code).toBe(400);
    expect(r.body.access_token).toBeUndefined();
    const en = await token({ grant_type: 'password', username: 'admin', password: md5('nope') }, { 'accept-language': 'en-US,en;q=0.9' });
    expect(en.body.error_description).toBe('Wrong account or password');
    // clear the two failures for the next tests
    await t.database.db.deleteFrom('blade_login_failure').execute();
  });

  it('wrong client → 401', async () => {
    const r = await token({ grant_type: 'password', username: 'admin', password: md5('admin') }, { authorization: 'Basic ' + Buffer.from('saber:wrong').toString('base64') });
    expect(r.status).toBe(401);
    const none = await t.call(undefined, { method: 'POST', url: '/api/blade-auth/oauth/token', query: { grant_type: 'password', username: 'admin', password: md5('admin') } });
    expect(none.status).toBe(401);
  });

  it('unknown tenant → 租户ID未找到', async () => {
    const r = await token({ grant_type: 'password', username: 'admin', password: md5('admin') }, { 'tenant-id': '999999' });
    expect(r.status).toBe(400);
    expect(r.body.error_description).toBe('租户ID未找到');
  });

  it('locks the account after 5 failed logins, even for the right password', async () => {
    await t.database.db.insertInto('blade_user').values({ id: '900000000000000001', tenant_id: '000000', account: 'locky', password: (await t.database.db.selectFrom('blade_user').select('password').where('account', '=', 'admin').executeTakeFirstOrThrow()).password, role_id: '1123598816738675202', is_deleted: 0, status: 1 }).execute();
    for (let i = 1; i <= 4; i++) {
      const r = await token({ grant_type: 'password', username: 'locky', password: md5('bad') });
      expect(r.body.error_description).toBe('用户名或密码错误');
    }
    const fifth = await token({ grant_type: 'password', username: 'locky', password: md5('bad') });
    expect(fifth.body.error_description).toBe('登录错误次数过多,请稍后再试');
    const right = await token({ grant_type: 'password', username: 'locky', password: md5('admin') });
    expect(right.status).toBe(400);
    expect(right.body.error_description).toBe('登录错误次数过多,请稍后再试');
    const row = await t.database.db.selectFrom('blade_login_failure').selectAll().where('account', '=', 'locky').executeTakeFirstOrThrow();
    expect(row.locked_until).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    // admin is not affected
    expect((await token({ grant_type: 'password', username: 'admin', password: md5('admin') })).status).toBe(200);
  });

  it('accepts a legacy sha1(md5) password and upgrades it to scrypt', async () => {
    const { createHash } = await import('node:crypto');
    const legacy = createHash('sha1').update(md5('legacy1')).digest('hex');
    await t.database.db.insertInto('blade_user').values({ id: '900000000000000002', tenant_id: '000000', account: 'legacy', password: legacy, role_id: '1123598816738675202', is_deleted: 0, status: 1 }).execute();
    const r = await token({ grant_type: 'password', username: 'legacy', password: md5('legacy1') });
    expect(r.status).toBe(200);
    const row = await t.database.db.selectFrom('blade_user').select('password').where('account', '=', 'legacy').executeTakeFirstOrThrow();
    expect(row.password).toMatch(/^scrypt\$/);
    expect((await token({ grant_type: 'password', username: 'legacy', password: md5('legacy1') })).status).toBe(200);
  });

  it('stores the admin password as scrypt, not md5 or sha1', async () => {
    const row = await t.database.db.selectFrom('blade_user').select('password').where('account', '=', 'admin').executeTakeFirstOrThrow();
    expect(row.password).toMatch(/^scrypt\$\d+\$/);
    expect(row.password).not.toContain(md5('admin'));
  });

  it('Dept-Id / Role-Id narrow a token to one of the user\'s own departments and roles, never beyond them', async () => {
    const { sql } = await import('kysely');
    const db = t.database.db;
    // admin also belongs to a second department and holds the user role (switch mode)
    const depts = await sql<{ id: string }>`select id::text from blade_dept where tenant_id = '000000' and is_deleted = 0 order by id`.execute(db);
    expect(depts.rows.length).toBeGreaterThanOrEqual(2);
    const [d1, d2] = depts.rows.map((r) => r.id);
    await sql`update blade_user set dept_id = ${`${d1},${d2}`}, role_id = ${'1123598816738675201,1123598816738675202'} where account = 'admin'`.execute(db);
    try {
      const first = await token({ grant_type: 'password', username: 'admin', password: md5('admin'), scope: 'all' });
      expect(first.body.role_name).toBe('administrator,user');
      const narrowed = await token(
        { grant_type: 'refresh_token', refresh_token: first.body.refresh_token, scope: 'all' },
        { 'dept-id': d2, 'role-id': '1123598816738675202' },
      );
      expect(narrowed.status).toBe(200);
      expect(narrowed.body.dept_id).toBe(d2);
      expect(narrowed.body.role_id).toBe('1123598816738675202');
      expect(narrowed.body.role_name).toBe('user');
      // a role or department the user does not hold is ignored, not granted (refresh tokens are single use:
      // the switch goes on with the one the last reply gave)
      const foreign = await token(
        { grant_type: 'refresh_token', refresh_token: narrowed.body.refresh_token, scope: 'all' },
        { 'dept-id': '999', 'role-id': '999' },
      );
      expect(foreign.body.dept_id).toBe(`${d1},${d2}`);
      expect(foreign.body.role_name).toBe('administrator,user');
    } finally {
      await sql`update blade_user set dept_id = ${d1}, role_id = ${'1123598816738675201'} where account = 'admin'`.execute(db);
    }
  });

  it('refresh_token grant issues new tokens; an access token is not a refresh token', async () => {
    const first = await t.loginReply();
    const r = await token({ grant_type: 'refresh_token', refresh_token: first.refresh_token, scope: 'all' });
    expect(r.status).toBe(200);
    expect(r.body.access_token).toBeTruthy();
    expect(r.body.access_token).not.toBe(first.access_token);
    expect((await t.call(r.body.access_token, { method: 'GET', url: '/api/blade-auth/oauth/user-info' })).status).toBe(200);
    const wrong = await token({ grant_type: 'refresh_token', refresh_token: first.access_token });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error_description).toBe('令牌授权已过期');
  });

  it('captcha grant: needs the right single-use code', async () => {
    const c = await t.call(undefined, { method: 'GET', url: '/api/blade-auth/oauth/captcha' });
    expect(c.status).toBe(200);
    expect(c.body.key).toBeTruthy();
    expect(c.body.image).toMatch(/^data:image\/svg\+xml;base64,/);
    const row = await t.database.db.selectFrom('blade_captcha').select('code').where('captcha_key', '=', c.body.key).executeTakeFirstOrThrow();
    const bad = await token({ grant_type: 'captcha', username: 'admin', password: md5('admin') }, { 'captcha-key': c.body.key, 'captcha-code': 'zzzz' });
    expect(bad.body.error_description).toBe('验证码不正确');
    // the failed attempt consumed the code
    const reused = await token({ grant_type: 'captcha', username: 'admin', password: md5('admin') }, { 'captcha-key': c.body.key, 'captcha-code': row.code as string });
    expect(reused.body.error_description).toBe('验证码不正确');
    const c2 = await t.call(undefined, { method: 'GET', url: '/api/blade-auth/oauth/captcha' });
    const row2 = await t.database.db.selectFrom('blade_captcha').select('code').where('captcha_key', '=', c2.body.key).executeTakeFirstOrThrow();
    const good = await token({ grant_type: 'captcha', username: 'admin', password: md5('admin') }, { 'captcha-key': c2.body.key, 'captcha-code': String(row2.code).toUpperCase() });
    expect(good.status).toBe(200);
  });
});

describe('CAPTCHA_MODE', () => {
  it('when on, the password grant needs a captcha too', async () => {
    t.app.ctx.config.captchaMode = 'on';
    try {
      const r = await token({ grant_type: 'password', username: 'admin', password: md5('admin') });
      expect(r.status).toBe(400);
      expect(r.body.error_description).toBe('验证码不正确');
      const c = await t.call(undefined, { method: 'GET', url: '/api/blade-auth/oauth/captcha' });
      const row = await t.database.db.selectFrom('blade_captcha').select('code').where('captcha_key', '=', c.body.key).executeTakeFirstOrThrow();
      const ok = await token({ grant_type: 'password', username: 'admin', password: md5('admin') }, { 'captcha-key': c.body.key, 'captcha-code': row.code as string });
      expect(ok.status).toBe(200);
    } finally {
      t.app.ctx.config.captchaMode = 'off';
    }
  });
});

describe('Blade-Auth', () => {
  const ep = { method: 'GET' as const, url: '/api/blade-system/menu/routes' };

  it('no token → 401 R 请求未授权', async () => {
    const r = await t.call(undefined, ep);
    expect(r.status).toBe(401);
    expect(r.body).toEqual({ code: 401, success: false, data: null, msg: '请求未授权' });
  });

  it('forged token (other key) → 401', async () => {
    const real = await t.loginReply();
    const claims = JSON.parse(Buffer.from(real.access_token.split('.')[1], 'base64url').toString());
    const forged = await new SignJWT(claims).setProtectedHeader({ alg: 'HS512', typ: 'JWT' }).sign(new TextEncoder().encode('bladexisapowerfulmicroservicearchitectureupgradedandoptimizedfromacommercialproject'));
    expect((await t.call(forged, ep)).status).toBe(401);
    const tampered = real.access_token.slice(0, -4) + (real.access_token.endsWith('AAAA') ? 'BBBB' : 'AAAA');
    expect((await t.call(tampered, ep)).status).toBe(401);
    expect((await t.call('not-a-jwt', ep)).status).toBe(401);
  });

  it('expired token → 401', async () => {
    const real = await t.loginReply();
    const claims = JSON.parse(Buffer.from(real.access_token.split('.')[1], 'base64url').toString());
    const { jti, iat, exp, nbf, iss, ...rest } = claims;
    void jti; void iat; void exp; void nbf; void iss;
    const expired = await t.app.ctx.tokens.sign(rest, -60);
    expect((await t.call(expired.token, ep)).status).toBe(401);
    const fresh = await t.app.ctx.tokens.sign(rest, 60);
    expect((await t.call(fresh.token, ep)).status).toBe(200);
    // a token accepted (and remembered as verified) is refused once it expires
    const short = await t.app.ctx.tokens.sign(rest, 1);
    expect((await t.call(short.token, ep)).status).toBe(200);
    await new Promise((r) => setTimeout(r, (short.exp * 1000 - Date.now()) + 50));
    expect((await t.call(short.token, ep)).status).toBe(401);
  });

  it('accepts ?blade-auth=bearer … (downloads)', async () => {
    const tk = await t.login();
    const r = await t.call(undefined, { method: 'GET', url: `/api/blade-system/menu/routes?blade-auth=${encodeURIComponent('bearer ' + tk)}` });
    expect(r.status).toBe(200);
  });

  it('logout revokes the access and refresh tokens of the session', async () => {
    const s = await t.loginReply();
    expect((await t.call(s.access_token, ep)).status).toBe(200);
    const out = await t.call(s.access_token, { method: 'GET', url: '/api/blade-auth/oauth/logout' });
    expect(out.status).toBe(200);
    expect(out.body.success).toBe(true);
    expect((await t.call(s.access_token, ep)).status).toBe(401);
    const rows = await t.database.db.selectFrom('blade_token_revoked').selectAll().execute();
    expect(rows.length).toBeGreaterThan(0);
    const r = await token({ grant_type: 'refresh_token', refresh_token: s.refresh_token });
    expect(r.status).toBe(400);
    // another session of the same user still works; POST logout works too
    const other = await t.loginReply();
    expect((await t.call(other.access_token, ep)).status).toBe(200);
    expect((await t.call(other.access_token, { method: 'POST', url: '/api/blade-auth/oauth/logout' })).status).toBe(200);
    expect((await t.call(other.access_token, ep)).status).toBe(401);
  });

  it('user-info returns the user with roles; clear-cache answers R', async () => {
    const tk = await t.login();
    const r = await t.call(tk, { method: 'GET', url: '/api/blade-auth/oauth/user-info' });
    expect(r.status).toBe(200);
    expect(r.body.data.account).toBe('admin');
    expect(r.body.data.userId).toBe('1123598821738675201');
    expect(r.body.data.roles).toEqual(['administrator']);
    expect(r.body.data.permissions).toContain('merchant_add');
    const c = await t.call(tk, { method: 'GET', url: '/api/blade-auth/oauth/clear-cache' });
    expect(c.body).toMatchObject({ code: 200, success: true });
  });
});

describe('login lockout: unlock, and a per-address counter', () => {
  const adminHash = async () => (await t.database.db.selectFrom('blade_user').select('password').where('account', '=', 'admin').executeTakeFirstOrThrow()).password;
  const from = (ip: string, query: Record<string, string>) =>
    t.call(undefined, { method: 'POST', url: '/api/blade-auth/oauth/token', headers: { authorization: BASIC, 'tenant-id': '000000' }, query, remoteAddress: ip });

  it('POST user/unlock?userIds= lifts the lock of users of the caller\'s tenant (button user_unlock)', async () => {
    const db = t.database.db;
    const password = await adminHash();
    await db.insertInto('blade_user').values([
      { id: '900000000000000010', tenant_id: '000000', account: 'unlocky', password, role_id: '1123598816738675202', is_deleted: 0, status: 1 },
      { id: '900000000000000011', tenant_id: '000000', account: 'plainuser', password, role_id: '1123598816738675202', is_deleted: 0, status: 1 },
      { id: '900000000000000012', tenant_id: '222222', account: 'unlocky', password, role_id: '1123598816738675202', is_deleted: 0, status: 1 },
    ]).execute();
    for (let i = 0; i < 5; i++) await from('10.1.0.1', { grant_type: 'password', username: 'unlocky', password: md5('bad') });
    expect((await from('10.1.0.1', { grant_type: 'password', username: 'unlocky', password: md5('admin') })).body.error_description).toBe('登录错误次数过多,请稍后再试');
    // the same account name in another tenant, locked too
    await db.insertInto('blade_login_failure').values({ tenant_id: '222222', account: 'unlocky', fail_count: 5, locked_until: '2999-01-01 00:00:00', last_fail_time: '2026-01-01 00:00:00' }).execute();

    const url = '/api/blade-system/user/unlock';
    // a user without the button is refused (403), and the lock stays
    const plain = await t.login('plainuser', 'admin');
    const refused = await t.call(plain, { method: 'POST', url: `${url}?userIds=900000000000000010` });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: 403, success: false, msg: '请求被拒绝' });
    expect((await from('10.1.0.1', { grant_type: 'password', username: 'unlocky', password: md5('admin') })).status).toBe(400);

    const admin = await t.login();
    expect((await t.call(admin, { method: 'POST', url })).status).toBe(400);
    expect((await t.call(admin, { method: 'POST', url: `${url}?userIds=abc` })).status).toBe(400);
    const r = await t.call(admin, { method: 'POST', url: `${url}?userIds=900000000000000010,900000000000000012` });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ code: 200, success: true });
    expect((await from('10.1.0.1', { grant_type: 'password', username: 'unlocky', password: md5('admin') })).status).toBe(200);
    // the other tenant's user was not the caller's to unlock
    expect(await db.selectFrom('blade_login_failure').select('account').where('tenant_id', '=', '222222').executeTakeFirst()).toBeTruthy();
    // a form body works too (Saber posts qs-encoded params)
    for (let i = 0; i < 5; i++) await from('10.1.0.2', { grant_type: 'password', username: 'unlocky', password: md5('bad') });
    const form = await t.call(admin, { method: 'POST', url, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'userIds=900000000000000010' });
    expect(form.status).toBe(200);
    expect((await from('10.1.0.2', { grant_type: 'password', username: 'unlocky', password: md5('admin') })).status).toBe(200);
  });

  it('one address cannot lock everyone: 20 failed logins block that address, and its attempts stop counting against accounts', async () => {
    const db = t.database.db;
    for (let i = 1; i <= 20; i++) {
      const r = await from('10.9.9.9', { grant_type: 'password', username: `ghost${i}`, password: md5('bad') });
      expect(r.body.error_description, `attempt ${i}`).toBe('用户名或密码错误');
    }
    const blocked = await from('10.9.9.9', { grant_type: 'password', username: 'admin', password: md5('admin') });
    expect(blocked.status).toBe(400);
    expect(blocked.body.error_description).toBe('登录失败次数过多,该地址暂时禁止登录,请稍后再试');
    expect(blocked.body.access_token).toBeUndefined();
    const en = await t.call(undefined, { method: 'POST', url: '/api/blade-auth/oauth/token?lang=en', headers: { authorization: BASIC }, query: { grant_type: 'password', username: 'admin', password: md5('admin') }, remoteAddress: '10.9.9.9' });
    expect(en.body.error_description).toBe('Too many failed logins from this address, try again later');
    for (let i = 0; i < 6; i++) await from('10.9.9.9', { grant_type: 'password', username: 'admin', password: md5('bad') });
    expect(await db.selectFrom('blade_login_failure').select('account').where('account', '=', 'admin').executeTakeFirst()).toBeUndefined();
    // admin from another address is not affected
    expect((await from('10.9.9.10', { grant_type: 'password', username: 'admin', password: md5('admin') })).status).toBe(200);
    const row = await db.selectFrom('blade_login_failure_ip').selectAll().where('ip', '=', '10.9.9.9').executeTakeFirstOrThrow();
    expect(row.fail_count).toBe(20);
    expect(row.locked_until).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    // once the block has run out, the address starts again from 1
    await db.updateTable('blade_login_failure_ip').set({ locked_until: '2000-01-01 00:00:00' }).where('ip', '=', '10.9.9.9').execute();
    expect((await from('10.9.9.9', { grant_type: 'password', username: 'ghost1', password: md5('bad') })).body.error_description).toBe('用户名或密码错误');
    expect((await db.selectFrom('blade_login_failure_ip').select('fail_count').where('ip', '=', '10.9.9.9').executeTakeFirstOrThrow()).fail_count).toBe(1);
    expect((await from('10.9.9.9', { grant_type: 'password', username: 'admin', password: md5('admin') })).status).toBe(200);
  });

  it('TRUST_PROXY: behind a trusted proxy the client\'s address is the one counted, else the peer\'s', async () => {
    const { parseTrustProxy } = await import('../../src/server/config.js');
    const { buildApp } = await import('../../src/server/app.js');
    expect(parseTrustProxy(undefined)).toBe(false);
    expect(parseTrustProxy('false')).toBe(false);
    expect(parseTrustProxy('true')).toBe(true);
    expect(parseTrustProxy('1')).toBe(1);
    expect(parseTrustProxy('127.0.0.1,10.0.0.0/8')).toBe('127.0.0.1,10.0.0.0/8');
    const db = t.database.db;
    const attempt = (app: typeof t.app) =>
      app.inject({ method: 'POST', url: '/api/blade-auth/oauth/token', headers: { authorization: BASIC, 'x-forwarded-for': '10.7.7.7' }, query: { grant_type: 'password', username: 'ghost', password: md5('bad') }, remoteAddress: '10.6.6.6' });
    for (const [trustProxy, counted] of [[false, '10.6.6.6'], [1, '10.7.7.7'], ['10.6.6.0/24', '10.7.7.7']] as const) {
      const app = buildApp({ db, config: { ...t.config, trustProxy }, docs: t.app.ctx.docs });
      await app.ready();
      await db.deleteFrom('blade_login_failure_ip').where('ip', 'in', ['10.6.6.6', '10.7.7.7']).execute();
      expect((await attempt(app)).statusCode).toBe(400);
      expect((await db.selectFrom('blade_login_failure_ip').select('ip').where('ip', 'in', ['10.6.6.6', '10.7.7.7']).execute()).map((r) => r.ip), String(trustProxy)).toEqual([counted]);
      await app.close();
    }
  });
});

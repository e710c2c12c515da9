/**
 * The server's logs (issue 11): the API log records every change and every slow request with its secrets
 * redacted, the error log every 5xx with where it was thrown, the usual log the business events (sign-in,
 * failed sign-in, lockout, password change, grants); the three screens are read-only, per tenant, behind their
 * codes; a failing log never fails the request.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { md5, startTestServer, type TestServer } from './helpers.js';
import { data, operator } from './system-helpers.js';

let t: TestServer;
let admin: string;
beforeAll(async () => {
  t = await startTestServer({
    env: { LOG_SLOW_MS: '100000' },
    setup: (app) => {
      app.get('/api/test-only/boom', async () => {
        throw new TypeError('the wiring broke');
      });
    },
  });
  admin = await t.login();
});
afterAll(async () => t?.close());

const list = async (kind: 'api' | 'error' | 'usual', query = '', token = admin) => {
  await t.app.ctx.logs.flush();
  return data(await t.call(token, { method: 'GET', url: `/api/blade-log/${kind}/list?size=50${query}` })).records as Array<Record<string, any>>;
};

describe('the API log', () => {
  it('records a change with its route, user, status and duration, secrets redacted; a quick read is not recorded', async () => {
    const r = await t.call(admin, { method: 'POST', url: '/api/blade-system/param/submit', payload: { paramName: '日志测试', paramKey: 'log.test', paramValue: 'v1', token: 'abc', nested: { password: 'p', keep: 'k' } } });
    expect(r.status).toBe(200);
    await t.call(admin, { method: 'GET', url: '/api/blade-system/param/list' });
    const rows = await list('api', '&requestUri=/api/blade-system/param');
    expect(rows.map((x) => `${x.method} ${x.requestUri}`)).toEqual(['POST /api/blade-system/param/submit']);
    const [row] = rows;
    expect(row).toMatchObject({ title: '/api/blade-system/param/submit', type: '200', createBy: 'admin' });
    expect(Number(row.time)).toBeGreaterThanOrEqual(0);
    const params = JSON.parse(row.params);
    expect(params).toMatchObject({ paramKey: 'log.test', token: '******', nested: { password: '******', keep: 'k' } });
  });

  it('never stores a sign-in password or token', async () => {
    await t.loginReply('admin', 'admin');
    const [row] = await list('api', '&requestUri=/api/blade-auth/oauth/token');
    expect(row.params).not.toContain(md5('admin'));
    expect(JSON.parse(row.params).password).toBe('******');
  });

  it('records slow reads past LOG_SLOW_MS', async () => {
    const slow = await startTestServer({ env: { LOG_SLOW_MS: '0' } });
    try {
      const token = await slow.login();
      await slow.call(token, { method: 'GET', url: '/api/blade-system/param/list' });
      await slow.app.ctx.logs.flush();
      const rows = data(await slow.call(token, { method: 'GET', url: '/api/blade-log/api/list?requestUri=param/list' })).records;
      expect(rows.map((x: any) => x.method)).toContain('GET');
    } finally {
      await slow.close();
    }
  });
});

describe('the error log', () => {
  it('records a 5xx with the exception, message, stack, file and line; the caller gets the usual 500 R', async () => {
    const r = await t.call(admin, { method: 'GET', url: '/api/test-only/boom?password=x&q=1' });
    expect(r.status).toBe(500);
    expect(r.body.msg).not.toContain('wiring');
    const [row] = await list('error', '&requestUri=boom');
    expect(row).toMatchObject({ type: 'server', exceptionName: 'TypeError', message: 'the wiring broke', method: 'GET', requestUri: '/api/test-only/boom', createBy: 'admin' });
    expect(row.stackTrace).toContain('TypeError: the wiring broke');
    expect(row.fileName).toMatch(/logs\.test\.ts$/);
    expect(row.lineNumber).toBeGreaterThan(0);
    expect(JSON.parse(row.params)).toEqual({ password: '******', q: '1' });
  });
});

describe('the usual log', () => {
  it('records sign-ins, failed sign-ins and a lockout, and password changes', async () => {
    const ops = await operator(t, 'logops', ['log_usual', 'log_usual_view']);
    for (let i = 0; i < 5; i++) await t.loginReply('logops', 'wrong-password');
    data(await t.call(admin, { method: 'POST', url: '/api/blade-system/user/reset-password', query: { userIds: ops.userId } }));
    const rows = await list('usual', '&createBy=logops');
    const events = rows.map((x) => x.logId);
    expect(events).toContain('login');
    expect(events.filter((e) => e === 'loginFailed').length).toBeGreaterThanOrEqual(4);
    expect(events).toContain('lockout');
    const byAdmin = await list('usual', '&logId=passwordReset');
    expect(byAdmin[0]).toMatchObject({ createBy: 'admin', logLevel: 'info' });
    expect(byAdmin[0].logData).toContain('logops');
    expect(JSON.stringify(rows)).not.toContain('wrong-password');
  });

  it('records grants', async () => {
    const role = (await t.database.db.selectFrom('blade_role').select('id').where('role_alias', '=', 'user').executeTakeFirstOrThrow()).id;
    const menu = (await t.database.db.selectFrom('blade_menu').select('id').where('code', '=', 'merchant').executeTakeFirstOrThrow()).id;
    data(await t.call(admin, { method: 'POST', url: '/api/blade-system/role/grant', payload: { roleIds: [String(role)], menuIds: [String(menu)], dataScopeIds: [], apiScopeIds: [] } }));
    const [row] = await list('usual', '&logId=grant');
    expect(row.logData).toContain('用户');
  });
});

describe('the screens', () => {
  it('are read-only and need their codes; another tenant reads none of these rows', async () => {
    expect((await t.call(admin, { method: 'POST', url: '/api/blade-log/api/submit', payload: { title: 'x' } })).status).toBe(403);
    expect((await t.call(admin, { method: 'POST', url: '/api/blade-log/usual/remove?ids=1' })).status).toBe(403);
    const clerk = await operator(t, 'lognone', ['merchant', 'merchant_view']);
    expect((await t.call(clerk.token, { method: 'GET', url: '/api/blade-log/api/list' })).status).toBe(403);
    await t.database.db.insertInto('blade_tenant').values({ id: '900000000000009222', tenant_id: '222222', tenant_name: '另一租户', is_deleted: 0, status: 1 }).execute();
    const other = await operator(t, 'logother', ['log_api', 'log_api_view'], '222222');
    await t.app.ctx.logs.flush();
    const theirs = data(await t.call(other.token, { method: 'GET', url: '/api/blade-log/api/list?size=100' })).records;
    expect(theirs.every((x: any) => x.createBy !== 'admin')).toBe(true);
  });
});

describe('a log that cannot be written', () => {
  it('never fails the request; the failure is counted', async () => {
    await t.app.ctx.logs.flush();
    await t.database.db.schema.alterTable('blade_log_api').renameTo('blade_log_api_away').execute();
    try {
      const failedBefore = t.app.ctx.logs.stats.failed;
      const r = await t.call(admin, { method: 'POST', url: '/api/blade-system/param/submit', payload: { paramName: '日志测试2', paramKey: 'log.test2', paramValue: 'v' } });
      expect(r.status).toBe(200);
      await t.app.ctx.logs.flush();
      expect(t.app.ctx.logs.stats.failed).toBeGreaterThan(failedBefore);
    } finally {
      await t.database.db.schema.alterTable('blade_log_api_away').renameTo('blade_log_api').execute();
    }
  });
});

describe('the browser\'s error log', () => {
  it('lands in the error log as type client, from send-logs and from Saber\'s logout, at most 100 entries a call', async () => {
    const token = await t.login();
    const entries = Array.from({ length: 120 }, (_, i) => ({ type: 'error', url: '/wel/index', time: '2026-11-25 10:00:00', message: `client ${i}`, stack: 'Error\n at x', info: 'window.onerror' }));
    expect(data(await t.call(token, { method: 'POST', url: '/api/blade-desk/shell/send-logs', payload: entries })).count).toBe(100);
    const out = await t.call(token, { method: 'POST', url: '/api/blade-auth/oauth/logout', payload: { logs: [{ type: 'error', url: '/x', message: 'at logout', stack: '' }] } });
    expect(out.status).toBe(200);
    const [atLogout] = await list('error', '&type=client&createBy=admin');
    expect(atLogout).toMatchObject({ type: 'client', message: 'at logout', requestUri: '/x' });
    const n = await t.database.db.selectFrom('blade_log_error').select((eb) => eb.fn.countAll().as('n')).where('type', '=', 'client').where('message', 'like', 'client %').executeTakeFirstOrThrow();
    expect(Number(n.n)).toBe(100);
  });
});

describe('retention', () => {
  it('removes the rows older than log.retentionDays (default 30), keeps the rest; 0 keeps everything', async () => {
    const { purgeOldLogs } = await import('../../src/server/modules/log/index.js');
    const db = t.database.db;
    await t.app.ctx.logs.flush();
    const old = { tenant_id: '000000', method: 'POST', request_uri: '/api/old', create_by: 'admin', type: '200', title: '/api/old', time: '1' };
    await db.insertInto('blade_log_api').values([
      { ...old, id: '990000000000000101', create_time: '2020-01-01 00:00:00' },
      { ...old, id: '990000000000000102', create_time: sql`localtimestamp - interval '10 days'` as any },
    ]).execute();
    const left = async () => (await db.selectFrom('blade_log_api').select('id').where('request_uri', '=', '/api/old').execute()).map((r) => String(r.id));
    await db.updateTable('blade_param').set({ param_value: '0' }).where('param_key', '=', 'log.retentionDays').execute();
    expect((await purgeOldLogs(db)).removed).toBe(0);
    await db.updateTable('blade_param').set({ param_value: '30' }).where('param_key', '=', 'log.retentionDays').execute();
    const r = await purgeOldLogs(db);
    expect(r.days).toBe(30);
    expect(await left()).toEqual(['990000000000000102']);
    await db.updateTable('blade_param').set({ param_value: '5' }).where('param_key', '=', 'log.retentionDays').execute();
    await purgeOldLogs(db);
    expect(await left()).toEqual([]);
  });
});

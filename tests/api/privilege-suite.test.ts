/**
 * The privilege and cross-tenant suite (issue 10), generated from the server's own route table (its OpenAPI
 * description lists every route a module or a document registered):
 * - a signed-in caller whose role holds no code gets 403 from every route but the caller's own (profile, menus,
 *   dictionaries …), and never a 5xx;
 * - the administrator of another tenant, sending tenant 000000's ids to every route (query, body, path), reads none
 *   of them and changes nothing: every table's rows of 000000 and every shared row are the same before and after.
 * A new route is in the suite the moment it is registered; a route that should answer a caller without codes
 * must be named in SELF_ROUTES, with the reason.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { md5, startTestServer, type TestServer } from './helpers.js';
import { data, operator } from './system-helpers.js';

let t: TestServer;
let admin: string;
let routes: Array<{ method: 'GET' | 'POST' | 'PUT' | 'DELETE'; path: string }>;

/** Routes every signed-in caller may use on its own behalf (they read or change only the caller's own things). */
const SELF_ROUTES = new Set([
  'GET /api/blade-auth/oauth/user-info', // the caller's profile and roles
  'GET /api/blade-auth/oauth/clear-cache', // forgets cached codes, reads nothing
  'GET /api/blade-auth/oauth/logout', 'POST /api/blade-auth/oauth/logout', 'GET /api/blade-auth/logout', 'POST /api/blade-auth/logout',
  'GET /api/blade-system/menu/routes', 'GET /api/blade-system/menu/buttons', 'GET /api/blade-system/menu/top-menu', // the caller's granted menus
  'GET /api/blade-system/screen/list', 'GET /api/blade-system/screen/detail', // documents of granted screens only
  'GET /api/blade-system/locale/extra',
  'GET /api/blade-system/user/info', 'POST /api/blade-system/user/update-info', 'POST /api/blade-system/user/update-password',
  'GET /api/blade-system/dict/dictionary', 'GET /api/blade-system/dict-biz/dictionary', 'GET /api/blade-system/dict/dictionary-batch', 'POST /api/blade-system/dict/dictionary-batch', 'GET /api/blade-system/dict/batch', // the labels of every form's selects
  'GET /api/blade-system/region/lazy-tree', 'GET /api/blade-system/region/select', // reference data of every form's region select (no tenant)
  'POST /api/blade-resource/oss/endpoint/put-file', // without a screen: the caller's own avatar (personal info); with one, that screen's add/edit code
  'GET /api/blade-system/dept/select', 'GET /api/blade-system/role/select', 'GET /api/blade-system/post/select', // the caller's own (userId of another user: 403)
  'POST /api/blade-desk/shell/send-logs', // the browser's own error log
  'GET /api/blade-desk/notice/inbox', 'POST /api/blade-desk/notice/read', // the notices announced to the caller's tenant, read marks of the caller
  'GET /api/blade-system/tenant/info', // public tenant lookup by domain
  // a process the caller started or takes part in (its diagram, its history, the leave behind it); others need flow_follow
  'GET /api/blade-flow/process/model-view', 'GET /api/blade-flow/process/history-flow-list', 'GET /api/blade-desk/process/leave/detail',
]);

/** Reachable without a token (app.ts PUBLIC_PATHS); register-guest: only while account.registerUser is true, the account waits for approval. */
const PUBLIC = new Set(['POST /api/blade-system/user/register-guest', 'POST /api/blade-auth/oauth/token', 'GET /api/blade-auth/oauth/captcha', 'GET /api/blade-desk/shell/config', 'POST /api/blade-auth/token', 'GET /api/blade-auth/captcha', 'GET /api/blade-auth/sm2/public-key']);

beforeAll(async () => {
  t = await startTestServer();
  admin = await t.login();
  const spec = (await t.call(undefined, { method: 'GET', url: '/api/v3/api-docs' })).body;
  routes = Object.entries(spec.paths as Record<string, Record<string, unknown>>).flatMap(([path, ops]) =>
    Object.keys(ops).filter((m) => ['get', 'post', 'put', 'delete'].includes(m)).map((m) => ({ method: m.toUpperCase() as 'GET', path })),
  ).filter((r) => r.path.startsWith('/api/') && !PUBLIC.has(`${r.method} ${r.path}`) && !r.path.startsWith('/api/v3/') && !r.path.startsWith('/api/doc') && !r.path.startsWith('/api/blade-resource/oss/file/'));
}, 120_000);
afterAll(async () => t?.close());

/** Ids of shared records (menus, system dictionaries, parameters, clients: one set for every tenant, readable by all). */
const sharedIds = new Set<string>();

/** The record ids of tenant 000000 (or shared ones), by API base of the screen (a route under that base gets them). */
async function platformIds(): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const doc of t.app.ctx.docs.all) {
    const cols = (await sql<{ c: string }>`select column_name as c from information_schema.columns where table_name = ${doc.resource.table}`.execute(t.database.db)).rows.map((r) => r.c);
    if (!cols.includes('id')) continue; // a view over another screen's table (statistics)
    const q = t.database.db.selectFrom(doc.resource.table).select('id').limit(1);
    const shared = doc.resource.tenantScoped === false || !cols.includes('tenant_id');
    const row = await (shared ? q : q.where('tenant_id', '=', '000000')).executeTakeFirst();
    if (row) out.set(doc.resource.api, String(row.id));
    if (row && shared) sharedIds.add(String(row.id));
  }
  return out;
}

/** Whether a reply carries the record `id` (as a record's id, key or value, never e.g. as a creator's id). */
function namesRecord(body: unknown, id: string): boolean {
  const text = JSON.stringify(body);
  return [`"id":"${id}"`, `"id":${id}`, `"key":"${id}"`, `"value":"${id}"`].some((p) => text.includes(p));
}

/** A fingerprint of every row of tenant 000000 and every shared row, per table. */
async function fingerprint(): Promise<Record<string, string>> {
  const tables = (await sql<{ t: string }>`select table_name as t from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by 1`.execute(t.database.db)).rows.map((r) => r.t);
  const out: Record<string, string> = {};
  for (const table of tables) {
    if (['blade_token_revoked', 'blade_user_session', 'blade_login_failure', 'blade_captcha', 'canteen_migration', 'blade_serial', 'blade_log_ip', 'blade_log_api', 'blade_log_error', 'blade_log_usual'].includes(table)) continue; // the server's own logs record every call by design
    const cols = (await sql<{ c: string }>`select column_name as c from information_schema.columns where table_name = ${table}`.execute(t.database.db)).rows.map((r) => r.c);
    // a grant table belongs to the tenant of its role (another tenant granting its own roles is no change of 000000's)
    const where = cols.includes('tenant_id') ? sql`where tenant_id = '000000'`
      : cols.includes('role_id') ? sql`where role_id in (select id from blade_role where tenant_id = '000000')` : sql``;
    const r = await sql<{ h: string | null }>`select md5(coalesce(string_agg(x::text, '|' order by x::text), '')) as h from ${sql.table(table)} x ${where}`.execute(t.database.db);
    out[table] = String(r.rows[0]?.h);
  }
  return out;
}

function routeUrl(path: string, id: string): string {
  return path.replace(/\{[^}]+\}/g, id).replace(/:[A-Za-z]+/g, id);
}

function idFor(path: string, ids: Map<string, string>): string {
  let best = '';
  let id = ids.get('/api/merchant') ?? '1';
  for (const [api, v] of ids) if (path.startsWith(`${api}/`) && api.length > best.length) [best, id] = [api, v];
  return id;
}

describe('generated from the route table', () => {
  it('a role without codes: 403 from every route but the caller\'s own, never a 5xx', async () => {
    const nobody = await operator(t, 'nobody', ['no_such_code']);
    const ids = await platformIds();
    const wrong: string[] = [];
    let cases = 0;
    for (const r of routes) {
      const key = `${r.method} ${r.path}`;
      if (SELF_ROUTES.has(key) || /logout/.test(r.path)) continue;
      const id = idFor(r.path, ids);
      const res = await t.call(nobody.token, { method: r.method, url: routeUrl(r.path, id), query: { id, ids: id, userIds: id, roleIds: id }, payload: r.method === 'GET' ? undefined : { id, ids: id } });
      cases++;
      if (res.status !== 403) wrong.push(`${key} → ${res.status} ${String(res.body?.msg ?? '').slice(0, 60)}`);
    }
    console.log(`privilege suite: ${routes.length} routes, ${cases} no-code cases, ${wrong.length} answered without a 403`);
    expect(wrong).toEqual([]);
    expect(cases).toBeGreaterThan(150);
  }, 300_000);

  it('another tenant\'s administrator, with tenant 000000\'s ids on every route: 0 reads, 0 writes, 0 × 5xx', async () => {
    data(await t.call(admin, { method: 'POST', url: '/api/blade-system/tenant/submit', payload: { tenantName: '隔离测试', linkman: '王五', contactNumber: '13900002222' } }));
    const tenantId = data(await t.call(admin, { method: 'GET', url: '/api/blade-system/tenant/list?tenantName=隔离测试' })).records[0].tenantId;
    const reply = await t.loginReply('admin', '123456', tenantId);
    expect(reply.access_token, JSON.stringify(reply)).toBeTruthy();
    const other = reply.access_token as string;
    const ids = await platformIds();
    const before = await fingerprint();
    const leaks: string[] = [];
    let cases = 0;
    for (const r of routes) {
      const key = `${r.method} ${r.path}`;
      if (/logout|update-password|update-info|register-guest|send-logs/.test(r.path)) continue;
      const id = idFor(r.path, ids);
      const variants = [
        { query: { id, ids: id, userIds: id, roleIds: id, parentId: id } },
        ...(r.method === 'GET' ? [] : [{ payload: { id, ids: id, userIds: [id], roleIds: [id], menuIds: [], parentId: id, status: 0, merchantName: 'x' } }]),
      ];
      for (const v of variants) {
        const res = await t.call(other, { method: r.method, url: routeUrl(r.path, id), ...v });
        cases++;
        if (res.status >= 500) leaks.push(`${key} → ${res.status}`);
        else if (res.status === 200 && !sharedIds.has(id) && namesRecord(res.body, id)) leaks.push(`${key} → 200 naming ${id}`);
      }
    }
    const after = await fingerprint();
    const changed = Object.keys(before).filter((k) => before[k] !== after[k]);
    console.log(`cross-tenant suite: ${routes.length} routes, ${cases} cases, ${leaks.length} reads or 5xx, ${changed.length} tables of 000000 changed`);
    expect(leaks).toEqual([]);
    expect(changed, changed.map((k) => `${k} changed`).join('; ')).toEqual([]);
    // and the platform is unharmed: its administrator still signs in and reads
    const again = await t.loginReply('admin', 'admin');
    expect(again.access_token).toBeTruthy();
    expect(md5('x')).toHaveLength(32);
  }, 600_000);
});

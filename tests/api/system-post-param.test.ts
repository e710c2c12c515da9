/**
 * Posts (/api/blade-system/post/) and parameters (/api/blade-system/param/): dictionary category, select by
 * tenant, the spec's required messages, unique keys and the parameters the server reads.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers.js';
import { data, operator } from './system-helpers.js';
import { readParam } from '../../src/server/modules/param/index.js';

let t: TestServer;
let admin: string;

beforeAll(async () => {
  t = await startTestServer();
  admin = await t.login();
});
afterAll(async () => t?.close());

describe('posts', () => {
  it('list, search by category and name, dictionary-checked category', async () => {
    const page = data(await t.call(admin, { method: 'GET', url: '/api/blade-system/post/list?category=1' }));
    expect(page.records.map((r: any) => r.postCode).sort()).toEqual(['ceo', 'cfo', 'coo', 'cto']);
    const bad = await t.call(admin, { method: 'POST', url: '/api/blade-system/post/submit', payload: { category: 8, postCode: 'x', postName: 'x', sort: 1 } });
    expect(bad.status).toBe(400);
    expect(bad.body.data[0].field).toBe('category');
    const miss = await t.call(admin, { method: 'POST', url: '/api/blade-system/post/submit', payload: {} });
    const msgs = Object.fromEntries((miss.body.data as any[]).map((e) => [e.field, e.message]));
    expect(msgs).toMatchObject({ category: '请选择岗位类型', postCode: '请输入岗位编号', postName: '请输入岗位名称', sort: '请输入岗位排序' });
  });

  it('postCode is unique in a tenant (409 naming it)', async () => {
    const dup = await t.call(admin, { method: 'POST', url: '/api/blade-system/post/submit', payload: { category: 1, postCode: 'ceo', postName: '又一个', sort: 1 } });
    expect(dup.status).toBe(409);
    expect(dup.body.data[0]).toMatchObject({ field: 'postCode', message: '岗位编号已存在' });
  });

  it('select?tenantId= gives the caller\'s tenant; another tenant\'s only to the platform administrator', async () => {
    const own = data<any[]>(await t.call(admin, { method: 'GET', url: '/api/blade-system/post/select' }));
    expect(own.map((p) => p.postCode)).toContain('ceo');
    expect(own[0]).toMatchObject({ tenantId: '000000' });
    expect(typeof own[0].id).toBe('string');
    await t.database.db.insertInto('blade_post').values({ id: '900000000000009201', tenant_id: '100003', category: 1, post_code: 'boss', post_name: '老板', sort: 1, is_deleted: 0, status: 1 }).execute();
    expect(data<any[]>(await t.call(admin, { method: 'GET', url: '/api/blade-system/post/select?tenantId=100003' })).map((p) => p.postCode)).toEqual(['boss']);
    const op = await operator(t, 'postop', ['post']);
    const asked = data<any[]>(await t.call(op.token, { method: 'GET', url: '/api/blade-system/post/select?tenantId=100003' }));
    expect(asked.map((p) => p.postCode)).not.toContain('boss');
  });
});

describe('parameters', () => {
  const API = '/api/blade-system/param';
  it('name, key and value are required with the spec\'s messages (zh and en)', async () => {
    const r = await t.call(admin, { method: 'POST', url: `${API}/submit`, payload: {} });
    expect(r.status).toBe(400);
    const msgs = Object.fromEntries((r.body.data as any[]).map((e) => [e.field, e.message]));
    expect(msgs).toEqual({ paramName: '请输入参数名称', paramKey: '请输入参数键名', paramValue: '请输入参数键值' });
    const en = await t.call(admin, { method: 'POST', url: `${API}/submit`, payload: {}, headers: { 'accept-language': 'en' } });
    expect(en.body.data.map((e: any) => e.message)).toContain('Please enter the parameter key');
  });

  it('is searchable by name and key, and the key is unique (409 naming it)', async () => {
    data(await t.call(admin, { method: 'POST', url: `${API}/submit`, payload: { paramName: '演示参数', paramKey: 'demo.key', paramValue: 'v1' } }));
    const byKey = data(await t.call(admin, { method: 'GET', url: `${API}/list?paramKey=demo` }));
    expect(byKey.records.map((r: any) => r.paramKey)).toEqual(['demo.key']);
    const byName = data(await t.call(admin, { method: 'GET', url: `${API}/list?paramName=演示` }));
    expect(byName.total).toBe(1);
    const dup = await t.call(admin, { method: 'POST', url: `${API}/submit`, payload: { paramName: '重复', paramKey: 'demo.key', paramValue: 'v2' } });
    expect(dup.status).toBe(409);
    expect(dup.body.data[0]).toMatchObject({ field: 'paramKey', message: '参数键名已存在' });
  });

  it('the keys the server reads are seeded and read through readParam; a changed value is read at once', async () => {
    expect(await readParam(t.database.db, 'account.initPassword')).toBe('123456');
    expect(await readParam(t.database.db, 'account.registerUser')).toBe('true');
    const row = data(await t.call(admin, { method: 'GET', url: `${API}/list?paramKey=account.initPassword` })).records[0];
    data(await t.call(admin, { method: 'POST', url: `${API}/submit`, payload: { ...row, paramValue: '654321' } }));
    expect(await readParam(t.database.db, 'account.initPassword')).toBe('654321');
  });
});

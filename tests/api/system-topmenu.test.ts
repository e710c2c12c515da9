/**
 * Top menus (issue 10): a screen document over blade_top_menu (code unique with the spec's messages), and
 * `top-menu/grant {topMenuIds, menuIds}` replacing the menus a top menu holds, so that
 * `menu/routes?topMenuId=` gives only that part; refused for another tenant's top menu, unknown menus, or a
 * caller without the button code.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers.js';
import { operator } from './system-helpers.js';

const API = '/api/blade-system/top-menu';
let t: TestServer;
let admin: string;
beforeAll(async () => {
  t = await startTestServer();
  admin = await t.login();
});
afterAll(async () => t?.close());

const get = (url: string, token = admin) => t.call(token, { method: 'GET', url });
const post = (url: string, payload: unknown, token = admin) => t.call(token, { method: 'POST', url, payload: payload as any });
const data = (r: { status: number; body: any }) => {
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.data;
};

function flat(tree: any[]): any[] {
  return tree.flatMap((n) => [n, ...flat(n.children ?? [])]);
}

describe('top menus', () => {
  it('lists the seeded top menus; a new one needs its fields and a unique code', async () => {
    const list = data(await get(`${API}/list?size=50`));
    expect(list.total).toBeGreaterThan(0);
    const empty = await post(`${API}/submit`, {});
    expect(empty.status).toBe(400);
    expect(Object.fromEntries(empty.body.data.map((e: any) => [e.field, e.message]))).toMatchObject({ code: '请输入菜单编号', name: '请输入菜单名称' });
    data(await post(`${API}/submit`, { code: 'e2eTop', name: '测试顶部', sort: 9 }));
    const dup = await post(`${API}/submit`, { code: 'e2eTop', name: '又一个', sort: 9 });
    expect(dup.status).toBe(409);
    expect(dup.body.msg).toBe('菜单编号已存在');
  });

  it('grant replaces the menus a top menu holds; routes?topMenuId= gives only that part', async () => {
    const top = data(await get(`${API}/list?code=e2eTop`)).records[0];
    const tree = flat(data(await get('/api/blade-system/menu/tree')));
    const dept = tree.find((n) => n.title === '机构管理' || n.title === '部门管理');
    const post1 = tree.find((n) => n.title === '岗位管理');
    expect(dept && post1).toBeTruthy();
    expect(data(await post(`${API}/grant`, { ids: top.id, menuIds: `${dept.id},${post1.id}` }))).toEqual({ topMenus: 1, menus: 2 });
    expect(data(await get(`/api/blade-system/menu/top-tree-keys?topMenuIds=${top.id}`)).sort()).toEqual([dept.id, post1.id].sort());
    // replaced, not added to
    data(await post(`${API}/grant`, { topMenuIds: top.id, menuIds: [post1.id] }));
    expect(data(await get(`/api/blade-system/menu/top-tree-keys?topMenuIds=${top.id}`))).toEqual([post1.id]);
    const routes = flat(data(await get(`/api/blade-system/menu/routes?topMenuId=${top.id}`)));
    expect(routes.map((r) => r.name)).toContain('岗位管理');
    expect(routes.map((r) => r.name)).not.toContain('机构管理');
  });

  it('refuses another tenant\'s top menu, unknown menus and a caller without the button', async () => {
    const top = data(await get(`${API}/list?code=e2eTop`)).records[0];
    await t.database.db.insertInto('blade_top_menu').values({ id: '9600000001', tenant_id: '100002', code: 'other', name: '别家', sort: 1, is_deleted: 0, status: 1 } as any).execute();
    expect((await post(`${API}/grant`, { ids: '9600000001', menuIds: '' })).status).toBe(404);
    expect((await post(`${API}/grant`, { ids: top.id, menuIds: '999999999999' })).status).toBe(400);
    expect((await post(`${API}/grant`, { ids: 'x', menuIds: '' })).status).toBe(400);
    const op = await operator(t, 'topviewer', ['topmenu']);
    expect((await post(`${API}/grant`, { ids: top.id, menuIds: '' }, op.token)).status).toBe(403);
    expect(data(await get(`/api/blade-system/menu/top-tree-keys?topMenuIds=${top.id}`))).toHaveLength(1);
  });
});

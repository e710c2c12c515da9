/**
 * Menus (/api/blade-system/menu/): a menu added in the Menus screen reaches routes/buttons at once, the lazy
 * and whole menu lists, the grant trees and keys (TreeNode, string ids), and the refusals.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers.js';
import { data, operator } from './system-helpers.js';

let t: TestServer;
let admin: string;
const API = '/api/blade-system/menu';
const ADMIN_ROLE = '1123598816738675201';

beforeAll(async () => {
  t = await startTestServer();
  admin = await t.login();
});
afterAll(async () => t?.close());

const submit = (token: string, payload: Record<string, unknown>) => t.call(token, { method: 'POST', url: `${API}/submit`, payload });
const menuBody = (over: Record<string, unknown>) => ({ name: '新菜单', path: '/new/menu', code: 'new_menu', category: 1, alias: 'menu', isOpen: 1, action: 0, sort: 99, parentId: '0', ...over });

function flatten(nodes: any[]): any[] {
  return nodes.flatMap((n) => [n, ...flatten(n.children ?? [])]);
}

async function idOf(code: string): Promise<string> {
  const row = await t.database.db.selectFrom('blade_menu').select('id').where('code', '=', code).where('is_deleted', '=', 0).executeTakeFirstOrThrow();
  return String(row.id);
}

describe('a menu added in the Menus screen', () => {
  it('is in menu/routes and its button in menu/buttons at the next call (no restart)', async () => {
    const system = await idOf('system');
    const id = data(await submit(admin, menuBody({ name: '报修管理', path: '/system/repair', code: 'repair', parentId: system }))).id;
    const routes = flatten(data<any[]>(await t.call(admin, { method: 'GET', url: `${API}/routes` })));
    const node = routes.find((n) => n.id === id);
    expect(node).toMatchObject({ name: '报修管理', path: '/system/repair', parentId: system, category: 1 });
    data(await submit(admin, menuBody({ name: '新增', path: '/api/repair/submit', code: 'repair_add', category: 2, alias: 'add', action: 1, parentId: id })));
    const buttons = flatten(data<any[]>(await t.call(admin, { method: 'GET', url: `${API}/buttons` })));
    expect(buttons.map((b) => b.code)).toContain('repair_add');
    // and the new button code is a permission the administrator holds at once
    const codes = await t.app.ctx.permissions.codes([ADMIN_ROLE]);
    expect(codes.has('repair_add')).toBe(true);
  });

  it('menu code is required and unique; a button needs a menu above it', async () => {
    const miss = await submit(admin, { name: 'x', path: '/x', category: 1, alias: 'menu', isOpen: 1, action: 0, sort: 1 });
    expect(miss.status).toBe(400);
    expect((miss.body.data as any[]).find((e) => e.field === 'code')?.message).toBe('请输入菜单编号');
    const dup = await submit(admin, menuBody({ code: 'dept' }));
    expect(dup.status).toBe(409);
    expect(dup.body.data[0]).toMatchObject({ field: 'code' });
    const orphan = await submit(admin, menuBody({ code: 'orphan_btn', category: 2, alias: 'add', action: 1 }));
    expect(orphan.status).toBe(400);
    expect(orphan.body.msg).toBe('按钮必须挂在某个菜单下');
  });

  it('a menu with children is not removed; a leaf is, and leaves routes at once', async () => {
    const parent = data(await submit(admin, menuBody({ code: 'rm_parent', path: '/rm' }))).id;
    const child = data(await submit(admin, menuBody({ code: 'rm_child', path: '/rm/child', parentId: parent }))).id;
    const r = await t.call(admin, { method: 'POST', url: `${API}/remove?ids=${parent}` });
    expect(r.status).toBe(400);
    expect(r.body.msg).toContain('新菜单');
    expect((await t.call(admin, { method: 'POST', url: `${API}/remove?ids=${child}` })).status).toBe(200);
    const routes = flatten(data<any[]>(await t.call(admin, { method: 'GET', url: `${API}/routes` })));
    expect(routes.some((n) => n.id === child)).toBe(false);
  });
});

describe('menu lists', () => {
  it('lazy-menu-list?parentId= gives one level of menus with hasChildren and parentName', async () => {
    const top = data<any[]>(await t.call(admin, { method: 'GET', url: `${API}/lazy-menu-list` }));
    const system = top.find((n) => n.code === 'system');
    expect(system).toMatchObject({ parentId: '0', hasChildren: true, category: 1 });
    expect(top.every((n) => n.category === 1)).toBe(true);
    const kids = data<any[]>(await t.call(admin, { method: 'GET', url: `${API}/lazy-menu-list?parentId=${system.id}` }));
    const dept = kids.find((n) => n.code === 'dept');
    // its buttons are not menus: a department menu has no child menus
    expect(dept).toMatchObject({ parentName: '系统管理', hasChildren: false });
  });

  it('menu-list is the whole tree of menus without buttons', async () => {
    const all = flatten(data<any[]>(await t.call(admin, { method: 'GET', url: `${API}/menu-list` })));
    expect(all.some((n) => n.code === 'dept')).toBe(true);
    expect(all.some((n) => n.category === 2)).toBe(false);
    expect(all.find((n) => n.code === 'dept').parentName).toBe('系统管理');
  });
});

describe('grant trees', () => {
  it('grant-tree answers {menu, dataScope, apiScope} with TreeNode menus and buttons', async () => {
    const g = data(await t.call(admin, { method: 'GET', url: `${API}/grant-tree` }));
    expect(Object.keys(g).sort()).toEqual(['apiScope', 'dataScope', 'menu']);
    const nodes = flatten(g.menu);
    const dept = nodes.find((n) => n.title === '机构管理');
    expect(dept).toMatchObject({ key: dept.id, value: dept.id });
    expect(typeof dept.parentId).toBe('string');
    expect(dept.children.map((c: any) => c.title)).toContain('新增');
  });

  it('an operator\'s grant-tree holds only what its roles hold', async () => {
    const op = await operator(t, 'menuop', ['menu', 'system', 'post', 'post_add']);
    const nodes = flatten(data(await t.call(op.token, { method: 'GET', url: `${API}/grant-tree` })).menu);
    expect(nodes.map((n) => n.title).sort()).toEqual(['岗位管理', '新增', '系统管理', '菜单管理'].sort());
  });

  it('role-tree-keys?roleIds= lists the granted menu ids as strings; another tenant\'s role reads nothing', async () => {
    const op = await operator(t, 'keysop', ['post', 'post_add']);
    const keys = data(await t.call(admin, { method: 'GET', url: `${API}/role-tree-keys?roleIds=${op.roleId}` }));
    expect(keys.menu.sort()).toEqual([await idOf('post'), await idOf('post_add')].sort());
    expect(keys).toMatchObject({ dataScope: [], apiScope: [] });
    await t.database.db.updateTable('blade_role').set({ tenant_id: '100009' }).where('id', '=', op.roleId).execute();
    expect(data(await t.call(admin, { method: 'GET', url: `${API}/role-tree-keys?roleIds=${op.roleId}` })).menu).toEqual([]);
    expect((await t.call(admin, { method: 'GET', url: `${API}/role-tree-keys?roleIds=abc` })).status).toBe(400);
  });

  it('grant-top-tree lists the top menus; top-tree-keys the menus each holds', async () => {
    const tops = data<any[]>(await t.call(admin, { method: 'GET', url: `${API}/grant-top-tree` }));
    expect(tops.map((n) => n.title)).toEqual(['食堂管理', '平台管理']);
    expect(tops[0]).toMatchObject({ parentId: '0', key: tops[0].id, value: tops[0].id });
    const keys = data<string[]>(await t.call(admin, { method: 'GET', url: `${API}/top-tree-keys?topMenuIds=${tops[0].id}` }));
    expect(keys).toEqual([await idOf('canteen')]);
  });

  it('the grant endpoints need a menu, role or top-menu code', async () => {
    const op = await operator(t, 'nogrant', ['post']);
    for (const url of ['grant-tree', 'role-tree-keys?roleIds=1', 'grant-top-tree', 'top-tree-keys?topMenuIds=1', 'menu-list', 'lazy-menu-list']) {
      const r = await t.call(op.token, { method: 'GET', url: `${API}/${url}` });
      expect(r.status, url).toBe(403);
    }
  });
});

describe('menu tree', () => {
  it('tree is TreeNode of the menus only (the parent picker cannot offer a button)', async () => {
    const nodes = flatten(data<any[]>(await t.call(admin, { method: 'GET', url: `${API}/tree` })));
    const dept = nodes.find((n) => n.title === '机构管理');
    expect(dept).toMatchObject({ id: await idOf('dept'), key: await idOf('dept'), value: await idOf('dept') });
    expect(dept.children).toBeUndefined();
    expect(nodes.some((n) => n.title === '新增')).toBe(false);
    const en = flatten(data<any[]>(await t.call(admin, { method: 'GET', url: `${API}/tree`, headers: { 'accept-language': 'en' } })));
    expect(en.some((n) => n.title === 'Departments')).toBe(true);
  });
});

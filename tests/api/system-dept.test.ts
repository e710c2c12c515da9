/**
 * Departments (/api/blade-system/dept/): the tree (VO with children and parentName; lazy-tree; TreeNode tree),
 * ancestors kept when a department moves, select?userId= (the caller's tenant only), and removal refused
 * while a department has sub-departments or users, with a message saying which and how many.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers.js';
import { data, operator } from './system-helpers.js';

let t: TestServer;
let admin: string;
const API = '/api/blade-system/dept';
const ROOT = '1123598813738675201';
const OPS = '1123598813738675202';

beforeAll(async () => {
  t = await startTestServer();
  admin = await t.login();
});
afterAll(async () => t?.close());

const submit = (payload: Record<string, unknown>, token = admin) => t.call(token, { method: 'POST', url: `${API}/submit`, payload });
const deptBody = (over: Record<string, unknown>) => ({ deptName: '新机构', fullName: '新机构全称', deptCategory: 2, sort: 5, parentId: ROOT, ...over });

describe('the department tree', () => {
  it('list answers the whole tree: entity fields, children and parentName', async () => {
    const tree = data<any[]>(await t.call(admin, { method: 'GET', url: `${API}/list` }));
    const root = tree.find((n) => n.id === ROOT);
    expect(root).toMatchObject({ deptName: '食堂饭卡', parentId: '0' });
    expect(root.children.map((c: any) => c.deptName)).toEqual(['运营部', '财务部']);
    expect(root.children[0]).toMatchObject({ parentName: '食堂饭卡', ancestors: `0,${ROOT}` });
  });

  it('lazy-tree?parentId= gives TreeNode with hasChildren; tree gives the TreeNode forest', async () => {
    const top = data<any[]>(await t.call(admin, { method: 'GET', url: `${API}/lazy-tree?parentId=0` }));
    expect(top.find((n) => n.id === ROOT)).toMatchObject({ title: '食堂饭卡', key: ROOT, value: ROOT, hasChildren: true });
    const forest = data<any[]>(await t.call(admin, { method: 'GET', url: `${API}/tree` }));
    const root = forest.find((n) => n.id === ROOT);
    expect(root).toMatchObject({ parentId: '0', title: '食堂饭卡', key: ROOT, value: ROOT });
    expect(root.children.map((c: any) => c.title)).toEqual(['运营部', '财务部']);
  });

  it('the spec\'s required messages', async () => {
    const r = await submit({ parentId: ROOT });
    expect(r.status).toBe(400);
    const msgs = Object.fromEntries((r.body.data as any[]).map((e) => [e.field, e.message]));
    expect(msgs).toMatchObject({ deptName: '请输入机构名称', fullName: '请输入机构全称', deptCategory: '请选择机构类型' });
  });

  it('keeps ancestors right when a department moves with its subtree', async () => {
    const a = data(await submit(deptBody({ deptName: '甲', fullName: '甲' }))).id;
    const b = data(await submit(deptBody({ deptName: '乙', fullName: '乙', parentId: a }))).id;
    expect(data(await t.call(admin, { method: 'GET', url: `${API}/detail?id=${b}` })).ancestors).toBe(`0,${ROOT},${a}`);
    data(await submit({ id: a, parentId: OPS }));
    expect(data(await t.call(admin, { method: 'GET', url: `${API}/detail?id=${a}` })).ancestors).toBe(`0,${ROOT},${OPS}`);
    expect(data(await t.call(admin, { method: 'GET', url: `${API}/detail?id=${b}` })).ancestors).toBe(`0,${ROOT},${OPS},${a}`);
    // not under itself or its own subtree
    expect((await submit({ id: a, parentId: b })).status).toBe(400);
  });
});

describe('removal', () => {
  it('is refused while a department has sub-departments, naming it and the count', async () => {
    const parent = data(await submit(deptBody({ deptName: '有下级', fullName: '有下级' }))).id;
    data(await submit(deptBody({ deptName: '下级一', fullName: '下级一', parentId: parent })));
    data(await submit(deptBody({ deptName: '下级二', fullName: '下级二', parentId: parent })));
    const r = await t.call(admin, { method: 'POST', url: `${API}/remove?ids=${parent}` });
    expect(r.status).toBe(400);
    expect(r.body.msg).toBe('机构「有下级」下还有 2 个子机构，请先删除子机构');
    const en = await t.call(admin, { method: 'POST', url: `${API}/remove?ids=${parent}`, headers: { 'accept-language': 'en' } });
    expect(en.body.msg).toBe('Department "有下级" still has 2 sub-department(s); remove them first');
  });

  it('is refused while users belong to it (comma-joined dept_id), and allowed once they left', async () => {
    const d = data(await submit(deptBody({ deptName: '有人', fullName: '有人' }))).id;
    const op = await operator(t, 'deptuser', ['dept']);
    await t.database.db.updateTable('blade_user').set({ dept_id: `${OPS},${d}` }).where('id', '=', op.userId).execute();
    const r = await t.call(admin, { method: 'POST', url: `${API}/remove?ids=${d}` });
    expect(r.status).toBe(400);
    expect(r.body.msg).toBe('机构「有人」下还有 1 个用户，请先调整这些用户的机构');
    await t.database.db.updateTable('blade_user').set({ dept_id: OPS }).where('id', '=', op.userId).execute();
    expect((await t.call(admin, { method: 'POST', url: `${API}/remove?ids=${d}` })).status).toBe(200);
  });
});

describe('select?userId=', () => {
  it('gives the caller\'s departments; another user\'s only to an administrator, and only of the same tenant', async () => {
    const own = data<any[]>(await t.call(admin, { method: 'GET', url: `${API}/select` }));
    expect(own).toEqual([{ id: ROOT, parentId: '0', deptName: '食堂饭卡' }]);
    const op = await operator(t, 'selop', ['dept']);
    expect(data<any[]>(await t.call(admin, { method: 'GET', url: `${API}/select?userId=${op.userId}` })).map((d) => d.id)).toEqual([OPS]);
    expect((await t.call(op.token, { method: 'GET', url: `${API}/select?userId=1123598821738675201` })).status).toBe(403);
    await t.database.db.insertInto('blade_tenant').values({ id: '900000000000009101', tenant_id: '100002', tenant_name: '其他', is_deleted: 0, status: 1 }).execute();
    const stranger = await operator(t, 'stranger', ['dept'], '100002');
    expect((await t.call(admin, { method: 'GET', url: `${API}/select?userId=${stranger.userId}` })).status).toBe(404);
    expect((await t.call(admin, { method: 'GET', url: `${API}/select?userId=abc` })).status).toBe(400);
  });
});

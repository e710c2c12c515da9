/**
 * Trees (resource.tree) and layout documents, on the fixture documents of tests/fixtures/schemas/format:
 * fmtNode (keyed by id, ancestors kept, sibling sort), fmtArea (keyed by code, root "00", paged list),
 * fmtSplit (master-detail layout on fmt_node), fmtPage (page layout on a code nobody has).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import zh from '../../locales/zh.json' with { type: 'json' };
import { FIXTURE_SCHEMAS, startTestServer, type TestServer } from './helpers.js';

let t: TestServer;
let admin: string;
beforeAll(async () => {
  t = await startTestServer({ schemaDirs: [FIXTURE_SCHEMAS] });
  admin = await t.login();
});
afterAll(async () => t?.close());

const get = (url: string, token = admin) => t.call(token, { method: 'GET', url });
const post = (url: string, payload?: unknown, token = admin) => t.call(token, { method: 'POST', url, payload: payload as any });
async function add(api: string, body: Record<string, unknown>): Promise<string> {
  const r = await post(`${api}/submit`, body);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.data.id;
}

describe('layout documents', () => {
  it('are listed and served when their permission is granted, never as documents of records', async () => {
    expect(t.app.ctx.docs.all.map((d) => d.id)).not.toContain('fmtSplit');
    expect(t.app.ctx.docs.layouts.map((d) => d.id).filter((id) => id.startsWith('fmt')).sort()).toEqual(['fmtPage', 'fmtSplit']);
    const screens = (await get('/api/blade-system/screen/list')).body.data;
    expect(screens).toContainEqual({ id: 'fmtSplit', route: '/fmt/split', title: 'fmtSplit.title' });
    // fmtPage needs fmt_nobody, which no role has
    expect(screens.map((s: any) => s.id)).not.toContain('fmtPage');
    const split = await get('/api/blade-system/screen/detail?id=fmtSplit');
    expect(split.body.data).toMatchObject({ id: 'fmtSplit', permission: 'fmt_node', view: { type: 'master-detail', master: 'fmtNode', detail: 'fmtArea' } });
    expect((await get('/api/blade-system/screen/detail?id=fmtPage')).status).toBe(404);
    expect(t.app.hasRoute({ method: 'GET', url: '/api/fmt-split/list' })).toBe(false);
  });

  it('let the caller fetch the master and detail documents of a granted master-detail', async () => {
    // a role with only fmt_node (the layout's code): fmtArea's own menu code is not granted, yet its document
    // is served for the layout — its endpoints still ask for fmt_area
    const db = t.database.db;
    const menu = await db.selectFrom('blade_menu').select('id').where('code', '=', 'fmt_node').executeTakeFirstOrThrow();
    await db.insertInto('blade_role').values({ id: '9100', tenant_id: '000000', parent_id: '0', role_name: 'fmt', sort: 1, role_alias: 'fmt', is_deleted: 0 }).execute();
    await db.insertInto('blade_role_menu').values({ id: '9101', menu_id: menu.id, role_id: '9100' }).execute();
    const admins = await db.selectFrom('blade_user').select(['dept_id', 'password', 'tenant_id']).where('account', '=', 'admin').executeTakeFirstOrThrow();
    await db.insertInto('blade_user').values({ id: '9102', tenant_id: admins.tenant_id, account: 'fmtuser', password: admins.password, name: 'fmt', real_name: 'fmt', role_id: '9100', dept_id: admins.dept_id, status: 1, is_deleted: 0 }).execute();
    const token = await t.login('fmtuser', 'admin');
    expect((await get('/api/blade-system/screen/detail?id=fmtArea', token)).body.data.id).toBe('fmtArea');
    expect((await get('/api/blade-system/screen/detail?id=fmtSplit', token)).body.data.id).toBe('fmtSplit');
    expect((await get('/api/fmt-area/list', token)).status).toBe(403);
    expect((await get('/api/blade-system/screen/detail?id=merchant', token)).status).toBe(404);
  });

  it('are refused at start when the master or detail does not exist', async () => {
    const fs = await import('node:fs');
    const os = await import('node:os');
    const path = await import('node:path');
    const { loadDocuments } = await import('../../src/server/documents.js');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'layout-'));
    try {
      const doc = JSON.parse(fs.readFileSync(path.join(FIXTURE_SCHEMAS, 'format/split.json'), 'utf8'));
      fs.writeFileSync(path.join(dir, 'bad.json'), JSON.stringify({ ...doc, id: 'fmtBad', route: '/fmt/bad', view: { ...doc.view, detail: 'nothing' } }));
      expect(() => loadDocuments(t.config.rootDir, [FIXTURE_SCHEMAS, dir])).toThrow(/bad\.json: \/view\/detail: no document of records with id nothing/);
      fs.writeFileSync(path.join(dir, 'bad.json'), JSON.stringify({ ...doc, id: 'fmtBad' }));
      expect(() => loadDocuments(t.config.rootDir, [FIXTURE_SCHEMAS, dir])).toThrow(/\/route: \/fmt\/split already used/);
    } finally {
      fs.rmSync(dir, { recursive: true });
    }
  });
});

describe('tree keyed by id (fmtNode)', () => {
  const api = '/api/fmt-node';
  let a: string, a1: string, a11: string, b: string;
  beforeAll(async () => {
    a = await add(api, { nodeName: '总部', sort: 1 });
    b = await add(api, { nodeName: '分部', sort: 2 });
    a1 = await add(api, { nodeName: '研发', parentId: a, sort: 1 });
    a11 = await add(api, { nodeName: '前端', parentId: a1 });
    await add(api, { nodeName: '测试', parentId: a, sort: 2 });
  });

  it('keeps ancestors on add', async () => {
    expect((await get(`${api}/detail?id=${a}`)).body.data).toMatchObject({ parentId: '0', ancestors: '0' });
    const d = (await get(`${api}/detail?id=${a11}`)).body.data;
    expect(d).toMatchObject({ parentId: a1, ancestors: `0,${a},${a1}`, parentName: '研发' });
  });

  it('list answers the whole tree of records with children and parentName, siblings by sort', async () => {
    const l = (await get(`${api}/list`)).body.data;
    expect(Array.isArray(l)).toBe(true);
    expect(l.map((n: any) => n.nodeName)).toEqual(['总部', '分部']);
    expect(l[0].hasChildren).toBe(true);
    expect(l[0].children.map((n: any) => n.nodeName)).toEqual(['研发', '测试']);
    expect(l[0].children[0]).toMatchObject({ parentName: '总部', children: [{ nodeName: '前端', parentName: '研发', hasChildren: false }] });
    expect(l[1]).not.toHaveProperty('children');
    // search conditions still apply: a match without its parent is a root of the answer
    const s = (await get(`${api}/list?nodeName=${encodeURIComponent('前')}`)).body.data;
    expect(s).toEqual([expect.objectContaining({ id: a11, nodeName: '前端', parentName: '研发' })]);
  });

  it('tree answers TreeNodes; lazy-list and lazy-tree the children of a parent with hasChildren', async () => {
    const tree = (await get(`${api}/tree`)).body.data;
    expect(tree[0]).toMatchObject({ id: a, parentId: '0', title: '总部', key: a, value: a, hasChildren: true });
    expect(tree[0].children[0]).toMatchObject({ id: a1, parentId: a, title: '研发', children: [{ id: a11, title: '前端', hasChildren: false }] });
    expect(tree[1]).toEqual({ id: b, parentId: '0', title: '分部', key: b, value: b, hasChildren: false });
    const roots = (await get(`${api}/lazy-list`)).body.data;
    expect(roots.map((r: any) => [r.nodeName, r.hasChildren])).toEqual([['总部', true], ['分部', false]]);
    const under = (await get(`${api}/lazy-list?parentId=${a}`)).body.data;
    expect(under.map((r: any) => [r.nodeName, r.hasChildren, r.parentName])).toEqual([['研发', true, '总部'], ['测试', false, '总部']]);
    const lazyTree = (await get(`${api}/lazy-tree?parentId=${a1}`)).body.data;
    expect(lazyTree).toEqual([{ id: a11, parentId: a1, title: '前端', key: a11, value: a11, hasChildren: false }]);
    expect((await get(`${api}/lazy-tree?parentId=x'`)).status).toBe(400);
    expect((await t.call(undefined, { method: 'GET', url: `${api}/tree` })).status).toBe(401);
  });

  it('moves a record with its whole subtree (ancestors of every descendant updated)', async () => {
    expect((await post(`${api}/submit`, { id: a1, nodeName: '研发', parentId: b })).status).toBe(200);
    expect((await get(`${api}/detail?id=${a1}`)).body.data.ancestors).toBe(`0,${b}`);
    expect((await get(`${api}/detail?id=${a11}`)).body.data.ancestors).toBe(`0,${b},${a1}`);
    // and back to the root
    expect((await post(`${api}/submit`, { id: a1, nodeName: '研发', parentId: '0' })).status).toBe(200);
    expect((await get(`${api}/detail?id=${a11}`)).body.data.ancestors).toBe(`0,${a1}`);
    expect((await post(`${api}/submit`, { id: a1, nodeName: '研发', parentId: a })).status).toBe(200);
    expect((await get(`${api}/detail?id=${a11}`)).body.data.ancestors).toBe(`0,${a},${a1}`);
  });

  it('refuses a parent that is the record, a descendant, or missing (400, nothing changed)', async () => {
    const self = await post(`${api}/submit`, { id: a1, nodeName: '研发', parentId: a1 });
    expect(self.status).toBe(400);
    expect(self.body.msg).toBe(zh.error.tree.parentSelf);
    const desc = await post(`${api}/submit`, { id: a, nodeName: '总部', parentId: a11 });
    expect(desc.status).toBe(400);
    expect(desc.body.msg).toBe(zh.error.tree.parentDescendant);
    const missing = await post(`${api}/submit`, { nodeName: '孤儿', parentId: '12345' });
    expect(missing.status).toBe(400);
    expect(missing.body.msg).toBe(zh.error.tree.parentNotFound.replace('{{value}}', '12345'));
    expect((await get(`${api}/detail?id=${a}`)).body.data.parentId).toBe('0');
  });

  it('refuses removing a record with live children, naming it; removes a leaf, then the parent', async () => {
    const r = await post(`${api}/remove?ids=${a1}`);
    expect(r.status).toBe(400);
    expect(r.body.msg).toBe(zh.error.tree.hasChildren.replace('{{name}}', '研发'));
    expect((await get(`${api}/detail?id=${a1}`)).status).toBe(200);
    // a parent removed together with all its children is fine
    expect((await post(`${api}/remove?ids=${a1},${a11}`)).status).toBe(200);
    expect((await get(`${api}/lazy-list?parentId=${a}`)).body.data.map((n: any) => n.nodeName)).toEqual(['测试']);
  });

  it('is tenant scoped: another tenant does not see the tree nor can use a node as parent', async () => {
    const db = t.database.db;
    await db.updateTable('fmt_node').set({ tenant_id: '999999' }).where('id', '=', b).execute();
    expect((await get(`${api}/tree`)).body.data.map((n: any) => n.id)).not.toContain(b);
    expect((await post(`${api}/submit`, { nodeName: 'x', parentId: b })).status).toBe(400);
    await db.updateTable('fmt_node').set({ tenant_id: '000000' }).where('id', '=', b).execute();
  });
});

describe('tree keyed by code with a paged list (fmtArea)', () => {
  const api = '/api/fmt-area';
  beforeAll(async () => {
    await add(api, { code: '11', name: '北京' });
    await add(api, { code: '1101', parentCode: '11', name: '北京市辖区' });
    await add(api, { code: '110101', parentCode: '1101', name: '东城区' });
    await add(api, { code: '12', name: '天津' });
  });

  it('parents refer to the key; ancestors are keys from the root value', async () => {
    const d = (await get(`${api}/detail?code=110101`)).body.data;
    expect(d).toMatchObject({ code: '110101', parentCode: '1101', ancestors: '00,11,1101', parentName: '北京市辖区' });
    expect((await get(`${api}/detail?code=11`)).body.data).toMatchObject({ parentCode: '00', ancestors: '00' });
    // id= takes the key too (BladeX region: the code is the id)
    expect((await get(`${api}/detail?id=1101`)).body.data.name).toBe('北京市辖区');
    expect((await get(`${api}/detail?code=99`)).status).toBe(404);
  });

  it('list stays a paged flat list, filterable by the parent field', async () => {
    const all = (await get(`${api}/list`)).body.data;
    expect(all.total).toBe(4);
    expect(all.records.map((r: any) => r.code)).toEqual(['11', '1101', '110101', '12']);
    const under = (await get(`${api}/list?parentCode=11`)).body.data;
    expect(under.records).toEqual([expect.objectContaining({ code: '1101', parentName: '北京' })]);
    expect((await get(`${api}/list?name=${encodeURIComponent('东城')}`)).body.data.total).toBe(1);
  });

  it('lazy-tree without the parent answers the top level; key and value are the code', async () => {
    const top = (await get(`${api}/lazy-tree`)).body.data;
    expect(top.map((n: any) => [n.key, n.value, n.title, n.parentId, n.hasChildren])).toEqual([
      ['11', '11', '北京', '00', true],
      ['12', '12', '天津', '00', false],
    ]);
    const tree = (await get(`${api}/tree`)).body.data;
    expect(tree[0].children[0].children[0]).toMatchObject({ key: '110101', parentId: '1101' });
  });

  it('refuses a missing parent code, and removing by code a parent with children', async () => {
    expect((await post(`${api}/submit`, { code: '1301', parentCode: '13', name: '石家庄' })).status).toBe(400);
    const r = await post(`${api}/remove?id=1101`);
    expect(r.status).toBe(400);
    expect(r.body.msg).toBe(zh.error.tree.hasChildren.replace('{{name}}', '北京市辖区'));
    expect((await post(`${api}/remove?code=110101`)).status).toBe(200);
    expect((await get(`${api}/detail?code=110101`)).status).toBe(404);
    expect((await post(`${api}/remove?id=1101`)).status).toBe(200);
    expect((await post(`${api}/remove?ids=5'`)).status).toBe(400);
  });

  it('moves a subtree with a changed parent code', async () => {
    await add(api, { code: '1201', parentCode: '12', name: '天津市辖区' });
    await add(api, { code: '120101', parentCode: '1201', name: '和平区' });
    const id = (await get(`${api}/detail?code=1201`)).body.data.id;
    expect((await post(`${api}/submit`, { id, code: '1201', name: '天津市辖区', parentCode: '11' })).status).toBe(200);
    expect((await get(`${api}/detail?code=120101`)).body.data.ancestors).toBe('00,11,1201');
    // its key cannot change while it has children
    const r = await post(`${api}/submit`, { id, code: '1299', name: '天津市辖区' });
    expect(r.status).toBe(400);
    expect(r.body.msg).toBe(zh.error.tree.keyHasChildren);
  });
});

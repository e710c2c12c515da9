/**
 * Dictionaries (system /api/blade-system/dict/, business /api/blade-system/dict-biz/): parent-list, child-list,
 * tree?code=, dictionary?code=, the spec's messages, unique root codes and keys, sealed entries, children kept,
 * and a change that every screen sees at once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers.js';
import { data, operator } from './system-helpers.js';

let t: TestServer;
let admin: string;
const DICT = '/api/blade-system/dict';
const BIZ = '/api/blade-system/dict-biz';

beforeAll(async () => {
  t = await startTestServer();
  admin = await t.login();
});
afterAll(async () => t?.close());

const submit = (token: string, api: string, payload: Record<string, unknown>, lang = 'zh') =>
  t.call(token, { method: 'POST', url: `${api}/submit`, payload, headers: { 'accept-language': lang } });

async function addRoot(api: string, code: string, over: Record<string, unknown> = {}): Promise<string> {
  return data(await submit(admin, api, { parentId: '0', code, dictValue: `${code} 名称`, sort: 1, isSealed: 0, ...over })).id;
}

describe('parent-list and child-list', () => {
  it('parent-list pages the roots only (dictKey -1), with BladeX page fields and search', async () => {
    const page = data(await t.call(admin, { method: 'GET', url: `${DICT}/parent-list?current=1&size=5` }));
    expect(page).toMatchObject({ size: 5, current: 1 });
    expect(page.total).toBeGreaterThan(5);
    expect(page.records).toHaveLength(5);
    for (const r of page.records) expect(r).toMatchObject({ parentId: '0', dictKey: '-1' });
    const sex = data(await t.call(admin, { method: 'GET', url: `${DICT}/parent-list?code=sex` }));
    expect(sex.records.map((r: any) => r.code)).toEqual(['sex']);
  });

  it('child-list?parentId= pages that root\'s entries; without a parent it is empty', async () => {
    const root = data(await t.call(admin, { method: 'GET', url: `${DICT}/parent-list?code=sex` })).records[0];
    const kids = data(await t.call(admin, { method: 'GET', url: `${DICT}/child-list?parentId=${root.id}&size=10` }));
    expect(kids.total).toBe(3);
    expect(kids.records.map((r: any) => [r.dictKey, r.dictValue])).toEqual([['1', '男'], ['2', '女'], ['3', '未知']]);
    for (const r of kids.records) expect(r).toMatchObject({ code: 'sex', parentId: root.id });
    const none = data(await t.call(admin, { method: 'GET', url: `${DICT}/child-list?parentId=-1` }));
    expect(none).toMatchObject({ records: [], total: 0 });
  });

  it('tree?code= answers TreeNode (id, parentId, title, key, value, children) of one dictionary; code=DICT all', async () => {
    const tree = data<any[]>(await t.call(admin, { method: 'GET', url: `${DICT}/tree?code=yes_no` }));
    expect(tree).toHaveLength(1);
    expect(tree[0]).toMatchObject({ parentId: '0', title: '是否', key: tree[0].id, value: tree[0].id });
    expect(tree[0].children.map((c: any) => c.title)).toEqual(['否', '是']);
    expect(tree[0].children[0]).not.toHaveProperty('children');
    const all = data<any[]>(await t.call(admin, { method: 'GET', url: `${DICT}/tree?code=DICT` }));
    expect(all.length).toBeGreaterThan(5);
    expect(all.map((n) => n.title)).toContain('性别');
  });

  it('dictionary?code= lists the entries without the root (BladeX getList)', async () => {
    const list = data<any[]>(await t.call(admin, { method: 'GET', url: `${DICT}/dictionary?code=sex` }));
    expect(list.map((e) => e.dictKey)).toEqual(['1', '2', '3']);
    expect(list[0]).toMatchObject({ code: 'sex', dictValue: '男', sort: 1 });
  });

  it('the list endpoints need the menu code (403 R, not 401)', async () => {
    const op = await operator(t, 'dictnone', ['post']);
    const r = await t.call(op.token, { method: 'GET', url: `${DICT}/parent-list` });
    expect(r.status).toBe(403);
    expect(r.body).toMatchObject({ success: false, code: 403 });
  });
});

describe('submit rules', () => {
  it('required fields give the spec\'s messages (dictionary parent and child)', async () => {
    const r = await submit(admin, DICT, { parentId: '0' });
    expect(r.status).toBe(400);
    const msgs = Object.fromEntries((r.body.data as any[]).map((e) => [e.field, e.message]));
    expect(msgs).toMatchObject({ code: '请输入字典编号', dictValue: '请输入字典名称', sort: '请输入字典排序', isSealed: '请选择封存' });
    const rootId = await addRoot(DICT, 'sys_required');
    const c = await submit(admin, DICT, { parentId: rootId, code: 'sys_required', dictValue: '甲', sort: 1, isSealed: 0 });
    expect(c.status).toBe(400);
    expect((c.body.data as any[]).find((e) => e.field === 'dictKey')?.message).toBe('请输入字典键值');
    const en = await submit(admin, DICT, { parentId: '0' }, 'en');
    expect((en.body.data as any[]).find((e) => e.field === 'code')?.message).toBe('Please enter the dictionary code');
  });

  it('a root gets dictKey -1; a second root with the same code is a 409 naming the code', async () => {
    const id = await addRoot(DICT, 'sys_unique');
    const d = data(await t.call(admin, { method: 'GET', url: `${DICT}/detail?id=${id}` }));
    expect(d).toMatchObject({ code: 'sys_unique', dictKey: '-1', parentId: '0' });
    const dup = await submit(admin, DICT, { parentId: '0', code: 'sys_unique', dictValue: '又一个', sort: 2, isSealed: 0 });
    expect(dup.status).toBe(409);
    expect(dup.body).toMatchObject({ success: false, msg: '字典编号已存在' });
    expect(dup.body.data[0]).toMatchObject({ field: 'code' });
  });

  it('an entry takes its root\'s code; a key used twice under one root is a 409 naming dictKey', async () => {
    const rootId = await addRoot(DICT, 'sys_keys');
    const a = data(await submit(admin, DICT, { parentId: rootId, code: 'whatever', dictKey: '1', dictValue: '一', sort: 1, isSealed: 0 })).id;
    expect(data(await t.call(admin, { method: 'GET', url: `${DICT}/detail?id=${a}` }))).toMatchObject({ code: 'sys_keys', dictKey: '1' });
    const dup = await submit(admin, DICT, { parentId: rootId, code: 'sys_keys', dictKey: '1', dictValue: '壹', sort: 2, isSealed: 0 });
    expect(dup.status).toBe(409);
    expect(dup.body.data[0]).toMatchObject({ field: 'dictKey', message: '字典键值已存在' });
    // the same key under another root is fine
    const other = await addRoot(DICT, 'sys_keys2');
    expect((await submit(admin, DICT, { parentId: other, code: 'sys_keys2', dictKey: '1', dictValue: '一', sort: 1, isSealed: 0 })).status).toBe(200);
  });

  it('renaming a root\'s code carries its entries along', async () => {
    const rootId = await addRoot(DICT, 'sys_rename');
    data(await submit(admin, DICT, { parentId: rootId, code: 'sys_rename', dictKey: '7', dictValue: '七', sort: 1, isSealed: 0 }));
    data(await submit(admin, DICT, { id: rootId, code: 'sys_renamed' }));
    const list = data<any[]>(await t.call(admin, { method: 'GET', url: `${DICT}/dictionary?code=sys_renamed` }));
    expect(list.map((e) => e.dictKey)).toEqual(['7']);
  });

  it('a dictionary with entries is not removed, and the message says why', async () => {
    const rootId = await addRoot(DICT, 'sys_parent');
    data(await submit(admin, DICT, { parentId: rootId, code: 'sys_parent', dictKey: '1', dictValue: '一', sort: 1, isSealed: 0 }));
    const r = await t.call(admin, { method: 'POST', url: `${DICT}/remove?ids=${rootId}` });
    expect(r.status).toBe(400);
    expect(r.body.msg).toContain('sys_parent 名称');
    expect(r.body.msg).toContain('1');
    expect(data<any[]>(await t.call(admin, { method: 'GET', url: `${DICT}/dictionary?code=sys_parent` }))).toHaveLength(1);
  });
});

describe('sealed entries', () => {
  it('only an administrator changes or removes a sealed entry', async () => {
    const op = await operator(t, 'dictop', ['dict', 'dict_add', 'dict_edit', 'dict_delete', 'dict_view']);
    const rootId = await addRoot(DICT, 'sys_sealed', { isSealed: 1 });
    const kid = data(await submit(admin, DICT, { parentId: rootId, code: 'sys_sealed', dictKey: '1', dictValue: '封', sort: 1, isSealed: 1 })).id;
    const open = data(await submit(admin, DICT, { parentId: rootId, code: 'sys_sealed', dictKey: '2', dictValue: '开', sort: 2, isSealed: 0 })).id;

    const edit = await submit(op.token, DICT, { id: kid, dictValue: '改' });
    expect(edit.status).toBe(403);
    expect(edit.body.msg).toContain('已封存');
    const remove = await t.call(op.token, { method: 'POST', url: `${DICT}/remove?ids=${kid}` });
    expect(remove.status).toBe(403);
    // an unsealed entry of the same dictionary the operator may change
    expect((await submit(op.token, DICT, { id: open, dictValue: '开启' })).status).toBe(200);

    expect((await submit(admin, DICT, { id: kid, dictValue: '改' })).status).toBe(200);
    const list = data<any[]>(await t.call(admin, { method: 'GET', url: `${DICT}/dictionary?code=sys_sealed` }));
    expect(list.map((e) => e.dictValue)).toEqual(['改', '开启']);
    expect((await t.call(admin, { method: 'POST', url: `${DICT}/remove?ids=${kid}` })).status).toBe(200);
  });
});

describe('a change is live for every screen', () => {
  it('a new post_category entry is in the batch and accepted by the post screen at once', async () => {
    const post = { category: 9, postCode: 'live9', postName: '临时岗', sort: 1 };
    const before = await t.call(admin, { method: 'POST', url: '/api/blade-system/post/submit', payload: post });
    expect(before.status).toBe(400);
    const root = data(await t.call(admin, { method: 'GET', url: `${DICT}/parent-list?code=post_category` })).records[0];
    data(await submit(admin, DICT, { parentId: root.id, code: 'post_category', dictKey: '9', dictValue: '临时', dictValueEn: 'Temporary', sort: 9, isSealed: 0 }));
    const batch = data(await t.call(admin, { method: 'GET', url: '/api/blade-system/dict/batch?codes=post_category' }));
    expect(batch.post_category.map((e: any) => e.dictKey)).toContain('9');
    expect((await t.call(admin, { method: 'POST', url: '/api/blade-system/post/submit', payload: post })).status).toBe(200);
  });
});

describe('business dictionaries', () => {
  it('are per tenant: another tenant neither sees nor edits them', async () => {
    const rootId = await addRoot(BIZ, 'biz_local');
    data(await submit(admin, BIZ, { parentId: rootId, code: 'biz_local', dictKey: '1', dictValue: '本地', sort: 1, isSealed: 0 }));
    expect(data<any[]>(await t.call(admin, { method: 'GET', url: `${BIZ}/dictionary?code=biz_local` }))).toHaveLength(1);
    await t.database.db.insertInto('blade_tenant').values({ id: '900000000000009001', tenant_id: '100001', tenant_name: '其他', is_deleted: 0, status: 1 }).execute();
    const other = await operator(t, 'bizother', ['dictbiz', 'dictbiz_add', 'dictbiz_edit', 'dictbiz_delete'], '100001');
    expect(data<any[]>(await t.call(other.token, { method: 'GET', url: `${BIZ}/dictionary?code=biz_local` }))).toEqual([]);
    expect(data(await t.call(other.token, { method: 'GET', url: `${BIZ}/parent-list?code=biz_local` })).total).toBe(0);
    expect((await t.call(other.token, { method: 'POST', url: `${BIZ}/remove?ids=${rootId}` })).status).toBe(404);
    // its own root of the same code is not a duplicate of the first tenant's
    expect((await submit(other.token, BIZ, { parentId: '0', code: 'biz_local', dictValue: '他的', sort: 1, isSealed: 0 })).status).toBe(200);
  });
});

/**
 * The document rules every generic submit applies (issue 9), on the fixture documents of tests/fixtures/rules:
 * x-unique (409 naming the field, per group, backed by a partial unique index that also settles a race),
 * x-equals (confirmation), x-joined items checked one by one (format and lookup in the caller's tenant), partial
 * edits (BladeX updateById), and type errors that name their field.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { ROOT, startTestServer, type TestServer } from './helpers.js';

const RULES = path.join(ROOT, 'tests/fixtures/rules');
const API = '/api/fmt-rule';
let t: TestServer;
let admin: string;
beforeAll(async () => {
  t = await startTestServer({ schemaDirs: [RULES] });
  admin = await t.login();
});
afterAll(async () => t?.close());

const post = (url: string, payload: unknown, lang?: string) =>
  t.call(admin, { method: 'POST', url, payload: payload as any, headers: lang ? { 'accept-language': lang } : {} });
const get = (url: string) => t.call(admin, { method: 'GET', url });
let seq = 0;
const base = () => ({ ruleCode: `R${++seq}`, groupCode: 'g1', ruleName: `规则${seq}`, level: 1 });
async function add(body: Record<string, unknown>): Promise<string> {
  const r = await post(`${API}/submit`, body);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.data.id;
}
async function node(name: string): Promise<string> {
  const r = await post('/api/fmt-rule-node/submit', { nodeName: name });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.data.id;
}

describe('x-unique', () => {
  it('refuses a duplicate with 409 naming the field (the document\'s own message, zh and en), the first row untouched', async () => {
    const first = base();
    await add(first);
    const dup = await post(`${API}/submit`, { ...base(), ruleCode: first.ruleCode });
    expect(dup.status).toBe(409);
    expect(dup.body.msg).toBe('规则编号已被使用');
    expect(dup.body.data).toEqual([{ field: 'ruleCode', message: '规则编号已被使用' }]);
    const en = await post(`${API}/submit`, { ...base(), ruleCode: first.ruleCode }, 'en');
    expect(en.body.msg).toBe('The rule code is taken');
    expect((await get(`${API}/list?ruleCode=${first.ruleCode}&size=50`)).body.data.records.filter((r: any) => r.ruleCode === first.ruleCode)).toHaveLength(1);
  });

  it('is unique together with its group: the same name in another group is fine, in the same group it is refused (common message)', async () => {
    const a = base();
    await add(a);
    await add({ ...base(), ruleName: a.ruleName, groupCode: 'g2' });
    const dup = await post(`${API}/submit`, { ...base(), ruleName: a.ruleName });
    expect(dup.status).toBe(409);
    expect(dup.body.msg).toBe('规则名称已存在');
    expect(dup.body.data[0].field).toBe('ruleName');
  });

  it('lets a record keep its own value on edit, and frees the value when the record is removed', async () => {
    const a = base();
    const id = await add(a);
    expect((await post(`${API}/submit`, { id, ...a, level: 2 })).status).toBe(200);
    expect((await post(`${API}/remove?ids=${id}`, {})).status).toBe(200);
    await add({ ...base(), ruleCode: a.ruleCode });
  });

  it('is backed by a partial unique index (live rows, per tenant), so racing inserts give one row and 409s, never a 500', async () => {
    const idx = await sql<{ indexdef: string }>`select indexdef from pg_indexes where tablename = 'fmt_rule' and indexname = 'fmt_rule_rule_code_uq'`.execute(t.database.db);
    expect(idx.rows[0]?.indexdef).toMatch(/UNIQUE INDEX .*\(tenant_id, rule_code\) WHERE \(is_deleted = 0\)/);
    const code = `RACE${Date.now() % 100000}`;
    const replies = await Promise.all(Array.from({ length: 6 }, (_, i) => post(`${API}/submit`, { ...base(), ruleCode: code, ruleName: `race ${i}` })));
    const statuses = replies.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(5);
    for (const r of replies.filter((x) => x.status === 409)) expect(r.body.data[0].field).toBe('ruleCode');
  });
});

describe('x-equals', () => {
  it('refuses a confirmation that differs, naming both fields; an equal one saves, and the virtual confirmation is not stored', async () => {
    const bad = await post(`${API}/submit`, { ...base(), pin: '1234', pinConfirm: '4321' });
    expect(bad.status).toBe(400);
    expect(bad.body.data).toContainEqual({ field: 'pinConfirm', message: '确认口令与口令不一致' });
    const missing = await post(`${API}/submit`, { ...base(), pin: '1234' }, 'en');
    expect(missing.body.data).toContainEqual({ field: 'pinConfirm', message: 'Confirm PIN does not match PIN' });
    const id = await add({ ...base(), pin: '1234', pinConfirm: '1234' });
    const d = (await get(`${API}/detail?id=${id}`)).body.data;
    expect(d.pin).toBe('1234');
    expect(d).not.toHaveProperty('pinConfirm');
    // an edit that leaves the pin alone needs no confirmation
    expect((await post(`${API}/submit`, { id, level: 3 })).status).toBe(200);
  });
});

describe('x-joined', () => {
  it('checks each item: format, and that it names a live record of the caller\'s tenant', async () => {
    const [n1, n2] = [await node('甲'), await node('乙')];
    const id = await add({ ...base(), nodeIds: `${n1},${n2}` });
    const d = (await get(`${API}/detail?id=${id}`)).body.data;
    expect(d).toMatchObject({ nodeIds: `${n1},${n2}`, nodeIdsName: '甲,乙' });
    const badFormat = await post(`${API}/submit`, { ...base(), nodeIds: `${n1},x1` });
    expect(badFormat.status).toBe(400);
    expect(badFormat.body.data).toContainEqual({ field: 'nodeIds', message: '节点中的值 x1 格式不正确' });
    const unknown = await post(`${API}/submit`, { ...base(), nodeIds: `${n1},999999999` });
    expect(unknown.status).toBe(400);
    expect(unknown.body.data).toContainEqual({ field: 'nodeIds', message: '节点的值 999999999 不存在' });
    // another tenant's node is as unknown as a missing one
    await t.database.db.insertInto('fmt_rule_node').values({ id: '9900000001', tenant_id: '100001', parent_id: '0', node_name: '别家', sort: 0, is_deleted: 0 } as any).execute();
    const foreign = await post(`${API}/submit`, { ...base(), nodeIds: '9900000001' });
    expect(foreign.status).toBe(400);
    expect(foreign.body.data[0].field).toBe('nodeIds');
    // a removed node too
    await post(`/api/fmt-rule-node/remove?ids=${n2}`, {});
    expect((await post(`${API}/submit`, { ...base(), nodeIds: n2 })).status).toBe(400);
  });
});

describe('partial edits (BladeX updateById)', () => {
  it('change only the fields the body carries; required fields it leaves out keep their stored values', async () => {
    const a = { ...base(), amount: 12.5 };
    const id = await add(a);
    const r = await post(`${API}/submit`, { id, level: '4' });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const d = (await get(`${API}/detail?id=${id}`)).body.data;
    expect(d).toMatchObject({ ruleCode: a.ruleCode, ruleName: a.ruleName, groupCode: 'g1', level: 4, amount: 12.5 });
  });

  it('still judge what the body carries: clearing a required field or a bad value is refused and nothing changes', async () => {
    const a = base();
    const id = await add(a);
    const cleared = await post(`${API}/submit`, { id, ruleName: '' });
    expect(cleared.status).toBe(400);
    expect(cleared.body.data[0].field).toBe('ruleName');
    const big = await post(`${API}/submit`, { id, level: 10 });
    expect(big.status).toBe(400);
    expect((await get(`${API}/detail?id=${id}`)).body.data).toMatchObject({ ruleName: a.ruleName, level: 1 });
  });

  it('an edit that moves a record onto another one\'s unique value is refused', async () => {
    const a = base();
    await add(a);
    const id = await add(base());
    const r = await post(`${API}/submit`, { id, ruleCode: a.ruleCode });
    expect(r.status).toBe(409);
  });
});

describe('type errors', () => {
  it('name the field in msg (zh and en)', async () => {
    const zh = await post(`${API}/submit`, { ...base(), level: 'abc' });
    expect(zh.status).toBe(400);
    expect(zh.body.msg).toContain('级别');
    const en = await post(`${API}/submit`, { ...base(), amount: 'lots' }, 'en');
    expect(en.status).toBe(400);
    expect(en.body.msg).toContain('Amount');
  });
});

/**
 * Writes run in one transaction with their hooks (beforeSave, afterSave, beforeRemove get it as `db`): an
 * HttpError from a hook refuses the write and nothing is written, not even what an earlier hook wrote.
 * And x-lookup: reads add the labels of the referenced records (comma-joined for x-joined values).
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScreenHooks } from '../../src/server/context.js';
import { HttpError } from '../../src/server/lib/http.js';
import { FIXTURE_SCHEMAS, startTestServer, type TestServer } from './helpers.js';

let t: TestServer;
let admin: string;
beforeAll(async () => {
  t = await startTestServer({ schemaDirs: [FIXTURE_SCHEMAS] });
  admin = await t.login();
});
afterAll(async () => t?.close());

const get = (url: string) => t.call(admin, { method: 'GET', url });
const post = (url: string, payload?: unknown) => t.call(admin, { method: 'POST', url, payload: payload as any });
const count = async (name: string) => Number((await sql<{ n: string }>`select count(*) as n from fmt_node where node_name = ${name}`.execute(t.database.db)).rows[0].n);

describe('hooks inside the write transaction', () => {
  const hook: ScreenHooks = {
    async afterSave({ values, db }) {
      // a write of the hook itself, through the transaction it was given
      await sql`insert into fmt_node (id, tenant_id, node_name, parent_id, is_deleted) values (${String(Date.now())}, '000000', ${`${values.nodeName}-log`}, '0', 0)`.execute(db);
      if (values.nodeName === '拒绝') throw new HttpError(400, 'error.badRequest');
    },
    async beforeRemove({ ids, db }) {
      const rows = await db.selectFrom('fmt_node').select('node_name').where('id', 'in', ids).execute();
      if (rows.some((r) => r.node_name === '保留')) throw new HttpError(400, 'error.forbidden');
    },
  };
  beforeAll(() => {
    const list = t.app.ctx.hooks.get('fmtNode') ?? [];
    list.push(hook);
    t.app.ctx.hooks.set('fmtNode', list);
  });
  afterAll(() => {
    const list = t.app.ctx.hooks.get('fmtNode')!;
    list.splice(list.indexOf(hook), 1);
  });

  it('afterSave writes with the record; its HttpError refuses the write and nothing is written', async () => {
    expect((await post('/api/fmt-node/submit', { nodeName: '接受' })).status).toBe(200);
    expect(await count('接受')).toBe(1);
    expect(await count('接受-log')).toBe(1);
    const r = await post('/api/fmt-node/submit', { nodeName: '拒绝' });
    expect(r.status).toBe(400);
    expect(r.body.success).toBe(false);
    expect(await count('拒绝')).toBe(0);
    expect(await count('拒绝-log')).toBe(0);
  });

  it('beforeRemove refuses with its message and nothing is removed', async () => {
    const keep = (await post('/api/fmt-node/submit', { nodeName: '保留' })).body.data.id;
    const other = (await post('/api/fmt-node/submit', { nodeName: '可删' })).body.data.id;
    const r = await post(`/api/fmt-node/remove?ids=${keep},${other}`);
    expect(r.status).toBe(400);
    expect((await get(`/api/fmt-node/detail?id=${other}`)).status).toBe(200);
    expect((await post(`/api/fmt-node/remove?ids=${other}`)).status).toBe(200);
    expect((await get(`/api/fmt-node/detail?id=${other}`)).status).toBe(404);
  });
});

describe('x-lookup', () => {
  it('adds <field>Name with the labels of the referenced records (x-joined: comma-joined), tenant scoped', async () => {
    const a = (await post('/api/fmt-node/submit', { nodeName: '甲' })).body.data.id;
    const b = (await post('/api/fmt-node/submit', { nodeName: '乙' })).body.data.id;
    expect((await post('/api/fmt-area/submit', { code: '31', name: '上海', nodeIds: `${a},${b}` })).status).toBe(200);
    expect((await post('/api/fmt-area/submit', { code: '32', name: '江苏' })).status).toBe(200);
    const d = (await get('/api/fmt-area/detail?code=31')).body.data;
    expect(d).toMatchObject({ nodeIds: `${a},${b}`, nodeIdsName: '甲,乙' });
    const list = (await get('/api/fmt-area/list')).body.data.records;
    expect(list.find((r: any) => r.code === '32').nodeIdsName).toBeNull();
    await t.database.db.updateTable('fmt_node').set({ tenant_id: '999999' }).where('id', '=', b).execute();
    expect((await get('/api/fmt-area/detail?code=31')).body.data.nodeIdsName).toBe('甲');
  });
});

describe('numeric strings on submit', () => {
  it('are stored as numbers for integer fields; a non-number is still a 400 naming the field', async () => {
    const r = await post('/api/test-note/submit', { noteTitle: '数字', priority: '4' });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect((await get(`/api/test-note/detail?id=${r.body.data.id}`)).body.data.priority).toBe(4);
    expect((await get('/api/test-note/list?priority=4')).body.data.total).toBe(1);
    const bad = await post('/api/test-note/submit', { noteTitle: '数字', priority: 'four' });
    expect(bad.status).toBe(400);
    expect(bad.body.data[0].field).toBe('priority');
  });
});

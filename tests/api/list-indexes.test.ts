/**
 * Every list is served by indexes (issue 9: contains by default, kept fast by trigram indexes; issue 13: every
 * sortable and searchable column has an index), on the database the suite runs on (PGlite, or PostgreSQL in CI);
 * and the list parameters every BladeX client sends work on every list: createTime ranges, contains on names.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existingIndexes, missingListIndexes, plannedListIndexes } from '../../src/server/db/list-indexes.js';
import { FIXTURE_SCHEMAS, startTestServer, type TestServer } from './helpers.js';

let t: TestServer;
let admin: string;
beforeAll(async () => {
  t = await startTestServer({ schemaDirs: [FIXTURE_SCHEMAS] });
  admin = await t.login();
});
afterAll(async () => t?.close());

const get = (url: string) => t.call(admin, { method: 'GET', url });

describe('list indexes', () => {
  it('every sortable column and every searchable column of every document table has an index after a start', async () => {
    const docs = t.app.ctx.docs.all;
    expect(await missingListIndexes(t.database.db, docs)).toEqual([]);
    // and the plan is not empty by accident: the order list's money column and its name searches are in it
    const shapes = new Map<string, { columns: Map<string, string> }>();
    const cols = await sql<{ table_name: string; column_name: string; data_type: string }>`select table_name, column_name, data_type from information_schema.columns where table_schema = current_schema()`.execute(t.database.db);
    for (const r of cols.rows) {
      if (!shapes.has(r.table_name)) shapes.set(r.table_name, { columns: new Map() });
      shapes.get(r.table_name)!.columns.set(r.column_name, r.data_type);
    }
    const planned = plannedListIndexes(docs, shapes);
    expect(planned.length).toBeGreaterThan(30);
    expect(planned).toContainEqual(expect.objectContaining({ table: 'canteen_order', column: 'pay_amount', kind: 'sort' }));
    expect(planned).toContainEqual(expect.objectContaining({ table: 'canteen_order', column: 'merchant_name', kind: 'trigram' }));
    expect(planned).toContainEqual(expect.objectContaining({ table: 'canteen_account_records', column: 'account_name', kind: 'trigram' }));
    const all = await existingIndexes(t.database.db);
    expect(all.some((ix) => ix.table === 'canteen_order' && ix.gin && ix.columns[0] === 'employee_name')).toBe(true);
  });

  it('a dropped index is created again at the next start', async () => {
    const { prepareDatabase } = await import('../../src/server/setup.js');
    const [ix] = (await sql<{ indexname: string }>`select indexname from pg_indexes where tablename = 'canteen_order' and indexname like '%merchant_name_trgm'`.execute(t.database.db)).rows;
    expect(ix).toBeDefined();
    await sql.raw(`drop index "${ix.indexname}"`).execute(t.database.db);
    expect((await missingListIndexes(t.database.db, t.app.ctx.docs.all)).map((m) => m.name)).toEqual([ix.indexname]);
    const prep = await prepareDatabase(t.database.db, t.app.ctx.docs, t.config);
    expect(prep.tableChanges).toContain(`create index ${ix.indexname}`);
    expect(await missingListIndexes(t.database.db, t.app.ctx.docs.all)).toEqual([]);
  });
});

describe('list parameters on every list', () => {
  const lists = ['/api/employee/list', '/api/banner/list', '/api/settlement/list', '/api/blade-wxUser/wxUser/list', '/api/merchant/list', '/api/order/list', '/api/account/records/list'];

  it('createTime_dategt / createTime_datelt are read by every list that has a create time (a malformed one is refused, not ignored)', async () => {
    for (const url of lists) {
      const all = await get(`${url}?current=1&size=10`);
      expect(all.status, url).toBe(200);
      const bad = await get(`${url}?current=1&size=10&createTime_dategt=yesterday`);
      expect(bad.status, url).toBe(400);
      const future = await get(`${url}?current=1&size=10&createTime_dategt=2999-01-01%2000:00:00`);
      expect(future.status, url).toBe(200);
      expect(future.body.data.total, url).toBe(0);
      const wide = await get(`${url}?current=1&size=10&createTime_dategt=1999-01-01%2000:00:00&createTime_datelt=2999-01-01%2000:00:00`);
      expect(wide.body.data.total, url).toBe(all.body.data.total);
    }
  });
});

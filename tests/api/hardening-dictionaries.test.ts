/**
 * Finding 5 of issue 14: dictionary values are checked in every tenant. A tenant without its own business
 * dictionary falls back to the system one (the administrators' tenant 000000 for business codes, blade_dict
 * for system codes); a value that no dictionary knows is refused.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDictionaries } from '../../src/server/crud/dictionaries.js';
import { dictionaryErrors } from '../../src/server/crud/validate.js';
import { merchantBody, startTestServer, type TestServer } from './helpers.js';

let t: TestServer;
let admin: string;
beforeAll(async () => {
  t = await startTestServer();
  admin = await t.login();
});
afterAll(async () => t?.close());

const merchantDoc = () => t.app.ctx.docs.byId.get('merchant')!;

describe('dictionary values in a tenant without business dictionaries', () => {
  it('the tenant sees the system tenant\'s business dictionary', async () => {
    const dicts = await loadDictionaries(t.database.db, ['merchant_status', 'sex'], '222222');
    expect(dicts.get('merchant_status')?.map((e) => e.key)).toEqual(['1', '2', '3']);
    expect(dicts.get('sex')?.length).toBeGreaterThan(0);
  });

  it('merchant status 999 is refused, 2 is taken', async () => {
    const bad = await dictionaryErrors(t.database.db, merchantDoc(), { status: 999 }, '222222', t.app.ctx.i18n, 'zh');
    expect(bad.map((e) => e.field)).toEqual(['status']);
    expect(bad[0].message).toContain('999');
    expect(await dictionaryErrors(t.database.db, merchantDoc(), { status: 2 }, '222222', t.app.ctx.i18n, 'zh')).toEqual([]);
  });

  it('a tenant\'s own business dictionary still wins over the fallback', async () => {
    await sql`insert into blade_dict_biz (id, tenant_id, parent_id, code, dict_key, dict_value, sort, is_sealed, is_deleted)
      values (990000000000000001, '333333', 0, 'merchant_status', '-1', '商家状态', 0, 0, 0),
             (990000000000000002, '333333', 990000000000000001, 'merchant_status', '7', '自定义', 1, 0, 0)`.execute(t.database.db);
    expect((await loadDictionaries(t.database.db, ['merchant_status'], '333333')).get('merchant_status')?.map((e) => e.key)).toEqual(['7']);
    expect(await dictionaryErrors(t.database.db, merchantDoc(), { status: 7 }, '333333', t.app.ctx.i18n, 'zh')).toEqual([]);
    expect(await dictionaryErrors(t.database.db, merchantDoc(), { status: 1 }, '333333', t.app.ctx.i18n, 'zh')).toHaveLength(1);
  });

  it('a value of a dictionary that has no entries anywhere is refused, and nothing is written', async () => {
    await t.database.db.updateTable('blade_dict_biz').set({ is_deleted: 1 }).where('code', '=', 'merchant_status').execute();
    try {
      const count = async () => Number((await t.database.db.selectFrom('canteen_merchant').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
      const before = await count();
      const r = await t.call(admin, { method: 'POST', url: '/api/merchant/submit', payload: merchantBody({ status: 999 }) });
      expect(r.status, JSON.stringify(r.body)).toBe(400);
      expect(r.body.data.map((e: { field: string }) => e.field)).toContain('status');
      expect(await count()).toBe(before);
    } finally {
      await t.database.db.updateTable('blade_dict_biz').set({ is_deleted: 0 }).where('code', '=', 'merchant_status').execute();
    }
  });
});

/**
 * Finding 6 of issue 14: a range never ends before it starts — date-range arrays of two items
 * (merchant contractDaterange, banner enableDaterange) and from/to pairs (…Start/…End, …From/…To).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateValues } from '../../src/server/crud/validate.js';
import type { ScreenDocument } from '../../src/shared/document.js';
import { merchantBody, startTestServer, type TestServer } from './helpers.js';

let t: TestServer;
let admin: string;
beforeAll(async () => {
  t = await startTestServer();
  admin = await t.login();
});
afterAll(async () => t?.close());

const count = async (table: string) => Number((await t.database.db.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

describe('reversed ranges', () => {
  it('a merchant contract that ends before it starts is refused on add and on edit, nothing written', async () => {
    const before = await count('canteen_merchant');
    const r = await t.call(admin, { method: 'POST', url: '/api/merchant/submit', payload: merchantBody({ contractDaterange: ['2026-12-31', '2026-01-01'] }) });
    expect(r.status, JSON.stringify(r.body)).toBe(400);
    expect(r.body.data.map((e: { field: string }) => e.field)).toEqual(['contractDaterange']);
    expect(await count('canteen_merchant')).toBe(before);
    const same = await t.call(admin, { method: 'POST', url: '/api/merchant/submit', payload: merchantBody({ contractDaterange: ['2026-05-01', '2026-05-01'] }) });
    expect(same.status, 'a one-day contract is fine').toBe(200);
    const { loginPsw, payPsw, ...rest } = merchantBody({ contractDaterange: ['2027-01-02', '2027-01-01'] });
    void loginPsw; void payPsw;
    const edit = await t.call(admin, { method: 'POST', url: '/api/merchant/submit', payload: { ...rest, id: same.body.data.id } });
    expect(edit.status).toBe(400);
    const row = await t.database.db.selectFrom('canteen_merchant').selectAll().where('id', '=', same.body.data.id).executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain('2027-01-0');
  });

  it('a banner shown from a time after its end is refused', async () => {
    const doc = t.app.ctx.docs.byId.get('banner')!;
    const errors = validateValues(doc, 'add', { enableFlag: 2, enableDaterange: ['2026-03-02 10:00:00', '2026-03-02 09:59:59'] }, t.app.ctx.i18n, 'en');
    expect(errors.find((e) => e.field === 'enableDaterange')?.message).toMatch(/end/i);
  });

  it('from/to pairs of a document are refused reversed (start/end, from/to)', async () => {
    const doc = {
      ...t.app.ctx.docs.byId.get('merchant')!,
      schema: {
        type: 'object',
        properties: {
          validStart: { type: 'string', format: 'date' },
          validEnd: { type: 'string', format: 'date' },
          amountFrom: { type: 'number' },
          amountTo: { type: 'number' },
        },
      },
    } as unknown as ScreenDocument;
    const bad = validateValues(doc, 'add', { validStart: '2026-02-01', validEnd: '2026-01-31', amountFrom: 10, amountTo: 9.99 }, t.app.ctx.i18n, 'zh');
    expect(bad.map((e) => e.field).sort()).toEqual(['amountTo', 'validEnd']);
    expect(validateValues(doc, 'add', { validStart: '2026-01-01', validEnd: '2026-01-31', amountFrom: 1, amountTo: 1 }, t.app.ctx.i18n, 'zh')).toEqual([]);
  });
});

/** A new list screen needs only a document (+ locale keys): tests/fixtures/schemas/test/note.json via SCHEMA_DIRS. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import productZh from '../../locales/zh.json' with { type: 'json' };
import productEn from '../../locales/en.json' with { type: 'json' };
// The fixture folder brings its own strings (SCHEMA_DIRS <dir>/locales/<lang>.json), not the product's files.
import zh from '../fixtures/schemas/locales/zh.json' with { type: 'json' };
import en from '../fixtures/schemas/locales/en.json' with { type: 'json' };
import { FIXTURE_SCHEMAS, startTestServer, type TestServer } from './helpers.js';

let t: TestServer;
let admin: string;
beforeAll(async () => {
  t = await startTestServer({ schemaDirs: [FIXTURE_SCHEMAS] });
  admin = await t.login();
});
afterAll(async () => t?.close());

describe('test-only screen document mounted via SCHEMA_DIRS', () => {
  it('brings its locale keys in both languages in its own folder, none in the product\'s locale files', async () => {
    expect((zh as any).testNote.title).toBeTruthy();
    expect((en as any).testNote.title).toBeTruthy();
    expect(productZh).not.toHaveProperty('testNote');
    expect(productEn).not.toHaveProperty('testNote');
    // the server adds them to its texts (messages, menu names) and serves them to the web app
    expect(t.app.ctx.i18n.t('en', 'testNote.msg.noteTitle')).toBe((en as any).testNote.msg.noteTitle);
    expect(t.app.ctx.i18n.t('zh', 'merchant.title')).toBe((productZh as any).merchant.title);
    const extra = await t.call(admin, { method: 'GET', url: '/api/blade-system/locale/extra' });
    expect(extra.body.data).toEqual({ zh, en });
    expect((await t.call(undefined, { method: 'GET', url: '/api/blade-system/locale/extra' })).status).toBe(401);
    // a locales folder is not a screen document
    expect([...t.app.ctx.docs.files.values()].some((f) => f.includes('locales'))).toBe(false);
  });

  it('without the folder the product has no extra strings', async () => {
    const { I18n } = await import('../../src/server/lib/i18n.js');
    const plain = new I18n(t.config.rootDir);
    expect(plain.extraTexts('zh')).toEqual({});
    expect(plain.t('zh', 'testNote.title')).toBe('testNote.title');
  });

  it('is auto-registered in the menu under its parent with its buttons, granted to administrator', async () => {
    const routes = (await t.call(admin, { method: 'GET', url: '/api/blade-system/menu/routes' })).body.data;
    const canteen = routes.find((m: any) => m.code === 'canteen');
    const note = canteen.children.find((m: any) => m.code === 'test_note');
    expect(note).toMatchObject({ path: '/test/note', name: (zh as any).testNote.title, nameEn: (en as any).testNote.title, source: 'FileTextOutlined', sort: 90 });
    const buttons = JSON.stringify((await t.call(admin, { method: 'GET', url: '/api/blade-system/menu/buttons' })).body.data);
    for (const c of ['test_note_add', 'test_note_edit', 'test_note_delete', 'test_note_view']) expect(buttons).toContain(`"code":"${c}"`);
    expect(buttons).not.toContain('test_note_export');
    const screens = (await t.call(admin, { method: 'GET', url: '/api/blade-system/screen/list' })).body.data;
    expect(screens).toContainEqual({ id: 'testNote', route: '/test/note', title: 'testNote.title' });
  });

  it('gets a table and working list/detail/submit/remove', async () => {
    const add = await t.call(admin, { method: 'POST', url: '/api/test-note/submit', payload: { noteTitle: '第一条', content: '内容' } });
    expect(add.status, JSON.stringify(add.body)).toBe(200);
    const id = add.body.data.id;
    await t.call(admin, { method: 'POST', url: '/api/test-note/submit', payload: { noteTitle: '第二条', priority: 5 } });
    const l = (await t.call(admin, { method: 'GET', url: '/api/test-note/list?ascs=noteTitle' })).body.data;
    expect(l.total).toBe(2);
    expect(l.records.map((r: any) => r.noteTitle)).toEqual(['第一条', '第二条'].sort());
    const d = (await t.call(admin, { method: 'GET', url: `/api/test-note/detail?id=${id}` })).body.data;
    expect(d).toMatchObject({ id, noteTitle: '第一条', content: '内容', priority: 3 });
    expect((await t.call(admin, { method: 'GET', url: '/api/test-note/list?priority=5' })).body.data.total).toBe(1);
    const edit = await t.call(admin, { method: 'POST', url: '/api/test-note/submit', payload: { id, noteTitle: '改过', content: '' } });
    expect(edit.status).toBe(200);
    expect((await t.call(admin, { method: 'GET', url: `/api/test-note/detail?id=${id}` })).body.data).toMatchObject({ noteTitle: '改过', content: null });
    const bad = await t.call(admin, { method: 'POST', url: '/api/test-note/submit', payload: { content: 'x' } });
    expect(bad.body.msg).toBe((zh as any).testNote.msg.noteTitle);
    const badEn = await t.call(admin, { method: 'POST', url: '/api/test-note/submit?lang=en', payload: { noteTitle: 'x', priority: 9 } });
    expect(badEn.status).toBe(400);
    expect(badEn.body.data[0].field).toBe('priority');
    expect((await t.call(admin, { method: 'POST', url: `/api/test-note/remove?ids=${id}` })).status).toBe(200);
    expect((await t.call(admin, { method: 'GET', url: '/api/test-note/list' })).body.data.total).toBe(1);
  });

  it('count policy `capped`: exact up to countCap, then an estimate of at least cap + 1, marked totalEstimated', async () => {
    const doc = t.app.ctx.docs.get('testNote')!;
    for (let i = 0; i < 4; i++) await t.call(admin, { method: 'POST', url: '/api/test-note/submit', payload: { noteTitle: `计数${i}` } });
    const exact = (await t.call(admin, { method: 'GET', url: '/api/test-note/list?noteTitle=计数' })).body.data;
    expect(exact.total).toBe(4);
    expect(exact.records.map((r: { noteTitle: string }) => r.noteTitle)).toEqual(['计数3', '计数2', '计数1', '计数0']);
    expect((await t.call(admin, { method: 'GET', url: '/api/test-note/list?noteTitle=计数&size=10&current=2' })).body.data).toMatchObject({ records: [], total: 4 });
    expect(exact).not.toHaveProperty('totalEstimated');
    doc.resource.count = 'capped';
    doc.resource.countCap = 10;
    try {
      const under = (await t.call(admin, { method: 'GET', url: '/api/test-note/list?noteTitle=计数' })).body.data;
      expect(under.total).toBe(4);
      expect(under).not.toHaveProperty('totalEstimated');
      doc.resource.countCap = 2;
      const est = (await t.call(admin, { method: 'GET', url: '/api/test-note/list?noteTitle=计数&size=2' })).body.data;
      expect(est.total).toBeGreaterThanOrEqual(3);
      expect(est.totalEstimated).toBe(true);
      expect(est.pages).toBe(Math.ceil(est.total / 2));
      expect(est.records).toHaveLength(2);
      // count and page come in one statement: a page past the end still knows the total
      const past = (await t.call(admin, { method: 'GET', url: '/api/test-note/list?noteTitle=计数&size=2&current=99' })).body.data;
      expect(past.records).toEqual([]);
      expect(past.total).toBeGreaterThanOrEqual(3);
    } finally {
      delete doc.resource.count;
      delete doc.resource.countCap;
    }
  });

  it('resource.readOnlyApi refuses submit and remove even to administrators', async () => {
    const doc = t.app.ctx.docs.get('testNote')!;
    doc.resource.readOnlyApi = true;
    try {
      const r = await t.call(admin, { method: 'POST', url: '/api/test-note/submit', payload: { noteTitle: 'x' } });
      expect(r.status).toBe(403);
      expect((await t.call(admin, { method: 'POST', url: '/api/test-note/remove?ids=1' })).status).toBe(403);
      expect((await t.call(admin, { method: 'GET', url: '/api/test-note/list' })).status).toBe(200);
    } finally {
      delete doc.resource.readOnlyApi;
    }
  });

  it('is invisible to a role without its menu code', async () => {
    const { hashPassword } = await import('../../src/server/lib/password.js');
    const { md5 } = await import('./helpers.js');
    await t.database.db.insertInto('blade_user').values({ id: '900000000000000020', tenant_id: '000000', account: 'u2', password: await hashPassword(md5('u2u2u2')), role_id: '1123598816738675202', is_deleted: 0, status: 1 }).execute();
    const u = await t.login('u2', 'u2u2u2');
    expect((await t.call(u, { method: 'GET', url: '/api/test-note/list' })).status).toBe(403);
    const screens = (await t.call(u, { method: 'GET', url: '/api/blade-system/screen/list' })).body.data.map((s: any) => s.id);
    expect(screens).toContain('merchant');
    expect(screens).not.toContain('testNote');
  });
});

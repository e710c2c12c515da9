/**
 * Notices (blade-desk/notice, issue 11) are a screen document only (schemas/desk/notice.json): required fields
 * with their messages, the `notice` dictionary checked, search by title (contains), type and release time, and
 * the tenant from the token.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers.js';

const API = '/api/blade-desk/notice';
let t: TestServer;
let admin: string;
beforeAll(async () => {
  t = await startTestServer();
  admin = await t.login();
});
afterAll(async () => t?.close());

const post = (url: string, payload: unknown, lang = 'zh') => t.call(admin, { method: 'POST', url, payload: payload as any, headers: { 'accept-language': lang } });
const get = (url: string) => t.call(admin, { method: 'GET', url });

describe('notices', () => {
  it('refuses a notice without its fields, with the messages of each (zh and en)', async () => {
    const r = await post(`${API}/submit`, {});
    expect(r.status).toBe(400);
    const msgs = Object.fromEntries((r.body.data as any[]).map((e) => [e.field, e.message]));
    expect(msgs).toEqual({ title: '请输入通知标题', category: '请选择通知类型', releaseTime: '请选择通知时间', content: '请输入通知内容' });
    const en = await post(`${API}/submit`, {}, 'en');
    expect(en.body.data.map((e: any) => e.message)).toContain('Please enter the title');
    const badType = await post(`${API}/submit`, { title: 'x', category: 9, releaseTime: '2026-11-01 09:00:00', content: 'y' });
    expect(badType.status).toBe(400);
    expect(badType.body.data[0].field).toBe('category');
  });

  it('adds, finds by a part of the title, the type and the release time, and edits partially', async () => {
    const add = await post(`${API}/submit`, { title: '食堂十二月菜单调整', category: '1', releaseTime: '2026-11-20 09:00:00', content: '早餐时间提前半小时' });
    expect(add.status, JSON.stringify(add.body)).toBe(200);
    await post(`${API}/submit`, { title: '停电通知', category: 6, releaseTime: '2026-10-01 09:00:00', content: '周六停电' });
    const byTitle = (await get(`${API}/list?title=${encodeURIComponent('菜单')}`)).body.data;
    expect(byTitle.records.map((r: any) => r.title)).toEqual(['食堂十二月菜单调整']);
    expect((await get(`${API}/list?category=6`)).body.data.records.map((r: any) => r.title)).toEqual(['停电通知']);
    const inNov = (await get(`${API}/list?releaseTime_datege=2026-11-01%2000:00:00&releaseTime_datelt=2026-12-01%2000:00:00`)).body.data;
    expect(inNov.records.map((r: any) => r.title)).toEqual(['食堂十二月菜单调整']);
    const id = add.body.data.id;
    expect((await post(`${API}/submit`, { id, content: '早餐时间提前一小时' })).status).toBe(200);
    const d = (await get(`${API}/detail?id=${id}`)).body.data;
    expect(d).toMatchObject({ title: '食堂十二月菜单调整', category: 1, content: '早餐时间提前一小时', tenantId: '000000' });
  });

  it('keeps each tenant\'s notices to itself', async () => {
    await t.database.db.insertInto('blade_notice').values({ id: '9700000001', tenant_id: '100009', title: '别家通知', category: 1, release_time: '2026-11-01 09:00:00', content: 'x', is_deleted: 0, status: 1 } as any).execute();
    const list = (await get(`${API}/list?size=200`)).body.data.records.map((r: any) => r.title);
    expect(list).not.toContain('别家通知');
    expect((await get(`${API}/detail?id=9700000001`)).status).toBe(404);
    expect((await post(`${API}/remove?ids=9700000001`, {})).status).toBe(404);
  });
});

describe('the notice inbox of the top bar', () => {
  it('lists the released notices of the tenant newest first, with the unread count; marking read lowers it', async () => {
    await post(`${API}/submit`, { title: '明年的通知', category: 1, releaseTime: '2099-01-01 09:00:00', content: '还没发布' });
    const inbox = async (q = '', token = admin) => {
      const r = await t.call(token, { method: 'GET', url: `${API}/inbox${q}` });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      return r.body.data;
    };
    const first = await inbox('?size=1');
    const all = await inbox('?size=50');
    expect(all.records.map((r: any) => r.title)).not.toContain('明年的通知');
    expect(all.total).toBe(all.records.length);
    expect(first.records[0].id).toBe(all.records[0].id);
    const times = all.records.map((r: any) => r.releaseTime);
    expect([...times].sort().reverse()).toEqual(times);
    expect(all.unread).toBe(all.total);
    expect(all.records.every((r: any) => r.read === false)).toBe(true);
    const read = await t.call(admin, { method: 'POST', url: `${API}/read?ids=${all.records[0].id}` });
    expect(read.body.data).toEqual({ read: 1 });
    const after = await inbox('?size=50');
    expect(after.unread).toBe(all.total - 1);
    expect(after.records[0].read).toBe(true);
    // read again: nothing changes; all: every one
    await t.call(admin, { method: 'POST', url: `${API}/read?ids=${all.records[0].id}` });
    await t.call(admin, { method: 'POST', url: `${API}/read?all=true` });
    expect((await inbox()).unread).toBe(0);
  });

  it('is per user and per tenant: another user still has them unread, another tenant sees none and marks none', async () => {
    const { operator } = await import('./system-helpers.js');
    const other = await operator(t, 'inboxusr', ['desk']);
    const mine = (await t.call(other.token, { method: 'GET', url: `${API}/inbox` })).body.data;
    expect(mine.unread).toBeGreaterThan(0);
    await t.database.db.insertInto('blade_tenant').values({ id: '900000000000009333', tenant_id: '333333', tenant_name: '第三方', is_deleted: 0, status: 1 }).execute();
    const stranger = await operator(t, 'inboxstr', ['desk'], '333333');
    const theirs = (await t.call(stranger.token, { method: 'GET', url: `${API}/inbox` })).body.data;
    expect(theirs).toMatchObject({ records: [], total: 0, unread: 0 });
    const id = mine.records[0].id;
    expect((await t.call(stranger.token, { method: 'POST', url: `${API}/read?ids=${id}` })).body.data).toEqual({ read: 0 });
    expect((await t.call(stranger.token, { method: 'POST', url: `${API}/read?ids=not-an-id` })).status).toBe(400);
    expect((await t.call(undefined, { method: 'GET', url: `${API}/inbox` })).status).toBe(401);
  });
});

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

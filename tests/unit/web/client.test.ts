// @vitest-environment happy-dom
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { initI18n } from '../../../src/web/i18n.js';
import { request, onUnauthorized, ApiError, buildUrl } from '../../../src/web/api/client.js';
import { toast } from '../../../src/web/lib/toast.js';
import { website } from '../../../src/web/config.js';
import { session, saveTokens, tokenAgeSeconds } from '../../../src/web/auth/session.js';
import { getStoreItem, setStore, getStore, removeStore } from '../../../src/web/lib/storage.js';
import { progressPending } from '../../../src/web/lib/progress.js';
import { permissionMap } from '../../../src/web/auth/actions.js';

beforeAll(async () => {
  await initI18n();
});
afterEach(() => {
  vi.restoreAllMocks();
  website.statusWhiteList = [];
});

function reply(status: number, body: unknown, type = 'application/json') {
  return vi.spyOn(globalThis, 'fetch').mockResolvedValue(new Response(typeof body === 'string' ? body : JSON.stringify(body), { status, headers: { 'content-type': type } }));
}

describe('api client: error catalogue', () => {
  it('sends Basic client auth, Blade-Auth bearer and Tenant-Id; resolves the body on code 200', async () => {
    saveTokens({ access_token: 'tok', refresh_token: 'ref', tenant_id: '000000', user_id: '1' });
    const f = reply(200, { code: 200, success: true, data: { x: 1 }, msg: 'ok' });
    const r = await request({ url: '/api/x', params: { a: 1, b: '', c: undefined } });
    expect(r).toEqual({ code: 200, success: true, data: { x: 1 }, msg: 'ok' });
    const [url, init] = f.mock.calls[0] as [string, RequestInit];
    expect(url).toBe('/api/x?a=1');
    const h = init.headers as Record<string, string>;
    expect(h.Authorization).toBe('Basic c2FiZXI6c2FiZXJfc2VjcmV0');
    expect(h['Blade-Auth']).toBe('bearer tok');
    expect(h['Tenant-Id']).toBe('000000');
    expect(progressPending()).toBe(0);
  });

  it('treats HTTP 400 as an answer: toast msg, reject with the code', async () => {
    const spy = vi.spyOn(toast, 'error').mockImplementation(() => undefined);
    reply(400, { code: 400, success: false, data: { field: 'x' }, msg: '商家名称不能为空' });
    const e = await request({ url: '/api/x' }).catch((x) => x);
    expect(e).toBeInstanceOf(ApiError);
    expect(e.code).toBe(400);
    expect(spy).toHaveBeenCalledWith('商家名称不能为空');
  });

  it('uses error_description, then 未知错误; code from the body wins over HTTP 200', async () => {
    const spy = vi.spyOn(toast, 'error').mockImplementation(() => undefined);
    reply(400, { error: 'invalid_grant', error_description: '用户名或密码错误' });
    await expect(request({ url: '/api/x' })).rejects.toThrow('用户名或密码错误');
    reply(200, { code: 500 });
    const e = await request({ url: '/api/x' }).catch((x) => x);
    expect(e.code).toBe(500);
    expect(spy).toHaveBeenLastCalledWith('未知错误');
  });

  it('an HTTP 500 is an answer, an HTTP 502 or a network failure rejects without a toast and ends the bar', async () => {
    const spy = vi.spyOn(toast, 'error').mockImplementation(() => undefined);
    reply(500, { code: 500, msg: '服务器异常' });
    await expect(request({ url: '/api/x' })).rejects.toThrow('服务器异常');
    expect(spy).toHaveBeenCalledTimes(1);
    reply(502, 'bad gateway', 'text/plain');
    const e = await request({ url: '/api/x' }).catch((x) => x);
    expect(e.network).toBe(true);
    vi.spyOn(globalThis, 'fetch').mockRejectedValue(new TypeError('Failed to fetch'));
    const n = await request({ url: '/api/x' }).catch((x) => x);
    expect(n.network).toBe(true);
    expect(spy).toHaveBeenCalledTimes(1);
    expect(progressPending()).toBe(0);
  });

  it('whitelisted codes reject silently; 401 runs the local logout', async () => {
    const spy = vi.spyOn(toast, 'error').mockImplementation(() => undefined);
    website.statusWhiteList = [409];
    reply(409, { code: 409, msg: 'conflict' });
    await expect(request({ url: '/api/x' })).rejects.toMatchObject({ code: 409 });
    expect(spy).not.toHaveBeenCalled();
    const logout = vi.fn();
    onUnauthorized(logout);
    reply(401, { code: 401, msg: '请求未授权' });
    await expect(request({ url: '/api/x' })).rejects.toMatchObject({ code: 401 });
    expect(logout).toHaveBeenCalledTimes(1);
  });

  it('builds /api urls from relative paths', () => {
    expect(buildUrl('blade-system/menu/routes', { topMenuId: '1' })).toBe('/api/blade-system/menu/routes?topMenuId=1');
    expect(buildUrl('/api/a?x=1', { ids: ['1', '2'] })).toBe('/api/a?x=1&ids=1%2C2');
  });
});

describe('storage and session', () => {
  it('wraps values as {content, dataType, type, datetime} under saber-', () => {
    setStore('foo', { a: 1 });
    const raw = JSON.parse(localStorage.getItem('saber-foo')!);
    expect(raw).toMatchObject({ content: { a: 1 }, dataType: 'object', type: false });
    expect(typeof raw.datetime).toBe('number');
    setStore('bar', 'x', true);
    expect(sessionStorage.getItem('saber-bar')).toBeTruthy();
    expect(getStore('bar')).toBe('x');
    removeStore('foo');
    expect(getStoreItem('foo')).toBeUndefined();
  });

  it('measures the token age from its stored time', () => {
    saveTokens({ access_token: 'a', refresh_token: 'r', tenant_id: '000000', user_id: '1' });
    expect(tokenAgeSeconds()).toBeLessThan(2);
    const raw = JSON.parse(localStorage.getItem('saber-token')!);
    raw.datetime -= 3001_000;
    localStorage.setItem('saber-token', JSON.stringify(raw));
    expect(tokenAgeSeconds()).toBeGreaterThanOrEqual(3000);
    expect(session.get().token).toBe('a');
  });

  it('turns the button tree into {code: true} for leaves', () => {
    const map = permissionMap([{ id: '1', name: 'm', path: '/m', code: 'merchant', children: [{ id: '2', name: 'a', path: '', code: 'merchant_add' }, { id: '3', name: 'b', path: '', code: 'merchant_view' }] }]);
    expect(map).toEqual({ merchant_add: true, merchant_view: true });
  });
});

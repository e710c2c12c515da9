// @vitest-environment happy-dom
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { initI18n } from '../../../src/web/i18n.js';
import { request, onUnauthorized, ApiError, buildUrl, prefetch, takeAnswer } from '../../../src/web/api/client.js';
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

describe('api client: reads started early (prefetch)', () => {
  const ok = (data: unknown) => new Response(JSON.stringify({ code: 200, success: true, data, msg: 'ok' }), { status: 200, headers: { 'content-type': 'application/json' } });

  it('hands a started read to the first matching request, once; the early caller gets its own copy', async () => {
    saveTokens({ access_token: 'tok-a', refresh_token: 'ref', tenant_id: '000000', user_id: '1' });
    const f = vi.spyOn(globalThis, 'fetch').mockImplementation(async () => ok({ n: 1 }));
    const early = prefetch('/api/early/one', { id: 7 });
    const r = await request({ url: '/api/early/one', params: { id: 7 } });
    expect(r).toMatchObject({ code: 200, data: { n: 1 } });
    expect(await early).toMatchObject({ code: 200, data: { n: 1 } });
    expect(f).toHaveBeenCalledTimes(1);
    expect((f.mock.calls[0][1] as RequestInit & { headers: Record<string, string> }).headers['Blade-Auth']).toBe('bearer tok-a');
    // used once: the next request reads anew
    await request({ url: '/api/early/one', params: { id: 7 } });
    expect(f).toHaveBeenCalledTimes(2);
  });

  it('is not handed to a request with other parameters or another token', async () => {
    saveTokens({ access_token: 'tok-b', refresh_token: 'ref', tenant_id: '000000', user_id: '1' });
    const f = vi.spyOn(globalThis, 'fetch').mockImplementation(async () => ok({}));
    void prefetch('/api/early/two', { id: 1 });
    await request({ url: '/api/early/two', params: { id: 2 } });
    expect(f).toHaveBeenCalledTimes(2);
    saveTokens({ access_token: 'tok-c', refresh_token: 'ref', tenant_id: '000000', user_id: '1' });
    await request({ url: '/api/early/two', params: { id: 1 } });
    expect(f).toHaveBeenCalledTimes(3);
  });

  it('a read that failed to arrive is made again by the request', async () => {
    saveTokens({ access_token: 'tok-d', refresh_token: 'ref', tenant_id: '000000', user_id: '1' });
    const f = vi.spyOn(globalThis, 'fetch').mockRejectedValueOnce(new TypeError('network')).mockImplementation(async () => ok({ again: true }));
    expect(await prefetch('/api/early/three')).toBeUndefined();
    const r = await request({ url: '/api/early/three' });
    expect(r).toMatchObject({ data: { again: true } });
    expect(f).toHaveBeenCalledTimes(2);
  });

  it('an early 401 logs out only when the app makes that request, with the usual handling', async () => {
    saveTokens({ access_token: 'tok-e', refresh_token: 'ref', tenant_id: '000000', user_id: '1' });
    vi.spyOn(toast, 'error').mockImplementation(() => undefined);
    const logout = vi.fn();
    onUnauthorized(logout);
    vi.spyOn(globalThis, 'fetch').mockImplementation(async () => new Response(JSON.stringify({ code: 401, msg: '请求未授权' }), { status: 401, headers: { 'content-type': 'application/json' } }));
    expect(await prefetch('/api/early/four')).toBeUndefined();
    expect(logout).not.toHaveBeenCalled();
    await expect(request({ url: '/api/early/four' })).rejects.toMatchObject({ code: 401 });
    expect(logout).toHaveBeenCalledTimes(1);
  });

  it('takeAnswer gives an arrived answer at once, once, only a successful one, and only if accepted', async () => {
    saveTokens({ access_token: 'tok-f', refresh_token: 'ref', tenant_id: '000000', user_id: '1' });
    const f = vi.spyOn(globalThis, 'fetch').mockImplementation(async (u) =>
      String(u).includes('refused') ? new Response(JSON.stringify({ code: 400, msg: 'no' }), { status: 400, headers: { 'content-type': 'application/json' } }) : ok({ rows: [1, 2] }),
    );
    expect(takeAnswer('/api/early/five', { id: 1 })).toBeUndefined(); // nothing started
    const early = prefetch('/api/early/five', { id: 1 });
    expect(takeAnswer('/api/early/five', { id: 1 })).toBeUndefined(); // started, not arrived
    await early;
    expect(takeAnswer('/api/early/five', { id: 2 })).toBeUndefined(); // other parameters
    expect(takeAnswer('/api/early/five', { id: 1 }, () => false)).toBeUndefined(); // refused: still there
    expect(takeAnswer('/api/early/five', { id: 1 })).toEqual({ rows: [1, 2] });
    expect(takeAnswer('/api/early/five', { id: 1 })).toBeUndefined(); // taken once
    await request({ url: '/api/early/five', params: { id: 1 } }); // and the request reads anew
    expect(f).toHaveBeenCalledTimes(2);
    await prefetch('/api/early/refused');
    expect(takeAnswer('/api/early/refused')).toBeUndefined();
  });
});

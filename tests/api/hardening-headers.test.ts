/** Finding 2 of issue 14: security headers on the web app and the API; uploaded files keep their own. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app.js';
import { BASIC, md5, startTestServer, type TestServer } from './helpers.js';

let t: TestServer;
let admin: string;
beforeAll(async () => {
  t = await startTestServer();
  admin = await t.login();
});
afterAll(async () => t?.close());

function expectFrameAndSniffGuards(h: Record<string, unknown>) {
  expect(h['x-frame-options']).toBe('DENY');
  expect(h['x-content-type-options']).toBe('nosniff');
  expect(h['referrer-policy']).toBe('no-referrer');
}

describe('security headers', () => {
  it('token replies are no-store and carry the guards', async () => {
    const r = await t.call(undefined, { method: 'POST', url: '/api/blade-auth/oauth/token', headers: { authorization: BASIC, 'tenant-id': '000000' }, query: { grant_type: 'password', username: 'admin', password: md5('admin') } });
    expect(r.status).toBe(200);
    expect(r.headers['cache-control']).toBe('no-store');
    expectFrameAndSniffGuards(r.headers);
  });

  it('API replies with personal data, errors and 404s are no-store with a CSP that forbids framing', async () => {
    for (const url of ['/api/blade-auth/oauth/user-info', '/api/blade-system/user/info', '/api/nothing-here']) {
      const r = await t.call(admin, { method: 'GET', url });
      expect(r.headers['cache-control'], url).toBe('no-store');
      expect(String(r.headers['content-security-policy']), url).toContain("frame-ancestors 'none'");
      expectFrameAndSniffGuards(r.headers);
    }
    const denied = await t.call(undefined, { method: 'GET', url: '/api/blade-auth/oauth/user-info' });
    expect(denied.status).toBe(401);
    expect(denied.headers['cache-control']).toBe('no-store');
  });

  it('the web app gets a CSP without inline scripts, from its own origin', async () => {
    const webRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'canteen-web-'));
    fs.writeFileSync(path.join(webRoot, 'index.html'), '<!doctype html><div id="root"></div><script type="module" src="/assets/x.js"></script>');
    const app = buildApp({ db: t.database.db, config: t.config, docs: t.app.ctx.docs, webRoot });
    try {
      for (const url of ['/', '/some/deep/route']) {
        const r = await app.inject({ method: 'GET', url });
        expect(r.statusCode, url).toBe(200);
        const csp = String(r.headers['content-security-policy']);
        // eval stays allowed for ajv's compiled form validators (security-headers.ts); inline scripts never
        expect(csp).toMatch(/script-src 'self' 'unsafe-eval'(;|$)/);
        expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
        expect(csp).toContain("default-src 'self'");
        expect(csp).toContain("frame-ancestors 'none'");
        expectFrameAndSniffGuards(r.headers);
      }
    } finally {
      await app.close();
      fs.rmSync(webRoot, { recursive: true, force: true });
    }
  });

  it("the uploaded-file route keeps its strict CSP and its own caching", async () => {
    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(100, 1)]);
    const boundary = '----hdr' + Date.now();
    const payload = Buffer.concat([Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`), png, Buffer.from(`\r\n--${boundary}--\r\n`)]);
    const up = await t.call(admin, { method: 'POST', url: '/api/blade-resource/oss/endpoint/put-file-attach', payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } });
    expect(up.status).toBe(200);
    const got = await t.app.inject({ method: 'GET', url: up.body.data.link });
    expect(got.statusCode).toBe(200);
    expect(got.headers['content-security-policy']).toBe("default-src 'none'");
    expect(got.headers['cache-control']).toContain('immutable');
    expect(got.headers['x-frame-options']).toBe('DENY');
  });
});

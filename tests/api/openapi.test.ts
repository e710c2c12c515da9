/**
 * OpenAPI 3 at the addresses BladeX users know: GET /api/v3/api-docs is a valid OpenAPI 3 document that lists
 * every route the server registers (module actions included), with the generic routes' schemas generated from
 * the screen documents; GET /api/doc.html is a Swagger UI page that loads without inline scripts.
 */
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app.js';
import { startTestServer, type TestServer } from './helpers.js';

let t: TestServer;
let spec: any;
beforeAll(async () => {
  t = await startTestServer();
  const r = await t.call(undefined, { method: 'GET', url: '/api/v3/api-docs' });
  expect(r.status).toBe(200);
  spec = r.body;
});
afterAll(async () => t?.close());

/** OpenAPI path of a Fastify URL: `:param` → `{param}`. */
const openapiPath = (url: string) => url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

describe('OpenAPI description', () => {
  it('is public and a valid OpenAPI 3 document', async () => {
    expect(spec.openapi).toMatch(/^3\./);
    const result = await new Validator().validate(spec);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('every generic route of every document carries its JSON Schema on the route itself (querystring or body)', async () => {
    const schemas = new Map<string, Record<string, unknown> | undefined>();
    const app = buildApp({ config: t.config, docs: t.app.ctx.docs });
    app.addHook('onRoute', (r) => {
      for (const m of [r.method].flat()) schemas.set(`${m} ${r.url}`, r.schema as Record<string, unknown> | undefined);
    });
    await app.ready();
    await app.close();
    const { genericRoutes } = await import('../../src/server/crud/route-schemas.js');
    let checked = 0;
    for (const doc of t.app.ctx.docs.all) {
      for (const r of genericRoutes(doc)) {
        if (r.kind === 'export') continue; // the export module's own route
        const s = schemas.get(`${r.method} ${r.url}`);
        // a module may serve a generic route itself (its own schema then); the generic one must carry the document's
        if (!s || !('summary' in s) || !String(s.summary).startsWith(`${doc.id}:`)) continue;
        checked++;
        if (r.kind === 'submit') expect((s.body as any)?.properties, r.url).toBeDefined();
        if (r.kind === 'list') expect((s.querystring as any)?.properties?.current, r.url).toBeDefined();
      }
    }
    expect(checked).toBeGreaterThan(40);
    // and it is what Fastify applies: a wrong type is refused before the handler, naming the field
    const bad = await t.call(await t.login(), { method: 'POST', url: '/api/merchant/submit', payload: { merchantName: ['x'] } });
    expect(bad.status).toBe(400);
    expect(bad.body.data[0].field).toBe('merchantName');
  });

  it('lists every route the server registers (but HEAD, the docs themselves and the static/SPA routes)', async () => {
    const routes: Array<[string, string]> = [];
    const app = buildApp({ config: t.config, docs: t.app.ctx.docs });
    app.addHook('onRoute', (r) => {
      const hidden = (r.schema as { hide?: boolean } | undefined)?.hide;
      for (const m of [r.method].flat()) if (m !== 'HEAD' && !hidden) routes.push([m.toLowerCase(), r.url]);
    });
    await app.ready();
    await app.close();
    expect(routes.length).toBeGreaterThan(50);
    const missing = routes.filter(([m, url]) => !spec.paths[openapiPath(url)]?.[m]).map(([m, url]) => `${m.toUpperCase()} ${url}`);
    expect(missing).toEqual([]);
    // module actions too, not only the generic routes
    expect(spec.paths['/api/merchant/reset/loginPsw']?.get).toBeDefined();
    expect(spec.paths['/api/settlement/auditBatch']?.post).toBeDefined();
  });

  it('describes a generic list from its document: search keys, paging and the page of records in the R envelope', () => {
    const list = spec.paths['/api/merchant/list'].get;
    const params = new Map(list.parameters.map((p: any) => [p.name, p]));
    expect(params.get('current')).toMatchObject({ in: 'query', schema: { type: 'integer' } });
    expect(params.has('merchantName')).toBe(true);
    expect(params.has('createTime_datege')).toBe(true);
    const body = list.responses['200'].content['application/json'].schema;
    expect(body.properties).toMatchObject({ code: { type: 'integer' }, success: { type: 'boolean' }, msg: { type: 'string' } });
    const record = body.properties.data.properties.records.items;
    expect(record.properties.merchantName).toMatchObject({ type: 'string' });
    // write-only fields never leave the server, so the description does not promise them
    expect(record.properties.loginPsw).toBeUndefined();
    const submit = spec.paths['/api/merchant/submit'].post;
    expect(submit.requestBody.content['application/json'].schema.properties.merchantName).toMatchObject({ type: 'string' });
  });

  it('declares the Blade-Auth header scheme', () => {
    expect(spec.components.securitySchemes.bladeAuth).toEqual({ type: 'apiKey', in: 'header', name: 'Blade-Auth', description: 'bearer <access_token>' });
  });
});

describe('API docs page', () => {
  it('/api/doc.html loads Swagger UI from our own static files, without inline scripts', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/api/doc.html' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    const scripts = [...page.body.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attrs, content] of scripts) {
      expect(attrs).toMatch(/src="\/api\/doc\/static\//);
      expect(content.trim()).toBe('');
    }
    expect(String(page.headers['content-security-policy'])).toContain("script-src 'self'");
    for (const [, attrs] of scripts) {
      const src = /src="([^"]+)"/.exec(attrs)![1];
      const asset = await t.app.inject({ method: 'GET', url: src });
      expect(asset.statusCode, src).toBe(200);
      expect(asset.headers['content-type']).toMatch(/javascript/);
    }
    const init = await t.app.inject({ method: 'GET', url: '/api/doc/static/init.js' });
    expect(init.body).toContain('"/api/v3/api-docs"');
  });

  it('other /api/ paths still need a token', async () => {
    const r = await t.call(undefined, { method: 'GET', url: '/api/merchant/list' });
    expect(r.status).toBe(401);
  });
});

/**
 * OpenAPI 3 description of every route, at the addresses BladeX users know: the JSON at GET /api/v3/api-docs
 * and a browsable Swagger UI page at GET /api/doc.html (its scripts and styles under /api/doc/static/, no
 * inline script, so the app's CSP `script-src 'self'` holds).
 *
 * Both are public, like the login page: they describe the wire contract (paths, parameters, field names,
 * the R envelope), which is BladeX's published contract and what the web bundle already reveals — no
 * record, no token, no configuration. Every call made from the page still needs a token (the "Authorize"
 * button takes `bearer <access_token>` for the Blade-Auth header) and the permission code of the route.
 *
 * Routes are collected as they are registered (@fastify/swagger's onRoute hook, so this plugin is registered
 * before the modules). The generic routes of screen documents get their JSON Schemas from the documents
 * (crud/route-schemas.ts); a module route without a schema still appears with its method and path.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import type { FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import type { ScreenDocument } from '../shared/document.js';
import { genericRoutes, routeSchema } from './crud/route-schemas.js';

export const API_DOCS_JSON = '/api/v3/api-docs';
export const API_DOCS_PAGE = '/api/doc.html';
export const API_DOCS_STATIC = '/api/doc/static/';

/** Paths the auth hook lets through without a token. */
export function isApiDocsPath(url: string): boolean {
  return url === API_DOCS_JSON || url === API_DOCS_PAGE || url.startsWith(API_DOCS_STATIC);
}

const require = createRequire(import.meta.url);
/** The Swagger UI bundle shipped with @fastify/swagger-ui (its static/ folder). */
const UI_DIR = path.join(path.dirname(require.resolve('@fastify/swagger-ui/package.json')), 'static');
const UI_FILES: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'index.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'application/javascript; charset=utf-8',
  'swagger-ui-standalone-preset.js': 'application/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

const PAGE = `<!DOCTYPE html>
<html lang="zh">
<head>
<meta charset="UTF-8">
<title>canteen-admin API</title>
<link rel="stylesheet" href="${API_DOCS_STATIC}swagger-ui.css">
<link rel="stylesheet" href="${API_DOCS_STATIC}index.css">
<link rel="icon" type="image/png" href="${API_DOCS_STATIC}favicon-32x32.png">
</head>
<body>
<div id="swagger-ui"></div>
<script src="${API_DOCS_STATIC}swagger-ui-bundle.js"></script>
<script src="${API_DOCS_STATIC}swagger-ui-standalone-preset.js"></script>
<script src="${API_DOCS_STATIC}init.js"></script>
</body>
</html>
`;

const INIT = `window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({
    url: ${JSON.stringify(API_DOCS_JSON)},
    dom_id: '#swagger-ui',
    deepLinking: true,
    validatorUrl: null,
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
    layout: 'StandaloneLayout'
  });
});
`;

/** METHOD url → the document whose generic route it is, and which one. */
function genericIndex(docs: ScreenDocument[]): Map<string, { doc: ScreenDocument; kind: ReturnType<typeof genericRoutes>[number]['kind'] }> {
  const out = new Map<string, { doc: ScreenDocument; kind: ReturnType<typeof genericRoutes>[number]['kind'] }>();
  for (const doc of docs) for (const r of genericRoutes(doc)) out.set(`${r.method} ${r.url}`, { doc, kind: r.kind });
  return out;
}

/** First path segment after /api/ (blade-system, merchant …): the tag grouping routes in the page. */
function tagOf(url: string): string {
  const seg = url.split('/')[2];
  return seg || 'api';
}

async function openapiPlugin(app: FastifyInstance): Promise<void> {
  const generic = genericIndex(app.ctx.docs.all);
  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'canteen-admin API',
        version: '1',
        description: 'BladeX/SpringBlade wire contract: every reply is the R envelope {code, success, data, msg}; lists are pages (records, total, size, current). Send `Blade-Auth: bearer <access_token>` (POST /api/blade-auth/oauth/token).',
      },
      components: { securitySchemes: { bladeAuth: { type: 'apiKey', in: 'header', name: 'Blade-Auth', description: 'bearer <access_token>' } } },
      security: [{ bladeAuth: [] }],
    },
    hideUntagged: false,
    transform: ({ schema, url, route }) => {
      const method = (Array.isArray(route.method) ? route.method[0] : route.method).toUpperCase();
      const hit = generic.get(`${method} ${url}`);
      const own = (schema ?? {}) as Record<string, unknown>;
      const described: Record<string, unknown> = hit ? { ...routeSchema(hit.doc, hit.kind), ...own } : { ...own };
      if (!described.tags) described.tags = [tagOf(url)];
      return { schema: described as typeof schema, url };
    },
  });

  app.get(API_DOCS_JSON, { schema: { hide: true } }, async () => app.swagger());
  app.get(API_DOCS_PAGE, { schema: { hide: true } }, async (_req, reply) => reply.type('text/html; charset=utf-8').send(PAGE));
  app.get(`${API_DOCS_STATIC}init.js`, { schema: { hide: true } }, async (_req, reply) => reply.type('application/javascript; charset=utf-8').send(INIT));
  for (const [file, type] of Object.entries(UI_FILES)) {
    app.get(`${API_DOCS_STATIC}${file}`, { schema: { hide: true } }, async (_req, reply) => {
      reply.header('cache-control', 'public, max-age=86400');
      return reply.type(type).send(fs.createReadStream(path.join(UI_DIR, file)));
    });
  }
}

// Not encapsulated (as fastify-plugin would do): swagger's onRoute hook must see the routes of every module.
(openapiPlugin as unknown as Record<symbol, boolean>)[Symbol.for('skip-override')] = true;

export { openapiPlugin };

/**
 * buildApp: the Fastify application. Works with a database (normal use, tests) and without one (the schema
 * lint only lists routes: `const app = buildApp({ config }); await app.ready(); app.hasRoute(...)`).
 *
 * Pieces, in order: request language; auth hook (Blade-Auth bearer JWT → req.user, 401 R otherwise); error
 * mapping to the R envelope (blade-contract §1); modules (modules/index.ts, one Fastify plugin per folder);
 * the generic CRUD plugin for every screen document; optional static web app with SPA fallback.
 */
import fs from 'node:fs';
import path from 'node:path';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import type { ServerConfig } from './config.js';
import { loadConfig } from './config.js';
import type { AuthUser, ScreenHooks, ServerContext } from './context.js';
import { crudPlugin } from './crud/index.js';
import type { DB } from './db/index.js';
import { loadDocuments, type DocumentRegistry } from './documents.js';
import { mapDatabaseError } from './lib/db-errors.js';
import { HttpError, SERVER_MESSAGES } from './lib/http.js';
import { I18n, requestLang } from './lib/i18n.js';
import { PermissionService } from './lib/permissions.js';
import { AccessService } from './lib/access.js';
import { toSnake } from '../shared/fields.js';
import { registerActionFormChecks } from './lib/action-forms.js';
import { registerInputGuards } from './lib/input-guards.js';
import { registerRateLimits } from './lib/rate-limit.js';
import { registerSecurityHeaders } from './lib/security-headers.js';
import { registerSubmitTypeChecks, typeError } from './lib/submit-types.js';
import { DocumentTypeError } from './crud/route-validation.js';
import { SecretBox } from './lib/secret-box.js';
import { Sm2Keys } from './lib/sm2.js';
import { TokenService } from './lib/tokens.js';
import { MODULES } from './modules/index.js';
import { createLogWriter, recordServerError, registerRequestLogging } from './modules/log/index.js';
import { isApiDocsPath, openapiPlugin } from './openapi.js';

export interface BuildOptions {
  db?: DB;
  config?: ServerConfig;
  /** Already loaded documents (otherwise loaded from config.rootDir/schemas + SCHEMA_DIRS). */
  docs?: DocumentRegistry;
  /** Directory of the built web app (dist/web) to serve at / with SPA fallback. */
  webRoot?: string;
}

/** Paths reachable without a token (besides logout, which works either way). */
const PUBLIC_PATHS = new Set([
  '/api/blade-auth/oauth/token',
  '/api/blade-auth/oauth/captcha',
  '/api/blade-desk/shell/config',
  // the open-source SpringBlade dialect (stock Saber clients)
  '/api/blade-auth/token',
  '/api/blade-auth/captcha',
  '/api/blade-auth/sm2/public-key',
]);
/**
 * Paths that work with or without a token (a valid one makes the caller known): logout, and a guest's account
 * request — only while account.registerUser is true, rate-limited per address (and per user after a social
 * sign-in), the account waits for approval.
 */
const TOKEN_OPTIONAL_PATHS = new Set(['/api/blade-auth/oauth/logout', '/api/blade-auth/logout', '/api/blade-system/user/register-guest']);
export const FILE_ROUTE_PREFIX = '/api/blade-resource/oss/file/';

function tokenOf(req: FastifyRequest): string | undefined {
  const h = req.headers['blade-auth'];
  // in the URL (`?blade-auth=`, how Saber downloads files) only for GET: a link can't be made to change anything
  const q = req.method === 'GET' ? (req.query as Record<string, unknown> | undefined)?.['blade-auth'] : undefined;
  const raw = typeof h === 'string' && h ? h : typeof q === 'string' ? q : undefined;
  if (!raw || raw.slice(0, 6).toLowerCase() !== 'bearer') return undefined;
  return raw.slice(7).trim() || undefined;
}

export function buildApp(opts: BuildOptions = {}): FastifyInstance {
  const config = opts.config ?? loadConfig();
  const app = Fastify({
    logger: config.logger,
    // a hop count as proxy-addr's trust function (the typings take no number)
    trustProxy: typeof config.trustProxy === 'number' ? ((hops: number) => (_addr: string, i: number) => i < hops)(config.trustProxy) : (config.trustProxy ?? false),
    bodyLimit: 2 * 1024 * 1024,
    routerOptions: { ignoreTrailingSlash: true },
    ajv: { customOptions: { coerceTypes: 'array', removeAdditional: false } },
    // API_ROOT_ALIAS: `/blade-auth/token` is `/api/blade-auth/token` (Saber built with an empty API base)
    ...(config.apiRootAlias ? { rewriteUrl: (req: { url?: string }) => (req.url && /^\/blade-[a-z]/.test(req.url) ? `/api${req.url}` : (req.url ?? '/')) } : {}),
  });
  const docs = opts.docs ?? loadDocuments(config.rootDir, config.schemaDirs);
  const i18n = new I18n(config.rootDir, config.schemaDirs);
  const getDb = (): DB => {
    if (!opts.db) throw new HttpError(500, 'error.noDatabase');
    return opts.db;
  };
  const hooks = new Map<string, ScreenHooks[]>();
  for (const m of MODULES) {
    for (const [docId, h] of Object.entries(m.screenHooks ?? {})) hooks.set(docId, [...(hooks.get(docId) ?? []), h]);
  }
  const ctx: ServerContext = {
    config,
    database: opts.db,
    docs,
    i18n,
    tokens: new TokenService(getDb, config.jwtSecret),
    sm2: new Sm2Keys(getDb, config.sm2PrivateKey),
    secrets: new SecretBox(config.dataDir, config.configSecretKey),
    permissions: new PermissionService(getDb),
    access: new AccessService(getDb, () => {
      const dept = docs.all.find((d) => d.id === 'dept');
      const ancestors = dept?.resource.tree?.ancestorsField;
      return dept && ancestors ? { table: dept.resource.table, ancestors: toSnake(ancestors) } : undefined;
    }),
    hooks,
    logs: createLogWriter(() => opts.db, config.appTimezone),
    db: getDb,
  };
  app.decorate('ctx', ctx);
  app.decorateRequest('user', undefined);
  app.decorateRequest('lang', 'zh');
  registerSecurityHeaders(app);
  registerInputGuards(app);
  registerActionFormChecks(app);
  registerSubmitTypeChecks(app);

  // x-www-form-urlencoded bodies (token endpoint) without another dependency.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });
  app.register(multipart, { limits: { fileSize: 200 * 1024 * 1024, files: 1, fields: 20 } });

  const msg = (req: FastifyRequest, key: string, params?: Record<string, unknown>) => i18n.t(req.lang, key, params, SERVER_MESSAGES[key]?.[req.lang === 'en' ? 1 : 0]);
  const rFail = (code: number, text: string, data: unknown = null) => ({ code, success: false, data, msg: text });

  app.addHook('onRequest', async (req, reply) => {
    req.lang = requestLang(req.query, req.headers['accept-language']);
    const url = req.url.split('?')[0];
    if (!url.startsWith('/api/') || PUBLIC_PATHS.has(url) || url.startsWith(FILE_ROUTE_PREFIX) || isApiDocsPath(url)) return;
    const token = tokenOf(req);
    const optional = TOKEN_OPTIONAL_PATHS.has(url);
    if (!token) {
      if (optional) return;
      return reply.code(401).send(rFail(401, msg(req, 'error.unauthorized')));
    }
    const claims = await ctx.tokens.verify(token, 'access_token');
    if (!claims) {
      if (optional) return;
      return reply.code(401).send(rFail(401, msg(req, 'error.unauthorized')));
    }
    const csv = (v: unknown) => (typeof v === 'string' ? v.split(',').filter(Boolean) : []);
    const user: AuthUser = {
      userId: String(claims.user_id),
      tenantId: String(claims.tenant_id),
      account: String(claims.account ?? ''),
      userName: String(claims.user_name ?? ''),
      realName: String(claims.real_name ?? ''),
      roleIds: csv(claims.role_id),
      roleNames: csv(claims.role_name),
      deptIds: csv(claims.dept_id),
      postIds: csv(claims.post_id),
      clientId: String(claims.client_id),
      sid: claims.sid,
      exp: Number(claims.exp),
    };
    req.user = user;
    // API scope: a path some scope names is open only to the roles granted one of those scopes (403, never 401)
    if (!(await ctx.access.apiAllowed(user, url))) return reply.code(403).send(rFail(403, msg(req, 'error.forbidden')));
    user.dataScopes = await ctx.access.dataScopes(user);
  });

  // After the auth hook: limits per user need req.user.
  registerRateLimits(app);
  // The API log of every route (the error log: the error handler below); flushed before the app closes.
  registerRequestLogging(app);
  app.addHook('onClose', async () => ctx.logs.flush());

  app.setErrorHandler((raw: FastifyError | HttpError | Error, req, reply) => {
    const err = raw instanceof DocumentTypeError ? typeError(app, req.lang, raw.doc, raw.fields) : (mapDatabaseError(raw) ?? raw);
    if (err instanceof HttpError) {
      const text = err.text ?? msg(req, err.key, err.params);
      return reply.code(err.status).send(rFail(err.status, text, err.data));
    }
    const fe = err as FastifyError;
    if (fe.validation) return reply.code(400).send(rFail(400, `${msg(req, 'error.badRequest')}: ${fe.message}`));
    if (fe.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return reply.code(415).send(rFail(415, msg(req, 'error.mediaType')));
    if (fe.code === 'FST_REQ_FILE_TOO_LARGE') return reply.code(400).send(rFail(400, msg(req, 'error.uploadSize', { size: '' })));
    if (fe.statusCode && fe.statusCode >= 400 && fe.statusCode < 500) return reply.code(fe.statusCode).send(rFail(fe.statusCode, `${msg(req, 'error.badRequest')}: ${fe.message}`));
    req.log.error(err);
    recordServerError(app, req, err);
    if (!config.logger) console.error(`[canteen-admin] ${req.method} ${req.url.split('?')[0]}:`, err); // the path only: a query may carry secrets
    return reply.code(500).send(rFail(500, msg(req, 'error.internal')));
  });

  // before the routes: it collects them as they are registered (OpenAPI at /api/v3/api-docs, page /api/doc.html)
  app.register(openapiPlugin);
  for (const m of MODULES) if (m.plugin) app.register(m.plugin);
  app.register(crudPlugin);

  const webRoot = opts.webRoot && fs.existsSync(path.join(opts.webRoot, 'index.html')) ? opts.webRoot : undefined;
  if (webRoot) app.register(fastifyStatic, { root: webRoot, wildcard: false, index: ['index.html'] });
  app.setNotFoundHandler((req, reply) => {
    const url = req.url.split('?')[0];
    if (webRoot && req.method === 'GET' && !url.startsWith('/api/')) return reply.type('text/html').sendFile('index.html');
    return reply.code(404).send(rFail(404, msg(req, 'error.notFound')));
  });
  return app;
}

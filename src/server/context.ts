/**
 * What every module gets: `app.ctx` (database, config, documents, texts, tokens, permissions, screen hooks)
 * and, per request, `req.user` (from the token) and `req.lang`. A module is one folder under modules/ whose
 * index.ts exports a `ServerModule`; modules/index.ts lists them and app.ts registers that list.
 */
import type { LogWriter } from './modules/log/writer.js';
import type { FastifyInstance, FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ScreenDocument } from '../shared/document.js';
import type { ServerConfig } from './config.js';
import type { DB } from './db/index.js';
import type { Migration } from './db/migrate.js';
import type { DocumentRegistry } from './documents.js';
import { HttpError, forbidden, unauthorized } from './lib/http.js';
import type { I18n, Lang } from './lib/i18n.js';
import type { AccessService, DataScopes } from './lib/access.js';
import type { PermissionService } from './lib/permissions.js';
import type { SecretBox } from './lib/secret-box.js';
import type { Sm2Keys } from './lib/sm2.js';
import type { TokenService } from './lib/tokens.js';

/** The caller, rebuilt from the access token's claims (tenant always from here, never from a parameter). */
export interface AuthUser {
  userId: string;
  tenantId: string;
  account: string;
  userName: string;
  realName: string;
  roleIds: string[];
  roleNames: string[];
  deptIds: string[];
  postIds: string[];
  clientId: string;
  sid: string;
  exp: number;
  /** The caller's data scopes by screen menu code (lib/access.ts), filled in once per request. */
  dataScopes?: DataScopes;
}

/**
 * Per-screen hooks a module can add to the generic CRUD endpoints of a document. beforeSave, afterSave and
 * beforeRemove run inside the write's transaction (`db` is that transaction): throwing an HttpError refuses the
 * write with its message and nothing is written.
 */
/** Where a saved record comes from: the add/edit dialog (submit) or a row of an .xlsx import. */
export type SaveOrigin = 'submit' | 'import';

export interface ScreenHooks {
  /** Called before insert/update with the column values (camelCase fields) about to be written. */
  beforeSave?: (args: { mode: 'add' | 'edit'; values: Record<string, unknown>; body: Record<string, unknown>; existing?: Record<string, unknown>; req: FastifyRequest; doc: ScreenDocument; db: DB; origin?: SaveOrigin }) => Promise<void> | void;
  /** Called after insert/update, in the same transaction, with the saved id and values. */
  afterSave?: (args: { mode: 'add' | 'edit'; id: string; values: Record<string, unknown>; existing?: Record<string, unknown>; req: FastifyRequest; doc: ScreenDocument; db: DB }) => Promise<void> | void;
  /** Called before remove with the ids about to be removed; throw an HttpError to refuse (e.g. it has children). */
  beforeRemove?: (args: { ids: string[]; req: FastifyRequest; doc: ScreenDocument; db: DB }) => Promise<void> | void;
  /**
   * Called after a remove has been committed (outside its transaction) with the removed ids: for what is not in the
   * database (an attachment's stored object). It cannot undo the remove; a failure is the hook's to record.
   */
  afterRemove?: (args: { ids: string[]; req: FastifyRequest; doc: ScreenDocument; db: DB }) => Promise<void> | void;
  /** Called with the serialized rows of list/detail before they are sent. */
  afterRead?: (args: { rows: Array<Record<string, unknown>>; req: FastifyRequest; doc: ScreenDocument; db: DB; kind: 'list' | 'detail' }) => Promise<void> | void;
  /** Called before an export reads the table (it streams stored rows, afterRead does not run on them). */
  beforeExport?: (args: { req: FastifyRequest; doc: ScreenDocument; db: DB }) => Promise<void> | void;
}

export interface ServerModule {
  name: string;
  /** Hand-written migrations of tables this module owns (names unique, e.g. `employee_0001_tables`). */
  migrations?: Migration[];
  /** CRUD hooks by document id. */
  screenHooks?: Record<string, ScreenHooks>;
  /** Extra routes (registered at the root; give full /api/… paths). */
  plugin?: FastifyPluginAsync;
}

export interface ServerContext {
  config: ServerConfig;
  /** Undefined when the app was built without a database (route listing for the lint). */
  database?: DB;
  docs: DocumentRegistry;
  i18n: I18n;
  tokens: TokenService;
  /** SM2 keys of SpringBlade sign-in passwords. */
  sm2: Sm2Keys;
  /** Seals and opens x-secret values (provider secret keys) at rest. */
  secrets: SecretBox;
  permissions: PermissionService;
  /** Data and API scopes (lib/access.ts). */
  access: AccessService;
  hooks: Map<string, ScreenHooks[]>;
  /** The server's API, error and usual logs, written off the request path (modules/log). */
  logs: LogWriter;
  /** The database, or a 500 R when the app was built without one. */
  db(): DB;
}

declare module 'fastify' {
  interface FastifyInstance {
    ctx: ServerContext;
  }
  interface FastifyRequest {
    user?: AuthUser;
    lang: 'zh' | 'en';
  }
}

export function requireUser(req: FastifyRequest): AuthUser {
  if (!req.user) throw unauthorized();
  return req.user;
}

/** Throws 403 unless one of the caller's roles is granted `code`. */
export async function requirePermission(app: FastifyInstance, req: FastifyRequest, code: string): Promise<AuthUser> {
  const user = requireUser(req);
  const codes = await app.ctx.permissions.codes(user.roleIds);
  if (!codes.has(code)) throw forbidden();
  return user;
}

/** Like requirePermission, for an endpoint two screens call (either code lets the caller in). */
export async function requireAnyPermission(app: FastifyInstance, req: FastifyRequest, codes: string[]): Promise<AuthUser> {
  const user = requireUser(req);
  const granted = await app.ctx.permissions.codes(user.roleIds);
  if (!codes.some((c) => granted.has(c))) throw forbidden();
  return user;
}

/** BladeX's check (SecureUtil.isAdministrator): one of the caller's roles has the alias administrator. */
export function isAdministrator(user: AuthUser): boolean {
  return user.roleNames.includes('administrator');
}

/** The administrator of the platform tenant 000000: the only one who manages tenants and reads across them. */
export function isPlatformAdministrator(user: AuthUser): boolean {
  return isAdministrator(user) && user.tenantId === PLATFORM_TENANT;
}

export const PLATFORM_TENANT = '000000';

export function t(app: FastifyInstance, lang: Lang, key: string, params?: Record<string, unknown>): string {
  return app.ctx.i18n.t(lang, key, params);
}

export { HttpError };

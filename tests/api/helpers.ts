/**
 * API test harness: the real app in process (`app.inject`), on a fresh in-memory PGlite per test file, or on
 * DATABASE_URL when set (schema `public` dropped and recreated at file start). Migrations and seed run as on
 * a first start. Usage:
 *   const t = await startTestServer();  const token = await t.login();  ...  await t.close();
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { sql } from 'kysely';
import { buildApp } from '../../src/server/app.js';
import { loadConfig, type ServerConfig } from '../../src/server/config.js';
import { openDatabase, pgliteOptions, type Database } from '../../src/server/db/index.js';
import { emptyCluster } from '../../src/server/db/template.js';
import { loadDocuments } from '../../src/server/documents.js';
import { prepareDatabase } from '../../src/server/setup.js';

export const ROOT = path.resolve(import.meta.dirname, '../..');
export const FIXTURE_SCHEMAS = path.join(ROOT, 'tests/fixtures/schemas');
export const BASIC = 'Basic ' + Buffer.from('saber:saber_secret').toString('base64');
export const md5 = (s: string) => createHash('md5').update(s).digest('hex');

/**
 * A fresh in-memory PGlite, loaded from the empty cluster a new data folder starts from (src/server/db/template.ts)
 * rather than running initdb in WASM (~5-15 s here). Without a template for the installed PGlite it runs initdb;
 * tests/api/pgdata-template.test.ts then fails and says how to make one.
 */
export async function freshPglite() {
  const { PGlite } = await import('@electric-sql/pglite');
  const loadDataDir = emptyCluster();
  return PGlite.create(loadDataDir ? { loadDataDir, ...(await pgliteOptions()) } : { dataDir: 'memory://', ...(await pgliteOptions()) });
}

export interface TestServer {
  app: FastifyInstance;
  database: Database;
  config: ServerConfig;
  /** Password grant; returns the raw OAuth reply (throws when it has no access_token). */
  loginReply(account?: string, password?: string, tenantId?: string): Promise<Record<string, any>>;
  /** Access token of a login (default admin/admin). */
  login(account?: string, password?: string): Promise<string>;
  /** inject with the Blade-Auth header of `token`; returns status and parsed JSON body. */
  call(token: string | undefined, opts: InjectOptions): Promise<{ status: number; body: any; headers: Record<string, unknown> }>;
  close(): Promise<void>;
}

export async function startTestServer(opts: { schemaDirs?: string[]; env?: Record<string, string>; setup?: (app: FastifyInstance) => void } = {}): Promise<TestServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'canteen-api-'));
  const config = loadConfig({ ...process.env, DATA_DIR: dataDir, ...(opts.env ?? {}) }, { rootDir: ROOT, logger: false, schemaDirs: opts.schemaDirs ?? [] });
  let database: Database;
  if (config.databaseUrl) {
    database = await openDatabase(config);
    await sql`drop schema if exists public cascade`.execute(database.db);
    await sql`create schema public`.execute(database.db);
  } else {
    database = await openDatabase(config, { pglite: await freshPglite() });
  }
  const docs = loadDocuments(ROOT, config.schemaDirs);
  await prepareDatabase(database.db, docs, config);
  const app = buildApp({ db: database.db, config, docs });
  opts.setup?.(app);
  await app.ready();

  const call: TestServer['call'] = async (token, o) => {
    const headers: Record<string, string> = { ...((o.headers as Record<string, string>) ?? {}) };
    if (token) headers['blade-auth'] = `bearer ${token}`;
    const res = await app.inject({ ...o, headers });
    let body: any = res.body;
    try {
      body = JSON.parse(res.body);
    } catch {
      /* not JSON */
    }
    return { status: res.statusCode, body, headers: res.headers };
  };
  const loginReply: TestServer['loginReply'] = async (account = 'admin', password = 'admin', tenantId = '000000') => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/blade-auth/oauth/token',
      headers: { authorization: BASIC, 'tenant-id': tenantId },
      query: { grant_type: 'password', username: account, password: md5(password), scope: 'all', tenantId },
    });
    return JSON.parse(res.body);
  };
  return {
    app,
    database,
    config,
    loginReply,
    async login(account, password) {
      const r = await loginReply(account, password);
      if (!r.access_token) throw new Error(`login failed: ${JSON.stringify(r)}`);
      return r.access_token as string;
    },
    call,
    async close() {
      await app.close();
      await database.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A valid merchant submit body (add). */
export function merchantBody(over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    merchantName: '测试商家',
    loginPhone: '13800138000',
    loginPsw: 'secret123',
    payPsw: '123456',
    feeRatio: 1.5,
    contractDaterange: ['2026-01-01', '2026-12-31'],
    enableFlag: 1,
    status: 1,
    ...over,
  };
}

/** A multipart/form-data body with one file part (inject's payload and headers). */
export function multipart(content: Buffer, filename: string, type: string, field = 'file') {
  const boundary = '----canteen' + Math.random().toString(16).slice(2);
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`),
    content,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

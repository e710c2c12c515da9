/**
 * The driver seam: one Kysely (PostgresDialect) over either embedded PGlite (DATA_DIR/pgdata) or a real
 * PostgreSQL server (DATABASE_URL). Both go through node-postgres, so type parsing is the same:
 * - timestamp → 'yyyy-MM-dd HH:mm:ss' text (stored as local time of APP_TIMEZONE; timestamptz is not used),
 * - date → 'yyyy-MM-dd' text,
 * - bigint (ids) → decimal string, numeric → decimal string (serializers may turn it into a JSON number for
 *   display only; money is never summed in JS).
 */
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { Kysely, PostgresDialect } from 'kysely';
import type { Extensions, PGlite } from '@electric-sql/pglite';
import type { ServerConfig } from '../config.js';
import { PGliteThread } from './pglite-thread.js';
import { templatePath } from './template.js';

export type DB = Kysely<any>;

export interface Database {
  db: DB;
  kind: 'pglite' | 'postgres';
  close(): Promise<void>;
}

const PARSERS: Record<number, (v: string) => unknown> = {
  20: (v) => v, // int8
  1700: (v) => v, // numeric
  1082: (v) => v, // date
  1114: (v) => v.slice(0, 19), // timestamp
  1184: (v) => v.slice(0, 19), // timestamptz (not used by our tables)
};

export const pgTypes = {
  getTypeParser(oid: number, format?: any) {
    return PARSERS[oid] ?? (pg.types.getTypeParser as any)(oid, format);
  },
};

export interface OpenOptions {
  /** Use this PGlite instance (tests: `memory://`). It is closed with the database. */
  pglite?: PGlite;
  /** Force the embedded database even when DATABASE_URL is set. */
  embedded?: boolean;
}

/** A new connection gives up after this (the request then answers 503 instead of waiting). */
export const CONNECT_TIMEOUT_MS = 5000;
/** No statement, and no transaction left idle, runs longer than this (server side; the client waits 5 s more). */
export const STATEMENT_TIMEOUT_MS = 120_000;

/** Marks an error raised while getting a connection: the database is unreachable, not the request wrong. */
export const CONNECT_FAILED = Symbol('connectFailed');

/**
 * A pg pool that survives the database dropping its connections (issue 14, finding 1): node-postgres emits
 * 'error' on the pool for an idle connection that dies, and on a client that dies between queries; with no
 * listener either event is thrown and ends the process. Both are logged (once per burst) and the dead client
 * is discarded by the pool, which opens new connections on demand — reconnecting is the pool's own. Errors
 * while connecting are tagged CONNECT_FAILED so the app answers 503 while the database is away.
 */
function resilientPool(config: pg.PoolConfig): pg.Pool {
  const pool = new pg.Pool(config);
  let lastLog = 0;
  const log = (e: Error) => {
    if (Date.now() - lastLog < 5000) return;
    lastLog = Date.now();
    console.error(`[canteen-admin] database connection lost: ${e.message} (new connections are opened on demand)`);
  };
  pool.on('error', log);
  pool.on('connect', (client) => client.on('error', log));
  const connect = pool.connect.bind(pool) as () => Promise<pg.PoolClient>;
  (pool as { connect: unknown }).connect = async () => {
    try {
      return await connect();
    } catch (e) {
      if (e && typeof e === 'object') (e as Record<symbol, boolean>)[CONNECT_FAILED] = true;
      throw e;
    }
  };
  return pool;
}

export async function openDatabase(config: Pick<ServerConfig, 'dataDir' | 'databaseUrl' | 'appTimezone'>, opts: OpenOptions = {}): Promise<Database> {
  const tz = config.appTimezone;
  if (config.databaseUrl && !opts.pglite && !opts.embedded) {
    const pool = resilientPool({
      connectionString: config.databaseUrl,
      types: pgTypes,
      max: 10,
      options: `-c TimeZone=${tz} -c statement_timeout=${STATEMENT_TIMEOUT_MS} -c idle_in_transaction_session_timeout=${STATEMENT_TIMEOUT_MS}`,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      query_timeout: STATEMENT_TIMEOUT_MS + 5000,
      keepAlive: true,
    } as pg.PoolConfig);
    return overPool(pool, 'postgres');
  }
  if (opts.pglite) return inProcess(opts.pglite, tz);
  // The server's own embedded database runs in its own thread (pglite-thread.ts), reached through `pg` like
  // PostgreSQL: one connection, because PGlite is one session (a transaction must not interleave with others).
  const dataDir = path.join(config.dataDir, 'pgdata');
  fs.mkdirSync(config.dataDir, { recursive: true });
  const template = templatePath();
  const thread = await PGliteThread.start({
    dataDir,
    timezone: tz,
    postgresqlconf: PGLITE_CONF,
    extensions: PGLITE_EXTENSIONS,
    template: fs.existsSync(template) ? template : undefined,
  });
  const pool = resilientPool({
    stream: () => thread.stream(),
    user: 'postgres',
    database: 'postgres',
    types: pgTypes,
    max: 1,
    idleTimeoutMillis: 0,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
  } as pg.PoolConfig);
  return overPool(pool, 'pglite', () => thread.close());
}

/** A PGlite instance the caller made (tests: `memory://`), used in this thread; it is closed with the database. */
async function inProcess(pglite: PGlite, tz: string): Promise<Database> {
  const { createPgConfig } = await import('@electric-sql/pglite/node-postgres');
  await pglite.exec(`SET TIME ZONE '${tz}'`);
  const pool = new pg.Pool({ ...(createPgConfig(pglite) as any), types: pgTypes, max: 1 });
  return overPool(pool, 'pglite', async () => {
    if (!pglite.closed) await pglite.close();
  });
}

/** The one Kysely of every mode over its pg pool; closing ends the pool, then what is behind it. */
function overPool(pool: pg.Pool, kind: Database['kind'], closeBehind: () => Promise<void> = async () => {}): Database {
  const db = new Kysely<any>({ dialect: new PostgresDialect({ pool }) });
  return {
    db,
    kind,
    async close() {
      await db.destroy();
      await closeBehind();
    },
  };
}

/**
 * Settings of every embedded database. shared_buffers 16 MB instead of PGlite's 128 MB: the buffers live in the
 * WebAssembly heap, which never shrinks, so they were most of the server's idle memory (issue 13: ≤ 250 MB); the
 * operating system's file cache still holds the data files behind them, so a miss is a read() from memory.
 */
export const PGLITE_CONF = ['shared_buffers = 16MB'];
/** Extensions the migrations use: pg_trgm for the trigram indexes behind "contains" searches, as on PostgreSQL. */
export const PGLITE_EXTENSIONS = ['pg_trgm'];

/** Options of an embedded database made in this thread (the tests'): the same settings and extensions. */
export async function pgliteOptions(): Promise<{ extensions: Extensions; postgresqlconf: string[] }> {
  const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
  return { extensions: { pg_trgm }, postgresqlconf: PGLITE_CONF };
}

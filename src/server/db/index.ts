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

export type DB = Kysely<any>;

export interface Database {
  db: DB;
  kind: 'pglite' | 'postgres';
  /** The embedded instance when kind is pglite. */
  pglite?: PGlite;
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
    const db = new Kysely<any>({ dialect: new PostgresDialect({ pool }) });
    return { db, kind: 'postgres', close: () => db.destroy() };
  }
  const { PGlite } = await import('@electric-sql/pglite');
  const { createPgConfig } = await import('@electric-sql/pglite/node-postgres');
  let pglite = opts.pglite;
  if (!pglite) {
    const dir = path.join(config.dataDir, 'pgdata');
    fs.mkdirSync(dir, { recursive: true });
    pglite = await PGlite.create(dir, await pgliteOptions());
  }
  await pglite.exec(`SET TIME ZONE '${tz}'`);
  const pool = new pg.Pool({ ...(createPgConfig(pglite) as any), types: pgTypes, max: 1 });
  const db = new Kysely<any>({ dialect: new PostgresDialect({ pool }) });
  const instance = pglite;
  return {
    db,
    kind: 'pglite',
    pglite: instance,
    async close() {
      await db.destroy();
      if (!instance.closed) await instance.close();
    },
  };
}

/**
 * Options every embedded database is created with (the server's and the tests'): the extensions the migrations
 * use — pg_trgm for the trigram indexes behind "contains" searches, as on PostgreSQL.
 */
export async function pgliteOptions(): Promise<{ extensions: Extensions }> {
  const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
  return { extensions: { pg_trgm } };
}

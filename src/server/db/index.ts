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
import type { PGlite } from '@electric-sql/pglite';
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

export async function openDatabase(config: Pick<ServerConfig, 'dataDir' | 'databaseUrl' | 'appTimezone'>, opts: OpenOptions = {}): Promise<Database> {
  const tz = config.appTimezone;
  if (config.databaseUrl && !opts.pglite && !opts.embedded) {
    const pool = new pg.Pool({ connectionString: config.databaseUrl, types: pgTypes, max: 10, options: `-c TimeZone=${tz}` } as pg.PoolConfig);
    const db = new Kysely<any>({ dialect: new PostgresDialect({ pool }) });
    return { db, kind: 'postgres', close: () => db.destroy() };
  }
  const { PGlite } = await import('@electric-sql/pglite');
  const { createPgConfig } = await import('@electric-sql/pglite/node-postgres');
  let pglite = opts.pglite;
  if (!pglite) {
    const dir = path.join(config.dataDir, 'pgdata');
    fs.mkdirSync(dir, { recursive: true });
    pglite = await PGlite.create(dir);
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

/**
 * The embedded database's thread (src/server/db/pglite-thread.ts, pglite-worker.mjs): the server's own PGlite
 * (a data folder) runs in a worker thread behind the `pg` driver. What the server relies on: parameters and
 * types as with PostgreSQL, errors that leave the connection usable, transactions, replies of many megabytes,
 * queued concurrent queries, the time zone, data kept across a close and reopen, and the event loop running
 * while a statement runs. (The PostgreSQL run skips this file: it is about the embedded database only.)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/config.js';
import { openDatabase, type Database } from '../../src/server/db/index.js';
import { ROOT } from './helpers.js';

describe.skipIf(process.env.DATABASE_URL)('embedded database in its own thread', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'canteen-thread-'));
  const config = loadConfig({ DATA_DIR: dataDir, APP_TIMEZONE: 'Asia/Shanghai' }, { rootDir: ROOT, logger: false });
  let database: Database;

  beforeAll(async () => {
    database = await openDatabase(config, { embedded: true });
  });
  afterAll(async () => {
    await database?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('runs parameterised statements with the server’s type parsing (ids, money and timestamps as text)', async () => {
    const { rows } = await sql<any>`select ${'一食堂'}::text as name, 9007199254740993::int8 as id, 12.30::numeric(12,2) as amount,
      timestamp '2026-11-25 08:30:00.123' as at, ${42}::int as n`.execute(database.db);
    expect(rows).toEqual([{ name: '一食堂', id: '9007199254740993', amount: '12.30', at: '2026-11-25 08:30:00', n: 42 }]);
    expect(database.kind).toBe('pglite');
  });

  it('uses the configured time zone', async () => {
    const { rows } = await sql<any>`show timezone`.execute(database.db);
    expect(rows[0].TimeZone).toBe('Asia/Shanghai');
  });

  it('reports a bad statement as a database error and keeps serving', async () => {
    await expect(sql`select * from no_such_table`.execute(database.db)).rejects.toMatchObject({ code: '42P01' });
    await expect(sql`select 1/0`.execute(database.db)).rejects.toMatchObject({ code: '22012' });
    const { rows } = await sql<any>`select 2 as two`.execute(database.db);
    expect(rows[0].two).toBe(2);
  });

  it('commits and rolls back transactions; a failed one leaves nothing behind', async () => {
    await sql`create table thread_t (id int primary key, v text)`.execute(database.db);
    await database.db.transaction().execute(async (tx) => {
      await sql`insert into thread_t values (1, 'kept')`.execute(tx);
    });
    await expect(
      database.db.transaction().execute(async (tx) => {
        await sql`insert into thread_t values (2, 'lost')`.execute(tx);
        await sql`insert into thread_t values (1, 'duplicate')`.execute(tx);
      }),
    ).rejects.toMatchObject({ code: '23505' });
    const { rows } = await sql<any>`select id, v from thread_t order by id`.execute(database.db);
    expect(rows).toEqual([{ id: 1, v: 'kept' }]);
  });

  it('carries replies of many megabytes and queues concurrent queries in order', async () => {
    const big = await sql<any>`select g as n, repeat('x', 100) as pad from generate_series(1, 60000) g`.execute(database.db);
    expect(big.rows).toHaveLength(60000);
    expect(big.rows[59999]).toEqual({ n: 60000, pad: 'x'.repeat(100) });
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => sql<any>`select ${i}::int as i, pg_backend_pid() as pid`.execute(database.db)));
    expect(answers.map((a) => a.rows[0].i)).toEqual(Array.from({ length: 20 }, (_, i) => i));
  });

  it('keeps the event loop running while a statement runs', async () => {
    let ticks = 0;
    let running = true;
    const spin = () => {
      ticks++;
      if (running) setImmediate(spin);
    };
    setImmediate(spin);
    const before = ticks;
    const { rows } = await sql<any>`select count(*)::int as n from generate_series(1, 2000000)`.execute(database.db);
    running = false;
    expect(rows[0].n).toBe(2000000);
    // In the server's own thread the statement would have held the loop: not one tick until it ended.
    expect(ticks - before).toBeGreaterThan(10);
  });

  it('keeps its data across a close and a reopen of the data folder', async () => {
    await database.close();
    database = await openDatabase(config, { embedded: true });
    const { rows } = await sql<any>`select v from thread_t`.execute(database.db);
    expect(rows).toEqual([{ v: 'kept' }]);
  });
});

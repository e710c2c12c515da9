/**
 * The empty cluster new embedded databases start from (src/server/db/template.ts): shipped for the installed
 * PGlite, equal to what PGlite's own initdb makes, and unpacked into place whole or not at all.
 * (The PostgreSQL run skips this file: it is about the embedded database only.)
 */
import fs from 'node:fs';
import zlib from 'node:zlib';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/config.js';
import { openDatabase } from '../../src/server/db/index.js';
import { pgliteVersion, templatePath, unpackTemplate } from '../../src/server/db/template.js';
import { ROOT } from './helpers.js';

/** What initdb decides: catalog and server versions, the databases with their encodings and locales, the catalog. */
async function clusterFacts(db: PGlite) {
  const one = async (q: string) => (await db.query<Record<string, unknown>>(q)).rows;
  return {
    control: await one('select catalog_version_no, pg_control_version from pg_control_system()'),
    version: await one('select version()'),
    databases: await one('select datname, encoding, datcollate, datctype, datlocprovider, datallowconn from pg_database order by datname'),
    catalog: await one(`select relname, relkind from pg_class where relnamespace = 'pg_catalog'::regnamespace order by relname`),
    settings: await one(`select name, setting from pg_settings where name in ('lc_messages', 'lc_monetary', 'lc_numeric', 'lc_time', 'server_encoding', 'data_checksums', 'block_size') order by name`),
  };
}

describe.skipIf(process.env.DATABASE_URL)('the shipped empty cluster', () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'canteen-template-'));
  afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('exists for the installed PGlite (after an upgrade: npm run db:template, and commit the file)', () => {
    expect(fs.existsSync(templatePath()), `no ${path.relative(ROOT, templatePath())} for PGlite ${pgliteVersion()}: run \`npm run db:template\``).toBe(true);
  });

  it('is the cluster PGlite’s own initdb makes', { timeout: 120_000 }, async () => {
    const dir = path.join(tmp, 'unpacked');
    unpackTemplate(templatePath(), dir);
    const fromTemplate = await PGlite.create(dir);
    const fromInitdb = await PGlite.create('memory://');
    try {
      const [a, b] = [await clusterFacts(fromTemplate), await clusterFacts(fromInitdb)];
      expect(a.catalog.length).toBeGreaterThan(50);
      expect(a).toEqual(b);
    } finally {
      await fromTemplate.close();
      await fromInitdb.close();
    }
  });

  it('makes a new data folder that opens, keeps data and leaves nothing half-made beside it', { timeout: 120_000 }, async () => {
    const dataDir = path.join(tmp, 'fresh');
    const config = loadConfig({ DATA_DIR: dataDir }, { rootDir: ROOT, logger: false });
    let database = await openDatabase(config, { embedded: true });
    await sql`create table kept (v text)`.execute(database.db);
    await sql`insert into kept values ('一食堂')`.execute(database.db);
    await database.close();
    expect(fs.readdirSync(dataDir)).toEqual(['pgdata']);
    database = await openDatabase(config, { embedded: true });
    try {
      expect((await sql<{ v: string }>`select v from kept`.execute(database.db)).rows).toEqual([{ v: '一食堂' }]);
    } finally {
      await database.close();
    }
  });

  it('moves files that are no database aside instead of deleting them, and starts a new one', { timeout: 120_000 }, async () => {
    const dataDir = path.join(tmp, 'stray');
    fs.mkdirSync(path.join(dataDir, 'pgdata'), { recursive: true });
    fs.writeFileSync(path.join(dataDir, 'pgdata', 'notes.txt'), 'mine');
    const database = await openDatabase(loadConfig({ DATA_DIR: dataDir }, { rootDir: ROOT, logger: false }), { embedded: true });
    try {
      expect((await sql<{ n: number }>`select 1 as n`.execute(database.db)).rows).toEqual([{ n: 1 }]);
    } finally {
      await database.close();
    }
    const aside = fs.readdirSync(dataDir).filter((f) => f.startsWith('pgdata.incomplete-'));
    expect(aside).toHaveLength(1);
    expect(fs.readFileSync(path.join(dataDir, aside[0], 'notes.txt'), 'utf8')).toBe('mine');
  });

  it('keeps every entry inside the data folder, and refuses a tar that is no cluster', () => {
    const header = Buffer.alloc(512);
    header.write('../escaped', 0, 'latin1');
    header.write('0000644\0', 100, 'latin1');
    header.write('00000000001\0', 124, 'latin1');
    header.write('0', 156, 'latin1');
    const body = Buffer.alloc(512);
    body.write('x');
    const file = path.join(tmp, 'evil.tar.br');
    fs.writeFileSync(file, zlib.brotliCompressSync(Buffer.concat([header, body, Buffer.alloc(1024)])));
    expect(() => unpackTemplate(file, path.join(tmp, 'evil'))).toThrow(/holds no PG_VERSION/);
    expect(fs.existsSync(path.join(tmp, 'escaped'))).toBe(false);
    expect(fs.readFileSync(path.join(tmp, 'evil', 'escaped'), 'utf8')).toBe('x');
  });
});

/** Database preparation shared by main.ts and the tests: migrations (system + modules), document tables, seed. */
import type { ServerConfig } from './config.js';
import { syncUniqueIndexes } from './crud/rules.js';
import { syncDocumentTables } from './db/document-tables.js';
import { syncListIndexes } from './db/list-indexes.js';
import type { DB } from './db/index.js';
import { SYSTEM_MIGRATIONS, applyMigrations, withMigrationLock, type Migration } from './db/migrate.js';
import type { DocumentRegistry } from './documents.js';
import { I18n } from './lib/i18n.js';
import { MODULES } from './modules/index.js';
import { seed, type SeedResult } from './seed/index.js';

export function allMigrations(): Migration[] {
  return [...SYSTEM_MIGRATIONS, ...MODULES.flatMap((m) => m.migrations ?? [])];
}

export async function prepareDatabase(db: DB, docs: DocumentRegistry, config: ServerConfig, opts: { demo?: boolean } = {}): Promise<SeedResult & { migrations: string[]; tableChanges: string[] }> {
  // One lock for all three steps: instances starting together never seed twice.
  return withMigrationLock(db, async (conn) => {
    const migrations = await applyMigrations(conn, allMigrations());
    const tableChanges = await syncDocumentTables(conn, docs.all, (id) => docs.files.get(id));
    const result = await seed(conn, { docs: docs.all, i18n: new I18n(config.rootDir, config.schemaDirs), tz: config.appTimezone, demo: opts.demo });
    // after the seed: x-unique indexes (a table already holding duplicates keeps the transactional check only)
    for (const w of await syncUniqueIndexes(conn, docs.all)) console.warn(`[canteen-admin] ${w}`);
    const listIndexes = await syncListIndexes(conn, docs.all);
    tableChanges.push(...listIndexes.map((n) => `create index ${n}`));
    return { ...result, migrations, tableChanges };
  });
}

/** `npm start` / `npm run serve`: open the database, migrate, seed, build the app, serve dist/web, listen. */
import path from 'node:path';
import { buildApp } from './app.js';
import { loadConfig } from './config.js';
import { openDatabase } from './db/index.js';
import { loadDocuments } from './documents.js';
import { prepareDatabase } from './setup.js';
import { SMALL_DEMO, seedDemoLedger } from './modules/ledger/demo.js';
import { ADMIN_TENANT, SEED_IDS } from './seed/index.js';

async function main(): Promise<void> {
  const config = loadConfig();
  const docs = loadDocuments(config.rootDir, config.schemaDirs);
  const t0 = Date.now();
  const database = await openDatabase(config);
  const prep = await prepareDatabase(database.db, docs, config);
  // A new install gets a small, consistent demo ledger (cards, orders, records, settlements) through the same
  // code as `npm run seed:demo`; DEMO_DATA=false starts empty. Kept out of prepareDatabase so test databases stay empty.
  let demo = '';
  if (prep.firstStart && process.env.DEMO_DATA !== 'false') {
    const counts = await seedDemoLedger(database.db, { tenantId: ADMIN_TENANT, userId: SEED_IDS.admin, deptId: SEED_IDS.dept }, SMALL_DEMO);
    demo = `, demo data (${Object.entries(counts).map(([k, v]) => `${v} ${k}`).join(', ')})`;
  }
  const app = buildApp({ db: database.db, config, docs, webRoot: path.join(config.rootDir, 'dist', 'web') });
  const close = async () => {
    await app.close();
    await database.close();
    process.exit(0);
  };
  process.once('SIGINT', close);
  process.once('SIGTERM', close);
  await app.listen({ port: config.port, host: config.host });
  const shownHost = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
  console.log(
    `database: ${database.kind === 'pglite' ? `embedded PGlite in ${path.join(config.dataDir, 'pgdata')}` : 'PostgreSQL (DATABASE_URL)'}` +
      `; ${prep.migrations.length} migrations, ${prep.tableChanges.length} table changes, ${prep.menusAdded} menu entries added` +
      `${prep.firstStart ? ', first-start seed done' : ''}${demo} (${Date.now() - t0} ms)`,
  );
  console.log(`canteen-admin listening on http://${shownHost}:${config.port}  login: admin / admin (tenant 000000)`);
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});

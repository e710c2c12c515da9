/**
 * Child process of helpers.ts: a database in DATA_DIR filled the way an operator gets it — migrations,
 * seed, and the small demo ledger of `npm run seed:demo` (src/server/modules/ledger/demo.ts, SMALL_DEMO) —
 * plus one fixture the demo does not have: two employee cards bound to a messaging-app user (for unbind).
 */
import { loadConfig } from '../../../src/server/config.js';
import { openDatabase } from '../../../src/server/db/index.js';
import { loadDocuments } from '../../../src/server/documents.js';
import { prepareDatabase } from '../../../src/server/setup.js';
import { SMALL_DEMO, seedDemoLedger } from '../../../src/server/modules/ledger/demo.js';
import { query } from '../../../src/server/lib/sql.js';
import { ADMIN_TENANT, SEED_IDS } from '../../../src/server/seed/index.js';

const config = loadConfig();
const docs = loadDocuments(config.rootDir, config.schemaDirs);
const database = await openDatabase(config);
try {
  await prepareDatabase(database.db, docs, config, { demo: true });
  const [{ n }] = await query<{ n: string }>(database.db, `select count(*) as n from canteen_order`);
  // A future first-start demo may already have filled the ledger: use it as it is.
  if (Number(n) === 0) await seedDemoLedger(database.db, { tenantId: ADMIN_TENANT, userId: SEED_IDS.admin, deptId: SEED_IDS.dept }, SMALL_DEMO);
  await query(database.db, `update canteen_employee set wx_user_id = 'oE2E' || card_no where card_no in ('K00000001', 'K00000002') and tenant_id = $1`, [ADMIN_TENANT]);
  console.log('seed-fixture done');
} finally {
  await database.close();
}

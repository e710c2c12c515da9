/**
 * npm run seed:demo -- --employees N --merchants M --orders K --months T [--seed S] [--now <ISO time>]
 *
 * Fills the configured database (DATABASE_URL, else the embedded one in DATA_DIR) with deterministic demo
 * data through the ledger's bulk path (src/server/modules/ledger/demo.ts): migrates and seeds first, refuses
 * a ledger that already has orders. Defaults are the small first-start set (60 employees, the seeded
 * merchants, 400 orders over 3 months, seed 42). 1,000,000 orders over 12 months take a few minutes on
 * PostgreSQL.
 *
 * Every time in the data is reckoned from "now": by default the database's clock, so two runs with the same
 * seed agree only within the same clock hour. To reproduce a data set exactly (another day, another
 * machine), pin it: `--now 2026-03-15T12:00:00` (local time of APP_TIMEZONE; `2026-03-15 12:00:00`,
 * `2026-03-15` and a zoned `2026-03-15T04:00:00Z` work too). The run prints the now it used.
 *
 * First start (main.ts) uses the same code:  `if (prep.firstStart) await seedDemoLedger(db, adminLedgerContext(), SMALL_DEMO)`.
 */
import { loadConfig } from '../src/server/config.js';
import { openDatabase } from '../src/server/db/index.js';
import { loadDocuments } from '../src/server/documents.js';
import { prepareDatabase } from '../src/server/setup.js';
import { SMALL_DEMO, seedDemoLedger, type DemoOptions } from '../src/server/modules/ledger/demo.js';
import { ADMIN_TENANT, SEED_IDS } from '../src/server/seed/index.js';

function parseArgs(argv: string[]): DemoOptions {
  const o: DemoOptions = { ...SMALL_DEMO };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--') continue;
    const now = /^--now(?:=(.*))?$/.exec(a);
    if (now) {
      const v = now[1] ?? argv[++i];
      if (!v) throw new Error('--now needs a time, e.g. --now 2026-03-15T12:00:00');
      o.now = v;
      continue;
    }
    const m = /^--(employees|merchants|orders|months|seed)(?:=(.*))?$/.exec(a);
    if (!m) throw new Error(`unknown argument ${a}\nusage: npm run seed:demo -- --employees N --merchants M --orders K --months T [--seed S] [--now 2026-03-15T12:00:00]`);
    const v = Number(m[2] ?? argv[++i]);
    if (!Number.isInteger(v) || v < 0) throw new Error(`--${m[1]} needs a non-negative integer`);
    (o as any)[m[1]] = v;
  }
  if (o.months < 1 || o.months > 36) throw new Error('--months must be 1..36');
  if (o.employees < 1) throw new Error('--employees must be at least 1');
  return o;
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const config = loadConfig();
  const docs = loadDocuments(config.rootDir, config.schemaDirs);
  const database = await openDatabase(config);
  try {
    await prepareDatabase(database.db, docs, config, { demo: true });
    const t0 = Date.now();
    const counts = await seedDemoLedger(database.db, adminLedgerContext(), { ...opts, log: (l) => console.log(`seed:demo ${l}`) });
    console.log(`seed:demo ${JSON.stringify({ ...opts, ...counts, seconds: Math.round((Date.now() - t0) / 100) / 10, database: database.kind })}`);
  } finally {
    await database.close();
  }
}

export function adminLedgerContext() {
  return { tenantId: ADMIN_TENANT, userId: SEED_IDS.admin, deptId: SEED_IDS.dept };
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});

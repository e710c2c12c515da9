/**
 * npm run bench:api [-- --orders 1000000 --months 12 --duration 10 --out scripts/bench/results/api.json]
 *
 * Loads demo data (default 1,000,000 payments over 12 months, through the ledger's bulk path) into
 * PostgreSQL — DATABASE_URL, or a throwaway cluster started with scripts/ci/pg-cluster.sh and stopped at
 * the end — then measures, at 10 concurrent clients:
 *   - the order list, page 1 and page 1,000, with filters,
 *   - the account records list (one month, one record type),
 *   - transaction statistics over one month (page + totals + per-day series),
 * each over HTTP (autocannon against the real server, in process, on 127.0.0.1) and as the same database
 * work run directly through `pg` (the same query builders, no HTTP, no framework), and prints/writes
 * requests/s, p50 and p99 for both plus the ratio HTTP ÷ direct. A database that already holds the orders
 * is reused (delete it or pass a fresh DATABASE_URL to reload).
 *
 * And, per scenario, pgbench on the same statements (issue 13: "prints req/s against pgbench on the same
 * statement"): every statement one request sends to the database is captured at the pg driver (a hook on
 * pg.Client#query while one request runs through the app, after a warm-up request), written as one pgbench
 * script — so one pgbench transaction is one request's database work, its statements run one after the other
 * on one connection — with the parameters $n as pgbench variables (:sIpN, given with -D as the text pg sends;
 * a null parameter, which -D cannot express, is written as a literal NULL and listed in literalParams), and
 * run with `pgbench -n -M prepared -c 10 -j 2 -T <duration>` against the same database. Its tps and
 * latencies (p50/p99 from pgbench's per-transaction log) are printed and written next to the HTTP and direct
 * figures, with the ratio HTTP ÷ pgbench (target for the order list: ≥ 0.5, stretch 0.6).
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import pg from 'pg';
import { fileURLToPath } from 'node:url';
import { buildApp } from '../../src/server/app.js';
import { loadConfig } from '../../src/server/config.js';
import { listPage } from '../../src/server/crud/index.js';
import { openDatabase, type DB } from '../../src/server/db/index.js';
import { loadDocuments } from '../../src/server/documents.js';
import { seedDemoLedger } from '../../src/server/modules/ledger/demo.js';
import { query } from '../../src/server/lib/sql.js';
import { orderStatistics } from '../../src/server/modules/ledger/statistics.js';
import { ADMIN_TENANT, SEED_IDS } from '../../src/server/seed/index.js';
import { prepareDatabase } from '../../src/server/setup.js';
import { parseSearchParams, parseSort } from '../../src/shared/search.js';
import { adminToken } from './admin-token.js';
import { autocannon, type HttpFigures as Figures } from './autocannon.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

function args() {
  const o = { orders: 1_000_000, months: 12, employees: 20_000, merchants: 300, duration: 10, out: path.join(root, 'scripts/bench/results/api.json') };
  const a = process.argv.slice(2).filter((x) => x !== '--');
  for (let i = 0; i < a.length; i++) {
    const m = /^--(\w+)$/.exec(a[i]);
    if (!m || !(m[1] in o)) throw new Error(`unknown argument ${a[i]}`);
    (o as any)[m[1]] = m[1] === 'out' ? a[++i] : Number(a[++i]);
  }
  return o;
}

async function direct(work: () => Promise<unknown>, seconds: number, concurrency = 10): Promise<Figures> {
  const lat: number[] = [];
  let errors = 0;
  const end = Date.now() + seconds * 1000;
  const warmEnd = Date.now() + 1000;
  const worker = async () => {
    while (Date.now() < end) {
      const t = performance.now();
      try {
        await work();
      } catch {
        errors++;
      }
      if (Date.now() > warmEnd) lat.push(performance.now() - t);
    }
  };
  const t0 = Date.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  const secs = (Date.now() - Math.max(t0 + 1000, t0)) / 1000;
  lat.sort((x, y) => x - y);
  const pct = (p: number) => Math.round((lat[Math.min(lat.length - 1, Math.floor(p * lat.length))] ?? 0) * 100) / 100;
  return { rps: Math.round(lat.length / secs), p50: pct(0.5), p99: pct(0.99), errors };
}

async function http(url: string, token: string, seconds: number): Promise<Figures> {
  await autocannon(url, token, 1); // warm-up
  return autocannon(url, token, seconds);
}

const PGBENCH = path.join(process.env.PGBIN ?? '/usr/lib/postgresql/15/bin', 'pgbench');
/** node-postgres' own value → parameter text conversion, so pgbench binds exactly the text pg sends. */
const prepareValue: (v: unknown) => string | null = createRequire(import.meta.url)('pg/lib/utils.js').prepareValue;

interface Statement {
  sql: string;
  params: unknown[];
}

/** Every statement sent through node-postgres while `fn` runs (nothing else may use the database meanwhile). */
async function captureStatements(fn: () => Promise<unknown>): Promise<Statement[]> {
  const out: Statement[] = [];
  const proto = pg.Client.prototype as any;
  const original = proto.query;
  proto.query = function (this: unknown, config: any, values?: any, cb?: any) {
    if (typeof config === 'string') out.push({ sql: config, params: Array.isArray(values) ? [...values] : [] });
    else if (config && typeof config.text === 'string') out.push({ sql: config.text, params: [...(config.values ?? (Array.isArray(values) ? values : []))] });
    return original.call(this, config, values, cb);
  };
  try {
    await fn();
  } finally {
    proto.query = original;
  }
  return out;
}

/**
 * A pgbench script of the statements, one transaction = all of them in order: $n → :sIpN with `-D sIpN=text`;
 * a null parameter becomes a literal NULL (-D cannot give a null). Refuses SQL in which pgbench would see a
 * variable of its own (a ':name' outside our parameters, e.g. in a string literal).
 */
function pgbenchScript(stmts: Statement[]): { script: string; defines: string[]; literalParams: string[] } {
  const defines: string[] = [];
  const literalParams: string[] = [];
  const lines = stmts.map((st, i) => {
    if (/(^|[^:]):[A-Za-z0-9_]/.test(st.sql.replace(/::/g, '  '))) throw new Error(`pgbench would read a variable in statement ${i + 1}: ${st.sql.slice(0, 200)}`);
    const sqlText = st.sql.replace(/\$(\d+)/g, (_, n: string) => {
      const v = prepareValue(st.params[Number(n) - 1]);
      if (v === null || v === undefined) {
        literalParams.push(`s${i + 1}p${n} = NULL`);
        return 'NULL';
      }
      const name = `s${i + 1}p${n}`;
      defines.push(`${name}=${v}`);
      return `:${name}`;
    });
    return sqlText.replace(/\s*\n\s*/g, ' ').trim().replace(/;?$/, ';');
  });
  // -D can give a name once: one define per distinct name (a $n used twice in a statement is one name).
  return { script: lines.join('\n') + '\n', defines: [...new Set(defines)], literalParams };
}

interface PgbenchFigures {
  tps: number;
  latencyAvg: number;
  p50: number;
  p99: number;
  transactions: number;
  failed: number;
}

function runPgbench(url: string, scriptFile: string, defines: string[], seconds: number, logDir?: string, warmUp = false): Promise<PgbenchFigures> {
  const argv = ['-n', '-M', 'prepared', '-c', '10', '-j', '2', '-T', String(seconds), '-f', scriptFile, ...defines.flatMap((d) => ['-D', d])];
  if (logDir) argv.push('-l', `--log-prefix=${path.join(logDir, 'tx')}`);
  argv.push(url);
  return new Promise((resolve, reject) => {
    const p = spawn(PGBENCH, argv, { stdio: ['ignore', 'pipe', 'pipe'], cwd: logDir ?? process.cwd() });
    let out = '';
    let err = '';
    p.stdout.on('data', (d) => (out += d));
    p.stderr.on('data', (d) => (err += d));
    p.on('error', reject);
    p.on('close', (code) => {
      const tps = /tps = ([\d.]+) \(without initial connection time\)/.exec(out);
      // a warm-up of 1 s may end before any transaction of a slow statement does (pgbench then prints no tps)
      if (code !== 0 || (!tps && !warmUp)) return reject(new Error(`pgbench exited ${code}: ${(err || out).slice(0, 500)}`));
      const num = (re: RegExp) => Number(re.exec(out)?.[1] ?? 0);
      const lat: number[] = [];
      if (logDir) {
        for (const f of fs.readdirSync(logDir).filter((x) => x.startsWith('tx.'))) {
          for (const line of fs.readFileSync(path.join(logDir, f), 'utf8').split('\n')) {
            const us = Number(line.split(' ')[2]);
            if (line && Number.isFinite(us)) lat.push(us / 1000);
          }
        }
      }
      lat.sort((x, y) => x - y);
      const pct = (q: number) => Math.round((lat[Math.min(lat.length - 1, Math.floor(q * lat.length))] ?? 0) * 100) / 100;
      resolve({
        tps: Math.round(Number(tps?.[1] ?? 0)),
        latencyAvg: num(/latency average = ([\d.]+) ms/),
        p50: pct(0.5),
        p99: pct(0.99),
        transactions: num(/number of transactions actually processed: (\d+)/),
        failed: num(/number of failed transactions: (\d+)/),
      });
    });
  });
}

/** pgbench on exactly the statements of one request: a 1 s warm-up, then `seconds`. */
async function pgbench(url: string, stmts: Statement[], seconds: number, name: string) {
  const dir = fs.mkdtempSync('/tmp/canteen-bench-pgbench.');
  try {
    const { script, defines, literalParams } = pgbenchScript(stmts);
    const file = path.join(dir, 'request.sql');
    fs.writeFileSync(file, script);
    await runPgbench(url, file, defines, 1, undefined, true);
    const logDir = path.join(dir, 'log');
    fs.mkdirSync(logDir);
    const figures = await runPgbench(url, file, defines, seconds, logDir);
    return { ...figures, statements: stmts.length, script, defines, literalParams };
  } catch (e) {
    throw new Error(`${name}: ${(e as Error).message}`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function main() {
  const o = args();
  let cluster: string | undefined;
  let url = process.env.DATABASE_URL;
  if (!url) {
    cluster = fs.mkdtempSync('/tmp/canteen-bench-pg.');
    const out = execFileSync('bash', [path.join(root, 'scripts/ci/pg-cluster.sh'), 'start', cluster], { encoding: 'utf8' });
    url = /DATABASE_URL=(\S+)/.exec(out)![1];
    console.log(`bench: throwaway PostgreSQL 15 cluster ${cluster} (${url})`);
  }
  const config = loadConfig({ ...process.env, DATABASE_URL: url }, { rootDir: root, logger: false });
  const docs = loadDocuments(root, []);
  const database = await openDatabase(config);
  const db: DB = database.db;
  const result: Record<string, unknown> = { date: new Date().toISOString(), node: process.version, cpus: (await import('node:os')).cpus().length, options: o };
  try {
    await prepareDatabase(db, docs, config, { demo: true });
    const ctx = { tenantId: ADMIN_TENANT, userId: SEED_IDS.admin, deptId: SEED_IDS.dept };
    const [{ n }] = await query<{ n: string }>(db, `select count(*) as n from canteen_order where order_type = 1`);
    if (Number(n) === 0) {
      const t0 = Date.now();
      const c = await seedDemoLedger(db, ctx, { ...o, seed: 1, log: (l) => console.log(`bench: load ${l}`) });
      result.load = { seconds: Math.round((Date.now() - t0) / 100) / 10, ...c };
      const t1 = Date.now();
      await query(db, 'vacuum analyze canteen_order');
      await query(db, 'vacuum analyze canteen_account_records');
      (result.load as any).vacuumSeconds = Math.round((Date.now() - t1) / 100) / 10;
      console.log(`bench: loaded ${JSON.stringify(result.load)}`);
    } else {
      console.log(`bench: reusing ${n} payment orders already in the database`);
      result.load = { reused: Number(n) };
    }
    const [top] = await query<any>(
      db,
      `select merchant_name from canteen_order where order_type = 1 group by merchant_name order by count(*) desc limit 1`,
    );
    const [mon] = await query<any>(
      db,
      `select to_char(date_trunc('month', localtimestamp) - interval '1 month', 'YYYY-MM-DD') as f, to_char(date_trunc('month', localtimestamp), 'YYYY-MM-DD') as t,
              to_char(date_trunc('month', localtimestamp) - interval '3 month', 'YYYY-MM-DD') as q`,
    );
    const enc = encodeURIComponent;
    const oneMonth = `createTime_datege=${mon.f}%2000:00:00&createTime_datelt=${mon.t}%2000:00:00`;
    const scenarios: Array<{ name: string; doc: string; path: string; qs: string; stats?: boolean }> = [
      { name: 'order list p1 (merchant + 3 months)', doc: 'order', path: '/api/order/list', qs: `current=1&size=10&merchantName=${enc(top.merchant_name)}&createTime_datege=${mon.q}%2000:00:00&createTime_datelt=${mon.t}%2000:00:00` },
      { name: 'order list p1000 (type payment, status paid)', doc: 'order', path: '/api/order/list', qs: `current=1000&size=10&orderType=1&status=2` },
      { name: 'account records p1 (payments, one month)', doc: 'accountRecords', path: '/api/account/records/list', qs: `current=1&size=10&recordsType=2&${oneMonth}` },
      { name: 'statistics one month (page + totals + series)', doc: 'orderStatistics', path: '/api/statistic/orderStatistics', qs: `current=1&size=10&${oneMonth}`, stats: true },
    ];

    const app = buildApp({ db, config, docs });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const port = (app.server.address() as any).port;
    const token = await adminToken(app);

    // Direct path: a separate pg pool of 10 running the same builders' SQL.
    const directDb = (await openDatabase(config)).db;
    const rows: any[] = [];
    for (const s of scenarios) {
      const doc = docs.get(s.doc)!;
      const q = Object.fromEntries(new URLSearchParams(s.qs));
      const conditions = parseSearchParams(doc, q);
      const sort = parseSort(doc, undefined, undefined);
      const current = Number(q.current);
      const size = Number(q.size);
      const work = () =>
        Promise.all([
          listPage(directDb, doc, { conditions, sort, tenantId: ADMIN_TENANT, limit: size, offset: (current - 1) * size }),
          s.stats ? orderStatistics(directDb, ADMIN_TENANT, q.createTime_datege, q.createTime_datelt) : Promise.resolve(null),
        ]);
      const inject = () => app.inject({ method: 'GET', url: `${s.path}?${s.qs}`, headers: { 'blade-auth': `bearer ${token}` } });
      const check = await inject();
      const body = check.json();
      if (check.statusCode !== 200) throw new Error(`${s.name}: ${check.statusCode} ${check.body}`);
      // The statements one (warm) request sends: what pgbench runs as one transaction.
      const stmts = await captureStatements(inject);
      const h = await http(`http://127.0.0.1:${port}${s.path}?${s.qs}`, token, o.duration);
      const d = await direct(work, o.duration);
      const b = await pgbench(url, stmts, o.duration, s.name);
      const row = {
        scenario: s.name,
        request: `GET ${s.path}?${s.qs}`,
        total: body.data.total,
        http: h,
        direct: d,
        ratio: Math.round((h.rps / Math.max(1, d.rps)) * 100) / 100,
        pgbench: b,
        ratioPgbench: Math.round((h.rps / Math.max(1, b.tps)) * 100) / 100,
        directRatioPgbench: Math.round((d.rps / Math.max(1, b.tps)) * 100) / 100,
      };
      rows.push(row);
      console.log(
        `bench: ${s.name.padEnd(48)} http ${String(h.rps).padStart(6)} req/s p50 ${h.p50} ms p99 ${h.p99} ms | direct pg ${String(d.rps).padStart(6)} /s p50 ${d.p50} ms p99 ${d.p99} ms | ratio ${row.ratio} (total ${row.total})`,
      );
      console.log(
        `bench: ${''.padEnd(48)} pgbench -M prepared ${String(b.tps).padStart(6)} tps p50 ${b.p50} ms p99 ${b.p99} ms (${b.statements} statement${b.statements === 1 ? '' : 's'}/transaction, ${b.failed} failed) | http ÷ pgbench ${row.ratioPgbench} | direct ÷ pgbench ${row.directRatioPgbench}`,
      );
    }
    result.scenarios = rows;
    result.pgbench = {
      command: `${PGBENCH} -n -M prepared -c 10 -j 2 -T ${o.duration} -f <scenario script> -D sIpN=<value>… <DATABASE_URL> (after a 1 s warm-up run)`,
      target: 'order list req/s at 10 clients, 1M orders, PostgreSQL ≥ 0.5 × pgbench prepared (stretch 0.6)',
      orderList: rows.filter((r) => r.scenario.startsWith('order list')).map((r) => ({ scenario: r.scenario, ratioPgbench: r.ratioPgbench })),
    };
    result.uptime = fs.readFileSync('/proc/loadavg', 'utf8').trim();
    result.statisticsYear = await statisticsYear(directDb);
    await directDb.destroy();
    await app.close();
    fs.mkdirSync(path.dirname(o.out), { recursive: true });
    fs.writeFileSync(o.out, JSON.stringify(result, null, 2) + '\n');
    console.log(`bench: figures written to ${path.relative(root, o.out)}`);
  } finally {
    await database.close();
    if (cluster) execFileSync('bash', [path.join(root, 'scripts/ci/pg-cluster.sh'), 'stop', cluster]);
  }
}

/**
 * Statistics over the last year (issue 13: "≤ 60 ms for any times"): whole days (all from the rollup), times not
 * at midnight (rollup + the partial first and last days from the orders), and every order read (the reference).
 * Median of 15 runs each, after one warm-up run.
 */
async function statisticsYear(db: Parameters<typeof orderStatistics>[0]): Promise<Array<{ range: string; source: string; medianMs: number }>> {
  const [d] = await query<any>(db, `select to_char(current_date - 365, 'YYYY-MM-DD') as f, to_char(current_date, 'YYYY-MM-DD') as t`);
  const cases: Array<[string, string, string, { only?: 'orders' }]> = [
    ['a year, whole days', `${d.f} 00:00:00`, `${d.t} 00:00:00`, {}],
    ['a year, 08:30 to 17:45', `${d.f} 08:30:00`, `${d.t} 17:45:00`, {}],
    ['a year, 08:30 to 17:45, every order read', `${d.f} 08:30:00`, `${d.t} 17:45:00`, { only: 'orders' }],
  ];
  const out = [];
  for (const [name, from, to, opts] of cases) {
    const first = await orderStatistics(db, ADMIN_TENANT, from, to, opts);
    const times: number[] = [];
    for (let i = 0; i < 15; i++) {
      const t0 = performance.now();
      await orderStatistics(db, ADMIN_TENANT, from, to, opts);
      times.push(performance.now() - t0);
    }
    times.sort((a, b) => a - b);
    const medianMs = Math.round(times[7] * 10) / 10;
    console.log(`bench: statistics ${name.padEnd(42)} ${String(medianMs).padStart(8)} ms median (source ${first.source}, ${first.totals.paidCount} payments)`);
    out.push({ range: `${from} → ${to}`, name, source: first.source, medianMs });
  }
  return out;
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});

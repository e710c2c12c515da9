/**
 * Durability suite (issue 14): a real server process (src/server/main.ts) under a write load — merchant
 * submits and card recharges — is killed with SIGKILL in the middle, then started again on the same data
 * (a temp DATA_DIR for PGlite, a fresh database for PostgreSQL): every write the server acknowledged (HTTP
 * 200 received) is present, and the ledger invariants hold (the SQL of tests/api/business/_harness.ts).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/config.js';
import { openDatabase } from '../../src/server/db/index.js';
import { ledgerViolations } from './business/_harness.js';
import { BASIC, ROOT, md5 } from './helpers.js';
import { recordSuite } from './suite-report.js';

const pgUrl = process.env.DATABASE_URL;
let dataDir: string;
let databaseUrl = '';
let dbName = '';

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

interface Server {
  url: string;
  child: ChildProcess;
  out: () => string;
}

async function start(): Promise<Server> {
  const port = await freePort();
  let out = '';
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', DATABASE_URL: databaseUrl, LOG_REQUESTS: '', DEMO_DATA: 'true', JWT_SECRET: 'durability-suite-secret-0123456789abcdef' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d) => (out += String(d)));
  child.stderr!.on('data', (d) => (out += String(d)));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start in 150 s:\n${out}`)), 150_000);
    child.stdout!.on('data', () => {
      if (out.includes('listening on')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${out}`));
    });
  });
  return { url: `http://127.0.0.1:${port}`, child, out: () => out };
}

async function stop(s: Server, signal: NodeJS.Signals): Promise<void> {
  if (s.child.exitCode !== null || s.child.signalCode !== null) return;
  const exited = new Promise((r) => s.child.once('exit', r));
  s.child.kill(signal);
  await exited;
}

async function login(s: Server): Promise<string> {
  const r = await fetch(`${s.url}/api/blade-auth/oauth/token?grant_type=password&username=admin&password=${md5('admin')}&tenantId=000000`, { method: 'POST', headers: { authorization: BASIC, 'tenant-id': '000000' } });
  const body = (await r.json()) as { access_token?: string };
  if (!body.access_token) throw new Error(`login: ${JSON.stringify(body)}`);
  return body.access_token;
}

async function post(s: Server, token: string, url: string, body: unknown): Promise<{ status: number; body: any }> {
  const r = await fetch(`${s.url}${url}`, { method: 'POST', headers: { 'blade-auth': `bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: r.status, body: await r.json().catch(() => undefined) };
}

async function get(s: Server, token: string, url: string): Promise<any> {
  const r = await fetch(`${s.url}${url}`, { headers: { 'blade-auth': `bearer ${token}` } });
  return r.json();
}

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'canteen-durability-'));
  if (pgUrl) {
    dbName = `durability_${process.pid}_${Date.now()}`;
    const c = new pg.Client({ connectionString: pgUrl });
    await c.connect();
    await c.query(`create database ${dbName}`);
    await c.end();
    const u = new URL(pgUrl);
    u.pathname = `/${dbName}`;
    databaseUrl = u.toString();
  }
});

afterAll(async () => {
  fs.rmSync(dataDir, { recursive: true, force: true });
  if (pgUrl && dbName) {
    const c = new pg.Client({ connectionString: pgUrl });
    await c.connect();
    await c.query(`drop database if exists ${dbName} with (force)`).catch(() => {});
    await c.end();
  }
});

describe('durability: kill -9 under a write load', () => {
  it('every acknowledged write survives, and the ledger invariants hold', async () => {
    let server = await start();
    const token = await login(server);
    const employees = (await get(server, token, '/api/employee/list?current=1&size=20')).data.records as Array<{ id: string }>;
    expect(employees.length).toBeGreaterThan(0);

    const ackedMerchants: string[] = [];
    const ackedRecharges = new Map<string, number>(); // employee id → acknowledged recharges
    let requests = 0;
    let failedInFlight = 0;
    let killed = false;
    const worker = async (w: number) => {
      for (let n = 0; !killed; n++) {
        requests++;
        try {
          if (n % 2 === 0) {
            const r = await post(server, token, '/api/merchant/submit', { merchantName: `持久${w}-${n}`, loginPhone: '13800138000', loginPsw: 'secret123', payPsw: '123456', feeRatio: 1.5, contractDaterange: ['2026-01-01', '2026-12-31'], enableFlag: 1, status: 1 });
            if (r.status === 200) ackedMerchants.push(r.body.data.id);
          } else {
            const e = employees[(w * 7 + n) % employees.length].id;
            const r = await post(server, token, `/api/employee/recharge?id=${e}`, { amount: 1.25, remarks: `durability ${w}-${n}` });
            if (r.status === 200) ackedRecharges.set(e, (ackedRecharges.get(e) ?? 0) + 1);
            else if (!killed) throw new Error(`recharge ${r.status}: ${JSON.stringify(r.body)}`);
          }
        } catch (e) {
          if (!killed) throw e;
          failedInFlight++; // the connection died with the process: not acknowledged
        }
      }
    };
    const workers = Array.from({ length: 6 }, (_, w) => worker(w));
    // kill once enough writes are acknowledged (a count, not a time)
    await expect.poll(() => ackedMerchants.length + [...ackedRecharges.values()].reduce((a, b) => a + b, 0), { timeout: 60_000, interval: 20 }).toBeGreaterThanOrEqual(60);
    killed = true;
    server.child.kill('SIGKILL');
    await Promise.allSettled(workers);
    await new Promise((r) => server.child.exitCode !== null || server.child.signalCode !== null ? r(null) : server.child.once('exit', r));

    // restart on the same data: it must come up and serve
    server = await start();
    const token2 = await login(server);
    const list = await get(server, token2, '/api/merchant/list?current=1&size=10');
    expect(list.code).toBe(200);
    await stop(server, 'SIGTERM');

    // read the data directly (the server is stopped: PGlite allows one process)
    const config = loadConfig({ ...process.env, DATA_DIR: dataDir, DATABASE_URL: databaseUrl }, { rootDir: ROOT, logger: false });
    const database = await openDatabase(config);
    try {
      const merchants = new Set((await database.db.selectFrom('canteen_merchant').select('id').where('id', 'in', ackedMerchants.length ? ackedMerchants : ['0']).execute()).map((r) => String(r.id)));
      const lostMerchants = ackedMerchants.filter((id) => !merchants.has(id));
      let lostRecharges = 0;
      for (const [employeeId, acked] of ackedRecharges) {
        const rows = await database.db.selectFrom('canteen_account_records').select((eb) => eb.fn.countAll().as('n')).where('account_id', '=', employeeId).where('records_type', '=', 1).where('remarks', 'like', 'durability %').executeTakeFirstOrThrow();
        if (Number(rows.n) < acked) lostRecharges += acked - Number(rows.n);
      }
      const violations = await ledgerViolations(database.db);
      recordSuite('durability', { requests, acknowledged: ackedMerchants.length + [...ackedRecharges.values()].reduce((a, b) => a + b, 0), inFlightAtKill: failedInFlight, lostWrites: lostMerchants.length + lostRecharges, invariantViolations: violations.length });
      expect(lostMerchants).toEqual([]);
      expect(lostRecharges).toBe(0);
      expect(violations).toEqual([]);
    } finally {
      await database.close();
    }
  }, 400_000);
});

/**
 * npm run bench:embedded [-- --rounds 3 --duration 8 --out scripts/bench/results/embedded.json]
 *
 * The embedded database as a user runs it (`npm start`: the bundled server, dist/server/main.mjs, started by
 * scripts/serve.sh in its own process, dist/web built, the
 * first-start demo ledger), against the same server on PostgreSQL (a throwaway cluster, scripts/ci/pg-cluster.sh):
 *   first start  a new data folder: seconds from the process start until /login answers, and the process's peak
 *                resident memory (VmHWM: the kernel's own high-water mark, every thread included);
 *   idle memory  resident memory (VmRSS) 5 s after the server is ready: after the first start, after a restart on
 *                the same data, and of the PostgreSQL-mode server (whose database is another process);
 *   list req/s   GET /api/order/list page 1 (10 rows, default sort) at 10 clients, autocannon in its own process,
 *                1 s warm-up then `duration` s; PGlite and PostgreSQL in alternating rounds, the ratio is the median
 *                of the per-round ratios (the machine's speed drifts; a pair run back to back shares it).
 * Prints figures and writes JSON. Never passes or fails on a figure.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../tests/e2e/support.js';
import { autocannon } from './autocannon.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

function args() {
  const o = { rounds: 3, duration: 8, out: path.join(root, 'scripts/bench/results/embedded.json') };
  const a = process.argv.slice(2).filter((x) => x !== '--');
  for (let i = 0; i < a.length; i++) {
    const m = /^--(\w+)$/.exec(a[i]);
    if (!m || !(m[1] in o)) throw new Error(`unknown argument ${a[i]}`);
    (o as any)[m[1]] = m[1] === 'out' ? a[++i] : Number(a[++i]);
  }
  return o;
}

const MB = (kB: number) => Math.round(kB / 1024);
function status(pid: number, key: 'VmRSS' | 'VmHWM'): number {
  const m = new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) : 0;
}

interface Server {
  url: string;
  child: ChildProcess;
  readySeconds: number;
  stop(): Promise<void>;
}

/** Starts the product's server; resolves when /login answers 200. */
async function startServer(env: Record<string, string>): Promise<Server> {
  const port = await freePort();
  const t0 = performance.now();
  let out = '';
  // serve.sh execs node, so the child's pid is the server's own.
  const child = spawn('sh', ['scripts/serve.sh'], {
    cwd: root,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', LOG_REQUESTS: '', JWT_SECRET: 'bench-embedded-secret-0123456789abcdef', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d) => (out += String(d)));
  child.stderr!.on('data', (d) => (out += String(d)));
  const url = `http://127.0.0.1:${port}`;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited:\n${out}`);
    if (performance.now() - t0 > 300_000) throw new Error(`server not ready in 300 s:\n${out}`);
    const ok = await fetch(`${url}/login`).then((r) => r.status === 200, () => false);
    if (ok) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  const readySeconds = Math.round((performance.now() - t0) / 100) / 10;
  return {
    url,
    child,
    readySeconds,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

async function token(url: string): Promise<string> {
  const md5 = createHash('md5').update('admin').digest('hex');
  const r = await fetch(`${url}/api/blade-auth/oauth/token?tenantId=000000&username=admin&password=${md5}&grant_type=password&scope=all`, {
    method: 'POST',
    headers: { authorization: 'Basic ' + Buffer.from('saber:saber_secret').toString('base64') },
  });
  const body = (await r.json()) as { access_token?: string };
  if (!body.access_token) throw new Error(`login failed: ${JSON.stringify(body)}`);
  return body.access_token;
}

const settle = () => new Promise((r) => setTimeout(r, 5000));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const LIST = '/api/order/list?current=1&size=10';

async function main() {
  const o = args();
  if (!fs.existsSync(path.join(root, 'dist/web/index.html'))) throw new Error('dist/web is missing: run `npx vite build` first');
  execFileSync('npm', ['run', '-s', 'build:server'], { cwd: root, stdio: 'inherit' });
  const result: Record<string, unknown> = { date: new Date().toISOString(), node: process.version, cpus: os.cpus().length, loadavg: os.loadavg().map((x) => Math.round(x * 10) / 10), options: o };
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'canteen-bench-embedded-'));
  const pgData = fs.mkdtempSync(path.join(os.tmpdir(), 'canteen-bench-embedded-files-'));
  const cluster = fs.mkdtempSync('/tmp/canteen-bench-pg.');
  let lite: Server | undefined;
  let pgs: Server | undefined;
  try {
    // First start of the embedded database on a new data folder.
    const first = await startServer({ DATA_DIR: dataDir, DATABASE_URL: '' });
    const peakKB = status(first.child.pid!, 'VmHWM');
    await settle();
    const idleFirstKB = status(first.child.pid!, 'VmRSS');
    await first.stop();
    console.log(`bench: PGlite first start ${first.readySeconds} s to /login, peak ${MB(peakKB)} MB, idle after it ${MB(idleFirstKB)} MB`);
    lite = await startServer({ DATA_DIR: dataDir, DATABASE_URL: '' });
    await settle();
    const idleLiteKB = status(lite.child.pid!, 'VmRSS');
    console.log(`bench: PGlite restart ${lite.readySeconds} s to /login, idle ${MB(idleLiteKB)} MB`);

    const started = execFileSync('bash', [path.join(root, 'scripts/ci/pg-cluster.sh'), 'start', cluster], { encoding: 'utf8' });
    const databaseUrl = /DATABASE_URL=(\S+)/.exec(started)![1];
    pgs = await startServer({ DATA_DIR: pgData, DATABASE_URL: databaseUrl });
    await settle();
    const idlePgKB = status(pgs.child.pid!, 'VmRSS');
    console.log(`bench: PostgreSQL-mode server idle ${MB(idlePgKB)} MB (the database is its own process)`);
    result.memory = { firstStartSeconds: first.readySeconds, firstStartPeakMB: MB(peakKB), idleAfterFirstStartMB: MB(idleFirstKB), idleMB: MB(idleLiteKB), postgresModeIdleMB: MB(idlePgKB) };

    const tokLite = await token(lite.url);
    const tokPg = await token(pgs.url);
    const rounds: Array<{ pglite: number; postgres: number; ratio: number; pgliteP99: number; postgresP99: number }> = [];
    for (let i = 0; i < o.rounds; i++) {
      const order = i % 2 === 0 ? (['pglite', 'postgres'] as const) : (['postgres', 'pglite'] as const);
      const got: Record<string, { rps: number; p99: number; errors: number }> = {};
      for (const which of order) {
        const [url, tok] = which === 'pglite' ? [lite.url, tokLite] : [pgs.url, tokPg];
        await autocannon(url + LIST, tok, 1);
        got[which] = await autocannon(url + LIST, tok, o.duration);
        if (got[which].errors) throw new Error(`${which}: ${got[which].errors} errors`);
      }
      const r = { pglite: got.pglite.rps, postgres: got.postgres.rps, ratio: Math.round((got.pglite.rps / got.postgres.rps) * 100) / 100, pgliteP99: got.pglite.p99, postgresP99: got.postgres.p99 };
      rounds.push(r);
      console.log(`bench: round ${i + 1}: PGlite ${r.pglite} req/s (p99 ${r.pgliteP99} ms), PostgreSQL ${r.postgres} req/s (p99 ${r.postgresP99} ms), ratio ${r.ratio}`);
    }
    result.list = { request: `GET ${LIST}`, rounds, pgliteMedian: median(rounds.map((r) => r.pglite)), postgresMedian: median(rounds.map((r) => r.postgres)), ratioMedian: median(rounds.map((r) => r.ratio)) };
    console.log(`bench: order list, PGlite ÷ PostgreSQL req/s: ${(result.list as any).ratioMedian} (median of ${o.rounds} paired rounds; target ≥ 0.5)`);
    fs.mkdirSync(path.dirname(o.out), { recursive: true });
    fs.writeFileSync(o.out, JSON.stringify(result, null, 2) + '\n');
    console.log(`bench: figures written to ${path.relative(root, o.out)}`);
  } finally {
    await lite?.stop();
    await pgs?.stop();
    execFileSync('bash', [path.join(root, 'scripts/ci/pg-cluster.sh'), 'stop', cluster]);
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.rmSync(pgData, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});

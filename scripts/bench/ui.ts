/**
 * npm run bench:ui [-- --rounds 7 --out scripts/bench/results/ui.json]
 *
 * Our order list (/order/order, the real server with its first-start demo ledger, dist/web as built) against
 * the "floor": the plainest antd 6 page doing the same job (scripts/bench/floor, built here with Vite's JS API
 * into scripts/bench/floor/dist and served by a bare node:http server: no compression, no-store). Method as in
 * /work/shared/research/perf-anchors.md §2. Per round, for each scenario, one run of each contender:
 *   load200  navigation straight to 200 rows per page; time = performance.now() (ms since navigation start)
 *            at which the 200-row page is ready (MutationObserver installed by addInitScript, so it watches
 *            from the first byte). Ready differs by contender, because ours virtualises long pages (issue 13,
 *            src/runtime/react/virtualRows.tsx: only the rows near the screen are in the DOM, so its 200th row
 *            exists only once scrolled to):
 *              floor  the 200th tr.ant-table-row exists and holds the 200th record's order number (as before);
 *              ours   the table says aria-rowcount="201" (it has the whole 200-row page's data: the count is
 *                     that of the rows it was given), its first body row (aria-rowindex 2) holds the 1st
 *                     record's order number, and the drawn rows reach the bottom of the viewport (or the
 *                     page's last row is drawn): what a user sees of a 200-row page is on screen.
 *            So the floor's time includes drawing all 200 rows and ours drawing the visible ones plus the
 *            overscan: the saving of virtualisation is part of what is measured, on purpose.
 *   switch   page at 10 rows, page-size dropdown opened (untimed), "200" option clicked; time = from the
 *            option's mousedown event.timeStamp (capturing listener) to that same ready condition.
 *   DOM      after load200 is ready and the page has settled (element count stable, scrolled to the top), a forced GC, then CDP
 *            Performance.getMetrics `Nodes` (all live DOM nodes, text nodes included, as perf-anchors counted);
 *            document.getElementsByTagName('*').length (elements only) is kept in the JSON too.
 *   bytes    gzip-9 of the .js/.css files the browser requested until ready, mapped to dist/web (ours) or the
 *            floor's dist. Ours: "login → list" (the login page's files ∪ a fresh load of the order route with a
 *            token), "list only", and "login → home → list" as a user clicks through (home draws a chart).
 * Every run gets a fresh browser process (cold HTTP and code caches, as perf-anchors did), viewport 1600×1000.
 *
 * Why alternate: this machine is shared and noisy, and the second run of a pair can differ systematically from
 * the first (CPU clocks, page cache, server GC), so the contender that goes first alternates by round.
 * Why paired ratios: noise drifts over minutes; dividing ours by the floor run of the same round cancels most
 * of it, so the time ratio is the median of per-round ratios, not the ratio of the two medians.
 *
 * Our list takes its page size from the URL (`?size=200`, src/runtime/model/listQuery.ts, within the document's
 * pageSizes), so load200 is the same navigation for both. It pages on the server (one /api/order/list call per
 * page size); the floor fetches 200 rows once and pages on the client — that difference is part of what is
 * measured. Benchmarks print figures; this never passes or fails on time. Exit code 1 only if a run could not
 * be measured (the harness failed), after writing what was measured.
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { build } from 'vite';
import { freePort, launchBrowser, login, startServer, ROOT } from '../../tests/e2e/support.js';
import { assetBytes, type AssetBytes } from './asset-bytes.js';

const FLOOR = path.join(ROOT, 'scripts/bench/floor');
const FLOOR_DIST = path.join(FLOOR, 'dist');
const OURS_DIST = path.join(ROOT, 'dist/web');
const VIEWPORT = { width: 1600, height: 1000 };
const ROW = 200;
const TIMEOUT = 120_000;

type Who = 'ours' | 'floor';
type Scenario = 'load200' | 'switch';

function args() {
  const o = { rounds: 7, out: path.join(ROOT, 'scripts/bench/results/ui.json') };
  const a = process.argv.slice(2).filter((x) => x !== '--');
  for (let i = 0; i < a.length; i++) {
    if (a[i] === '--rounds') o.rounds = Number(a[++i]);
    else if (a[i] === '--out') o.out = path.resolve(a[++i]);
    else throw new Error(`unknown argument ${a[i]}\nusage: tsx scripts/bench/ui.ts [--rounds N] [--out FILE]`);
  }
  if (!Number.isInteger(o.rounds) || o.rounds < 1) throw new Error('--rounds needs a positive integer');
  return o;
}

// ---------- bytes ----------

type Bytes = Omit<AssetBytes, 'parts'> & { names: string[] };

/** gzip-9 of the requested .js/.css files that exist in `dist`, with their names sorted. */
function bytesOf(urls: Iterable<string>, dist: string): Bytes {
  const { parts, ...sums } = assetBytes(urls, dist);
  return { ...sums, names: parts.map((p) => p.name).sort() };
}

function recordAssets(page: Page, into: string[]) {
  page.on('request', (r) => {
    if (/\.(js|css)$/.test(new URL(r.url()).pathname)) into.push(r.url());
  });
}

// ---------- floor: build + static server ----------

async function buildFloor(): Promise<number> {
  const t = performance.now();
  await build({ configFile: path.join(FLOOR, 'vite.config.ts'), logLevel: 'warn' });
  return Math.round(performance.now() - t);
}

const TYPES: Record<string, string> = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.css': 'text/css', '.json': 'application/json' };

async function staticServer(dir: string): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    let rel = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    if (rel.endsWith('/')) rel += 'index.html';
    const file = path.join(dir, rel);
    if (!file.startsWith(dir) || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
      res.writeHead(404).end();
      return;
    }
    const body = fs.readFileSync(file);
    res.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream', 'content-length': body.length, 'cache-control': 'no-store' });
    res.end(body);
  });
  const port = await freePort();
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise<void>((r) => server.close(() => r())) };
}

// ---------- in-page probe ----------

interface ProbeArg {
  /** `all`: ready when the 200th row is drawn (the floor); `visible`: when the virtualised table is (ours). */
  mode: 'all' | 'visible';
  /** Order number of the 200th record (`all`) or of the 1st (`visible`). */
  expectNo: string;
}

/** Runs in the page before any of its scripts (addInitScript). Records when the 200-row page is ready (see the header). */
function probe({ mode, expectNo }: ProbeArg) {
  const b = ((window as any).__bench = { t200: 0, raf200: 0, optionDown: 0 });
  const rows = document.getElementsByClassName('ant-table-row'); // live collection: cheap to read per mutation
  const ready =
    mode === 'all'
      ? () => rows.length >= 200 && (rows[199].textContent ?? '').includes(expectNo)
      : () => {
          // cheap tests first; the layout read only once the table has the 200-row page
          if (!document.querySelector('table[aria-rowcount="201"]') || !rows.length) return false;
          const first = document.querySelector('tr.ant-table-row[aria-rowindex="2"]');
          if (!first || !(first.textContent ?? '').includes(expectNo)) return false;
          const last = rows[rows.length - 1];
          return last.getAttribute('aria-rowindex') === '201' || last.getBoundingClientRect().bottom >= window.innerHeight;
        };
  const mo = new MutationObserver(() => {
    if (b.t200 || !ready()) return;
    b.t200 = performance.now();
    requestAnimationFrame(() => (b.raf200 = performance.now()));
    mo.disconnect();
  });
  mo.observe(document, { childList: true, subtree: true, characterData: true });
  document.addEventListener(
    'mousedown',
    (e) => {
      if ((e.target as Element | null)?.closest?.('.ant-select-item-option')) b.optionDown = e.timeStamp;
    },
    true,
  );
}

async function waitReady(page: Page): Promise<{ t200: number; raf200: number; optionDown: number }> {
  await page.waitForFunction(() => (window as any).__bench?.raf200 > 0, undefined, { timeout: TIMEOUT, polling: 200 });
  return page.evaluate(() => (window as any).__bench);
}

/** Settled = network quiet (bounded) and the element count unchanged over three 150 ms reads (bounded, 4 s). */
async function settle(page: Page) {
  await page.waitForLoadState('networkidle', { timeout: 5000 }).catch(() => undefined);
  let last = -1;
  let same = 0;
  for (let i = 0; i < 27 && same < 3; i++) {
    const n = await page.evaluate(() => document.getElementsByTagName('*').length);
    same = n === last ? same + 1 : 0;
    last = n;
    await page.waitForTimeout(150);
  }
}

async function domNodes(context: BrowserContext, page: Page) {
  const cdp = await context.newCDPSession(page);
  await cdp.send('Performance.enable');
  await cdp.send('HeapProfiler.collectGarbage');
  const { metrics } = await cdp.send('Performance.getMetrics');
  const nodes = metrics.find((m) => m.name === 'Nodes')?.value ?? NaN;
  const elements = await page.evaluate(() => document.getElementsByTagName('*').length);
  const rows = await page.evaluate(() => document.getElementsByClassName('ant-table-row').length);
  return { nodes, elements, rows };
}

// ---------- runs ----------

interface Env {
  ours: { url: string; probe: ProbeArg };
  floor: { url: string; probe: ProbeArg };
}

interface Run {
  round: number;
  who: Who;
  scenario: Scenario;
  ms?: number;
  raf?: number;
  nodes?: number;
  elements?: number;
  rows?: number;
  assets?: string[];
  error?: string;
}

/** A context for a timed run; for ours, signed in first in a throwaway context of the same browser (untimed). */
async function timedContext(browser: Browser, who: Who, env: Env): Promise<BrowserContext> {
  let storageState: Awaited<ReturnType<BrowserContext['storageState']>> | undefined;
  if (who === 'ours') {
    // The e2e login helper puts the token in localStorage; carried over in storageState, so the timed context
    // starts with an empty HTTP cache (signing in within it would warm the cache with the shared chunks).
    const c = await browser.newContext({ viewport: VIEWPORT, baseURL: env.ours.url, locale: 'zh-CN' });
    await login(await c.newPage());
    storageState = await c.storageState();
    await c.close();
  }
  const context = await browser.newContext({ viewport: VIEWPORT, baseURL: env[who].url, locale: 'zh-CN', storageState });
  await context.addInitScript(probe, env[who].probe);
  return context;
}

const routeOf = (who: Who, size: number | null) => (who === 'ours' ? '/order/order' : '/') + (size ? `?size=${size}` : '');

async function runOnce(round: number, who: Who, scenario: Scenario, env: Env): Promise<Run> {
  const run: Run = { round, who, scenario };
  const browser = await launchBrowser();
  try {
    const context = await timedContext(browser, who, env);
    const page = await context.newPage();
    const assets: string[] = [];
    recordAssets(page, assets);
    if (scenario === 'load200') {
      await page.goto(routeOf(who, ROW), { waitUntil: 'commit' });
      const b = await waitReady(page);
      run.ms = b.t200;
      run.raf = b.raf200;
      run.assets = [...assets];
      await settle(page);
      Object.assign(run, await domNodes(context, page));
    } else {
      // ours starts at its document's default page size (10); the floor's default is 10 too, asked explicitly
      await page.goto(routeOf(who, who === 'floor' ? 10 : null));
      await page.locator('tr.ant-table-row').nth(9).waitFor({ timeout: TIMEOUT });
      await settle(page);
      await page.locator('.ant-pagination-options-size-changer-select, .ant-pagination-options .ant-select').first().click();
      const option = page.locator('.ant-select-item-option').filter({ hasText: /^\s*200\b/ });
      await option.waitFor();
      await page.waitForTimeout(300); // let the dropdown's open animation finish, as a user's pointer would
      await option.click();
      const b = await waitReady(page);
      if (!b.optionDown) throw new Error('no mousedown seen on the 200 option');
      run.ms = b.t200 - b.optionDown;
      run.raf = b.raf200 - b.optionDown;
    }
    await context.close();
  } catch (e) {
    run.error = e instanceof Error ? e.message.split('\n')[0] : String(e);
  } finally {
    await browser.close();
  }
  return run;
}

/** Ours, login → list, in one fresh browser: the union of files a user's browser fetches; also the 200th order number. */
async function oursLoginToList(serverUrl: string) {
  const browser = await launchBrowser();
  try {
    const context = await browser.newContext({ viewport: VIEWPORT, baseURL: serverUrl, locale: 'zh-CN' });
    const page = await context.newPage();
    const assets: string[] = [];
    recordAssets(page, assets);
    await page.goto('/login');
    await page.locator('[data-testid=login-submit]').waitFor();
    await page.waitForLoadState('networkidle');
    const loginOnly = [...assets];
    await login(page);
    await page.waitForLoadState('networkidle');
    const reply = page.waitForResponse((r) => r.url().includes('/api/order/list') && new URL(r.url()).searchParams.get('size') === String(ROW));
    await page.goto(routeOf('ours', ROW));
    const body = await (await reply).json();
    // virtualised: the 200-row table (aria-rowcount = rows + header) with its first rows drawn
    await page.locator(`table[aria-rowcount="${ROW + 1}"] tr.ant-table-row[aria-rowindex="2"]`).waitFor({ timeout: TIMEOUT });
    await page.waitForLoadState('networkidle');
    const records = body?.data?.records ?? [];
    if (records.length < ROW) throw new Error(`the order list has ${records.length} orders on a ${ROW}-row page (total ${body?.data?.total}); the bench needs ${ROW}`);
    return { loginOnly, all: assets, expectNo: String(records[ROW - 1].orderNo), firstNo: String(records[0].orderNo), total: Number(body.data.total) };
  } finally {
    await browser.close();
  }
}

// ---------- statistics and output ----------

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const stats = (xs: number[]) => (xs.length ? { median: median(xs), min: Math.min(...xs), max: Math.max(...xs), n: xs.length } : null);

function fmtRange(s: ReturnType<typeof stats>, digits = 0) {
  if (!s) return 'n/a';
  const f = (x: number) => x.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
  return s.min === s.max ? f(s.median) : `${f(s.median)} [${f(s.min)}–${f(s.max)}]`;
}

function printTable(rows: string[][]) {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  for (const [k, r] of rows.entries()) {
    console.log(r.map((c, i) => c.padEnd(widths[i])).join(' | '));
    if (k === 0) console.log(widths.map((w) => '-'.repeat(w)).join('-|-'));
  }
}

async function main() {
  const opt = args();
  if (!fs.existsSync(path.join(OURS_DIST, 'index.html'))) throw new Error('dist/web missing: run `npx vite build` first (npm run bench:ui does)');
  console.log('building the floor page …');
  const floorBuildMs = await buildFloor();
  const floorRecords = JSON.parse(fs.readFileSync(path.join(FLOOR, 'orders.json'), 'utf8')).data.records;

  const loadBefore = os.loadavg();
  const floorServer = await staticServer(FLOOR_DIST);
  const server = await startServer(); // fresh DATA_DIR: first start loads the small demo ledger (DEMO_DATA default)
  const runs: Run[] = [];
  let chromium = '';
  let oursLogin: Awaited<ReturnType<typeof oursLoginToList>>;
  try {
    oursLogin = await oursLoginToList(server.url);
    const env: Env = {
      ours: { url: server.url, probe: { mode: 'visible', expectNo: oursLogin.firstNo } },
      floor: { url: floorServer.url, probe: { mode: 'all', expectNo: floorRecords[ROW - 1].orderNo } },
    };
    const b = await launchBrowser();
    chromium = b.version();
    await b.close();
    console.log(`ours: ${oursLogin.total} orders, 1st row ${oursLogin.firstNo} (virtualised: ready = 200-row table drawn on screen); floor: 200th row ${env.floor.probe.expectNo}; chromium ${chromium}`);

    for (let round = 1; round <= opt.rounds; round++) {
      const order: Who[] = round % 2 ? ['ours', 'floor'] : ['floor', 'ours'];
      for (const scenario of ['load200', 'switch'] as Scenario[]) {
        for (const who of order) {
          const r = await runOnce(round, who, scenario, env);
          runs.push(r);
          console.log(`round ${round} ${scenario.padEnd(7)} ${who.padEnd(5)} ${r.error ? `ERROR ${r.error}` : `${r.ms!.toFixed(0)} ms${r.nodes ? `, ${r.nodes} nodes, ${r.rows} rows` : ''}`}`);
        }
      }
    }
  } finally {
    await server.stop();
    await floorServer.close();
  }

  // the machine is shared: the 1-minute load average before and after says how busy it was
  const loadAvg = { before: +loadBefore[0].toFixed(2), after: +os.loadavg()[0].toFixed(2) };

  // ----- figures -----
  const ok = runs.filter((r) => !r.error);
  const pick = (who: Who, sc: Scenario) => ok.filter((r) => r.who === who && r.scenario === sc);
  const paired = (sc: Scenario) => {
    const out: number[] = [];
    for (let round = 1; round <= opt.rounds; round++) {
      const a = pick('ours', sc).find((r) => r.round === round);
      const f = pick('floor', sc).find((r) => r.round === round);
      if (a && f) out.push(a.ms! / f.ms!);
    }
    return out;
  };
  // bytes: the files requested until ready are the same every run; the first successful load200 run of each gives them
  const oursList = bytesOf(pick('ours', 'load200')[0]?.assets ?? [], OURS_DIST);
  const floorBytes = bytesOf(pick('floor', 'load200')[0]?.assets ?? [], FLOOR_DIST);
  // login → list: the login page's files and the list route's (its own fresh load). The landing page between
  // them is left out: the home page's chart library is the home page's, not the list's; it is printed apart.
  const oursAll = bytesOf([...new Set([...oursLogin!.loginOnly, ...(pick('ours', 'load200')[0]?.assets ?? [])])], OURS_DIST);
  const oursViaHome = bytesOf(oursLogin!.all, OURS_DIST);
  const oursLoginPage = bytesOf(oursLogin!.loginOnly, OURS_DIST);
  const distinctAssetSets = (who: Who) => new Set(pick(who, 'load200').map((r) => bytesOf(r.assets ?? [], who === 'ours' ? OURS_DIST : FLOOR_DIST).names.join(','))).size;

  const kB = (n: number) => (n / 1024).toLocaleString('en-US', { maximumFractionDigits: 1, minimumFractionDigits: 1 });
  const ratio = (x: number, y: number) => (y > 0 && Number.isFinite(x) ? x / y : NaN);
  const r2 = (x: number) => (Number.isFinite(x) ? x.toFixed(2) : 'n/a');
  const load = { ours: stats(pick('ours', 'load200').map((r) => r.ms!)), floor: stats(pick('floor', 'load200').map((r) => r.ms!)), paired: stats(paired('load200')) };
  const sw = { ours: stats(pick('ours', 'switch').map((r) => r.ms!)), floor: stats(pick('floor', 'switch').map((r) => r.ms!)), paired: stats(paired('switch')) };
  const nodes = { ours: stats(pick('ours', 'load200').map((r) => r.nodes!)), floor: stats(pick('floor', 'load200').map((r) => r.nodes!)) };
  const elements = { ours: stats(pick('ours', 'load200').map((r) => r.elements!)), floor: stats(pick('floor', 'load200').map((r) => r.elements!)) };

  const figures = [
    { figure: 'JS gzip-9 kB, login → list', ours: kB(oursAll.jsGzip), floor: kB(floorBytes.jsGzip), ratio: r2(ratio(oursAll.jsGzip, floorBytes.jsGzip)), target: '≤ 1.2' },
    { figure: '  (login → home → list, as clicked)', ours: kB(oursViaHome.jsGzip), floor: '', ratio: '', target: '' },
    { figure: 'JS gzip-9 kB, order list only', ours: kB(oursList.jsGzip), floor: kB(floorBytes.jsGzip), ratio: r2(ratio(oursList.jsGzip, floorBytes.jsGzip)), target: '' },
    { figure: '  (login page alone)', ours: kB(oursLoginPage.jsGzip), floor: '', ratio: '', target: '' },
    { figure: 'CSS gzip-9 kB, login → list', ours: kB(oursAll.cssGzip), floor: kB(floorBytes.cssGzip), ratio: floorBytes.cssGzip ? r2(ratio(oursAll.cssGzip, floorBytes.cssGzip)) : '– (floor: CSS-in-JS)', target: '' },
    { figure: 'JS+CSS gzip-9 kB, login → list', ours: kB(oursAll.jsGzip + oursAll.cssGzip), floor: kB(floorBytes.jsGzip + floorBytes.cssGzip), ratio: r2(ratio(oursAll.jsGzip + oursAll.cssGzip, floorBytes.jsGzip + floorBytes.cssGzip)), target: '' },
    { figure: 'JS/CSS files, login → list / list', ours: `${oursAll.files} / ${oursList.files}`, floor: String(floorBytes.files), ratio: '', target: '' },
    { figure: 'time to 200-row page ready, ms (ours: on screen)', ours: fmtRange(load.ours), floor: fmtRange(load.floor), ratio: load.paired ? fmtRange(load.paired, 2) : 'n/a', target: '≤ 1.2' },
    { figure: '10 → 200 switch, ms', ours: fmtRange(sw.ours), floor: fmtRange(sw.floor), ratio: sw.paired ? fmtRange(sw.paired, 2) : 'n/a', target: '≤ 1.0' },
    { figure: 'DOM nodes, 200 rows (CDP Nodes, after GC)', ours: fmtRange(nodes.ours), floor: fmtRange(nodes.floor), ratio: r2(ratio(nodes.ours?.median ?? NaN, nodes.floor?.median ?? NaN)), target: '≤ 0.6' },
    { figure: '  elements (getElementsByTagName *)', ours: fmtRange(elements.ours), floor: fmtRange(elements.floor), ratio: r2(ratio(elements.ours?.median ?? NaN, elements.floor?.median ?? NaN)), target: '' },
  ];
  console.log(`\nbench:ui — ${opt.rounds} rounds, node ${process.version}, chromium ${chromium}, ${os.cpus().length} CPUs, load avg ${loadAvg.before} → ${loadAvg.after}; times: median [min–max], ratio = median of per-round ours ÷ floor`);
  printTable([['figure', 'ours', 'floor', 'ours ÷ floor', 'target'], ...figures.map((f) => [f.figure, f.ours, f.floor, f.ratio, f.target])]);
  const failed = runs.filter((r) => r.error);
  if (failed.length) console.log(`\n${failed.length} run(s) failed: ${failed.map((r) => `round ${r.round} ${r.scenario} ${r.who}: ${r.error}`).join('; ')}`);
  if (distinctAssetSets('ours') > 1 || distinctAssetSets('floor') > 1) console.log('note: the set of requested files differed between runs; bytes are from the first run');

  fs.mkdirSync(path.dirname(opt.out), { recursive: true });
  const strip = ({ names: _n, ...b }: Bytes) => b;
  fs.writeFileSync(
    opt.out,
    JSON.stringify(
      {
        date: new Date().toISOString(),
        node: process.version,
        chromium,
        cpus: os.cpus().length,
        loadAvg,
        rounds: opt.rounds,
        viewport: VIEWPORT,
        floorBuildMs,
        oursOrders: oursLogin!.total,
        method: 'perf-anchors §2; fresh browser per run, contender order alternated per round; time ratios = median of per-round paired ratios; DOM nodes = CDP Performance.getMetrics Nodes after HeapProfiler.collectGarbage',
        figures,
        bytes: { oursLoginToList: oursAll, oursViaHome: strip(oursViaHome), oursListOnly: oursList, oursLoginPage: strip(oursLoginPage), floor: floorBytes },
        load200: load,
        switch: sw,
        domNodes: nodes,
        domElements: elements,
        runs: runs.map(({ assets: _a, ...r }) => r),
      },
      null,
      2,
    ) + '\n',
  );
  console.log(`written ${path.relative(ROOT, opt.out)}`);
  if (failed.length) process.exitCode = 1;
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});

/**
 * tsx scripts/bench/export.ts [--from yyyy-MM-dd --to yyyy-MM-dd]   (DATABASE_URL of a database filled by seed:demo or bench:api)
 *
 * Exports the order list over a date range (default: the last 45 days, ~100,000 rows of the 1M bench set)
 * through GET /api/order/export into a temp file, sampling this process's RSS / heap every 50 ms during the
 * download (the server side), then reads the .xlsx back with exceljs' streaming reader to count the rows.
 */
import path from 'node:path';
import fs from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import ExcelJS from 'exceljs';
import { buildApp } from '../../src/server/app.js';
import { loadConfig } from '../../src/server/config.js';
import { openDatabase } from '../../src/server/db/index.js';
import { loadDocuments } from '../../src/server/documents.js';
import { adminToken } from './admin-token.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

async function main() {
  const a = process.argv.slice(2).filter((x) => x !== '--');
  const arg = (k: string) => (a.includes(`--${k}`) ? a[a.indexOf(`--${k}`) + 1] : undefined);
  const config = loadConfig(process.env, { rootDir: root, logger: false });
  if (!config.databaseUrl) throw new Error('set DATABASE_URL');
  const docs = loadDocuments(root, []);
  const database = await openDatabase(config);
  const app = buildApp({ db: database.db, config, docs });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as any).port;
  const token = await adminToken(app);
  const d = (n: number) => new Date(Date.now() - n * 86400000).toISOString().slice(0, 10);
  const from = arg('from') ?? d(45);
  const to = arg('to') ?? d(-1);
  global.gc?.();
  const base = process.memoryUsage();
  let peakRss = base.rss;
  let peakHeap = base.heapUsed;
  const timer = setInterval(() => {
    const m = process.memoryUsage();
    peakRss = Math.max(peakRss, m.rss);
    peakHeap = Math.max(peakHeap, m.heapUsed);
  }, 50);
  const t0 = Date.now();
  const res = await fetch(`http://127.0.0.1:${port}/api/order/export?createTime_datege=${from}%2000:00:00&createTime_datelt=${to}%2000:00:00&lang=zh`, {
    headers: { 'blade-auth': `bearer ${token}` },
  });
  if (res.status !== 200) throw new Error(`export: ${res.status} ${await res.text()}`);
  // Save the download to a file while sampling memory (server side), then read it back row by row.
  const file = path.join(os.tmpdir(), `canteen-export-${process.pid}.xlsx`);
  let bytes = 0;
  const out = fs.createWriteStream(file);
  for await (const chunk of res.body as any) {
    bytes += chunk.length;
    if (!out.write(chunk)) await new Promise<void>((r) => out.once('drain', () => r()));
  }
  await new Promise<void>((r) => out.end(() => r()));
  clearInterval(timer);
  const seconds = ((Date.now() - t0) / 1000).toFixed(1);
  let rows = 0;
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(file, { worksheets: 'emit', sharedStrings: 'ignore' } as any);
  for await (const ws of reader as any) for await (const _row of ws) rows++;
  fs.rmSync(file);
  const mb = (n: number) => Math.round(n / 1048576);
  console.log(
    `export: ${rows - 1} rows (+ header), ${Math.round(bytes / 1024)} KB in ${seconds} s; ` +
      `RSS ${mb(base.rss)} → peak ${mb(peakRss)} MB, heap ${mb(base.heapUsed)} → peak ${mb(peakHeap)} MB (server side, during the download)`,
  );
  await app.close();
  await database.close();
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});

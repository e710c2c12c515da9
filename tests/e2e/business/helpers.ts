/**
 * Shared pieces of the business journeys: a server on a seeded database (demo ledger, cached per source
 * state so only the first file of a run pays for seeding), antd locators, the export download read back
 * with exceljs.
 */
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import type { Download, Locator, Page } from 'playwright-core';
import { ROOT, startServer, type RunningServer } from '../support.js';

const SOURCES = ['src/server', 'src/shared', 'schemas', 'locales', 'tests/e2e/business/seed-fixture.ts'];

function hashSources(): string {
  const h = crypto.createHash('sha1');
  const walk = (p: string) => {
    const full = path.join(ROOT, p);
    if (!fs.existsSync(full)) return;
    if (fs.statSync(full).isDirectory()) for (const e of fs.readdirSync(full).sort()) walk(path.join(p, e));
    else h.update(p).update(fs.readFileSync(full));
  };
  SOURCES.forEach(walk);
  return h.digest('hex').slice(0, 16);
}

/** A pristine seeded data directory (built once per source state, then copied). */
function seededDataDir(): string {
  const cache = path.join(os.tmpdir(), `canteen-e2e-seed-${hashSources()}`);
  if (!fs.existsSync(path.join(cache, 'ok'))) {
    const tmp = `${cache}.${process.pid}`;
    fs.rmSync(tmp, { recursive: true, force: true });
    fs.mkdirSync(tmp, { recursive: true });
    const r = spawnSync(process.execPath, ['--import', 'tsx', 'tests/e2e/business/seed-fixture.ts'], {
      cwd: ROOT,
      env: { ...process.env, DATA_DIR: tmp, DATABASE_URL: '' },
      encoding: 'utf8',
      timeout: 240_000,
    });
    if (r.status !== 0) throw new Error(`seeding failed:\n${r.stdout}\n${r.stderr}`);
    fs.writeFileSync(path.join(tmp, 'ok'), '');
    fs.rmSync(cache, { recursive: true, force: true });
    fs.renameSync(tmp, cache);
    // Older source states' caches are dead weight (test files run one after another, so none is in use).
    for (const e of fs.readdirSync(os.tmpdir())) {
      if (/^canteen-e2e-seed-[0-9a-f]{16}$/.test(e) && path.join(os.tmpdir(), e) !== cache) fs.rmSync(path.join(os.tmpdir(), e), { recursive: true, force: true });
    }
  }
  const copy = fs.mkdtempSync(path.join(os.tmpdir(), 'canteen-e2e-data-'));
  fs.cpSync(cache, copy, { recursive: true });
  return copy;
}

/** Our real server on a copy of the seeded database. */
export async function startSeededServer(env: Record<string, string> = {}): Promise<RunningServer> {
  const dir = seededDataDir();
  const server = await startServer({ DATA_DIR: dir, ...env });
  const stop = server.stop;
  return {
    ...server,
    dataDir: dir,
    async stop() {
      await stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

export async function toast(p: Page, text: string | RegExp, timeout = 15_000): Promise<void> {
  await p.locator('.ant-message-notice', { hasText: text }).first().waitFor({ timeout });
}

export function dialog(p: Page): Locator {
  return p.locator('.ant-modal-wrap:visible .ant-modal').last();
}

export function rows(p: Page): Locator {
  return p.locator('.runtime-list tbody tr.ant-table-row');
}

export function rowWith(p: Page, text: string): Locator {
  return rows(p).filter({ hasText: text });
}

/** The control of a search field by its label. */
export function searchItem(p: Page, label: string | RegExp): Locator {
  return p.locator('[data-testid=runtime-search] .light-field').filter({ has: p.locator('label', { hasText: label }) });
}

export async function searchText(p: Page, label: string | RegExp, value: string): Promise<void> {
  await searchItem(p, label).locator('input').fill(value);
}

/** Opens an antd Select (inside `scope`) and picks the option with this label. */
export async function pick(p: Page, select: Locator, option: string): Promise<void> {
  await select.locator('.ant-select').or(select.locator('xpath=self::*[contains(@class,"ant-select")]')).first().click();
  await p.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: option }).first().click();
}

export async function searchPick(p: Page, label: string | RegExp, option: string): Promise<void> {
  await pick(p, searchItem(p, label), option);
}

export async function clickSearch(p: Page): Promise<void> {
  await p.locator('[data-testid=runtime-search]').getByRole('button', { name: /搜\s*索|Search/ }).click();
}

/** Waits until the table shows rows that all satisfy `test` (or shows no rows when `empty`). */
export async function waitRows(p: Page, test: (texts: string[]) => boolean, timeout = 15_000): Promise<string[]> {
  const t0 = Date.now();
  let last: string[] = [];
  while (Date.now() - t0 < timeout) {
    const loading = await p.locator('.runtime-list .ant-spin-spinning').count();
    last = await rows(p).allTextContents();
    if (!loading && test(last)) return last;
    await p.waitForTimeout(200);
  }
  throw new Error(`rows did not match in ${timeout} ms; last rows:\n${last.slice(0, 5).join('\n')}`);
}

/** Header titles of the list table (no index/selection/operation columns). */
export async function headers(p: Page): Promise<string[]> {
  const all = await p.locator('.runtime-list thead th').allTextContents();
  return all.map((s) => s.trim()).filter(Boolean);
}

/** Toolbar buttons' texts (above the table; not the search form's, not the rows'). */
export async function toolbarButtons(p: Page): Promise<string[]> {
  return p.evaluate(() =>
    [...document.querySelectorAll('.runtime-list button')]
      .filter((b) => !b.closest('[data-testid=runtime-search]') && !b.closest('.ant-table') && !b.closest('.ant-pagination'))
      .map((b) => (b.textContent ?? '').replace(/\s+/g, ''))
      .filter(Boolean),
  );
}

/** Closes the current dialog with its footer button (关闭 / 取消 / Close / Cancel). */
export async function closeDialog(p: Page): Promise<void> {
  const d = dialog(p);
  // a click during antd's opening zoom can miss the button (seen in CI): wait for it, and click again if needed
  for (let i = 0; i < 3; i++) {
    await settle(p);
    await d.locator('.ant-modal-footer').getByRole('button', { name: /关\s*闭|取\s*消|Close|Cancel/ }).click();
    try {
      await d.waitFor({ state: 'hidden', timeout: 5000 });
      return;
    } catch {
      /* try again */
    }
  }
  await d.waitFor({ state: 'hidden', timeout: 1000 });
}

/** Clicks `trigger`, captures the download and reads its first sheet. */
export async function exportSheet(p: Page, trigger: () => Promise<void>): Promise<{ download: Download; header: string[]; body: unknown[][] }> {
  const [download] = await Promise.all([p.waitForEvent('download', { timeout: 60_000 }), trigger()]);
  const file = await download.path();
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile(file!);
  const ws = wb.worksheets[0];
  const values: unknown[][] = [];
  ws.eachRow((r) => values.push((r.values as unknown[]).slice(1)));
  return { download, header: (values[0] ?? []).map(String), body: values.slice(1) };
}

export async function setLanguage(p: Page, lang: 'zh' | 'en'): Promise<void> {
  await p.evaluate((l) => localStorage.setItem('saber-language', JSON.stringify({ content: l, dataType: 'string', type: 'local', datetime: Date.now() })), lang);
}

export const CJK = /[\u3400-\u9fff]/;

/** afterEach body: on a failure keep a screenshot, then close whatever dialog is left so later tests start clean. */
export async function recover(p: Page | undefined, ctx: { task: { name: string; result?: { state?: string } } }, prefix: string): Promise<void> {
  if (!p || ctx.task.result?.state !== 'fail') return;
  const name = `${prefix}-FAILED-${ctx.task.name.replace(/[^A-Za-z0-9]+/g, '-').slice(0, 60)}`;
  await p.screenshot({ path: path.join(ROOT, '.e2e-artifacts/screenshots', `${name}.png`) }).catch(() => undefined);
  for (let i = 0; i < 3; i++) await p.keyboard.press('Escape').catch(() => undefined);
  await p.locator('.ant-modal-wrap:visible').first().waitFor({ state: 'hidden', timeout: 3000 }).catch(() => undefined);
}

/** Waits for dialog open/close animations to end (a click during antd's zoom can miss its target). */
export async function settle(p: Page): Promise<void> {
  await p.waitForFunction(() => !document.querySelector('.ant-modal[class*="zoom"], .ant-modal-mask[class*="fade"]'), undefined, { timeout: 10_000 }).catch(() => undefined);
}

/** Clicks the dialog's OK until `expected` shows (validation messages appear after a re-render). */
export async function okUntil(p: Page, expected: Locator, tries = 4): Promise<void> {
  for (let i = 0; i < tries; i++) {
    await settle(p);
    await dialog(p).locator('.ant-modal-footer').getByRole('button', { name: /确\s*定|OK/ }).click();
    try {
      await expected.waitFor({ timeout: 4000 });
      return;
    } catch {
      /* try again */
    }
  }
  await expected.waitFor({ timeout: 1000 });
}

/** The number in the pager's total text ("共 1,234 条", "约 …", "about …"), thousands separators allowed. */
export async function pagerTotal(scope: Page | Locator): Promise<number> {
  const text = (await scope.locator('.ant-pagination-total-text').first().textContent()) ?? '';
  const m = /(\d[\d,]*)/.exec(text);
  if (!m) throw new Error(`no total in pager text "${text}"`);
  return Number(m[1].replace(/,/g, ''));
}

/**
 * Browser-test support: OUR real server (src/server/main.ts, fresh DATA_DIR in a temp dir, free port)
 * serving the built dist/web, and Debian Chromium through playwright-core. No mocks.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { expect } from 'vitest';

export const ROOT = path.resolve(import.meta.dirname, '../..');
export const ARTIFACTS = path.join(ROOT, '.e2e-artifacts');
export const SHOTS = path.join(ARTIFACTS, 'screenshots');

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

export interface RunningServer {
  url: string;
  dataDir: string;
  log(): string;
  stop(): Promise<void>;
}

/** Starts the product server (src/server/main.ts via tests/e2e/server-entry.ts) as a child process, waits for "listening". */
export async function startServer(env: Record<string, string> = {}): Promise<RunningServer> {
  if (!fs.existsSync(path.join(ROOT, 'dist/web/index.html'))) throw new Error('dist/web is missing: run `vite build` first (npm run test:e2e does)');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'canteen-e2e-'));
  const port = await freePort();
  let out = '';
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'tests/e2e/server-entry.ts'], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', DATABASE_URL: '', LOG_REQUESTS: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d) => (out += String(d)));
  child.stderr!.on('data', (d) => (out += String(d)));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start in 120 s:\n${out}`)), 120_000);
    const check = () => {
      if (out.includes('listening on')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on('data', check);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${out}`));
    });
  });
  child.on('exit', (code, signal) => {
    if (!stopping) console.error(`[e2e] server exited unexpectedly (code ${code}, signal ${signal}); its output:\n${out.slice(-4000)}`);
  });
  let stopping = false;
  return {
    url: `http://127.0.0.1:${port}`,
    dataDir,
    log: () => out,
    async stop() {
      stopping = true;
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
}

export interface PageErrors {
  errors: string[];
}

/** New context + page; records page errors (uncaught exceptions) for assertions. */
export async function newPage(browser: Browser, base: string, width = 1440, height = 900): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser.newContext({ viewport: { width, height }, baseURL: base, locale: 'zh-CN' });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  return { context, page, errors };
}

export async function login(page: Page, account = 'admin', password = 'admin'): Promise<void> {
  await page.goto('/login');
  await page.locator('[data-testid=login-username]').fill(account);
  await page.locator('[data-testid=login-password]').fill(password);
  await page.locator('[data-testid=login-submit]').click();
  // polled (the redirects / → /wel → /wel/index are client-side replaces); generous under a loaded machine
  await page.waitForFunction(() => location.pathname === '/wel/index', undefined, { timeout: 60_000 });
  await page.locator('[data-testid=home-page]').waitFor({ timeout: 60_000 });
}

export async function shot(page: Page, name: string): Promise<string> {
  fs.mkdirSync(SHOTS, { recursive: true });
  const file = path.join(SHOTS, `${name}.png`);
  await page.screenshot({ path: file });
  return file;
}

/** The stored content of a `saber-<name>` item. */
export async function stored(page: Page, name: string): Promise<unknown> {
  return page.evaluate((n) => {
    const raw = sessionStorage.getItem(`saber-${n}`) ?? localStorage.getItem(`saber-${n}`);
    return raw ? JSON.parse(raw).content : undefined;
  }, name);
}

/** Waits until no antd message is on screen (so the next assertion sees fresh toasts). */
export async function clearToasts(page: Page): Promise<void> {
  await page.evaluate(() => document.querySelectorAll('.ant-message-notice').forEach((n) => n.remove()));
}

/**
 * Clicks the open confirm's OK until the confirm has closed. A click while antd's opening zoom runs can miss
 * (CI saw a row kept once), so the OK is clicked again while the confirm is still there; `text` picks the
 * confirm when the step expects a particular question. Returns once no confirm is open.
 */
export async function confirmOk(p: Page, text?: string): Promise<void> {
  const confirm = text ? p.locator('.ant-modal-confirm', { hasText: text }) : p.locator('.ant-modal-confirm');
  await confirm.first().waitFor();
  for (let i = 0; i < 5 && (await confirm.count()) > 0; i++) {
    await confirm.locator('.ant-modal-confirm-btns .ant-btn-primary').click({ timeout: 3000 }).catch(() => undefined);
    await confirm.first().waitFor({ state: 'detached', timeout: 4000 }).catch(() => undefined);
  }
  await expect.poll(() => confirm.count()).toBe(0);
}

/**
 * Clicks a dialog's OK (or its cancel) until the dialog has closed (a click during antd's opening zoom can miss).
 * For dialogs expected to close; a validation refusal keeps it open and fails the poll.
 */
export async function dialogOk(dialog: import('playwright-core').Locator, button: 'ok' | 'cancel' = 'ok'): Promise<void> {
  await dialog.waitFor();
  const target = button === 'ok' ? dialog.locator('.ant-modal-footer .ant-btn-primary') : dialog.locator('.ant-modal-footer .ant-btn:not(.ant-btn-primary)').first();
  for (let i = 0; i < 5 && (await dialog.count()) > 0 && (await dialog.isVisible()); i++) {
    await target.click({ timeout: 3000 }).catch(() => undefined);
    await dialog.waitFor({ state: 'hidden', timeout: 4000 }).catch(() => undefined);
  }
  await expect.poll(async () => (await dialog.count()) === 0 || !(await dialog.isVisible())).toBe(true);
}

/** A call with the signed-in page's own session (what a screen of it would send); its HTTP status. */
export async function sessionCall(p: Page, method: 'GET' | 'POST', url: string, body?: unknown): Promise<number> {
  return (await sessionReply(p, method, url, body)).status;
}

/** The same call's status and parsed R envelope. */
export async function sessionReply(p: Page, method: 'GET' | 'POST', url: string, body?: unknown): Promise<{ status: number; body: any }> {
  return p.evaluate(
    async ({ method, url, body }) => {
      const token = JSON.parse(localStorage.getItem('saber-token') ?? sessionStorage.getItem('saber-token') ?? '{}').content;
      const headers: Record<string, string> = { 'Blade-Auth': `bearer ${token}`, Authorization: 'Basic c2FiZXI6c2FiZXJfc2VjcmV0' };
      if (body !== undefined) headers['content-type'] = 'application/json';
      const r = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
      const text = await r.text();
      let parsed: unknown = text;
      try {
        parsed = JSON.parse(text);
      } catch {
        /* not JSON */
      }
      return { status: r.status, body: parsed };
    },
    { method, url, body },
  );
}

/** A row's button, inline or folded into 更多. */
export async function rowButton(p: Page, row: import('playwright-core').Locator, name: string): Promise<void> {
  await row.waitFor();
  const inline = row.getByRole('button', { name, exact: true });
  if ((await inline.count()) > 0) return inline.first().click();
  await row.getByRole('button', { name: /更多/ }).click();
  await p.locator('.ant-dropdown-menu-item', { hasText: name }).first().click();
}

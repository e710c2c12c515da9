/**
 * `npm run bench:bundle`: what a browser really downloads for the login route and for the merchant screen.
 * Builds nothing itself (run `vite build` first; the npm script does), starts our server on a fresh data
 * directory, drives Debian Chromium, records every JS/CSS file requested until the page is ready, and prints
 * raw / gzip-9 sizes (deterministic: the bytes of dist/web, compressed here). Figures also go to
 * .bench/bundle.json. Benchmarks print figures; they are not pass/fail tests.
 */
import fs from 'node:fs';
import path from 'node:path';
import { launchBrowser, login, newPage, startServer, ROOT } from '../../tests/e2e/support.js';
import { assetBytes } from './asset-bytes.js';

interface RouteFigures {
  route: string;
  files: number;
  jsRaw: number;
  jsGzip: number;
  cssGzip: number;
  chunks: string[];
}

const DIST = path.join(ROOT, 'dist/web');

function sizes(urls: string[]) {
  const { jsRaw, jsGzip, cssGzip, parts } = assetBytes(urls, DIST);
  return { jsRaw, jsGzip, cssGzip, chunks: parts.filter((p) => p.js).map((p) => `${p.name} ${(p.gzip / 1024).toFixed(1)} kB`) };
}

async function main() {
  if (!fs.existsSync(path.join(DIST, 'index.html'))) throw new Error('dist/web missing: run `npx vite build` first');
  const server = await startServer();
  const browser = await launchBrowser();
  const out: RouteFigures[] = [];
  try {
    const { page, context } = await newPage(browser, server.url);
    let seen: string[] = [];
    page.on('request', (r) => {
      if (/\.(js|css)(\?|$)/.test(r.url())) seen.push(r.url());
    });
    await page.goto('/login');
    await page.locator('[data-testid=login-submit]').waitFor();
    await page.waitForLoadState('networkidle');
    out.push({ route: '/login', files: seen.length, ...sizes(seen) });

    await login(page);
    // the home page the login lands on loads its chart's code after it shows: let it finish, or its requests would
    // count as the list's
    await page.waitForLoadState('networkidle');
    await context.clearCookies();
    // A fresh page load straight onto the merchant screen (token kept in storage): what that route needs.
    seen = [];
    await page.goto('/merchant/merchant');
    await page.locator('tbody tr.ant-table-row').first().waitFor();
    await page.waitForLoadState('networkidle');
    out.push({ route: '/merchant/merchant (list)', files: seen.length, ...sizes(seen) });

    const before = new Set(seen);
    await page.getByRole('button', { name: /新\s*增/ }).click();
    await page.locator('.ant-modal #root_merchantName').waitFor();
    await page.waitForLoadState('networkidle');
    const dialog = seen.filter((u) => !before.has(u));
    out.push({ route: '  + add dialog (lazy)', files: dialog.length, ...sizes(dialog) });
  } finally {
    await browser.close();
    await server.stop();
  }
  console.log('route                          files   JS raw kB   JS gzip kB   CSS gzip kB');
  for (const r of out) {
    console.log(
      `${r.route.padEnd(30)} ${String(r.files).padStart(5)} ${(r.jsRaw / 1024).toFixed(1).padStart(11)} ${(r.jsGzip / 1024).toFixed(1).padStart(12)} ${(r.cssGzip / 1024).toFixed(1).padStart(13)}`,
    );
  }
  fs.mkdirSync(path.join(ROOT, '.bench'), { recursive: true });
  fs.writeFileSync(path.join(ROOT, '.bench/bundle.json'), JSON.stringify({ at: new Date().toISOString(), routes: out }, null, 2));
  console.log('written .bench/bundle.json');
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});

/**
 * The server as `npm start` runs it: bundled by `npm run build:server` (esbuild) into dist/server/main.mjs and
 * started by scripts/serve.sh, on a new data folder (the embedded database from the shipped template). It must
 * find the product's files from dist/ (schemas, locales, the database thread), answer the login page and the
 * API, and stop cleanly. (The PostgreSQL run skips it: the server would use DATABASE_URL's shared schema.)
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../e2e/support.js';
import { BASIC, ROOT, md5 } from './helpers.js';

describe.skipIf(process.env.DATABASE_URL)('the bundled server (npm start)', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'canteen-bundled-'));
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('starts on a new data folder, serves the API and stops on SIGTERM', { timeout: 180_000 }, async () => {
    execFileSync('npm', ['run', '-s', 'build:server'], { cwd: ROOT, stdio: 'pipe' });
    const port = await freePort();
    let out = '';
    const child = spawn('sh', ['scripts/serve.sh'], {
      cwd: ROOT,
      env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', DATABASE_URL: '', LOG_REQUESTS: '', JWT_SECRET: 'bundled-test-secret-0123456789abcdef' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.on('data', (d) => (out += String(d)));
    child.stderr.on('data', (d) => (out += String(d)));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      await expect.poll(() => out, { timeout: 150_000, interval: 200 }).toMatch(/listening on|exited|Error/);
      expect(out).toContain('first-start seed done');
      const url = `http://127.0.0.1:${port}`;
      const token = await fetch(`${url}/api/blade-auth/oauth/token?tenantId=000000&username=admin&password=${md5('admin')}&grant_type=password&scope=all`, {
        method: 'POST',
        headers: { authorization: BASIC },
      }).then((r) => r.json() as Promise<{ access_token: string }>);
      expect(token.access_token).toBeTruthy();
      const page = await fetch(`${url}/api/merchant/list?current=1&size=10`, { headers: { 'blade-auth': `bearer ${token.access_token}` } }).then((r) => r.json() as Promise<any>);
      expect(page).toMatchObject({ code: 200, success: true });
      expect(page.data.total).toBeGreaterThan(0);
      // Validation and its messages come from schemas/ and locales/, found from dist/server.
      const bad = await fetch(`${url}/api/merchant/submit?lang=en`, {
        method: 'POST',
        headers: { 'blade-auth': `bearer ${token.access_token}`, 'content-type': 'application/json' },
        body: JSON.stringify({}),
      }).then((r) => r.json() as Promise<any>);
      expect(bad.code).toBe(400);
      expect(bad.msg).toBe('Please enter the merchant name');
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
    expect(fs.existsSync(path.join(dataDir, 'pgdata', 'PG_VERSION'))).toBe(true);
  });
});

/** Token refresh with a short token time (server env TOKEN_TIME=2 s, check every 500 ms); switch mode on. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser, login, newPage, startServer, stored, type RunningServer } from './support.js';

let server: RunningServer;
let browser: Browser;
beforeAll(async () => {
  server = await startServer({ TOKEN_TIME: '2', TOKEN_CHECK_MS: '500', SWITCH_MODE: 'on' });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('token refresh', () => {
  it('refreshes once the stored token reaches the token time, single-flight, and the new token works', async () => {
    const { context, page } = await newPage(browser, server.url);
    const refreshes: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('grant_type=refresh_token')) refreshes.push(r.url());
    });
    const loginReply = page.waitForResponse((r) => r.url().includes('grant_type=password'));
    await login(page);
    const first = (await (await loginReply).json()).access_token;
    await page.waitForFunction(() => ((window as unknown as { __tokenRefreshes?: () => number }).__tokenRefreshes?.() ?? 0) >= 1, undefined, { timeout: 15_000 });
    const second = await stored(page, 'token');
    expect(second).not.toBe(first);
    expect(refreshes.length).toBeGreaterThanOrEqual(1);
    // never two refresh calls for one token age: each refresh resets the stored time
    await page.waitForTimeout(2600);
    const n = await page.evaluate(() => (window as unknown as { __tokenRefreshes: () => number }).__tokenRefreshes());
    expect(refreshes.length).toBe(n);
    expect(n).toBeLessThanOrEqual(3);
    // the refreshed token is accepted by the server
    await page.goto('/merchant/merchant');
    await page.locator('.screen-page .ant-table').waitFor();
    expect(page.url()).toContain('/merchant/merchant');
    await context.close();
  });
});

describe('switch department/role (switch mode on)', () => {
  it('requires both selects (loaded with userId), refreshes the token with the choice and returns to /', async () => {
    const { context, page } = await newPage(browser, server.url);
    await login(page);
    await page.goto('/merchant/merchant');
    await page.locator('.screen-page').waitFor();
    const selects = page.waitForResponse((r) => r.url().includes('/api/blade-system/role/select?userId='));
    await page.locator('[data-testid=tb-user]').click();
    await page.locator('.ant-dropdown-menu-item', { hasText: '切换部门/角色' }).click();
    expect((await (await selects).json()).data.length).toBeGreaterThan(0);
    const dialog = page.locator('.ant-modal', { hasText: '切换部门/角色' });
    await dialog.waitFor();
    const refresh = page.waitForRequest((r) => r.url().includes('grant_type=refresh_token') && !!r.headers()['role-id']);
    await dialog.getByRole('button', { name: /切\s*换/ }).click();
    const req = await refresh;
    expect(req.headers()['dept-id']).toBeTruthy();
    await page.waitForURL('**/wel/index');
    await context.close();
  });
});

/**
 * System-management journeys against our real server and the built web app (Debian Chromium), one per screen:
 * departments (tree, refusal of a department with sub-departments), posts, menus (lazy tree), system
 * dictionaries (tree of dictionaries and entries), parameters, regions (lazy tree of China's divisions),
 * clients (no secret shown); in zh and en, at 1440 and 375 px. The two dictionary layouts (master-detail
 * layout documents) join once the document loader accepts layout documents.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { confirmOk, launchBrowser, login, newPage, shot, startServer, type RunningServer } from './support.js';

let server: RunningServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let errors: string[];

async function toast(p: Page, text: string | RegExp) {
  await p.locator('.ant-message-notice', { hasText: text }).first().waitFor({ timeout: 15_000 });
}

function row(p: Page, text: string) {
  return p.locator('tbody tr', { hasText: text }).first();
}

async function expand(p: Page, text: string) {
  await row(p, text).locator('.runtime-tree-toggle').click();
}

async function english(p: Page, on: boolean) {
  await p.evaluate((en) => {
    if (en) localStorage.setItem('saber-language', JSON.stringify({ content: 'en', dataType: 'string', type: 'local', datetime: Date.now() }));
    else localStorage.removeItem('saber-language');
  }, on);
}

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
  ({ context, page, errors } = await newPage(browser, server.url));
  await login(page);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('departments', () => {
  it('shows the tree expanded, and refuses removing a department that has sub-departments, saying why', async () => {
    await page.goto('/system/dept');
    await row(page, '运营部').waitFor();
    await expect(page.locator('tbody').textContent()).resolves.toContain('财务部');
    await row(page, '食堂饭卡管理中心').getByText('删除').click();
    await confirmOk(page);
    await toast(page, '机构「食堂饭卡」下还有 2 个子机构，请先删除子机构');
    await row(page, '运营部').waitFor();
  });
});

describe('posts', () => {
  it('lists the posts with their category labels', async () => {
    await page.goto('/system/post');
    await row(page, '首席执行官').waitFor();
    await expect(row(page, '首席执行官').textContent()).resolves.toContain('高层');
  });
});

describe('menus', () => {
  it('loads the menu tree lazily: a section opens on its menus', async () => {
    await page.goto('/system/menu');
    await row(page, '系统管理').waitFor();
    await expand(page, '系统管理');
    await row(page, '机构管理').waitFor();
    await expect(row(page, '机构管理').textContent()).resolves.toContain('/system/dept');
  });
});

describe('dictionaries', () => {
  it('shows the system dictionaries as a tree: a dictionary opens on its entries', async () => {
    await page.goto('/system/dict');
    await row(page, '性别').waitFor();
    await expand(page, '性别');
    await row(page, '未知').waitFor();
    await expect(row(page, '性别').textContent()).resolves.toContain('sex');
  });
});

describe('parameters', () => {
  it('lists the parameters the server reads and finds one by key', async () => {
    await page.goto('/system/param');
    await row(page, 'account.initPassword').waitFor();
    await expect(row(page, 'account.initPassword').textContent()).resolves.toContain('123456');
    await expect(page.locator('tbody').textContent()).resolves.toContain('account.registerUser');
  });
});

describe('regions', () => {
  it('opens a province on its cities', async () => {
    await page.goto('/system/region');
    await row(page, '北京市').waitFor();
    await expand(page, '北京市');
    await row(page, '市辖区').waitFor();
  });
});

describe('clients', () => {
  it('lists saber without showing any secret', async () => {
    await page.goto('/system/client');
    await row(page, 'saber').waitFor();
    await expect(page.locator('thead').textContent()).resolves.not.toContain('密钥');
    await expect(page.locator('tbody').textContent()).resolves.not.toContain('scrypt');
  });
});

describe('in English', () => {
  it('the regions and the departments speak English', async () => {
    await english(page, true);
    await page.goto('/system/region');
    await row(page, '北京市').waitFor();
    await expect(page.locator('thead').textContent()).resolves.toContain('Region name');
    await page.goto('/system/dept');
    await row(page, '运营部').waitFor();
    await expect(page.locator('thead').textContent()).resolves.toContain('Department name');
    await english(page, false);
  });
});

describe('at 375 px', () => {
  it('the department tree and the region tree work on a phone', async () => {
    await context.close();
    ({ context, page, errors } = await newPage(browser, server.url, 375, 812));
    await login(page);
    await page.goto('/system/dept');
    await row(page, '运营部').waitFor();
    await page.goto('/system/region');
    await row(page, '北京市').waitFor();
    await expand(page, '北京市');
    await row(page, '市辖区').waitFor();
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(375 + 1);
    await shot(page, 'system-region-375');
    expect(errors).toEqual([]);
  });
});

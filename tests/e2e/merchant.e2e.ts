/**
 * Merchant journey against our real server and the built web app in Debian Chromium:
 * log in → merchants → add (validation error on blur and on submit, then fixed) → search → edit → delete,
 * plus the delete-without-selection warning, English labels, and a screen that exists only as a document.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { confirmOk, launchBrowser, login, newPage, shot, startServer, type RunningServer } from './support.js';

let server: RunningServer;
let browser: Browser;
let page: Page;

const NAME = '测试商家E2E';

async function toast(p: Page, text: string) {
  await p.locator('.ant-message-notice', { hasText: text }).first().waitFor({ timeout: 15_000 });
}

function row(p: Page, text: string) {
  return p.locator('tr', { hasText: text });
}

beforeAll(async () => {
  server = await startServer({ SCHEMA_DIRS: 'tests/fixtures/schemas' });
  browser = await launchBrowser();
  ({ page } = await newPage(browser, server.url));
  await login(page);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('merchants', () => {
  it('lists the demo merchants with dictionary labels and paging', async () => {
    await page.goto('/merchant/merchant');
    await page.locator('tbody tr', { hasText: 'SH' }).first().waitFor();
    expect(await page.locator('tbody tr', { hasText: 'SH' }).count()).toBeGreaterThanOrEqual(3);
    await expect(page.locator('.ant-pagination').textContent()).resolves.toContain('10');
    // merchant_status dictionary label, not the raw key
    await expect(page.locator('tbody').textContent()).resolves.toContain('营业中');
  });

  it('warns when deleting with nothing selected', async () => {
    await page.getByRole('button', { name: /删\s*除/ }).first().click();
    await toast(page, '请选择至少一条数据');
  });

  it('adds a merchant: messages on blur and on submit, then fixed', async () => {
    await page.getByRole('button', { name: /新\s*增/ }).click();
    const dialog = page.locator('.ant-modal').last();
    await dialog.waitFor();
    // dialog width from the document (780)
    const width = await dialog.evaluate((el) => (el as HTMLElement).offsetWidth); // layout width: not scaled by the opening zoom animation
    expect(Math.round(width)).toBe(780);

    await dialog.locator('#root_loginPhone').fill('123');
    await dialog.locator('#root_loginPhone').blur();
    await dialog.getByText('手机号码长度不为11位').first().waitFor();

    await dialog.getByRole('button', { name: /确\s*定/ }).click();
    await dialog.getByText('请输入商家名称').first().waitFor();
    await dialog.getByText('请输入登录密码').first().waitFor();
    await shot(page, 'merchant-add-validation');

    await dialog.locator('#root_merchantName').fill(NAME);
    await dialog.locator('#root_loginPhone').fill('13800138000');
    await dialog.locator('#root_loginPsw').fill('secret123');
    await dialog.locator('#root_payPsw').fill('123456');
    await dialog.locator('#root_feeRatio').fill('2.5');
    await dialog.locator('#root_liaison').fill('赵六');
    const range = dialog.locator('#root_contractDaterange');
    await range.click();
    await range.fill('2026-01-01');
    await range.press('Enter');
    await page.keyboard.type('2027-12-31');
    await page.keyboard.press('Enter');
    await dialog.getByRole('button', { name: /确\s*定/ }).click();
    await toast(page, '新增成功');
    await row(page, NAME).first().waitFor();
  });

  it('searches by name', async () => {
    await page.locator('[data-testid=runtime-search] input').first().fill('E2E');
    await page.getByRole('button', { name: /搜\s*索/ }).click();
    await page.waitForFunction(() => document.querySelectorAll('tbody tr.ant-table-row').length === 1);
    await expect(page.locator('tbody tr.ant-table-row').first().textContent()).resolves.toContain(NAME);
  });

  it('views and edits it', async () => {
    await row(page, NAME).getByText('查看').click();
    const view = page.locator('.ant-modal').last();
    await view.getByText('赵六').or(view.locator('input[value="赵六"]')).first().waitFor();
    // passwords are never shown
    expect(await view.locator('#root_loginPsw').count()).toBe(0);
    await page.keyboard.press('Escape');
    await view.waitFor({ state: 'hidden' });

    await row(page, NAME).getByText('编辑').click();
    const dialog = page.locator('.ant-modal').last();
    await dialog.locator('#root_liaison').waitFor();
    // the edit dialog shows the merchant's name, filled in with the record's
    await expect.poll(() => dialog.locator('#root_merchantName').isVisible()).toBe(true);
    expect(await dialog.locator('#root_merchantName').inputValue()).toBe(NAME);
    // login password is not editable here (reset action instead)
    expect(await dialog.locator('#root_loginPsw').count()).toBe(0);
    await dialog.locator('#root_liaison').fill('钱七');
    await dialog.getByRole('button', { name: /确\s*定/ }).click();
    await toast(page, '修改成功');
    await row(page, '钱七').first().waitFor();
  });

  it('runs a row action from the "more" menu with a confirm', async () => {
    // six row buttons would fill a phone's width: view/edit/delete stay inline, the rest fold into 更多
    await row(page, NAME).getByRole('button', { name: /更多/ }).click();
    await page.locator('.ant-dropdown-menu-item', { hasText: '重置登录密码' }).click();
    await confirmOk(page);
    await page.locator('.ant-message-notice').first().waitFor();
  });

  it('deletes it', async () => {
    await row(page, NAME).getByText('删除').click();
    await confirmOk(page);
    await toast(page, '删除成功');
    await page.waitForFunction((n) => !document.querySelector('tbody')?.textContent?.includes(n), NAME);
  });

  it('shows the screen in English', async () => {
    await page.evaluate(() => localStorage.setItem('saber-language', JSON.stringify({ content: 'en', dataType: 'string', type: 'local', datetime: Date.now() })));
    await page.goto('/merchant/merchant');
    await page.getByRole('button', { name: /Add/ }).first().waitFor();
    await expect(page.locator('thead').textContent()).resolves.toContain('Merchant name');
    await page.evaluate(() => localStorage.removeItem('saber-language'));
  });
});

describe('a screen that is only a document', () => {
  it('is in the menu and renders list + dialog from tests/fixtures/schemas/test/note.json', async () => {
    await page.goto('/test/note');
    await page.locator('[data-testid=runtime-search]').waitFor();
    // its texts come with its folder (tests/fixtures/schemas/locales), not from the product's locales
    const heads = (await page.locator('.runtime-list thead th').allTextContents()).map((h) => h.trim());
    expect(heads).toContain('标题');
    expect(heads.join(' ')).not.toMatch(/testNote\./);
    await page.getByRole('button', { name: /新\s*增/ }).click();
    const dialog = page.locator('.ant-modal').last();
    await dialog.getByText('标题', { exact: true }).first().waitFor();
    await dialog.locator('#root_noteTitle').fill('只靠文档的屏幕');
    await dialog.getByRole('button', { name: /确\s*定/ }).click();
    await toast(page, '新增成功');
    await row(page, '只靠文档的屏幕').first().waitFor();
  });
});

/**
 * The runtime's views against our real server and the built web app in Debian Chromium: the list keeps its
 * page, sort and search in the address (a shared link and Back restore them; deleting the last row of the
 * last page shows the page before), and the add dialog on a 375 px phone uses one full-width column.
 * Documents: the test-only note screen of tests/fixtures/schemas (SCHEMA_DIRS).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { confirmOk, launchBrowser, login, newPage, shot, startServer, stored, type RunningServer } from './support.js';

let server: RunningServer;
let browser: Browser;
let page: Page;

/** Adds notes through the API with the page's session (the same calls the web client makes). */
async function addNotes(p: Page, titles: string[]): Promise<void> {
  const token = (await stored(p, 'token')) as string;
  const failed = await p.evaluate(
    async ({ titles: list, token: tk }) => {
      const bad: string[] = [];
      for (const noteTitle of list) {
        const r = await fetch('/api/test-note/submit', {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Authorization: `Basic ${btoa('saber:saber_secret')}`, 'Blade-Auth': `bearer ${tk}`, 'Tenant-Id': '000000' },
          body: JSON.stringify({ noteTitle, priority: 3 }),
        });
        const body = await r.json();
        if (!body.success) bad.push(`${noteTitle}: ${JSON.stringify(body)}`);
      }
      return bad;
    },
    { titles, token },
  );
  expect(failed).toEqual([]);
}

function activePage(p: Page) {
  return p.locator('.ant-pagination-item-active');
}

beforeAll(async () => {
  server = await startServer({ SCHEMA_DIRS: 'tests/fixtures/schemas' });
  browser = await launchBrowser();
  ({ page } = await newPage(browser, server.url));
  await login(page);
  // 21 notes: three pages of 10, the last with one row
  await addNotes(page, Array.from({ length: 21 }, (_, i) => `视图便签${String(i + 1).padStart(2, '0')}`));
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('list state in the address', () => {
  it('paging, sorting and searching write the address; a shared link restores them', async () => {
    await page.goto('/test/note');
    await page.locator('tbody tr', { hasText: '视图便签' }).first().waitFor();
    await page.locator('.ant-pagination-item-2').click();
    await page.waitForFunction(() => new URLSearchParams(location.search).get('page') === '2');
    await expect.poll(() => activePage(page).textContent()).toBe('2');
    // sort by title ascending: the header click goes into the address
    await page.locator('thead th', { hasText: '标题' }).click();
    await page.waitForFunction(() => new URLSearchParams(location.search).get('sort') === 'noteTitle');
    // search: back to page 1 (left out of the address), the text kept
    await page.getByPlaceholder('请输入标题').fill('视图便签1');
    await page.getByRole('button', { name: /搜\s*索/ }).click();
    await page.waitForFunction(() => new URLSearchParams(location.search).get('s.noteTitle') === '视图便签1' && !new URLSearchParams(location.search).has('page'));
    await expect.poll(async () => (await page.locator('tbody tr', { hasText: '视图便签' }).allTextContents()).length).toBe(10);
    const link = new URL(page.url());
    // a fresh tab with the same address shows the same list and search form
    // (a colleague's browser: signed in on its own, not a copy of this tab's storage, whose stored tabs hold
    // this tab's own list state; the copy made one CI run wait 30 s for the shared list)
    const other = await newPage(browser, server.url);
    await login(other.page);
    await other.page.goto(link.pathname + link.search);
    await other.page.locator('tbody tr', { hasText: '视图便签10' }).waitFor();
    expect(await other.page.getByPlaceholder('请输入标题').inputValue()).toBe('视图便签1');
    const titles = (await other.page.locator('tbody tr').allTextContents()).filter((t) => t.includes('视图便签'));
    expect(titles[0]).toContain('视图便签10'); // sorted by title, ascending, from the link
    expect(titles).toHaveLength(10);
    await other.context.close();
  });

  it('Back from another screen, and the screen’s tab, come back to the same page of the list', async () => {
    await page.goto('/test/note');
    await page.locator('tbody tr', { hasText: '视图便签' }).first().waitFor();
    await page.locator('.ant-pagination-item-3').click();
    await page.waitForFunction(() => new URLSearchParams(location.search).get('page') === '3');
    await expect.poll(() => activePage(page).textContent()).toBe('3');
    // leave inside the app (the home tab), then the browser's Back
    await page.locator('.tabs-bar .ant-tabs-tab').first().click();
    await page.locator('[data-testid=home-page]').waitFor();
    await page.goBack();
    await page.waitForFunction(() => location.pathname === '/test/note');
    await page.locator('tbody tr', { hasText: '视图便签' }).first().waitFor();
    await expect.poll(() => activePage(page).textContent()).toBe('3');
    // leave again, and come back through the screen's own tab
    await page.locator('.tabs-bar .ant-tabs-tab').first().click();
    await page.locator('[data-testid=home-page]').waitFor();
    await page.locator('.tabs-bar .ant-tabs-tab', { hasText: '测试便签' }).click();
    await page.waitForFunction(() => location.pathname === '/test/note');
    await page.locator('tbody tr', { hasText: '视图便签' }).first().waitFor();
    await expect.poll(() => activePage(page).textContent()).toBe('3');
  });

  it('deleting the only row of the last page shows the page before', async () => {
    await page.goto('/test/note?page=3');
    const last = page.locator('tbody tr', { hasText: '视图便签' });
    await last.first().waitFor();
    await expect.poll(() => last.count()).toBe(1);
    await last.first().getByText('删除').click();
    // The confirm's OK, clicked again while the confirm is still open: a click during antd's opening zoom can
    // miss (CI saw the row kept and the page left at 3 once); the row is deleted once the confirm has closed.
    await confirmOk(page);
    await expect.poll(() => activePage(page).textContent()).toBe('2');
    await expect.poll(() => page.locator('tbody tr', { hasText: '视图便签' }).count()).toBe(10);
    expect(new URL(page.url()).searchParams.get('page')).toBe('2');
  });
});

describe('dialogs', () => {
  it('English labels are never clipped', async () => {
    await page.evaluate(() => localStorage.setItem('saber-language', JSON.stringify({ content: 'en', dataType: 'string', type: 'local', datetime: Date.now() })));
    await page.goto('/merchant/merchant');
    await page.getByRole('button', { name: /Add/ }).first().click();
    const dialog = page.locator('.ant-modal').last();
    await dialog.locator('#root_merchantName').waitFor();
    const clipped = await dialog.locator('.ant-form-item-label > label').evaluateAll((els) =>
      els.filter((el) => el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1).map((el) => el.textContent),
    );
    expect(clipped).toEqual([]);
    await shot(page, 'views-english-dialog');
    await page.keyboard.press('Escape');
    await page.evaluate(() => localStorage.removeItem('saber-language'));
  });


  it('below 768 px the add dialog is one full-width column with labels above the inputs', async () => {
    const phone = await newPage(browser, server.url, 375, 800);
    await login(phone.page);
    await phone.page.goto('/merchant/merchant');
    await phone.page.locator('tbody tr', { hasText: 'SH' }).first().waitFor();
    await phone.page.getByRole('button', { name: /新\s*增/ }).click();
    const dialog = phone.page.locator('.ant-modal').last();
    const input = dialog.locator('#root_merchantName');
    await input.waitFor();
    // layout sizes (offset*), not scaled by the dialog's opening zoom
    const m = await input.evaluate((el) => {
      const control = el.closest('.ant-form-item-control') as HTMLElement;
      const body = el.closest('.ant-modal-body') as HTMLElement;
      const label = el.closest('.ant-form-item')!.querySelector('.ant-form-item-label') as HTMLElement;
      // offsetTop from the page, unscaled
      const top = (e: HTMLElement) => {
        let y = 0;
        for (let n: HTMLElement | null = e; n; n = n.offsetParent as HTMLElement | null) y += n.offsetTop;
        return y;
      };
      return { control: control.offsetWidth, body: body.clientWidth, labelBottom: top(label) + label.offsetHeight, controlTop: top(control) };
    });
    // the control takes the dialog's whole width, not a 50 px stub beside its label
    expect(m.control).toBeGreaterThan(m.body * 0.9);
    // and its label sits above it
    expect(m.labelBottom).toBeLessThanOrEqual(m.controlTop + 1);
    await shot(phone.page, 'views-phone-dialog');
    await phone.context.close();
  });
});

/**
 * Long list pages (issue 13) in Chromium against our real server (first-start demo ledger, ~580 orders): a
 * 200-row page draws only the rows near the screen (virtualised body, src/runtime/react/virtualRows.tsx) in a
 * real <table> with aria-rowcount / aria-rowindex; scrolling the window reaches the 200th row with its number;
 * a jump into the middle shows drawn rows, never a blank band; Tab walks the row buttons past the first drawn
 * rows; select-all in the header selects the whole page (the batch delete sends all 200 ids), and one row
 * unchecked off screen leaves the header half-checked. Every wait is on what the page shows (no sleeps).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { confirmOk, launchBrowser, login, newPage, sessionReply, shot, startServer, type RunningServer } from './support.js';

let server: RunningServer;
let browser: Browser;
let page: Page;

const VIEW_H = 900;
/** expect.poll's default is 1 s; a loaded 2-core machine needs longer (the wait ends as soon as the page shows it). */
const POLL = { timeout: 20_000 };
const rows = (p: Page) => p.locator('.runtime-list tbody tr.ant-table-row');
const rowAt = (p: Page, ariaIndex: number) => p.locator(`.runtime-list tbody tr.ant-table-row[aria-rowindex="${ariaIndex}"]`);

/** aria-rowindex of every drawn body row, in DOM order. */
async function drawnIndexes(p: Page): Promise<number[]> {
  return rows(p).evaluateAll((trs) => trs.map((tr) => Number(tr.getAttribute('aria-rowindex'))));
}

async function pagerTotal(p: Page): Promise<number> {
  const text = (await p.locator('.ant-pagination-total-text').first().textContent()) ?? '';
  return Number(/(\d[\d,]*)/.exec(text)?.[1].replace(/,/g, '') ?? NaN);
}

/** Scrolls the window to the bottom until the row with this aria-rowindex is drawn (the page grows as rows get measured). */
async function scrollToRow(p: Page, ariaIndex: number): Promise<void> {
  await expect
    .poll(async () => {
      await p.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
      return rowAt(p, ariaIndex).count();
    }, POLL)
    .toBe(1);
}

/** The drawn row under the middle of the viewport (null: a spacer or nothing is there — a blank band). */
async function rowUnderMiddle(p: Page): Promise<number | null> {
  return p.evaluate(() => {
    const table = document.querySelector('.runtime-list table')!.getBoundingClientRect();
    const el = document.elementFromPoint(table.left + 40, window.innerHeight / 2);
    const tr = el?.closest('tr.ant-table-row');
    return tr ? Number(tr.getAttribute('aria-rowindex')) : null;
  });
}

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
  ({ page } = await newPage(browser, server.url, 1440, VIEW_H));
  await login(page);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('order list, 200 rows a page', () => {
  let records: Array<{ orderNo: string }> = [];

  it('draws a fraction of the 200 rows, in a table that says it has 201 rows', async () => {
    const reply = page.waitForResponse((r) => r.url().includes('/api/order/list') && new URL(r.url()).searchParams.get('size') === '200');
    await page.goto('/order/order?size=200');
    records = (await (await reply).json()).data.records;
    expect(records.length).toBe(200);
    const table = page.locator('.runtime-list table[aria-rowcount="201"]');
    await table.waitFor();
    await rowAt(page, 2).waitFor();
    await expect.poll(() => rows(page).count(), POLL).toBeGreaterThan(10);
    const drawn = await drawnIndexes(page);
    expect(drawn.length).toBeLessThan(60); // 200 without virtualisation
    // contiguous from the top: header row 1, body rows 2, 3, …
    expect(drawn).toEqual(drawn.map((_, i) => i + 2));
    expect(await page.locator('.runtime-list thead tr').getAttribute('aria-rowindex')).toBe('1');
    // the first row: row number 1, the first record
    const first = rowAt(page, 2);
    expect((await first.locator('td').first().textContent())!.trim()).toBe('1');
    expect(await first.textContent()).toContain(records[0].orderNo);
    // the spacers are hidden from assistive technology and hold no cells of their own
    const spacers = page.locator('.runtime-list tbody tr.runtime-virtual-spacer');
    expect(await spacers.count()).toBe(2);
    for (const s of await spacers.all()) expect(await s.getAttribute('aria-hidden')).toBe('true');
    // the drawn rows reach past the bottom of the screen
    const lastBox = await rows(page).last().boundingBox();
    expect(lastBox!.y + lastBox!.height).toBeGreaterThan(VIEW_H);
    await shot(page, 'long-list-top');
  });

  it('scrolling the window to the bottom draws the 200th row, number 200, aria-rowindex 201', async () => {
    await scrollToRow(page, 201);
    const last = rowAt(page, 201);
    expect((await last.locator('td').first().textContent())!.trim()).toBe('200');
    expect(await last.textContent()).toContain(records[199].orderNo);
    const box = await last.boundingBox();
    expect(box!.y).toBeGreaterThanOrEqual(0);
    expect(box!.y + box!.height).toBeLessThanOrEqual(VIEW_H);
    const drawn = await drawnIndexes(page);
    expect(drawn.length).toBeLessThan(60);
    expect(drawn).toEqual(drawn.map((_, i) => drawn[0] + i));
    expect(drawn.at(-1)).toBe(201);
    // the first row is gone from the DOM
    expect(await rowAt(page, 2).count()).toBe(0);
    // every drawn row's number matches its position (row numbers are the record's number on the page)
    for (const i of [drawn[0], drawn[Math.floor(drawn.length / 2)]]) {
      const r = rowAt(page, i);
      expect((await r.locator('td').first().textContent())!.trim()).toBe(String(i - 1));
      expect(await r.textContent()).toContain(records[i - 2].orderNo);
    }
    await shot(page, 'long-list-bottom');
  });

  it('a jump into the middle shows drawn rows under the screen, not a blank band', async () => {
    for (const fraction of [0.5, 0.25, 0.75, 0.1]) {
      await page.evaluate((f) => window.scrollTo(0, document.documentElement.scrollHeight * f), fraction);
      await expect.poll(() => rowUnderMiddle(page), POLL).not.toBeNull();
      const mid = (await rowUnderMiddle(page))!;
      expect(mid).toBeGreaterThan(2);
      expect(mid).toBeLessThan(201);
      expect(await rowAt(page, mid).textContent()).toContain(records[mid - 2].orderNo);
    }
  });

  it('Tab walks the row buttons down past the rows drawn at first', async () => {
    await page.evaluate(() => window.scrollTo(0, 0));
    await rowAt(page, 2).waitFor();
    // start from the header cell of the row numbers, then Tab until a row button has the focus
    await page.locator('.runtime-list thead th').filter({ hasText: '序号' }).click();
    const focusedRow = () =>
      page.evaluate(() => {
        const a = document.activeElement;
        const tr = a?.closest('tr.ant-table-row');
        return tr && a?.tagName === 'BUTTON' ? Number(tr.getAttribute('aria-rowindex')) : null;
      });
    let at: number | null = null;
    for (let i = 0; i < 40 && at === null; i++) {
      await page.keyboard.press('Tab');
      at = await focusedRow();
    }
    expect(at).toBe(2);
    // on down the page: each Tab lands on a row button, the row never goes back, and rows keep being drawn
    let presses = 0;
    while (at! < 70 && presses < 200) {
      await page.keyboard.press('Tab');
      presses++;
      const next = await focusedRow();
      expect(next).not.toBeNull();
      expect(next!).toBeGreaterThanOrEqual(at!);
      at = next;
    }
    expect(at).toBeGreaterThanOrEqual(70);
    // the focused button is on screen and works: Enter opens that row's view dialog
    const box = await page.evaluate(() => {
      const r = document.activeElement!.getBoundingClientRect();
      return { top: r.top, bottom: r.bottom };
    });
    expect(box.top).toBeGreaterThanOrEqual(0);
    expect(box.bottom).toBeLessThanOrEqual(VIEW_H);
    // on to the next 查看 (every row's first button; some rows also have 退款)
    for (let i = 0; i < 4 && !(await page.evaluate(() => document.activeElement!.textContent))?.includes('查看'); i++) {
      await page.keyboard.press('Tab');
      at = await focusedRow();
    }
    expect(await page.evaluate(() => document.activeElement!.textContent)).toContain('查看');
    await page.keyboard.press('Enter');
    const d = page.locator('.ant-modal-wrap:visible .ant-modal').last();
    // the view dialog of that row: its order number in the (read-only) form
    const shown = () => d.evaluate((m) => m.textContent + [...m.querySelectorAll('input, textarea')].map((i) => (i as HTMLInputElement).value).join(' '));
    await expect.poll(async () => (await d.count()) > 0 && (await shown()).includes(records[at! - 2].orderNo), POLL).toBe(true);
    await page.keyboard.press('Escape');
    await expect.poll(() => page.locator('.ant-modal-wrap:visible').count(), POLL).toBe(0);
  });

  it('sorting a long page keeps the virtual body and the row numbers from 1', async () => {
    await page.evaluate(() => window.scrollTo(0, 0));
    const reply = page.waitForResponse((r) => r.url().includes('/api/order/list') && new URL(r.url()).searchParams.has('ascs'));
    await page.locator('.runtime-list thead th').filter({ hasText: '订单金额' }).click();
    const sorted = (await (await reply).json()).data.records as Array<{ orderNo: string }>;
    await expect.poll(async () => (await rowAt(page, 2).textContent())?.includes(sorted[0].orderNo), POLL).toBe(true);
    expect((await rowAt(page, 2).locator('td').first().textContent())!.trim()).toBe('1');
    expect(await page.locator('.runtime-list table[aria-rowcount="201"]').count()).toBe(1);
    expect((await drawnIndexes(page)).length).toBeLessThan(60);
  });

  it('a short page (10 rows) is drawn whole, without the virtual body', async () => {
    await page.goto('/order/order?size=10');
    await expect.poll(() => rows(page).count(), POLL).toBe(10);
    expect(await page.locator('.runtime-list table[aria-rowcount]').count()).toBe(0);
    expect(await page.locator('.runtime-list tr.runtime-virtual-spacer').count()).toBe(0);
  });
});

describe('select-all on a 200-row page (message center)', () => {
  let pageIds: string[] = [];

  it('has more than 200 messages', async () => {
    const emp = await sessionReply(page, 'GET', '/api/employee/list?current=1&size=1');
    const bizId = String(emp.body.data.records[0].id);
    const failed = await page.evaluate(
      async ({ bizId: biz }) => {
        const token = JSON.parse(localStorage.getItem('saber-token') ?? sessionStorage.getItem('saber-token') ?? '{}').content;
        const headers = { 'Blade-Auth': `bearer ${token}`, Authorization: 'Basic c2FiZXI6c2FiZXJfc2VjcmV0', 'content-type': 'application/json' };
        const bad: string[] = [];
        for (let i = 0; i < 210; i += 10) {
          const replies = await Promise.all(
            Array.from({ length: 10 }, (_, k) =>
              fetch('/api/msgCenter/msgCenter/submit', { method: 'POST', headers, body: JSON.stringify({ msgType: 2, msgTitle: `长列表消息${i + k}`, contents: '长列表', bizId: biz }) }).then((r) => r.json()),
            ),
          );
          for (const b of replies) if (!b.success) bad.push(JSON.stringify(b));
        }
        return bad;
      },
      { bizId },
    );
    expect(failed).toEqual([]);
  });

  it('select-all selects every row of the page; the batch delete sends all 200', async () => {
    const reply = page.waitForResponse((r) => r.url().includes('/api/msgCenter/msgCenter/list') && new URL(r.url()).searchParams.get('size') === '200');
    await page.goto('/msgCenter/msgCenter?size=200');
    pageIds = ((await (await reply).json()).data.records as Array<{ id: string }>).map((r) => String(r.id));
    expect(pageIds.length).toBe(200);
    await page.locator('.runtime-list table[aria-rowcount="201"]').waitFor();
    await rowAt(page, 2).waitFor();
    const total = await pagerTotal(page);
    expect(total).toBeGreaterThanOrEqual(210);
    expect((await drawnIndexes(page)).length).toBeLessThan(60);

    const all = page.locator('.runtime-list thead .ant-table-selection .ant-checkbox-input');
    const allBox = page.locator('.runtime-list thead .ant-table-selection .ant-checkbox');
    await all.click();
    await expect.poll(() => all.isChecked(), POLL).toBe(true);
    // every drawn row checked, and the 200th (drawn only after scrolling) too
    const checkedDrawn = () => rows(page).evaluateAll((trs) => trs.every((tr) => (tr.querySelector('.ant-checkbox-input') as HTMLInputElement).checked));
    expect(await checkedDrawn()).toBe(true);
    await scrollToRow(page, 201);
    const last = rowAt(page, 201).locator('.ant-checkbox-input');
    expect(await last.isChecked()).toBe(true);
    expect(await checkedDrawn()).toBe(true);
    expect(await last.getAttribute('aria-label')).toBe('第 200 行已选');

    // one row unchecked (off the first screen): the header is half-checked; checked again: full
    await last.click();
    await expect.poll(() => allBox.getAttribute('class'), POLL).toContain('ant-checkbox-indeterminate');
    expect(await all.isChecked()).toBe(false);
    await last.click();
    await expect.poll(() => all.isChecked(), POLL).toBe(true);
    await shot(page, 'long-list-select-all');

    // the toolbar's batch delete names all 200 rows of the page
    await page.evaluate(() => window.scrollTo(0, 0));
    const removal = page.waitForRequest((r) => r.url().includes('/api/msgCenter/msgCenter/remove'));
    await page.locator('.runtime-list').getByRole('button', { name: /删\s*除/ }).first().click();
    await confirmOk(page, '确定将选择数据删除');
    const ids = new URL((await removal).url()).searchParams.get('ids')!.split(',');
    expect(ids.length).toBe(200);
    expect(new Set(ids)).toEqual(new Set(pageIds));
    await expect.poll(() => pagerTotal(page), POLL).toBe(total - 200);
  });

  it('after the delete, the rest fits a short page: drawn whole, nothing selected', async () => {
    const left = await pagerTotal(page);
    expect(left).toBeLessThanOrEqual(50);
    await expect.poll(() => rows(page).count(), POLL).toBe(left);
    expect(await page.locator('.runtime-list table[aria-rowcount]').count()).toBe(0);
    expect(await page.locator('.runtime-list tbody .ant-checkbox-checked').count()).toBe(0);
  });
});

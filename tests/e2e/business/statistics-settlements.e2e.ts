/**
 * Transaction statistics and settlements in Chromium against our server on the demo ledger.
 * Statistics: read-only (no add/edit/view/delete), time range required and defaulting to today, totals and
 * the per-day chart for the range, export. Settlements: view-only list, generate for a month, audit one
 * (and the running month refused), audit a selection, the detail list of the orders a settlement covers.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { clearToasts, confirmOk, launchBrowser, login, newPage, shot, type RunningServer } from '../support.js';
import { clickSearch, closeDialog, dialog, exportSheet, headers, okUntil, recover, rows, searchItem, searchPick, startSeededServer, toast, toolbarButtons, waitRows, pagerTotal } from './helpers.js';

let server: RunningServer;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  server = await startSeededServer();
  browser = await launchBrowser();
  ({ page } = await newPage(browser, server.url));
  await login(page);
});

afterEach(async (ctx) => recover(page, ctx, 'statistics-settlements'));

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** The settlement-cycle cell (5th: selection, index, merchant no., merchant name, cycle) holding exactly `c`. */
const cycleCell = (c: string) => page.locator('td:nth-child(5)', { hasText: new RegExp(`^${c}$`) });
const pad = (n: number) => String(n).padStart(2, '0');
const local = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
const total = () => pagerTotal(page);
const cellsOf = async (col: string) => {
  const hs = await page.locator('.runtime-list thead th').allTextContents();
  const i = hs.map((h) => h.trim()).indexOf(col);
  const out: string[] = [];
  for (let r = 0; r < (await rows(page).count()); r++) out.push(((await rows(page).nth(r).locator('td').nth(i).textContent()) ?? '').trim());
  return out;
};

describe('transaction statistics', () => {
  it('defaults to today, is read-only, and shows totals and the per-day chart', async () => {
    await page.goto('/statistic/orderStatistics');
    const range = searchItem(page, '时间范围').locator('input');
    await range.first().waitFor();
    const today = local(new Date());
    expect(await range.first().inputValue()).toBe(today);
    expect(await range.nth(1).inputValue()).toBe(today);
    await waitRows(page, (r) => r.length > 0);
    for (const t of await cellsOf('交易时间')) expect(t.startsWith(today)).toBe(true);

    // no add / edit / view / delete anywhere
    expect(await toolbarButtons(page)).toEqual(['导出']);
    const hs = await headers(page);
    expect(hs).not.toContain('操作');
    expect(hs).toEqual(expect.arrayContaining(['订单号', '交易时间', '交易类型', '状态', '付款账号', '付款账户', '付款金额', '收款账号', '收款账户', '收款金额', '服务费占比', '是否退款', '退款金额']));
    expect(await rows(page).locator('button').count()).toBe(0);

    const totals = page.locator('[data-testid=summary-totals]');
    await totals.waitFor({ timeout: 10_000 });
    for (const label of ['支付总额', '退款总额', '服务费', '净额']) await expect(totals.textContent()).resolves.toContain(label);
    // the chart has a value axis from 0 (two decimals: money) and today's bars with their legend
    const chart = page.locator('[data-testid=summary-chart]');
    await chart.locator('svg text', { hasText: '支付总额' }).waitFor();
    const texts = await chart.locator('svg text').allTextContents();
    expect(texts).toEqual(expect.arrayContaining(['0.00', today.slice(5), '退款总额']));
    expect(texts.filter((x) => /^\d+\.\d\d$/.test(x)).length).toBeGreaterThanOrEqual(3);
    await shot(page, 'statistics-today');
  });

  it('requires a time range: clearing it shows 请选择时间范围', async () => {
    const item = searchItem(page, '时间范围');
    // the range as drawn (a light stand-in until the pointer reaches it; then antd's picker, whose clear button shows on hover)
    await item.locator('.light-field-control').hover();
    await item.locator('.ant-picker-clear').click();
    await clickSearch(page);
    await item.getByText('请选择时间范围').waitFor();
    await shot(page, 'statistics-range-required');
  });

  it('covers a month: filters and the export of the range', async () => {
    const now = new Date();
    const first = local(new Date(now.getFullYear(), now.getMonth(), 1));
    const today = local(now);
    const range = searchItem(page, '时间范围').locator('input');
    await range.first().click();
    await range.first().fill(first);
    await range.first().press('Enter');
    await range.nth(1).fill(today);
    await range.nth(1).press('Enter');
    await clickSearch(page);
    await waitRows(page, (r) => r.length === 10);
    await shot(page, 'statistics-month');

    await searchPick(page, '交易类型', '退款');
    await clickSearch(page);
    await waitRows(page, (r) => r.length > 0);
    for (const t of await cellsOf('交易类型')) expect(t).toBe('退款');
    const n = await total();
    const { header, body } = await exportSheet(page, () => page.getByRole('button', { name: /导\s*出/ }).click());
    expect(header).toEqual((await headers(page)).filter((h) => h !== '序号'));
    expect(body.length).toBe(n);
    for (const r of body) expect(r[header.indexOf('交易类型')]).toBe('退款');
  });

  it('charts every day of the searched month', async () => {
    const days = new Date().getDate();
    // the chart's description (its aria-label, what a screen reader reads) names every day of the range
    await page.waitForFunction(
      (n) => new Set(document.querySelector('[data-testid=summary-chart] [aria-label]')?.getAttribute('aria-label')?.match(/\d{4}-\d\d-\d\d/g) ?? []).size === n,
      days,
      { timeout: 10_000 },
    );
  });
});

describe('settlements', () => {
  it('lists settlements view-only with their own actions', async () => {
    await page.goto('/settlement/settlement');
    await waitRows(page, (r) => r.length > 0);
    const toolbar = await toolbarButtons(page);
    expect(toolbar).toEqual(expect.arrayContaining(['导出', '生成结算单', '批量审核']));
    expect(toolbar.join(' ')).not.toMatch(/新增|删除|编辑/);
    const all = (await rows(page).allTextContents()).join(' ');
    expect(all).toContain('待审核');
    expect(all).toContain('已审核');
    expect(all).not.toMatch(/编辑|删除/);
    // audit only on pending rows
    for (let i = 0; i < (await rows(page).count()); i++) {
      const t = (await rows(page).nth(i).textContent()) ?? '';
      expect(await rows(page).nth(i).getByRole('button', { name: '审核' }).count()).toBe(t.includes('待审核') ? 1 : 0);
    }
    await shot(page, 'settlement-list');
  });

  it('warns when batch-auditing nothing', async () => {
    await clearToasts(page);
    await page.getByRole('button', { name: '批量审核' }).click();
    await toast(page, '请选择至少一条数据');
  });

  it('generates the settlements of a month', async () => {
    const now = new Date();
    const cycle = `${now.getFullYear()}${pad(now.getMonth() + 1)}`;
    await page.getByRole('button', { name: '生成结算单' }).click();
    const d = dialog(page);
    await okUntil(page, d.getByText('请选择结算周期'));
    const input = d.locator('#root_settlementCycle');
    await input.click();
    await input.fill(cycle);
    await input.press('Enter');
    await shot(page, 'settlement-gen');
    await d.getByRole('button', { name: /确\s*定/ }).click();
    await toast(page, /^已生成 \d+ 张结算单$/);
    await waitRows(page, (r) => r.some((t) => t.includes(cycle)));
  });

  it('refuses to audit the running month, audits an ended one', async () => {
    const now = new Date();
    const cycle = `${now.getFullYear()}${pad(now.getMonth() + 1)}`;
    await clearToasts(page);
    await rows(page).filter({ has: cycleCell(cycle) }).first().getByRole('button', { name: '审核' }).click();
    await confirmOk(page);
    await toast(page, '结算周期尚未结束，不能审核');

    const pending = rows(page).filter({ hasText: '待审核' }).filter({ hasNot: cycleCell(cycle) });
    const merchantNo = ((await pending.first().locator('td').nth(2).textContent()) ?? '').trim();
    const prev = ((await pending.first().locator('td').nth(4).textContent()) ?? '').trim();
    await pending.first().getByRole('button', { name: '审核' }).click();
    await confirmOk(page, '确定审核通过该结算单吗？审核后不可更改');
    await toast(page, '审核成功');
    const row = rows(page).filter({ hasText: merchantNo }).filter({ hasText: prev });
    await page.waitForFunction(
      ([m, c]) => [...document.querySelectorAll('.runtime-list tbody tr.ant-table-row')].some((tr) => tr.textContent!.includes(m) && tr.textContent!.includes(c) && tr.textContent!.includes('已审核')),
      [merchantNo, prev],
    );
    expect(await row.getByRole('button', { name: '审核' }).count()).toBe(0);
  });

  it('audits a selection in batch', async () => {
    await searchPick(page, '状态', '待审核');
    await clickSearch(page);
    await waitRows(page, (r) => r.length > 0 && r.every((t) => t.includes('待审核')));
    const now = new Date();
    const cycle = `${now.getFullYear()}${pad(now.getMonth() + 1)}`;
    const ended = rows(page).filter({ hasNot: cycleCell(cycle) });
    const n = await ended.count();
    expect(n).toBeGreaterThan(0);
    for (let i = 0; i < n; i++) await ended.nth(i).locator('.ant-checkbox-input').check();
    await page.getByRole('button', { name: '批量审核' }).click();
    await confirmOk(page, '确定审核通过所选结算单吗？审核后不可更改');
    await toast(page, '审核成功');
    // the refreshed list (still searched by 待审核) holds only the running month: wait for the refresh itself,
    // since the stale rows also all say 待审核
    await page.waitForFunction(
      (c) => {
        const trs = [...document.querySelectorAll('.runtime-list tbody tr.ant-table-row')];
        return trs.length > 0 && trs.every((tr) => tr.querySelector('td:nth-child(5)')?.textContent?.trim() === c);
      },
      cycle,
      { timeout: 15_000 },
    );
    expect(await rows(page).filter({ hasNot: cycleCell(cycle) }).count()).toBe(0);
    for (const t of await waitRows(page, (r) => r.length > 0)) expect(t).toContain('待审核');
  });

  it('views a settlement and the detail list of the orders it covers', async () => {
    await page.locator('[data-testid=runtime-search]').getByRole('button', { name: /清\s*空/ }).click();
    await waitRows(page, (r) => r.some((t) => t.includes('已审核')));
    const audited = rows(page).filter({ hasText: '已审核' }).first();
    const count = Number(((await audited.locator('td').nth(5).textContent()) ?? '').trim());
    expect(count).toBeGreaterThan(0);
    await audited.getByRole('button', { name: '查看' }).click();
    const d = dialog(page);
    await d.locator('#root_merchantName').waitFor();
    expect(await d.getByRole('button', { name: /确\s*定/ }).count()).toBe(0);
    await shot(page, 'settlement-view');
    await closeDialog(page);
    // the orders of the settlement (GET /api/settlement/detail/list?settlementId=), drawn with the order list's columns
    const merchantName = ((await audited.locator('td').nth(3).textContent()) ?? '').trim();
    await audited.getByRole('button', { name: '结算明细' }).click({ timeout: 5000 });
    const detail = dialog(page);
    await detail.locator('.ant-modal-title').getByText('结算明细').waitFor();
    const table = detail.locator('[data-testid=show-dialog][data-screen=order]');
    const lines = table.locator('tbody tr.ant-table-row');
    await lines.first().waitFor();
    await table.locator('.ant-pagination-total-text', { hasText: `共 ${count} 条` }).waitFor();
    expect(await lines.count()).toBe(Math.min(count, 10));
    const hs = (await table.locator('thead th').allTextContents()).map((h) => h.trim());
    expect(hs).toEqual(['序号', '订单号', '订单类型', '订单状态', '员工姓名', '商家名称', '订单金额', '支付金额', '已退款金额', '订单描述', '支付时间']);
    const cells = async (col: string) => {
      const out: string[] = [];
      for (let r = 0; r < (await lines.count()); r++) out.push(((await lines.nth(r).locator('td').nth(hs.indexOf(col)).textContent()) ?? '').trim());
      return out;
    };
    for (const v of await cells('商家名称')) expect(v).toBe(merchantName);
    for (const v of await cells('订单类型')) expect(['消费', '退款']).toContain(v); // dictionary labels, not keys
    for (const v of await cells('支付金额')) expect(v).toMatch(/^\d+\.\d{2}$/); // money render: 2 decimals
    for (const v of await cells('支付时间')) expect(v).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(await table.locator('tbody button').count()).toBe(0); // read-only
    await shot(page, 'settlement-details');
    await closeDialog(page);
  });

  it('exports the searched settlements: visible titles, status labels, amounts as the list shows them', async () => {
    await searchPick(page, '状态', '已审核');
    await clickSearch(page);
    await waitRows(page, (r) => r.length > 0 && r.every((t) => t.includes('已审核')));
    const n = await total();
    const visible = (await headers(page)).filter((h) => h !== '序号' && h !== '操作' && h !== '');
    const first = { no: (await cellsOf('商家编号'))[0], cycle: (await cellsOf('结算周期'))[0], amount: (await cellsOf('结算金额'))[0] };
    const { header, body, download } = await exportSheet(page, () => page.getByRole('button', { name: /导\s*出/ }).click());
    expect(download.suggestedFilename()).toMatch(/\.xlsx$/);
    expect(header).toEqual(visible);
    expect(body.length).toBe(n);
    const col = (t: string) => header.indexOf(t);
    for (const r of body) expect(r[col('状态')]).toBe('已审核');
    const row = body.find((r) => String(r[col('商家编号')]) === first.no && String(r[col('结算周期')]) === first.cycle);
    expect(row, `${first.no} ${first.cycle}`).toBeDefined();
    expect(Number(row![col('结算金额')]).toFixed(2)).toBe(first.amount.replace(/,/g, ''));
  });
});

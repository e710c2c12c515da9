/**
 * Orders and account records in Chromium against our server on the demo ledger: the spec's searches,
 * view only (details JSON formatted), no add/edit/delete, refund (partial, then too much); exports opened
 * with exceljs (headers = visible column titles, dictionary labels, current search applied), and the order
 * screen wholly in English, export included.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { clearToasts, launchBrowser, login, newPage, shot, type RunningServer } from '../support.js';
import {
  CJK,
  clickSearch,
  closeDialog,
  dialog,
  exportSheet,
  headers,
  rowWith,
  rows,
  searchItem,
  searchPick,
  searchText,
  setLanguage,
  startSeededServer,
  toast,
  toolbarButtons,
  waitRows,
  recover,
  pagerTotal,
} from './helpers.js';

let server: RunningServer;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  server = await startSeededServer();
  browser = await launchBrowser();
  ({ page } = await newPage(browser, server.url));
  await login(page);
});

afterEach(async (ctx) => recover(page, ctx, 'orders'));

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const cell = async (r: number, c: number) => ((await rows(page).nth(r).locator('td').nth(c).textContent()) ?? '').trim();
const total = () => pagerTotal(page);
const reset = async () => {
  await page.locator('[data-testid=runtime-search]').getByRole('button', { name: /清\s*空|Reset/ }).click();
  await waitRows(page, (r) => r.length === 10);
};
const dataHeaders = async () => (await headers(page)).filter((h) => !['序号', '操作'].includes(h));

describe('orders', () => {
  it('lists orders with dictionary labels; view-only toolbar and rows', async () => {
    await page.goto('/order/order');
    await waitRows(page, (r) => r.length === 10);
    expect(await dataHeaders()).toEqual(['订单号', '订单类型', '订单状态', '员工姓名', '商家名称', '订单金额', '支付金额', '已退款金额', '订单描述', '支付时间']);
    const toolbar = await toolbarButtons(page);
    expect(toolbar).toContain('导出');
    expect(toolbar.join(' ')).not.toMatch(/新增|删除|编辑/);
    const buttons = (await rows(page).allTextContents()).join(' ');
    expect(buttons).toContain('查看');
    expect(buttons).not.toMatch(/编辑|删除/);
    expect(await cell(0, 2)).toMatch(/^(消费|退款|充值)$/);
    await shot(page, 'order-list');
  });

  it('searches by employee name, merchant name, status and order type', async () => {
    const name = await cell(0, 4);
    await searchText(page, '员工姓名', name);
    await clickSearch(page);
    await waitRows(page, (r) => r.length > 0 && r.every((t) => t.includes(name)));
    for (let i = 0; i < (await rows(page).count()); i++) expect(await cell(i, 4)).toBe(name);
    await reset();

    await searchText(page, '商家名称', '川味小厨');
    await clickSearch(page);
    await waitRows(page, (r) => r.length > 0 && r.every((t) => t.includes('川味小厨')));
    await reset();

    await searchPick(page, '订单状态', '已退款');
    await clickSearch(page);
    await waitRows(page, (r) => r.length > 0 && r.every((t) => t.includes('已退款')));
    for (let i = 0; i < (await rows(page).count()); i++) expect(await cell(i, 3)).toBe('已退款');
    await reset();

    await searchPick(page, '订单类型', '退款');
    await clickSearch(page);
    await waitRows(page, (r) => r.length > 0);
    for (let i = 0; i < (await rows(page).count()); i++) expect(await cell(i, 2)).toBe('退款');
    await reset();
  });

  it('views an order read-only with its details JSON formatted', async () => {
    await searchPick(page, '订单类型', '消费');
    await clickSearch(page);
    await waitRows(page, (r) => r.length > 0 && r.every((t) => t.includes('消费')));
    const orderNo = await cell(0, 1);
    await rowWith(page, orderNo).getByRole('button', { name: '查看' }).click();
    const d = dialog(page);
    await d.locator('#root_orderNo').waitFor();
    expect(await d.locator('#root_orderNo').inputValue()).toBe(orderNo);
    const json = (await d.locator('#root_details').textContent()) ?? '';
    expect(json).toMatch(/^\{\n {2}"channel": "card",\n {2}"terminal": "POS-\d+"\n\}$/);
    // money and the fee ratio with 2 decimals (nothing refunded reads 0.00, a 2 % fee 2.00, not 0 / 2)
    for (const f of ['orderAmount', 'payAmount', 'refundAmount', 'feeRatio']) expect(await d.locator(`#root_${f}`).inputValue()).toMatch(/^\d+\.\d{2}$/);
    expect(await d.getByRole('button', { name: /确\s*定/ }).count()).toBe(0);
    expect(await d.locator('input:not([readonly]):not([type=hidden]):not([disabled]), textarea:not([readonly])').count()).toBe(0);
    await shot(page, 'order-view');
    await closeDialog(page);
  });

  it('refunds part of a paid order, and refuses more than what is left', async () => {
    await searchPick(page, '订单状态', '已支付');
    await clickSearch(page);
    await waitRows(page, (r) => r.length > 0 && r.every((t) => t.includes('已支付')));
    const orderNo = await cell(0, 1);
    const paid = Number(await cell(0, 7));
    await rowWith(page, orderNo).getByRole('button', { name: '退款' }).click();
    let d = dialog(page);
    await d.getByText('退款').first().waitFor();
    await d.locator('#root_amount').fill('1');
    await d.getByRole('button', { name: /确\s*定/ }).click();
    await toast(page, '退款成功');
    // the row now shows the partial refund (filtered list: search it by its number)
    await page.locator('[data-testid=runtime-search]').getByRole('button', { name: /清\s*空/ }).click();
    await searchText(page, '订单号', orderNo);
    await clickSearch(page);
    await waitRows(page, (r) => r.length === 1 && r[0].includes('部分退款') && r[0].includes('1.00'));

    await clearToasts(page);
    await rowWith(page, orderNo).getByRole('button', { name: '退款' }).click();
    d = dialog(page);
    await d.locator('#root_amount').fill(String(paid + 10));
    await d.getByRole('button', { name: /确\s*定/ }).click();
    await toast(page, `退款金额不能超过可退金额 ${(Math.round(paid * 100) - 100) / 100}`.replace(/\.0$/, ''));
    await shot(page, 'order-refund-too-much');
    await closeDialog(page);
    await reset();
  });

  it('exports what the list shows: visible titles, dictionary labels, the current search', async () => {
    await searchText(page, '商家名称', '川味小厨');
    await clickSearch(page);
    await waitRows(page, (r) => r.length > 0 && r.every((t) => t.includes('川味小厨')));
    const n = await total();
    const visible = await dataHeaders();
    const { header, body, download } = await exportSheet(page, () => page.getByRole('button', { name: /导\s*出/ }).click());
    expect(download.suggestedFilename()).toMatch(/\.xlsx$/);
    expect(header).toEqual(visible);
    expect(body.length).toBe(n);
    const col = (t: string) => header.indexOf(t);
    for (const r of body) {
      expect(r[col('商家名称')]).toBe('川味小厨');
      expect(['消费', '退款']).toContain(r[col('订单类型')]);
      expect(['已支付', '已退款', '部分退款', '已关闭', '待支付']).toContain(r[col('订单状态')]);
    }
    await reset();
  });
});

describe('account records', () => {
  it('lists records view-only, searches by account name, type and payment-time range', async () => {
    await page.goto('/account/records');
    await waitRows(page, (r) => r.length === 10);
    const toolbar = await toolbarButtons(page);
    expect(toolbar).toContain('导出');
    expect(toolbar.join(' ')).not.toMatch(/新增|删除|编辑/);
    expect((await rows(page).allTextContents()).join(' ')).not.toMatch(/编辑|删除/);
    const all = await total();

    const name = await cell(0, 5);
    await searchText(page, '账户名称', name);
    await clickSearch(page);
    await waitRows(page, (r) => r.length > 0 && r.every((t) => t.includes(name)));
    await reset();

    await searchPick(page, '流水类型', '收款');
    await clickSearch(page);
    await waitRows(page, (r) => r.length > 0);
    for (let i = 0; i < (await rows(page).count()); i++) {
      expect(await cell(i, 2)).toBe('收款');
      expect(await cell(i, 3)).toBe('商家');
    }
    await reset();

    const day = (await cell(0, 8)).slice(0, 10);
    const range = searchItem(page, '支付时间').locator('input');
    await range.first().click();
    await range.first().fill(day);
    await range.first().press('Enter');
    await range.nth(1).fill(day);
    await range.nth(1).press('Enter');
    await clickSearch(page);
    await waitRows(page, (r) => r.length > 0 && r.every((t) => t.includes(day)));
    expect(await total()).toBeLessThan(all);
    await shot(page, 'account-records-range');

    await rows(page).first().getByRole('button', { name: '查看' }).click();
    const d = dialog(page);
    await d.locator('#root_orderNo').waitFor();
    expect(await d.getByRole('button', { name: /确\s*定/ }).count()).toBe(0);
    await closeDialog(page);
  });

  it('exports with the current search and dictionary labels', async () => {
    await page.locator('[data-testid=runtime-search]').getByRole('button', { name: /清\s*空/ }).click();
    await waitRows(page, (r) => r.length === 10);
    await searchPick(page, '流水类型', '退款');
    await clickSearch(page);
    await waitRows(page, (r) => r.length > 0 && r.every((t) => t.includes('退款')));
    const n = await total();
    const visible = await dataHeaders();
    const { header, body } = await exportSheet(page, () => page.getByRole('button', { name: /导\s*出/ }).click());
    expect(header).toEqual(visible);
    expect(body.length).toBe(n);
    for (const r of body) {
      expect(r[header.indexOf('流水类型')]).toBe('退款');
      expect(r[header.indexOf('账户类型')]).toBe('员工');
    }
  });
});

describe('the order screen in English', () => {
  it('shows no Chinese in headers, toolbar and search, and exports in English', async () => {
    await setLanguage(page, 'en');
    await page.goto('/order/order');
    await waitRows(page, (r) => r.length === 10);
    const h = await headers(page);
    expect(h).toEqual(['No.', 'Order no.', 'Order type', 'Status', 'Employee', 'Merchant', 'Order amount', 'Paid amount', 'Refunded', 'Description', 'Payment time', 'Actions']);
    for (const x of h) expect(x).not.toMatch(CJK);
    for (const b of await toolbarButtons(page)) expect(b).not.toMatch(CJK);
    const search = (await page.locator('[data-testid=runtime-search]').innerText()) + (await page.locator('[data-testid=runtime-search] input').evaluateAll((els) => els.map((e) => (e as HTMLInputElement).placeholder).join(' ')));
    expect(search).not.toMatch(CJK);
    const rowText = (await rows(page).first().locator('td').nth(2).textContent()) ?? '';
    expect(['Payment', 'Refund', 'Recharge']).toContain(rowText.trim());
    await expect(page.locator('.ant-pagination').innerText()).resolves.not.toMatch(CJK);
    await shot(page, 'order-list-en');

    const { header, body } = await exportSheet(page, () => page.getByRole('button', { name: /Export/ }).click());
    for (const x of header) expect(x).not.toMatch(CJK);
    expect(header).toEqual(h.slice(1, -1));
    const typeCol = header.indexOf('Order type');
    expect(['Payment', 'Refund', 'Recharge']).toContain(body[0][typeCol]);
    await setLanguage(page, 'zh');
  });
});

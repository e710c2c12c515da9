/**
 * Employees (cards) in Chromium against our server on the demo ledger: list, search, view; no add/edit/
 * delete; unbind with its confirm; sync answers a clear error with no messaging provider; recharge one card
 * (amount checked, balance and the account record follow); import an .xlsx made here with exceljs — one bad
 * row → per-row report and nothing imported, fixed file → rows imported; export read back: the visible
 * columns, dictionary labels, the searched status, balances as the list shows them.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { clearToasts, confirmOk, launchBrowser, login, newPage, shot, type RunningServer } from '../support.js';
import { clickSearch, closeDialog, dialog, exportSheet, headers, rowWith, rows, searchPick, searchText, startSeededServer, toast, toolbarButtons, waitRows, recover, pagerTotal } from './helpers.js';

let server: RunningServer;
let browser: Browser;
let page: Page;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'canteen-e2e-xlsx-'));

beforeAll(async () => {
  server = await startSeededServer();
  browser = await launchBrowser();
  ({ page } = await newPage(browser, server.url));
  await login(page);
});

afterEach(async (ctx) => recover(page, ctx, 'employees'));

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  fs.rmSync(tmp, { recursive: true, force: true });
});

async function searchCard(cardNo: string) {
  await searchText(page, '卡号', cardNo);
  await clickSearch(page);
  return waitRows(page, (r) => r.length === 1 && r[0].includes(cardNo));
}

async function clearSearch() {
  await page.locator('[data-testid=runtime-search]').getByRole('button', { name: /清\s*空/ }).click();
  await waitRows(page, (r) => r.length === 10);
}

async function workbook(file: string, header: string[], data: unknown[][]) {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('员工');
  ws.addRow(header);
  for (const r of data) ws.addRow(r);
  await wb.xlsx.writeFile(file);
}

describe('employees', () => {
  it('lists the demo cards with dictionary labels, without add/edit/delete', async () => {
    await page.goto('/employee/employee');
    await waitRows(page, (r) => r.length === 10);
    expect(await headers(page)).toEqual(expect.arrayContaining(['员工姓名', '卡号', '余额', '手机号', '性别', '卡状态', '免密支付', '绑定微信']));
    await expect(page.locator('.ant-pagination').textContent()).resolves.toContain('共 60 条');
    await expect(page.locator('.runtime-list tbody').textContent()).resolves.toMatch(/正常/);
    const toolbar = await toolbarButtons(page);
    expect(toolbar).toEqual(expect.arrayContaining(['导出', '导入', '批量充值']));
    expect(toolbar.join(' ')).not.toMatch(/新增|删除|编辑/);
    const rowButtons = (await rows(page).first().locator('button').allTextContents()).join(' ');
    expect(rowButtons).toContain('查看');
    expect(rowButtons).not.toMatch(/编辑|删除/);
    await shot(page, 'employee-list');
  });

  it('searches by card number and by status, and views a card read-only', async () => {
    const [r] = await searchCard('K00000010');
    expect(r).toContain('K00000010');
    await rowWith(page, 'K00000010').getByRole('button', { name: '查看' }).click();
    const d = dialog(page);
    await d.locator('#root_cardNo').waitFor();
    expect(await d.locator('#root_cardNo').inputValue()).toBe('K00000010');
    expect(await d.locator('#root_phone').inputValue()).toBe('13700000010');
    // view only: no OK button, every input read-only, no passwords
    expect(await d.getByRole('button', { name: /确\s*定/ }).count()).toBe(0);
    expect(await d.locator('input:not([readonly]):not([type=hidden]):not([disabled])').count()).toBe(0);
    expect(await d.locator('#root_payPsw, #root_loginPsw').count()).toBe(0);
    await shot(page, 'employee-view');
    await closeDialog(page);

    await searchText(page, '卡号', '');
    await searchPick(page, '卡状态', '正常');
    await clickSearch(page);
    const all = await waitRows(page, (x) => x.length > 0);
    for (const t of all) expect(t).toContain('正常');
  });

  it('unbinds a bound card after a confirm', async () => {
    await clearSearch();
    await searchCard('K00000001');
    const row = rowWith(page, 'K00000001');
    await expect(row.textContent()).resolves.toContain('oE2EK00000001');
    await row.getByRole('button', { name: '解绑' }).click();
    await confirmOk(page, '确定解除该员工的微信绑定吗？');
    await toast(page, '操作成功');
    await page.waitForFunction(() => !document.querySelector('.runtime-list tbody')?.textContent?.includes('oE2EK00000001'));
    expect(await rowWith(page, 'K00000001').getByRole('button', { name: '解绑' }).count()).toBe(0);
  });

  it('sync without a messaging provider answers a clear error, not a fake success', async () => {
    await clearToasts(page);
    await rowWith(page, 'K00000001').getByRole('button', { name: '同步' }).click();
    await toast(page, '未配置微信服务，无法同步');
    expect(await page.locator('.ant-message-notice', { hasText: '同步成功' }).count()).toBe(0);
  });

  it('recharges one card: amount checked, balance and an account record follow', async () => {
    await searchCard('K00000010');
    const row = rowWith(page, 'K00000010');
    const before = Number((await row.locator('td').nth(4).textContent())!.replace(/,/g, ''));
    expect(before).toBeGreaterThan(0);
    await row.getByRole('button', { name: '充值' }).click();
    const d = dialog(page);
    await d.locator('#root_amount').fill('0');
    await d.getByRole('button', { name: /确\s*定/ }).click();
    await d.getByText('金额必须大于0').waitFor();
    await d.locator('#root_amount').fill('100.5');
    await d.locator('#root_remarks').fill('E2E充值');
    await shot(page, 'employee-recharge');
    await d.getByRole('button', { name: /确\s*定/ }).click();
    await toast(page, '充值成功');
    const expected = (Math.round(before * 100) + 10050) / 100;
    await page.waitForFunction(
      (v) => [...document.querySelectorAll('.runtime-list tbody tr.ant-table-row')].some((tr) => tr.textContent!.includes('K00000010') && tr.textContent!.includes(v)),
      expected.toFixed(2),
    );

    await page.goto('/account/records');
    await waitRows(page, (r) => r.length === 10);
    await searchText(page, '账号', 'K00000010');
    await searchPick(page, '流水类型', '充值');
    await clickSearch(page);
    const recs = await waitRows(page, (r) => r.length > 0 && r.every((t) => t.includes('K00000010') && t.includes('充值')));
    expect(recs[0]).toContain('100.50');
  });

  it('imports an .xlsx: one bad row → per-row report and nothing imported; fixed → imported', async () => {
    await page.goto('/employee/employee');
    await waitRows(page, (r) => r.length === 10);
    const header = ['员工姓名', '卡号', '手机号', '性别', '卡状态'];
    const bad = path.join(tmp, 'bad.xlsx');
    await workbook(bad, header, [
      ['导入甲', 'E2E-IMP-1', '13911110001', '男', '正常'],
      ['导入乙', 'E2E-IMP-2', '123', '女', '正常'],
    ]);
    await clearToasts(page);
    await page.getByRole('button', { name: /导\s*入/ }).click();
    let d = dialog(page);
    await d.locator('input[type=file]').setInputFiles(bad);
    await d.getByText('bad.xlsx').waitFor();
    await d.getByRole('button', { name: /确\s*定/ }).click();
    await toast(page, '导入失败：1 行有错误，未导入任何数据');
    const report = d.locator('[data-testid=action-row-errors]');
    await report.waitFor();
    await expect(report.textContent()).resolves.toMatch(/第 3 行 · 手机号：手机号码长度不为11位/);
    await expect(report.textContent()).resolves.not.toMatch(/第 2 行/);
    await shot(page, 'employee-import-errors');
    await closeDialog(page);
    // nothing half-imported
    await searchText(page, '卡号', 'E2E-IMP-1');
    await clickSearch(page);
    await waitRows(page, (r) => r.length === 0);

    const good = path.join(tmp, 'good.xlsx');
    await workbook(good, header, [
      ['导入甲', 'E2E-IMP-1', '13911110001', '男', '正常'],
      ['导入乙', 'E2E-IMP-2', '13911110002', '女', '正常'],
    ]);
    await page.getByRole('button', { name: /导\s*入/ }).click();
    d = dialog(page);
    await d.locator('input[type=file]').setInputFiles(good);
    await d.getByRole('button', { name: /确\s*定/ }).click();
    await toast(page, '导入成功');
    await searchText(page, '员工姓名', '导入');
    await searchText(page, '卡号', '');
    await clickSearch(page);
    const imported = await waitRows(page, (r) => r.length === 2);
    expect(imported.join()).toContain('E2E-IMP-1');
    expect(imported.join()).toContain('E2E-IMP-2');
    expect(imported.join()).toContain('13911110002');
  });

  it('recharges every active card in one batch after a preview', async () => {
    await page.locator('[data-testid=runtime-search]').getByRole('button', { name: /清\s*空/ }).click();
    await searchPick(page, '卡状态', '正常');
    await clickSearch(page);
    await waitRows(page, (r) => r.length === 10);
    const active = await pagerTotal(page);
    await searchCard('K00000020');
    const before = Number((await rowWith(page, 'K00000020').locator('td').nth(4).textContent())!.replace(/,/g, ''));

    await page.getByRole('button', { name: '批量充值' }).click();
    const d = dialog(page);
    await d.getByText('确定为所选状态的全部员工充值吗？').waitFor();
    await d.locator('#root_amount').fill('50');
    const preview = d.locator('[data-testid=action-preview]');
    await preview.waitFor();
    await expect(preview.textContent()).resolves.toMatch(new RegExp(`将为 ${active} 名员工各充值 50(\\.00)?，合计 ${active * 50}(\\.00)?`));
    await shot(page, 'employee-recharge-batch');
    await d.getByRole('button', { name: /确\s*定/ }).click();
    await toast(page, '充值成功');
    await page.waitForFunction(
      (v) => [...document.querySelectorAll('.runtime-list tbody tr.ant-table-row')].some((tr) => tr.textContent!.includes('K00000020') && tr.textContent!.includes(v)),
      ((Math.round(before * 100) + 5000) / 100).toFixed(2),
    );
  });

  it('exports the searched cards: visible titles, dictionary labels, balances as the list shows them', async () => {
    await page.goto('/employee/employee');
    await waitRows(page, (r) => r.length === 10);
    await searchPick(page, '卡状态', '正常');
    await clickSearch(page);
    await waitRows(page, (r) => r.length === 10 && r.every((t) => t.includes('正常')));
    const n = await pagerTotal(page);
    const visible = (await headers(page)).filter((h) => !['序号', '操作'].includes(h));
    // the first row as the list draws it (export rows come in list order)
    const first = rows(page).first();
    const firstCard = (await first.locator('td').nth(3).textContent())!.trim();
    const firstBalance = (await first.locator('td').nth(4).textContent())!.replace(/,/g, '').trim();
    const { header, body, download } = await exportSheet(page, () => page.getByRole('button', { name: /导\s*出/ }).click());
    expect(download.suggestedFilename()).toMatch(/\.xlsx$/);
    expect(header).toEqual(visible);
    expect(body.length).toBe(n);
    const col = (t: string) => header.indexOf(t);
    for (const r of body) {
      expect(r[col('卡状态')]).toBe('正常');
      expect(['男', '女', '未知']).toContain(r[col('性别')]);
      expect(['否', '是']).toContain(r[col('免密支付')]);
      expect(typeof r[col('余额')]).toBe('number');
    }
    expect(body[0][col('卡号')]).toBe(firstCard);
    expect((body[0][col('余额')] as number).toFixed(2)).toBe(firstBalance);
    // the cards made by the import above are in it, with their phone numbers
    const imported = body.find((r) => r[col('卡号')] === 'E2E-IMP-2');
    expect(imported?.[col('手机号')]).toBe('13911110002');
    expect(imported?.[col('性别')]).toBe('女');
  });
});

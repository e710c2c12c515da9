/**
 * Banners, messaging-app users and the message center in Chromium against our server on the demo data.
 * Banners: platform required, go-online flag 2 reveals the (required) period, sort placeholder and range,
 * image type/size refused with the message, remarks counter 144, status read-only and searchable, on/off
 * line. Messaging-app users: only remarks editable. Message center: msgType switches the bizId choices.
 * Banners, messaging-app users and messages: the export is read back (titles, labels, the list's search).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { clearToasts, launchBrowser, login, newPage, shot, type RunningServer } from '../support.js';
import { clickSearch, closeDialog, dialog, exportSheet, headers, okUntil, pick, recover, rowWith, rows, searchPick, startSeededServer, toast, toolbarButtons, waitRows, pagerTotal } from './helpers.js';

let server: RunningServer;
let browser: Browser;
let page: Page;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'canteen-e2e-files-'));
// 1×1 PNG
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

beforeAll(async () => {
  server = await startSeededServer();
  browser = await launchBrowser();
  ({ page } = await newPage(browser, server.url));
  await login(page);
  fs.writeFileSync(path.join(tmp, 'ok.png'), PNG);
  fs.writeFileSync(path.join(tmp, 'big.png'), Buffer.concat([PNG, Buffer.alloc(5_200_000)]));
  fs.writeFileSync(path.join(tmp, 'note.txt'), 'not an image');
});

afterEach(async (ctx) => recover(page, ctx, 'content'));

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  fs.rmSync(tmp, { recursive: true, force: true });
});

const TITLE = 'E2E定时轮播';

function field(name: string) {
  return dialog(page).locator('.ant-form-item').filter({ has: page.locator(`#root_${name}`) }).last();
}

/** A field error message in the dialog. */
function fieldError(text: string) {
  return dialog(page).locator('[id$="__error"]', { hasText: text }).first();
}

describe('banners', () => {
  it('adds a scheduled banner through every rule of the dialog', async () => {
    await page.goto('/banner/banner');
    await waitRows(page, (r) => r.length > 0);
    await page.getByRole('button', { name: /新\s*增/ }).click();
    const d = dialog(page);
    await d.locator('#root_sort').waitFor();

    // platform required
    await okUntil(page, fieldError('请选择投放平台'));
    // sort: placeholder, range 1–999
    await d.locator('#root_sort').fill('');
    expect(await d.locator('#root_sort').getAttribute('placeholder')).toBe('数值越大越靠前');
    await d.locator('#root_sort').fill('1000');
    await d.locator('#root_sort').blur();
    await fieldError('排序范围为1-999').waitFor();
    await d.locator('#root_sort').fill('998');
    await d.locator('#root_sort').blur();

    // status is not set by hand when adding
    expect(await d.locator('#root_status').count()).toBe(0);
    await pick(page, field('putPlatform'), '员工端');
    await d.locator('#root_bannerTitle').fill(TITLE);

    // go-online flag 2 reveals the period, which is then required
    expect(await d.locator('#root_enableDaterange').count()).toBe(0);
    await pick(page, field('enableFlag'), '定时上线');
    await d.locator('#root_enableDaterange').waitFor();
    await okUntil(page, fieldError('请输入上线时段'));

    // image: wrong type and too big refused with the message, a small png accepted
    const upload = field('banner').locator('input[type=file]');
    await clearToasts(page);
    await upload.setInputFiles(path.join(tmp, 'note.txt'));
    await toast(page, '文件类型不正确');
    await clearToasts(page);
    await upload.setInputFiles(path.join(tmp, 'big.png'));
    await toast(page, '文件大小超出限制');
    await expect(field('banner').textContent()).resolves.toContain('只能上传jpg/png文件，且不超过5M');
    await upload.setInputFiles(path.join(tmp, 'ok.png'));
    await field('banner').locator('.ant-upload-list-item-done, .ant-upload-list-item img').first().waitFor();

    // remarks: counter of 144, longer text refused
    await d.locator('#root_remarks').fill('长'.repeat(150));
    await d.locator('#root_remarks').blur();
    await expect(field('remarks').textContent()).resolves.toContain('150 / 144');
    await fieldError('备注不能超过144个字符').waitFor();
    await d.locator('#root_remarks').fill('E2E 备注');
    await expect(field('remarks').textContent()).resolves.toContain('6 / 144');

    // a period in the future: the banner waits (待上线)
    const y = new Date().getFullYear() + 1;
    const range = field('enableDaterange').locator('.ant-picker input');
    await range.first().click();
    await range.first().fill(`${y}-01-01 00:00:00`);
    await range.first().press('Enter');
    await range.nth(1).fill(`${y}-02-01 00:00:00`);
    await range.nth(1).press('Enter');
    await shot(page, 'banner-add');
    await d.getByRole('button', { name: /确\s*定/ }).click();
    await toast(page, '新增成功');
    const row = rowWith(page, TITLE);
    await row.waitFor();
    await expect(row.textContent()).resolves.toContain('待上线');
    // the online period as a formatted range (midnight times left out), not a JSON array
    await expect(row.textContent()).resolves.toContain(`${y}-01-01 ~ ${y}-02-01`);
  });

  it('keeps status read-only in edit and view', async () => {
    await rowWith(page, TITLE).getByRole('button', { name: '编辑' }).click();
    let d = dialog(page);
    await d.locator('#root_status').waitFor();
    expect(await d.locator('#root_status').evaluate((el) => (el as HTMLInputElement).readOnly)).toBe(true);
    expect(await d.locator('#root_status').inputValue()).toBe('待上线');
    await closeDialog(page);
    await rowWith(page, TITLE).getByRole('button', { name: '查看' }).click();
    d = dialog(page);
    await d.locator('#root_bannerTitle').waitFor();
    expect(await d.locator('#root_bannerTitle').inputValue()).toBe(TITLE);
    await closeDialog(page);
  });

  it('takes a banner on line and off line, and searches by status', async () => {
    await clearToasts(page);
    await rowWith(page, TITLE).getByRole('button', { name: '上线' }).click();
    let d = dialog(page);
    await d.getByText('确定上线该轮播图吗？').waitFor();
    await d.getByRole('button', { name: /确\s*定/ }).click();
    await toast(page, '操作成功');
    await page.waitForFunction((t) => [...document.querySelectorAll('.runtime-list tbody tr')].some((tr) => tr.textContent!.includes(t) && tr.textContent!.includes('已上线')), TITLE);

    await rowWith(page, TITLE).getByRole('button', { name: '下线' }).click();
    d = dialog(page);
    await d.getByText('确定下线该轮播图吗？').waitFor();
    await d.getByRole('button', { name: /确\s*定/ }).click();
    await page.waitForFunction((t) => [...document.querySelectorAll('.runtime-list tbody tr')].some((tr) => tr.textContent!.includes(t) && tr.textContent!.includes('已下线')), TITLE);
    await shot(page, 'banner-offline');

    await searchPick(page, '状态', '已下线');
    await clickSearch(page);
    const found = await waitRows(page, (r) => r.length > 0 && r.every((t) => t.includes('已下线')));
    expect(found.join()).toContain(TITLE);
    await searchPick(page, '状态', '已上线');
    await clickSearch(page);
    await waitRows(page, (r) => r.length > 0 && r.every((t) => t.includes('已上线') && !t.includes(TITLE)));
  });

  it('exports the banners with platform and status labels, each status as the list shows it', async () => {
    await page.locator('[data-testid=runtime-search]').getByRole('button', { name: /清\s*空/ }).click();
    await waitRows(page, (r) => r.length > 0 && r.some((t) => t.includes(TITLE)) && r.some((t) => !t.includes('已下线')));
    const n = await pagerTotal(page);
    const listed = await rows(page).allTextContents();
    const visible = (await headers(page)).filter((h) => !['序号', '操作'].includes(h));
    const { header, body } = await exportSheet(page, () => page.getByRole('button', { name: /导\s*出/ }).click());
    expect(header).toEqual(visible);
    expect(body.length).toBe(n);
    const col = (t: string) => header.indexOf(t);
    const mine = body.find((r) => r[col('标题')] === TITLE);
    expect(mine?.[col('投放平台')]).toBe('员工端');
    expect(mine?.[col('上线时间')]).toBe('立即上线'); // taken off line by hand: manual control
    expect(mine?.[col('状态')]).toBe('已下线');
    // every banner's status in the sheet is the one its list row shows (scheduled ones: the period's status now)
    for (const r of body) {
      expect(['员工端', '商家端']).toContain(r[col('投放平台')]);
      const row = listed.find((t) => t.includes(String(r[col('标题')])));
      expect(row, String(r[col('标题')])).toContain(String(r[col('状态')]));
    }
    expect(body.map((r) => r[col('状态')])).toEqual(expect.arrayContaining(['已上线', '待上线']));
  });
});

describe('messaging-app users', () => {
  it('lists users without add/delete, searches by user type, edits only the remarks', async () => {
    await page.goto('/wxUser/wxUser');
    await waitRows(page, (r) => r.length === 10);
    const toolbar = await toolbarButtons(page);
    expect(toolbar).toContain('导出');
    expect(toolbar.join(' ')).not.toMatch(/新增|删除/);
    expect((await rows(page).allTextContents()).join(' ')).not.toContain('删除');

    await searchPick(page, '用户类型', '访客');
    await clickSearch(page);
    const visitors = await waitRows(page, (r) => r.length > 0 && r.every((t) => t.includes('访客')));
    const nick = (await rows(page).first().locator('td').nth(3).textContent())!.trim();
    expect(visitors[0]).toContain(nick);

    await rows(page).first().getByRole('button', { name: '编辑' }).click();
    const d = dialog(page);
    await d.locator('#root_remarks').waitFor();
    expect(await d.locator('#root_nickname').evaluate((el) => (el as HTMLInputElement).readOnly)).toBe(true);
    // the only editable control is the remarks textarea
    const editable = await d.locator('input:not([readonly]):not([type=hidden]):not([disabled]):not([type=file]), textarea:not([readonly])').evaluateAll((els) => els.map((e) => e.id));
    expect(editable).toEqual(['root_remarks']);
    expect(await d.locator('textarea#root_remarks').count()).toBe(1);
    expect(await d.locator('#root_avatar input[type=file]').count()).toBe(0);
    await d.locator('#root_remarks').fill('E2E 只改备注');
    await shot(page, 'wxuser-edit');
    await d.getByRole('button', { name: /确\s*定/ }).click();
    await toast(page, '修改成功');
    await rowWith(page, 'E2E 只改备注').waitFor();
    await expect(rowWith(page, 'E2E 只改备注').textContent()).resolves.toContain(nick);
  });

  it('exports the searched users with the user type label and the edited remarks', async () => {
    await waitRows(page, (r) => r.length > 0 && r.every((t) => t.includes('访客')));
    const n = await pagerTotal(page);
    const visible = (await headers(page)).filter((h) => !['序号', '操作'].includes(h));
    const { header, body } = await exportSheet(page, () => page.getByRole('button', { name: /导\s*出/ }).click());
    expect(header).toEqual(visible);
    expect(body.length).toBe(n);
    const col = (t: string) => header.indexOf(t);
    for (const r of body) {
      expect(r[col('用户类型')]).toBe('访客');
      expect(['男', '女', '未知']).toContain(r[col('性别')]);
    }
    expect(body.map((r) => r[col('备注')])).toContain('E2E 只改备注');
  });
});

describe('message center', () => {
  it('switches the recipient choices with the message type and saves the recipient name', async () => {
    await page.goto('/msgCenter/msgCenter');
    await waitRows(page, (r) => r.length > 0);
    await page.getByRole('button', { name: /新\s*增/ }).click();
    const d = dialog(page);
    await d.locator('#root_msgTitle').waitFor();
    await okUntil(page, fieldError('请输入消息标题'));
    await fieldError('请输入消息内容').waitFor();
    await fieldError('请选择接收对象').waitFor();

    // default type 员工: the choices are employees
    await expect(field('msgType').textContent()).resolves.toContain('员工');
    await field('bizId').locator('.ant-select').click();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: '刘秀英' }).first().waitFor();
    const employees = await page.locator('.ant-select-dropdown:visible .ant-select-item-option').allTextContents();
    expect(employees.join()).not.toContain('川味小厨');
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: '刘秀英' }).first().click();

    // type 商家: the choices become merchants and the employee choice is dropped
    await pick(page, field('msgType'), '商家');
    await expect(field('bizId').textContent()).resolves.not.toContain('刘秀英');
    await field('bizId').locator('.ant-select').click();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: '川味小厨' }).first().waitFor();
    const merchants = await page.locator('.ant-select-dropdown:visible .ant-select-item-option').allTextContents();
    expect(merchants.join()).not.toContain('刘秀英');
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: '川味小厨' }).first().click();
    await shot(page, 'msg-center-add');

    await d.locator('#root_msgTitle').fill('E2E 商家通知');
    await d.locator('#root_contents').fill('请核对本月结算单。');
    await d.getByRole('button', { name: /确\s*定/ }).click();
    await toast(page, '新增成功');
    const row = rowWith(page, 'E2E 商家通知');
    await row.waitFor();
    await expect(row.textContent()).resolves.toContain('川味小厨');
    await expect(row.textContent()).resolves.toContain('商家');
  });

  it('exports the messages of the searched type with dictionary labels', async () => {
    await searchPick(page, '消息类型', '商家');
    await clickSearch(page);
    await waitRows(page, (r) => r.length > 0 && r.every((t) => t.includes('商家')));
    const n = await pagerTotal(page);
    const { header, body } = await exportSheet(page, () => page.getByRole('button', { name: /导\s*出/ }).click());
    expect(header).toEqual((await headers(page)).filter((h) => !['序号', '操作'].includes(h)));
    expect(body.length).toBe(n);
    for (const r of body) expect(r[header.indexOf('消息类型')]).toBe('商家');
    expect(body.map((r) => r[header.indexOf('消息标题')])).toContain('E2E 商家通知');
  });
});

/**
 * Operations screens (issue 11) against our real server and the built web app: the API log shows a change with its
 * secrets redacted, the usual log the sign-in, the error log what the browser uploaded; the notice inbox, SMS, jobs,
 * object storage on a real S3-compatible server and the attachments screen; in zh and en.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startTestS3, type TestS3 } from '../support/s3-server.js';
import { confirmOk, dialogOk, launchBrowser, login, newPage, rowButton, sessionCall as call, startServer, type RunningServer } from './support.js';

let server: RunningServer;
let browser: Browser;
let page: Page;

/** What the user sees, polled up to 15 s (a loaded CI machine; never a fixed wait). */
const poll = <T,>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 15_000, interval: 100 });

const row = (p: Page, text: string) => p.locator('tbody tr.ant-table-row', { hasText: text }).first();

/**
 * Opens a log screen until it lists a row with `text`: the log is written just after the answer, so the first
 * load may come before it (each try waits for the list to be drawn, never on time).
 */
async function openWithRow(p: Page, route: string, text: string) {
  for (let i = 0; i < 5; i++) {
    await p.goto(route);
    await p.locator('tbody tr.ant-table-row').first().waitFor();
    if ((await row(p, text).count()) > 0) return row(p, text);
  }
  throw new Error(`${route}: no row with ${text}`);
}

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
  ({ page } = await newPage(browser, server.url));
  await login(page);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('logs', () => {
  it('the API log shows a change with its route, user and status; its parameters without the secret', async () => {
    expect(await call(page, 'POST', '/api/blade-system/param/submit', { paramName: '运维测试', paramKey: 'ops.e2e', paramValue: 'v', accessKey: 'AKIA-very-secret' })).toBe(200);
    const r = await openWithRow(page, '/monitor/log/api', '/api/blade-system/param/submit');
    await expect(r.innerText()).resolves.toMatch(/POST[\s\S]*200[\s\S]*admin/);
    await r.getByText('查看').click();
    const dlg = page.locator('.ant-modal').last();
    await poll(() => dlg.textContent()).toContain('ops.e2e');
    const text = (await dlg.textContent()) ?? '';
    expect(text).toContain('******');
    expect(text).not.toContain('AKIA-very-secret');
  });

  it('the usual log shows the sign-in; the error log what the browser uploaded', async () => {
    await openWithRow(page, '/monitor/log/usual', 'login');
    await expect(row(page, 'login').innerText()).resolves.toContain('admin');
    expect(await call(page, 'POST', '/api/blade-desk/shell/send-logs', [{ type: 'error', url: '/wel/index', time: '2026-11-25 10:00:00', message: 'e2e client failure', stack: 'Error: e2e\n at x' }])).toBe(200);
    const r = await openWithRow(page, '/monitor/log/error', 'e2e client failure');
    await expect(r.innerText()).resolves.toContain('client');
  });

  it('speaks English', async () => {
    await page.evaluate(() => localStorage.setItem('saber-language', JSON.stringify({ content: 'en', dataType: 'string', type: 'local', datetime: Date.now() })));
    for (const [route, header] of [['/monitor/log/api', 'Address'], ['/monitor/log/usual', 'Event'], ['/monitor/log/error', 'Exception'], ['/resource/sms', 'Provider'], ['/resource/oss', 'Bucket'], ['/resource/attach', 'Original name']] as const) {
      await page.goto(route);
      await page.locator('.runtime-list thead th').first().waitFor();
      const head = (await page.locator('.runtime-list thead').first().textContent()) ?? '';
      expect(head, route).toContain(header);
      expect(head, route).not.toMatch(/[\u4e00-\u9fff]/);
    }
    await page.evaluate(() => localStorage.removeItem('saber-language'));
  });
});

describe('notices in the top bar', () => {
  it('the bell counts the unread notices; opening one marks it read, "mark all read" clears the count', async () => {
    for (const title of ['午餐供应时间调整', '周五食堂消毒']) {
      expect(await call(page, 'POST', '/api/blade-desk/notice/submit', { title, category: 1, releaseTime: '2026-01-01 09:00:00', content: `${title}，请知悉。` })).toBe(200);
    }
    await page.goto('/wel/index');
    const badge = page.locator('[data-testid=notice-badge] .ant-badge-count');
    await poll(async () => Number(((await badge.count()) ? await badge.first().getAttribute('title') : '0') ?? 0)).toBeGreaterThanOrEqual(2);
    const before = Number(await badge.first().getAttribute('title'));
    await page.locator('[data-testid=tb-notice]').click();
    const pop = page.locator('[data-testid=notice-popover]');
    await pop.getByRole('tab', { name: new RegExp(`通知 \\(${before}\\)`) }).click();
    const item = pop.locator('[data-testid=notice-inbox] .notice-unread', { hasText: '周五食堂消毒' });
    await item.click();
    await poll(async () => Number(await badge.first().getAttribute('title'))).toBe(before - 1);
    await poll(() => pop.locator('[data-testid=notice-inbox] .notice-unread', { hasText: '周五食堂消毒' }).count()).toBe(0);
    await pop.locator('[data-testid=notice-read-all]').click();
    await poll(() => badge.count()).toBe(0);
  });
});

describe('SMS', () => {
  it('adds a development-log configuration (secret never shown), enables it and sends a message that lands in the usual log', async () => {
    await page.goto('/resource/sms');
    await page.locator('.runtime-list').waitFor();
    await page.locator('.runtime-list').getByRole('button', { name: /新\s*增/ }).first().click();
    const dlg = page.locator('.ant-modal').last();
    await dlg.locator('.ant-select', { has: page.locator('#root_category') }).first().click();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: '开发日志' }).first().click();
    await dlg.locator('#root_smsCode').fill('dev-e2e');
    await dlg.locator('#root_templateId').fill('SMS_E2E');
    await dlg.locator('#root_signName').fill('食堂饭卡');
    await dlg.locator('#root_accessKey').fill('AK-e2e');
    await dlg.locator('#root_secretKey').fill('never-shown-secret');
    await dialogOk(dlg);
    await page.locator('.ant-message-notice', { hasText: '新增成功' }).first().waitFor();
    const r = row(page, 'dev-e2e');
    await r.waitFor();
    await expect(r.innerText()).resolves.toContain('未启用');
    expect(await page.locator('.runtime-list').innerText()).not.toContain('never-shown-secret');
    await r.getByText('启用', { exact: true }).click();
    await confirmOk(page);
    await poll(() => row(page, 'dev-e2e').innerText()).toContain('已启用');
    await page.locator('.runtime-list').getByRole('button', { name: '发送短信' }).click();
    const form = page.locator('.ant-modal', { has: page.locator('#root_phones') });
    await form.locator('#root_phones').fill('1380013800');
    await form.locator('.ant-modal-footer .ant-btn-primary').click();
    await page.locator('.ant-message-notice', { hasText: '手机号 1380013800 格式不正确' }).first().waitFor();
    await form.locator('#root_phones').fill('13800138000');
    await form.locator('#root_params').fill('{"code":"2468"}');
    await dialogOk(form);
    await page.locator('.ant-message-notice', { hasText: '发送成功' }).first().waitFor();
    const logged = await openWithRow(page, '/monitor/log/usual', '13800138000');
    await expect(logged.innerText()).resolves.toContain('sms');
  });
});

describe('scheduled jobs', () => {
  it('adds a job: the cron field shows the next five runs (or why it is wrong), the handler comes from the registry; run now lands in the job log', async () => {
    await page.goto('/job/job');
    await page.locator('.runtime-list').waitFor();
    await page.locator('.runtime-list').getByRole('button', { name: /新\s*增/ }).first().click();
    const dlg = page.locator('.ant-modal').last();
    await dlg.locator('#root_jobName').fill('E2E 日志清理');
    const cron = dlg.locator('#root_cronExpression');
    await cron.fill('0 0 25 * * ?');
    await poll(() => dlg.locator('[data-testid=cron-times]').innerText()).toMatch(/不正确/);
    await cron.fill('0 30 3 * * ?');
    await poll(() => dlg.locator('[data-testid=cron-times]').innerText()).toMatch(/最近 5 次执行时间：\d{4}-\d\d-\d\d 03:30:00/);
    await dlg.locator('.ant-select', { has: page.locator('#root_handler') }).first().click();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: '日志清理' }).first().click();
    await dialogOk(dlg);
    await page.locator('.ant-message-notice', { hasText: '新增成功' }).first().waitFor();
    const r = row(page, 'E2E 日志清理');
    await r.waitFor();
    await expect(r.innerText()).resolves.toContain('运行中');
    // view, edit, delete inline; run and pause fold into 更多
    await r.getByRole('button', { name: /更多/ }).click();
    await page.locator('.ant-dropdown-menu-item', { hasText: '执行一次' }).click();
    await confirmOk(page);
    await page.locator('.ant-message-notice', { hasText: '已开始执行' }).first().waitFor();
    const logged = await openWithRow(page, '/job/joblog', 'E2E 日志清理');
    await expect(logged.innerText()).resolves.toMatch(/手动[\s\S]*成功/);
  });
});

describe('object storage and attachments', () => {
  let s3: TestS3;
  beforeAll(async () => {
    s3 = await startTestS3();
  });
  afterAll(async () => s3?.close());

  const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(400, 9)]);


  it('adds a MinIO store (the secret never shown), enables it after the bucket answered; uploads land in the bucket', async () => {
    await page.goto('/resource/oss');
    await page.locator('.runtime-list').waitFor();
    await page.locator('.runtime-list').getByRole('button', { name: /新\s*增/ }).first().click();
    const dlg = page.locator('.ant-modal').last();
    await dlg.locator('.ant-select', { has: page.locator('#root_category') }).first().click();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: 'minio' }).first().click();
    await dlg.locator('#root_ossCode').fill('minio-e2e');
    await dlg.locator('#root_endpoint').fill(s3.endpoint);
    await dlg.locator('#root_bucketName').fill(s3.bucket);
    await dlg.locator('#root_accessKey').fill(s3.accessKey);
    await dlg.locator('#root_secretKey').fill(s3.secretKey);
    await dialogOk(dlg);
    await page.locator('.ant-message-notice', { hasText: '新增成功' }).first().waitFor();
    const r = row(page, 'minio-e2e');
    await r.waitFor();
    await expect(r.innerText()).resolves.toContain('未启用');
    expect(await page.locator('.runtime-list').innerText()).not.toContain(s3.secretKey);
    await rowButton(page, r, '启用');
    await confirmOk(page);
    await poll(() => row(page, 'minio-e2e').innerText()).toContain('已启用');

    await page.goto('/resource/attach');
    await page.locator('.runtime-list').waitFor();
    await page.locator('.runtime-list').getByRole('button', { name: /上\s*传/ }).click();
    const up = page.locator('.ant-modal', { has: page.locator('#root_file') });
    await up.locator('input[type=file]').setInputFiles({ name: '食堂菜单.png', mimeType: 'image/png', buffer: PNG });
    await poll(() => up.innerText()).toContain('食堂菜单.png');
    await dialogOk(up);
    await page.locator('.ant-message-notice', { hasText: '上传成功' }).first().waitFor();
    const listed = row(page, '食堂菜单.png');
    await listed.waitFor();
    await expect(listed.innerText()).resolves.toMatch(/png[\s\S]*408 B[\s\S]*minio-e2e/);
    // read back through the S3 server itself
    await poll(async () => (await s3.keys()).length).toBe(1);
    const [key] = await s3.keys();
    expect(Buffer.compare((await s3.object(key))!, PNG)).toBe(0);
  });

  it('downloads the attachment under its own name, and removing it takes the object from the bucket', async () => {
    const r = row(page, '食堂菜单.png');
    const [download] = await Promise.all([page.waitForEvent('download'), rowButton(page, r, '下载')]);
    expect(download.suggestedFilename()).toBe('食堂菜单.png');
    const saved = await download.path();
    expect(Buffer.compare(await fs.promises.readFile(saved!), PNG)).toBe(0);
    await rowButton(page, r, '删除');
    await confirmOk(page);
    await page.locator('.ant-message-notice', { hasText: '删除成功' }).first().waitFor();
    await poll(() => row(page, '食堂菜单.png').count()).toBe(0);
    await poll(async () => (await s3.keys()).length).toBe(0);
  });
});

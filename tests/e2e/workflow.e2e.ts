/**
 * Workflow (issue 12) in the browser: the administrator opens the shipped leave model in the designer, changes what
 * the engine reads through the properties panel (the approval's name, the gateway condition), saves — the server
 * reads the model again and keeps it only when valid — and deploys it; 流程管理 lists the new version and suspends
 * and activates it; 部署管理 refuses a broken file with its reason and deploys, lists and removes a good one. The
 * leave process's own journeys (start, claim, approve, reject) are leave.e2e.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { LEAVE_XML } from '../../src/server/modules/flow/leave-model.js';
import { clearToasts, confirmOk, dialogOk, launchBrowser, login, newPage, rowButton, sessionReply, startServer, type RunningServer } from './support.js';

let server: RunningServer;
let browser: Browser;
let page: Page;
let errors: string[];

const poll = <T,>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 15_000, interval: 100 });
const row = (p: Page, text: string) => p.locator('tbody tr.ant-table-row', { hasText: text }).first();


beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
  ({ page, errors } = await newPage(browser, server.url));
  await login(page);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('the leave model', () => {
  it('opens in the designer; the panel edits what the engine reads; a saved model deploys as the next version', async () => {
    await page.goto('/flow/model');
    const model = row(page, '请假流程');
    await model.waitFor();
    await rowButton(page, model, '编辑');
    const dlg = page.locator('.ant-modal', { has: page.locator('[data-testid=bpmn-modeler]') });
    // the diagram is drawn: every element of the shipped model has its shape
    await dlg.locator('.djs-element[data-element-id=approve]').waitFor();
    await expect(dlg.locator('.djs-element[data-element-id=bossApprove]').count()).resolves.toBe(1);
    // the process itself first: its key
    await poll(() => dlg.locator('[data-testid=bpmn-properties]').innerText()).toContain('流程');
    // the approval task: candidate users from the start form's approver
    await dlg.locator('.djs-element[data-element-id=approve] .djs-hit').first().click();
    await poll(() => dlg.locator('[data-testid=bpmn-properties]').innerText()).toContain('候选人');
    const name = dlg.locator('[data-testid=flow-field-name]');
    await name.fill('部门审批');
    // the condition to the second approval: a wrong expression is shown at once, a right one is kept
    // (a flow's label sits at its middle: the line is clicked near its start)
    const flow = (await dlg.locator('.djs-element[data-element-id=toBoss]').first().boundingBox())!;
    await page.mouse.click(flow.x + Math.max(4, flow.width * 0.15), flow.y + flow.height / 2);
    const condition = dlg.locator('[data-testid=flow-field-conditionExpression]');
    await poll(() => condition.inputValue()).toBe('${pass && days > 3}');
    await condition.fill('${pass && days >}');
    await poll(() => dlg.locator('[data-testid=bpmn-properties] .ant-form-item-explain').count()).toBeGreaterThan(0);
    await condition.fill('${pass && days > 5}');
    await poll(() => dlg.locator('[data-testid=bpmn-properties] .ant-form-item-explain').count()).toBe(0);
    await dialogOk(dlg);
    await page.locator('.ant-message-notice', { hasText: '修改成功' }).first().waitFor();
    // what was saved is the designer's XML with both changes
    const models = (await sessionReply(page, 'GET', '/api/blade-flow/model/list')).body.data.records;
    const xml = String(models.find((m: any) => m.modelKey === 'Leave').xml ?? (await sessionReply(page, 'GET', `/api/blade-flow/model/detail?id=${models[0].id}`)).body.data.xml);
    expect(xml).toContain('name="部门审批"');
    expect(xml).toContain('${pass &amp;&amp; days &gt; 5}');

    await rowButton(page, row(page, '请假流程'), '部署');
    await confirmOk(page);
    await page.locator('.ant-message-notice', { hasText: '部署成功' }).first().waitFor();

    await page.goto('/flow/manager');
    await poll(() => page.locator('tbody tr.ant-table-row', { hasText: 'Leave' }).count()).toBe(2);
    const newest = page.locator('tbody tr.ant-table-row', { hasText: 'Leave' }).first();
    await expect(newest.innerText()).resolves.toMatch(/\b2\b[\s\S]*激活/);
    await rowButton(page, newest, '挂起');
    await confirmOk(page);
    await poll(() => page.locator('tbody tr.ant-table-row', { hasText: 'Leave' }).first().innerText()).toContain('挂起');
    await rowButton(page, page.locator('tbody tr.ant-table-row', { hasText: 'Leave' }).first(), '激活');
    await poll(() => page.locator('tbody tr.ant-table-row', { hasText: 'Leave' }).first().innerText()).toContain('激活');
    expect(errors).toEqual([]);
  });
});

describe('部署管理', () => {
  const upload = async (name: string, xml: string) => {
    await page.goto('/flow/deploy');
    await page.locator('.runtime-list').getByRole('button', { name: '上传部署' }).click();
    const dlg = page.locator('.ant-modal', { has: page.locator('#root_file') });
    await dlg.locator('.ant-select', { has: page.locator('#root_category') }).first().click();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: '请假流程' }).first().click();
    await dlg.locator('input[type=file]').setInputFiles({ name, mimeType: 'text/xml', buffer: Buffer.from(xml) });
    await poll(() => dlg.innerText()).toContain(name);
    await dlg.locator('.ant-modal-footer .ant-btn-primary').click();
    return dlg;
  };

  it('a broken file is refused with its reason; a good one is deployed, listed and removed', async () => {
    await clearToasts(page);
    const broken = await upload('broken.bpmn', '<definitions><process id="x"');
    await page.locator('.ant-message-notice', { hasText: 'broken.bpmn' }).first().waitFor();
    await dialogOk(broken, 'cancel');
    const xml = LEAVE_XML.replace('<bpmn:process id="Leave" name="请假流程"', '<bpmn:process id="Overtime" name="加班申请"').replace('bpmnElement="Leave"', 'bpmnElement="Overtime"');
    const good = await upload('overtime.bpmn', xml);
    await good.waitFor({ state: 'hidden' });
    await page.locator('.ant-message-notice', { hasText: '部署成功' }).first().waitFor();
    const deployed = row(page, 'overtime.bpmn');
    await poll(() => deployed.innerText()).toContain('加班申请 (Overtime v1)');
    await rowButton(page, deployed, '删除');
    await confirmOk(page);
    await poll(() => page.locator('tbody tr.ant-table-row', { hasText: 'overtime.bpmn' }).count()).toBe(0);
    expect(errors).toEqual([]);
  });
});

describe('in English', () => {
  it('the workflow screens speak English', async () => {
    await page.evaluate(() => localStorage.setItem('saber-language', JSON.stringify({ content: 'en', dataType: 'string', type: 'local', datetime: Date.now() })));
    for (const [route, header] of [['/flow/model', 'Process key'], ['/flow/manager', 'Version'], ['/flow/follow', 'Started by']] as const) {
      await page.goto(route);
      await page.locator('.runtime-list thead th').first().waitFor();
      const head = (await page.locator('.runtime-list thead').first().textContent()) ?? '';
      expect(head, route).toContain(header);
      expect(head, route).not.toMatch(/[\u4e00-\u9fff]/);
    }
    await page.evaluate(() => localStorage.removeItem('saber-language'));
  });
});

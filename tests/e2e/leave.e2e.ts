/**
 * The leave process in the browser, as its users live it (issue 12): the administrator deploys the leave model from
 * 模型管理; 张三 starts a 4-day leave from 发起事务 on the process form, naming 李四; 李四 claims it in 待签事务 and
 * approves it from 待办事务 with a comment; being more than 3 days it goes on to the administrators, where the
 * administrator claims and approves it; 张三 finds it ended in 已发事务 and 李四 in 办结事务, and the diagram shows
 * the path taken (done steps green, flows taken orange). A second request is rejected and returns to 张三.
 * Users and the 员工 role are made through the system's own endpoints, as an administrator would.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { clearToasts, confirmOk, launchBrowser, login, newPage, rowButton, sessionReply, shot, startServer, type RunningServer } from './support.js';

let server: RunningServer;
let browser: Browser;
const sessions: Array<{ context: BrowserContext; page: Page; errors: string[] }> = [];
let admin: Page;
let zhang: Page;
let li: Page;

const poll = <T,>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 20_000, interval: 100 });
const row = (p: Page, text: string) => p.locator('tbody tr.ant-table-row', { hasText: text }).first();
const toast = (p: Page, text: string) => p.locator('.ant-message-notice', { hasText: text }).first().waitFor();
const WORK_CODES = ['work', 'work_start', 'work_start_flow', 'work_start_image', 'work_sign', 'work_sign_view', 'work_claim', 'work_todo', 'work_todo_view', 'work_handle', 'work_send', 'work_send_view', 'work_done', 'work_done_view'];

async function ok<T = any>(p: Page, method: 'GET' | 'POST', url: string, body?: unknown): Promise<T> {
  const r = await sessionReply(p, method, url, body);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.data as T;
}

const flat = (nodes: any[]): any[] => nodes.flatMap((n) => [n, ...flat(n.children ?? [])]);

/** The 员工 role (granted 我的事务 and its buttons) and two users of it, through the system's screens' endpoints. */
async function makeStaff(p: Page): Promise<void> {
  await ok(p, 'POST', '/api/blade-system/role/submit', { roleName: '员工', roleAlias: 'staff', sort: 5 });
  const roleId = flat(await ok(p, 'GET', '/api/blade-system/role/tree')).find((n) => n.title === '员工').id;
  const menus = flat(await ok(p, 'GET', '/api/blade-system/menu/list')).filter((m) => WORK_CODES.includes(m.code));
  expect(menus.map((m) => m.code).sort()).toEqual([...WORK_CODES].sort());
  await ok(p, 'POST', '/api/blade-system/role/grant', { roleIds: [roleId], menuIds: menus.map((m) => String(m.id)), dataScopeIds: [], apiScopeIds: [] });
  const deptId = flat(await ok(p, 'GET', '/api/blade-system/dept/tree'))[0].id;
  for (const [account, realName] of [['zhangsan', '张三'], ['lisi', '李四']]) {
    await ok(p, 'POST', '/api/blade-system/user/submit', { account, password: 'Staff-2026', password2: 'Staff-2026', realName, name: realName, roleId, deptId });
  }
}

async function signedIn(account: string, password: string): Promise<Page> {
  const s = await newPage(browser, server.url);
  sessions.push(s);
  await login(s.page, account, password);
  return s.page;
}

/** Picks a date-time in the process form's field (typed, then confirmed as a user would). */
async function pickTime(form: Locator, field: string, value: string) {
  const input = form.locator(`#root_${field}`);
  await input.click();
  await input.fill(value);
  await input.press('Enter');
  await poll(() => input.inputValue()).toBe(value);
}

/** 张三 starts a leave of these dates from 发起事务; returns once it is listed in 已发事务. */
async function startLeave(from: string, to: string, reason: string) {
  await zhang.goto('/work/start');
  await rowButton(zhang, row(zhang, '请假流程'), '发起');
  await zhang.waitForURL(/\/work\/process\/leave\/form\//);
  const form = zhang.locator('[data-testid=flow-start-form]');
  await form.waitFor();
  // the model of the process is drawn beside the form (no path yet)
  await zhang.locator('[data-testid=flow-diagram-inline] .djs-element[data-element-id=approve]').waitFor();
  await pickTime(form, 'startTime', from);
  await pickTime(form, 'endTime', to);
  await form.locator('#root_reason').fill(reason);
  await form.locator('.ant-select', { has: zhang.locator('#root_taskUser') }).first().click();
  await zhang.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: '李四' }).first().click();
  await form.getByRole('button', { name: '提 交' }).or(form.getByRole('button', { name: '提交' })).first().click();
  await zhang.waitForURL(/\/work\/send/);
  await row(zhang, '请假流程').waitFor();
}

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
  admin = await signedIn('admin', 'admin');
  await makeStaff(admin);
  zhang = await signedIn('zhangsan', 'Staff-2026');
  li = await signedIn('lisi', 'Staff-2026');
});

afterAll(async () => {
  for (const s of sessions) expect(s.errors, 'uncaught errors in the page').toEqual([]);
  await browser?.close();
  await server?.stop();
});

describe('a 4-day leave', () => {
  it('the administrator deploys the leave model', async () => {
    await admin.goto('/flow/model');
    await rowButton(admin, row(admin, '请假流程'), '部署');
    await confirmOk(admin);
    await toast(admin, '部署成功');
    await admin.goto('/flow/manager');
    await poll(() => admin.locator('tbody tr.ant-table-row', { hasText: 'Leave' }).count()).toBe(2);
  });

  it('张三 starts it; 李四 claims and approves; the administrator claims and approves; both see it ended', async () => {
    await startLeave('2026-12-01 09:00:00', '2026-12-05 09:00:00', '回老家探亲');
    await poll(() => row(zhang, '请假流程').innerText()).toContain('审批');

    // 李四: 待签 → 签收 → 待办 → 办理
    await li.goto('/work/claim');
    const claim = row(li, '张三');
    await claim.waitFor();
    await rowButton(li, claim, '签收');
    await confirmOk(li);
    await toast(li, '签收成功');
    await poll(() => li.locator('tbody tr.ant-table-row', { hasText: '张三' }).count()).toBe(0);
    await li.goto('/work/todo');
    await rowButton(li, row(li, '张三'), '办理');
    await li.waitForURL(/\/work\/process\/leave\/handle\//);
    const record = li.locator('[data-testid=flow-record]');
    await poll(() => record.locator('#root_reason').inputValue()).toBe('回老家探亲');
    await expect(record.locator('#root_days').inputValue()).resolves.toBe('4');
    await expect(record.locator('#root_applyUserName').inputValue()).resolves.toBe('张三');
    // the path so far: the start and the flow into 审批 are done, 审批 is current
    await li.locator('[data-testid=flow-diagram-inline] .djs-element.flow-primary[data-element-id=approve]').waitFor();
    await li.locator('[data-testid=flow-comment]').fill('同意，注意安全');
    await li.getByRole('button', { name: '同 意' }).or(li.getByRole('button', { name: '同意' })).first().click();
    await li.waitForURL(/\/work\/todo/);
    await poll(() => li.locator('tbody tr.ant-table-row', { hasText: '张三' }).count()).toBe(0);
    await li.goto('/work/done');
    await poll(() => row(li, '张三').innerText()).toContain('同意');

    // more than 3 days: the administrators' 总经理审批
    await admin.goto('/work/claim');
    await rowButton(admin, row(admin, '张三'), '签收');
    await confirmOk(admin);
    await toast(admin, '签收成功');
    await admin.goto('/work/todo');
    await poll(() => row(admin, '张三').innerText()).toContain('总经理审批');
    await rowButton(admin, row(admin, '张三'), '办理');
    await admin.waitForURL(/\/work\/process\/leave\/handle\//);
    // the history shows 李四's approval and comment
    await poll(() => admin.locator('[data-testid=flow-history]').innerText()).toContain('同意，注意安全');
    await admin.getByRole('button', { name: '同 意' }).or(admin.getByRole('button', { name: '同意' })).first().click();
    await admin.waitForURL(/\/work\/todo/);

    // 张三: 已发 shows it ended; its detail and diagram show the whole path
    await zhang.goto('/work/send');
    await poll(() => row(zhang, '请假流程').innerText()).toContain('已结束');
    await rowButton(zhang, row(zhang, '请假流程'), '详情');
    await zhang.waitForURL(/\/work\/process\/leave\/detail\//);
    await poll(() => zhang.locator('[data-testid=flow-history]').innerText()).toContain('总经理审批');
    const diagram = zhang.locator('[data-testid=flow-diagram-inline]');
    for (const id of ['approve', 'bossApprove']) await diagram.locator(`.djs-element.flow-success[data-element-id=${id}]`).waitFor();
    // a connection's group has no box of its own: present, with the marker
    await diagram.locator('.djs-element.flow-warning[data-element-id=toBoss]').waitFor({ state: 'attached' });
    await expect(diagram.locator('.djs-element.flow-primary').count()).resolves.toBe(0);
    await shot(zhang, 'leave-detail');

    // the 流程图 dialog of a work list shows the same path
    await li.goto('/work/done');
    await rowButton(li, row(li, '张三'), '流程图');
    const dlg = li.locator('[data-testid=flow-diagram-dialog]');
    await dlg.locator('.djs-element.flow-success[data-element-id=bossApprove]').waitFor();
    await li.keyboard.press('Escape');

    // 流程跟踪: the instance's diagram; 流程管理: a definition's model (nothing marked)
    await admin.goto('/flow/follow');
    await rowButton(admin, row(admin, '张三'), '流程图');
    const followed = admin.locator('[data-testid=flow-diagram-dialog]');
    await followed.locator('.djs-element.flow-success[data-element-id=approve]').waitFor();
    await admin.keyboard.press('Escape');
    await followed.waitFor({ state: 'detached' });
    await admin.goto('/flow/manager');
    await rowButton(admin, row(admin, 'Leave'), '流程图');
    const model = admin.locator('[data-testid=flow-diagram-dialog]');
    await model.locator('.djs-element[data-element-id=bossApprove]').waitFor();
    await expect(model.locator('.djs-element.flow-success').count()).resolves.toBe(0);
    await admin.keyboard.press('Escape');
  });
});

describe('a rejected leave', () => {
  it('李四 rejects with a reason; the request returns to 张三 to adjust', async () => {
    await clearToasts(zhang);
    await startLeave('2026-12-20 09:00:00', '2026-12-21 18:00:00', '办理证件');
    await li.goto('/work/claim');
    await rowButton(li, row(li, '办理证件').or(row(li, '张三')).first(), '签收');
    await confirmOk(li);
    await li.goto('/work/todo');
    await rowButton(li, row(li, '张三'), '办理');
    await li.waitForURL(/\/work\/process\/leave\/handle\//);
    await poll(() => li.locator('[data-testid=flow-record] #root_reason').inputValue()).toBe('办理证件');
    // a rejection needs a reason
    await li.getByRole('button', { name: '驳 回' }).or(li.getByRole('button', { name: '驳回' })).first().click();
    await li.getByText('驳回时请填写审批意见').waitFor();
    await li.locator('[data-testid=flow-comment]').fill('月底项目上线，请改期');
    await li.getByRole('button', { name: '驳 回' }).or(li.getByRole('button', { name: '驳回' })).first().click();
    await li.waitForURL(/\/work\/todo/);
    // back to 张三: 调整申请 in his todo, the rejection and its reason in the history
    await zhang.goto('/work/todo');
    await poll(() => row(zhang, '请假流程').innerText()).toContain('调整申请');
    await rowButton(zhang, row(zhang, '请假流程'), '办理');
    await zhang.waitForURL(/\/work\/process\/leave\/handle\//);
    await poll(() => zhang.locator('[data-testid=flow-history]').innerText()).toContain('月底项目上线，请改期');
    // the outcome's label comes from the flow_outcome dictionary, which may arrive after the history itself
    await poll(() => zhang.locator('[data-testid=flow-history]').innerText()).toContain('驳回');
    await zhang.locator('[data-testid=flow-diagram-inline] .djs-element.flow-primary[data-element-id=adjust]').waitFor();
  });
});

describe('in English', () => {
  it('the work lists and the process form speak English, with no label clipped', async () => {
    await zhang.evaluate(() => localStorage.setItem('saber-language', JSON.stringify({ content: 'en', dataType: 'string', type: 'local', datetime: Date.now() })));
    for (const [route, header] of [['/work/start', 'Category'], ['/work/todo', 'Applicant'], ['/work/send', 'Current step'], ['/work/done', 'Outcome']] as const) {
      await zhang.goto(route);
      await zhang.locator('.runtime-list thead th').first().waitFor();
      const head = (await zhang.locator('.runtime-list thead').first().textContent()) ?? '';
      expect(head, route).toContain(header);
      expect(head, route).not.toMatch(/[\u4e00-\u9fff]/);
    }
    // the rejected request waits for 张三's adjustment: its form in English
    await zhang.goto('/work/todo');
    await rowButton(zhang, zhang.locator('tbody tr.ant-table-row').first(), 'Handle');
    await zhang.waitForURL(/\/work\/process\/leave\/handle\//);
    const record = zhang.locator('[data-testid=flow-record]');
    await poll(() => record.locator('#root_reason').inputValue()).toBe('办理证件');
    const labels = await record.locator('.ant-form-item-label > label').allTextContents();
    expect(labels).toEqual(expect.arrayContaining(['Applicant', 'Start time', 'End time', 'Days', 'Reason', 'Approver']));
    const clipped = await record.locator('.ant-form-item-label > label').evaluateAll((els) =>
      els.filter((el) => el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1).map((el) => el.textContent),
    );
    expect(clipped).toEqual([]);
    await zhang.getByRole('button', { name: 'Approve' }).waitFor();
    await zhang.getByRole('button', { name: 'Reject' }).waitFor();
    await expect(zhang.locator('[data-testid=flow-decision]').textContent()).resolves.not.toMatch(/[\u4e00-\u9fff]/);
    await shot(zhang, 'leave-handle-en');
    await zhang.evaluate(() => localStorage.removeItem('saber-language'));
  });
});

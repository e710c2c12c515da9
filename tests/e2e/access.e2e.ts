/**
 * Access control through the screens (issue 10), real server and built web app: the administrator creates a
 * department, a role granted only the merchant screen with view and add (the grant dialog's checkbox tree), and
 * a user in that department (chosen in the department tree beside the users); the user signs in, sees only
 * that screen, may add but finds no edit or delete, and the server refuses them too; in zh and in en. A data
 * rule "own department" on the merchant screen, granted to the role, leaves the clerk only its department's rows. With
 * TENANT_MODE on: the platform administrator creates a tenant in the tenants screen, whose administrator signs in
 * with the new tenant id and finds none of tenant 000000's records; once the tenant has expired, it cannot sign in.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { dialogOk, launchBrowser, login, newPage, sessionCall, startServer, type RunningServer } from './support.js';

let server: RunningServer;
let browser: Browser;
let page: Page;

const DEPT = '稽核部';
const ROLE = '商家专员';
const ACCOUNT = 'merchclerk';
const PASSWORD = 'clerk-pw-1';

async function toast(p: Page, text: string | RegExp) {
  await p.locator('.ant-message-notice', { hasText: text }).first().waitFor({ timeout: 15_000 });
}

const row = (p: Page, text: string) => p.locator('tbody tr.ant-table-row', { hasText: text }).first();
const openDropdown = (p: Page) => p.locator('.ant-select-dropdown:visible');
/** A node of the open tree-select dropdown, by its exact title. */
const treeNode = (p: Page, title: string) => openDropdown(p).locator('.ant-select-tree-treenode').filter({ has: p.locator('.ant-select-tree-title', { hasText: new RegExp(`^${title}$`) }) }).first();

/** The antd select drawn for a form field. */
const selectOf = (dlg: Locator, field: string) => dlg.locator('.ant-select', { has: dlg.page().locator(`#root_${field}`) }).first();

async function pickInTree(p: Page, select: Locator, titles: string[], expand: string[] = []) {
  await select.click();
  await openDropdown(p).waitFor();
  for (const e of expand) {
    const node = treeNode(p, e);
    await node.waitFor();
    if ((await node.locator('.ant-select-tree-switcher_close').count()) > 0) await node.locator('.ant-select-tree-switcher').click();
  }
  for (const t of titles) await treeNode(p, t).locator('.ant-select-tree-title').click();
  await p.keyboard.press('Escape');
}

const apiStatus = (p: Page, url: string) => sessionCall(p, 'POST', url);

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

describe('the administrator gives a clerk the merchant screen only', () => {
  it('creates a department', async () => {
    await page.goto('/system/dept');
    await row(page, '运营部').waitFor();
    await page.locator('.runtime-list').getByRole('button', { name: /新\s*增/ }).first().click();
    const dlg = page.locator('.ant-modal').last();
    await dlg.locator('#root_deptName').fill(DEPT);
    await dlg.locator('#root_fullName').fill(`${DEPT}（总部）`);
    await dlg.locator('#root_sort').fill('7');
    await pickInTree(page, selectOf(dlg, 'parentId'), ['食堂饭卡']);
    await dlg.locator('#root_deptCategory').click();
    await openDropdown(page).locator('.ant-select-item-option').first().click();
    await dialogOk(dlg);
    await toast(page, '新增成功');
    await row(page, DEPT).waitFor();
  });

  it('creates a role and grants it the merchant screen with view and add', async () => {
    await page.goto('/authority/role');
    await row(page, '超级管理员').waitFor();
    await page.locator('.runtime-list').getByRole('button', { name: /新\s*增/ }).first().click();
    const add = page.locator('.ant-modal').last();
    await add.locator('#root_roleName').fill(ROLE);
    await add.locator('#root_roleAlias').fill('merchant_clerk');
    await add.locator('#root_sort').fill('5');
    await dialogOk(add);
    await toast(page, '新增成功');
    await row(page, ROLE).locator('.ant-checkbox-input').check();
    await page.locator('.runtime-list button', { hasText: '权限设置' }).first().click();
    const grant = page.locator('.ant-modal').filter({ hasText: '权限设置' }).last();
    await grant.waitFor();
    // the role holds nothing yet: the dialog opens with empty trees, then the menu and two of its buttons
    await expect.poll(() => grant.locator('.ant-modal-footer .ant-btn-primary').isDisabled()).toBe(false);
    await pickInTree(page, grant.locator('.ant-select').first(), ['食堂管理', '商家管理', '新增', '查看'], ['食堂管理', '商家管理']);
    await expect.poll(() => grant.locator('.ant-select-selection-item').allInnerTexts()).toEqual(['食堂管理', '商家管理', '新增', '查看']);
    await dialogOk(grant);
    await toast(page, '权限已保存');
  });

  it('adds a user in that department from the department tree beside the users', async () => {
    await page.goto('/system/user');
    const tree = page.locator('[data-testid=aside-tree]');
    await tree.locator('.ant-tree-title', { hasText: DEPT }).click();
    // the department has nobody yet
    await page.locator('.runtime-list .ant-empty').waitFor();
    await expect.poll(() => page.url()).toContain('node=');
    await page.locator('.runtime-list').getByRole('button', { name: /新\s*增/ }).first().click();
    const dlg = page.locator('.ant-modal').last();
    // the chosen department is already filled in
    await expect.poll(() => selectOf(dlg, 'deptId').innerText()).toContain(DEPT);
    await dlg.locator('#root_account').fill(ACCOUNT);
    await dlg.locator('#root_password').fill(PASSWORD);
    await dlg.locator('#root_password2').fill(PASSWORD);
    await dlg.locator('#root_realName').fill('张稽核');
    await pickInTree(page, selectOf(dlg, 'roleId'), [ROLE]);
    await dialogOk(dlg);
    await toast(page, '新增成功');
    await row(page, ACCOUNT).waitFor();
    await expect(row(page, ACCOUNT).innerText()).resolves.toContain(ROLE);
    // the whole tree: the root department lists the users below it too
    await tree.locator('.ant-tree-title', { hasText: '食堂饭卡' }).first().click();
    await row(page, 'admin').waitFor();
    await row(page, ACCOUNT).waitFor();
  });
});

describe('the clerk', () => {
  for (const lang of ['zh', 'en'] as const) {
    it(`sees only the merchant screen, may add but not edit or delete, and the server agrees (${lang})`, async () => {
      const { context, page: p } = await newPage(browser, server.url);
      if (lang === 'en') {
        await p.goto('/login');
        await p.evaluate(() => localStorage.setItem('saber-language', JSON.stringify({ content: 'en', dataType: 'string', type: 'local', datetime: Date.now() })));
      }
      await login(p, ACCOUNT, PASSWORD);
      const merchants = lang === 'en' ? 'Merchants' : '商家管理';
      const side = p.locator('.ant-layout-sider .ant-menu');
      await side.getByText(lang === 'en' ? 'Canteen' : '食堂管理').first().click();
      await side.getByText(merchants).first().waitFor();
      await expect.poll(() => side.locator('.ant-menu-item').allInnerTexts()).toEqual(lang === 'en' ? ['Home', 'Merchants'] : ['首页', '商家管理']);
      await expect.poll(() => side.locator('.ant-menu-submenu-title').allInnerTexts()).toEqual([lang === 'en' ? 'Canteen' : '食堂管理']);
      // the top bar offers only the top menu that leads to it
      await expect.poll(() => p.locator('[data-testid=top-menu] .ant-menu-item').allInnerTexts()).toEqual(lang === 'en' ? ['Home', 'Canteen'] : ['首页', '食堂管理']);
      // the home figures are those of the screens held: the merchants, not the takings
      await expect.poll(() => p.locator('[data-testid=home-stats] .home-stat').count()).toBe(1);
      await p.locator('[data-testid=stat-merchants]').waitFor();
      await p.goto('/merchant/merchant');
      await p.locator('tbody tr.ant-table-row').first().waitFor();
      const add = lang === 'en' ? /Add/ : /新\s*增/;
      await expect.poll(() => p.locator('.runtime-list').getByRole('button', { name: add }).count()).toBe(1);
      const rowText = await p.locator('tbody tr.ant-table-row').first().innerText();
      expect(rowText).not.toMatch(lang === 'en' ? /Edit|Delete/ : /编\s*辑|删\s*除/);
      // another screen is not there, and its address says so
      await p.goto('/system/user');
      await p.locator('[data-testid=not-available], .ant-result').first().waitFor();
      // the server refuses what the buttons do not offer
      const id = await p.evaluate(async () => {
        const token = JSON.parse(localStorage.getItem('saber-token') ?? sessionStorage.getItem('saber-token') ?? '{}').content;
        const r = await fetch('/api/merchant/list?size=1', { headers: { 'Blade-Auth': `bearer ${token}`, Authorization: 'Basic c2FiZXI6c2FiZXJfc2VjcmV0' } });
        return (await r.json()).data.records[0].id as string;
      });
      expect(await apiStatus(p, `/api/merchant/remove?ids=${id}`)).toBe(403);
      expect(await apiStatus(p, '/api/blade-system/role/grant')).toBe(403);
      await context.close();
    });
  }
});

describe('data scope "own department"', () => {
  it('the administrator adds the rule on the merchant screen and grants it to the clerk\'s role', async () => {
    await page.goto('/authority/datascope');
    await page.locator('.runtime-list').waitFor();
    await page.locator('.runtime-list').getByRole('button', { name: /新\s*增/ }).first().click();
    const dlg = page.locator('.ant-modal').last();
    await pickInTree(page, selectOf(dlg, 'menuId'), ['商家管理'], ['食堂管理']);
    await dlg.locator('#root_scopeName').fill('本部门商家');
    await selectOf(dlg, 'scopeType').click();
    await openDropdown(page).locator('.ant-select-item-option', { hasText: /^所在机构可见$/ }).click();
    await dialogOk(dlg);
    await toast(page, '新增成功');
    await row(page, '本部门商家').waitFor();

    await page.goto('/authority/role');
    await row(page, ROLE).locator('.ant-checkbox-input').check();
    await page.locator('.runtime-list button', { hasText: '权限设置' }).first().click();
    const grant = page.locator('.ant-modal').filter({ hasText: '权限设置' }).last();
    // what the role holds is checked when the dialog opens
    await expect.poll(() => grant.locator('.ant-select').first().locator('.ant-select-selection-item').allInnerTexts()).toEqual(['食堂管理', '商家管理', '新增', '查看']);
    await pickInTree(page, grant.locator('.ant-select').nth(1), ['本部门商家'], ['商家管理']);
    await dialogOk(grant);
    await toast(page, '权限已保存');
  });

  it('the clerk then sees only the merchants of the department, the ones it adds included', async () => {
    const { context, page: p } = await newPage(browser, server.url);
    await login(p, ACCOUNT, PASSWORD);
    await p.goto('/merchant/merchant');
    // the demo merchants belong to other departments
    await p.locator('.runtime-list .ant-empty').waitFor();
    await p.locator('.runtime-list').getByRole('button', { name: /新\s*增/ }).click();
    const dialog = p.locator('.ant-modal').last();
    await dialog.locator('#root_merchantName').fill('稽核部食堂');
    await dialog.locator('#root_loginPhone').fill('13800138009');
    await dialog.locator('#root_loginPsw').fill('secret123');
    await dialog.locator('#root_payPsw').fill('123456');
    await dialog.locator('#root_feeRatio').fill('2.5');
    const range = dialog.locator('#root_contractDaterange');
    await range.click();
    await range.fill('2026-01-01');
    await range.press('Enter');
    await p.keyboard.type('2027-12-31');
    await p.keyboard.press('Enter');
    await dialogOk(dialog);
    await toast(p, '新增成功');
    await row(p, '稽核部食堂').waitFor();
    await expect.poll(() => p.locator('tbody tr.ant-table-row').count()).toBe(1);
    await context.close();
    // the administrator still sees every merchant, the clerk's among them
    await page.goto('/merchant/merchant');
    await row(page, '稽核部食堂').waitFor();
    await expect.poll(() => page.locator('tbody tr.ant-table-row').count()).toBeGreaterThan(1);
  });
});

describe('a guest registration waits for approval', () => {
  const GUEST = 'guestcook';
  const GUEST_PW = 'guest-pw-1';

  it('a guest asks for an account on the sign-in page; it cannot sign in yet', async () => {
    const { context, page: p } = await newPage(browser, server.url);
    await p.goto('/login');
    await p.locator('[data-testid=login-register]').click();
    const dlg = p.locator('.ant-modal', { has: p.locator('[data-testid=register-account]') });
    await dlg.locator('[data-testid=register-name]').fill('王厨师');
    await dlg.locator('[data-testid=register-account]').fill(GUEST);
    await dlg.locator('[data-testid=register-password]').fill(GUEST_PW);
    await dlg.locator('[data-testid=register-password2]').fill('something-else');
    // the dialog stays open on a warning, and until the guest has read that the request was sent
    await dlg.locator('.ant-modal-footer .ant-btn-primary').click();
    await toast(p, '两次密码输入不一致');
    await dlg.locator('[data-testid=register-password2]').fill(GUEST_PW);
    await dlg.locator('.ant-modal-footer .ant-btn-primary').click();
    const done = p.locator('.ant-modal-confirm', { hasText: '注册申请已提交，请耐心等待管理员审核' });
    await done.waitFor();
    await done.locator('.ant-btn-primary').click();
    await dlg.waitFor({ state: 'detached' });
    await p.locator('[data-testid=login-username]').fill(GUEST);
    await p.locator('[data-testid=login-password]').fill(GUEST_PW);
    await p.locator('[data-testid=login-submit]').click();
    await toast(p, '账号待审核,请等待管理员分配角色');
    expect(new URL(p.url()).pathname).toBe('/login');
    await context.close();
  });

  it('the administrator finds it pending on the users screen and grants it a role; then it signs in', async () => {
    await page.goto('/system/user');
    const pending = row(page, GUEST);
    await pending.waitFor();
    await expect(pending.innerText()).resolves.toContain('待审核');
    await pending.locator('.ant-checkbox-input').check();
    await page.locator('.runtime-list').getByRole('button', { name: '角色配置' }).click();
    const dlg = page.locator('.ant-modal', { has: page.locator('#root_roleIds') });
    await pickInTree(page, selectOf(dlg, 'roleIds'), [ROLE]);
    await dialogOk(dlg);
    await toast(page, '角色已分配');
    await expect.poll(() => row(page, GUEST).innerText()).toContain(ROLE);
    await expect(row(page, GUEST).innerText()).resolves.not.toContain('待审核');
    const { context, page: p } = await newPage(browser, server.url);
    await login(p, GUEST, GUEST_PW);
    await p.goto('/merchant/merchant');
    await p.locator('.runtime-list').waitFor();
    await context.close();
  });
});

describe('users import', () => {
  it('imports users from an .xlsx with roles and departments by name: a wrong row is reported and nothing kept; fixed, all go in', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'canteen-e2e-users-'));
    const file = async (name: string, rows: unknown[][]) => {
      const wb = new ExcelJS.Workbook();
      const ws = wb.addWorksheet('用户');
      ws.addRow(['登录账号', '用户姓名', '所属角色', '所属部门']);
      for (const r of rows) ws.addRow(r);
      await wb.xlsx.writeFile(path.join(dir, name));
      return path.join(dir, name);
    };
    await page.goto('/system/user');
    await page.locator('tbody tr.ant-table-row').first().waitFor();
    const open = async (xlsx: string) => {
      await page.locator('.runtime-list').getByRole('button', { name: /导\s*入/ }).click();
      const dlg = page.locator('.ant-modal', { has: page.locator('input[type=file]') });
      await dlg.locator('input[type=file]').setInputFiles(xlsx);
      await dlg.getByText(path.basename(xlsx)).waitFor();
      await dlg.locator('.ant-modal-footer .ant-btn-primary').click();
      return dlg;
    };
    const bad = await file('bad.xlsx', [['impcook1', '李厨', ROLE, DEPT], ['impcook2', '赵厨', '厨师长', DEPT]]);
    const dlg = await open(bad);
    await toast(page, '导入失败：1 行有错误，未导入任何数据');
    await expect.poll(() => dlg.locator('[data-testid=action-row-errors]').textContent()).toContain('第 3 行 · 所属角色：「厨师长」不是已有的所属角色');
    await dialogOk(dlg, 'cancel');
    await expect.poll(() => page.locator('tbody tr.ant-table-row', { hasText: 'impcook1' }).count()).toBe(0);
    const good = await file('good.xlsx', [['impcook1', '李厨', ROLE, DEPT], ['impcook2', '赵厨', ROLE, DEPT]]);
    await open(good);
    await toast(page, '导入成功');
    await row(page, 'impcook2').waitFor();
    await expect(row(page, 'impcook1').innerText()).resolves.toContain(DEPT);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});

describe('tenants (TENANT_MODE on)', () => {
  let tenantServer: RunningServer;
  let admin: Page;
  let tenantId = '';

  const signIn = async (p: Page, tenant: string, account: string, password: string) => {
    await p.goto('/login');
    await p.locator('[data-testid=login-tenant]').fill(tenant);
    await p.locator('[data-testid=login-username]').fill(account);
    await p.locator('[data-testid=login-password]').fill(password);
    await p.locator('[data-testid=login-submit]').click();
  };

  beforeAll(async () => {
    tenantServer = await startServer({ TENANT_MODE: 'true' });
    ({ page: admin } = await newPage(browser, tenantServer.url));
    await signIn(admin, '000000', 'admin', 'admin');
    await admin.locator('[data-testid=home-page]').waitFor({ timeout: 60_000 });
  });
  afterAll(async () => {
    await tenantServer?.stop();
  });

  it('the platform administrator creates a tenant; the tenant id is generated', async () => {
    await admin.goto('/system/tenant');
    await row(admin, '000000').waitFor();
    await admin.locator('.runtime-list').getByRole('button', { name: /新\s*增/ }).first().click();
    const dlg = admin.locator('.ant-modal').last();
    await dlg.locator('#root_tenantName').fill('二号食堂公司');
    await dlg.locator('#root_linkman').fill('李四');
    await dlg.locator('#root_contactNumber').fill('13900001111');
    await dialogOk(dlg);
    await toast(admin, '新增成功');
    await row(admin, '二号食堂公司').waitFor();
    tenantId = (await row(admin, '二号食堂公司').innerText()).match(/\b\d{6}\b/)?.[0] ?? '';
    expect(tenantId).toMatch(/^\d{6}$/);
    expect(tenantId).not.toBe('000000');
  });

  for (const lang of ['zh', 'en'] as const) {
    it(`its administrator signs in with the new tenant id and sees none of tenant 000000's data (${lang})`, async () => {
      const { context, page: p } = await newPage(browser, tenantServer.url);
      if (lang === 'en') {
        await p.goto('/login');
        await p.evaluate(() => localStorage.setItem('saber-language', JSON.stringify({ content: 'en', dataType: 'string', type: 'local', datetime: Date.now() })));
      }
      await signIn(p, tenantId, 'admin', '123456');
      await p.locator('[data-testid=home-page]').waitFor({ timeout: 60_000 });
      await p.goto('/merchant/merchant');
      await p.locator('.runtime-list .ant-empty').waitFor();
      await p.goto('/system/user');
      await p.locator('tbody tr.ant-table-row').first().waitFor();
      await expect.poll(() => p.locator('tbody tr.ant-table-row').count()).toBe(1);
      // the department tree beside the users is the tenant's own: one root, named after the tenant
      await expect.poll(() => p.locator('[data-testid=aside-tree] .ant-tree-title').allInnerTexts()).toEqual(['二号食堂公司']);
      // the platform's screens are not the tenant's
      await p.goto('/system/tenant');
      await p.locator('[data-testid=not-available], .ant-result').first().waitFor();
      await context.close();
    });
  }

  it('an expired tenant cannot sign in, and is told why', async () => {
    await admin.goto('/system/tenant');
    await row(admin, '二号食堂公司').getByText('编辑').click();
    const dlg = admin.locator('.ant-modal').last();
    const when = dlg.locator('.ant-form-item', { has: admin.locator('label', { hasText: '过期时间' }) }).locator('.ant-picker input').first();
    await when.click();
    await when.fill('2020-01-01 00:00:00');
    await when.press('Enter');
    await dialogOk(dlg);
    await toast(admin, '修改成功');
    const { context, page: p } = await newPage(browser, tenantServer.url);
    await signIn(p, tenantId, 'admin', '123456');
    await toast(p, '租户授权已过期,请联系管理员');
    expect(new URL(p.url()).pathname).toBe('/login');
    await context.close();
  });
});

/**
 * The shell in a real browser against our real server: login, guard rules, menu search, tabs, lock,
 * language, themes, colour, error log, 401 handling; screenshots at 1440 and 375 px.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { clearToasts, launchBrowser, login, newPage, shot, SHOTS, startServer, stored, type RunningServer } from './support.js';

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
  console.log(`[e2e] screenshots: ${SHOTS}`);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function loggedIn(width = 1440, height = 900): Promise<{ page: Page; errors: string[]; close: () => Promise<void> }> {
  const { context, page, errors } = await newPage(browser, server.url, width, height);
  await login(page);
  return { page, errors, close: () => context.close() };
}

const tabLabels = (page: Page) => page.locator('.tabs-bar .ant-tabs-tab .tab-label').allInnerTexts();

describe('login', () => {
  it('shows the server error as a toast on a wrong password and stores nothing', async () => {
    const { context, page } = await newPage(browser, server.url);
    await page.goto('/login');
    await page.waitForFunction(() => document.title === '登录 - 食堂饭卡管理系统');
    await page.locator('[data-testid=login-username]').fill('admin');
    await page.locator('[data-testid=login-password]').fill('wrong-password');
    await page.locator('[data-testid=login-submit]').click();
    await page.locator('.ant-message-error').waitFor();
    // the server's error_description, in the UI language (spec §3: 用户名或密码错误), never a raw key
    expect((await page.locator('.ant-message-error').innerText()).trim()).toBe('用户名或密码错误');
    expect(page.url()).toContain('/login');
    expect(await stored(page, 'token')).toBeUndefined();
    expect(await stored(page, 'userInfo')).toBeUndefined();
    await shot(page, 'login-1440');
    await context.close();
  });

  it('logs in with the right password (md5 on the wire) and lands on home', async () => {
    const { context, page } = await newPage(browser, server.url);
    let tokenCall = '';
    page.on('request', (r) => {
      if (r.url().includes('/api/blade-auth/oauth/token')) tokenCall = r.url() + ' ' + JSON.stringify(r.headers());
    });
    await login(page);
    expect(tokenCall).toContain('password=21232f297a57a5a743894a0e4a801fc3');
    expect(tokenCall).toContain('grant_type=password');
    expect(tokenCall).toContain('Basic c2FiZXI6c2FiZXJfc2VjcmV0');
    await page.waitForFunction(() => document.title === '首页 - 食堂饭卡管理系统');
    expect(typeof (await stored(page, 'token'))).toBe('string');
    const raw = await page.evaluate(() => JSON.parse(localStorage.getItem('saber-token')!));
    expect(Object.keys(raw).sort()).toEqual(['content', 'dataType', 'datetime', 'type']);
    await page.locator('[data-testid=stat-merchants] .ant-statistic-content').waitFor();
    await shot(page, 'home-1440');
    await context.close();
  });
});

describe('route guard', () => {
  it('sends a visitor without a token to /login, and a logged-in user away from /login', async () => {
    const { context, page } = await newPage(browser, server.url);
    await page.goto('/merchant/merchant');
    await page.waitForURL(/\/login\?redirect=/);
    await page.locator('[data-testid=login-username]').fill('admin');
    await page.locator('[data-testid=login-password]').fill('admin');
    await page.locator('[data-testid=login-submit]').click();
    await page.waitForURL('**/merchant/merchant');
    await page.goto('/login');
    await page.waitForURL('**/wel/index');
    await page.goto('/');
    await page.waitForURL('**/wel/index');
    await context.close();
  });

  it('sends unknown paths to /404 and public error pages render', async () => {
    const { page, close } = await loggedIn();
    await page.goto('/no/such/page');
    await page.waitForURL('**/404');
    await page.locator('[data-testid=page-404]').waitFor();
    for (const s of ['403', '500']) {
      await page.goto(`/${s}`);
      await page.locator(`[data-testid=page-${s}]`).waitFor();
    }
    await close();
  });

  it('an empty token in the store forces a local logout', async () => {
    const { page, close } = await loggedIn();
    await page.evaluate(() => {
      const raw = JSON.parse(localStorage.getItem('saber-token')!);
      raw.content = '';
      localStorage.setItem('saber-token', JSON.stringify(raw));
    });
    await page.goto('/wel/index');
    await page.waitForURL('**/login');
    expect(await stored(page, 'userInfo')).toBeUndefined();
    expect(await stored(page, 'refreshToken')).toBeUndefined();
    await close();
  });

  it('resolves the fixed shell routes and the leave-process routes', async () => {
    const { page, close } = await loggedIn();
    for (const p of ['/test/index', '/dict-horizontal/index', '/dict-vertical/index', '/work/process/leave/form/leave:1:1', '/work/process/leave/handle/1/2/3', '/work/process/leave/detail/2/3']) {
      await page.goto(p);
      await page.locator('[data-testid=placeholder-page], [data-testid=screen-page], .screen-page').first().waitFor();
      expect(page.url()).toContain(p.split(':')[0]);
    }
    await page.goto('/info/index');
    await page.locator('[data-testid=info-page]').waitFor();
    await page.goto('/myiframe/docs?url=' + encodeURIComponent('/404?a=1') + '&b=2');
    const src = await page.locator('[data-testid=page-iframe]').getAttribute('src');
    expect(src).toBe('/404?a=1&b=2');
    await close();
  });
});

describe('menu search', () => {
  it('overlay lists leaf entries starting with the text; Esc closes; pick navigates', async () => {
    const { page, close } = await loggedIn();
    await page.locator('[data-testid=tb-search]').click();
    await page.locator('[data-testid=search-overlay]').waitFor();
    await page.keyboard.press('Escape');
    await page.locator('[data-testid=search-overlay]').waitFor({ state: 'detached' });
    await page.locator('[data-testid=tb-search]').click();
    await page.locator('[data-testid=search-input]').fill('商家');
    const names = await page.locator('.search-result-name').allInnerTexts();
    expect(names.length).toBeGreaterThan(0);
    for (const n of names) expect(n.startsWith('商家')).toBe(true);
    await page.locator('.search-result', { hasText: '商家管理' }).first().click();
    await page.waitForURL('**/merchant/merchant');
    await page.locator('.screen-page').waitFor();
    // click outside closes
    await page.locator('[data-testid=tb-search]').click();
    await page.mouse.click(10, 890);
    await page.locator('[data-testid=search-overlay]').waitFor({ state: 'detached' });
    // the top-bar autocomplete works the same way
    await page.locator('[data-testid=tb-autocomplete] input, .tb-search input').first().fill('员工');
    await page.locator('.ant-select-item-option', { hasText: '员工管理' }).first().click();
    await page.waitForURL('**/employee/employee');
    await close();
  });
});

describe('tabs', () => {
  it('opens a tab per page; close others; close all returns home', async () => {
    const { page, close } = await loggedIn();
    for (const p of ['/merchant/merchant', '/employee/employee', '/order/order']) {
      await page.goto(p);
      await page.locator(`.tab-label[data-tab="${p}"]`).waitFor();
    }
    expect(await tabLabels(page)).toEqual(['首页', '商家管理', '员工管理', '订单管理']);
    // the home tab is not closable, the others are
    expect(await page.locator('.ant-tabs-tab').first().locator('.ant-tabs-tab-remove').count()).toBe(0);
    // close one with its x
    await page.locator('.ant-tabs-tab', { hasText: '员工管理' }).locator('.ant-tabs-tab-remove').click();
    expect(await tabLabels(page)).toEqual(['首页', '商家管理', '订单管理']);
    await page.locator('[data-testid=tabs-menu]').click();
    await page.locator('.ant-dropdown-menu-item', { hasText: '关闭其他' }).click();
    expect(await tabLabels(page)).toEqual(['首页', '订单管理']);
    await page.goto('/merchant/merchant');
    await page.locator('.tab-label[data-tab="/merchant/merchant"]').waitFor();
    // context menu on a tab
    await page.locator('.tab-label[data-tab="/merchant/merchant"]').click({ button: 'right' });
    await page.locator('.ant-dropdown:visible .ant-dropdown-menu-item', { hasText: '关闭全部' }).click();
    await page.waitForURL('**/wel/index');
    expect(await tabLabels(page)).toEqual(['首页']);
    // clear cache: confirm → server call → toast
    await page.locator('[data-testid=tabs-menu]').click();
    await page.locator('.ant-dropdown-menu-item', { hasText: '清除缓存' }).click();
    await page.locator('.ant-modal-confirm-btns .ant-btn-primary').click();
    await page.locator('.ant-message-success', { hasText: '清除完毕' }).waitFor();
    await close();
  });
});

describe('lock screen', () => {
  it('requires a password, locks every route after 100 ms, unlocks with the password', async () => {
    const { page, close } = await loggedIn();
    await page.locator('[data-testid=tb-lock]').click();
    await page.locator('[data-testid=lock-ok]').click();
    await page.getByText('锁屏密码不能为空').waitFor();
    await page.locator('[data-testid=lock-password]').fill('9527');
    await page.locator('[data-testid=lock-ok]').click();
    await page.waitForURL('**/lock');
    await page.locator('[data-testid=lock-page]').waitFor();
    await shot(page, 'lock-1440');
    // every route goes back to /lock
    await page.goto('/merchant/merchant');
    await page.waitForURL('**/lock');
    await page.locator('[data-testid=unlock-password]').fill('nope');
    await page.locator('[data-testid=unlock-submit]').click();
    await page.locator('.ant-message-error').waitFor();
    expect(page.url()).toContain('/lock');
    await page.locator('[data-testid=unlock-password]').fill('9527');
    await page.locator('[data-testid=unlock-submit]').click();
    await page.waitForURL('**/wel/index');
    expect(await stored(page, 'isLock')).toBeUndefined();
    await close();
  });
});

/** Visible text nodes in the page that contain CJK characters, except known data values. */
async function cjkTexts(page: Page, allow: string[]): Promise<string[]> {
  return page.evaluate((allowList) => {
    const out: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const text = (n.textContent ?? '').trim();
      if (!text || !/[\u4e00-\u9fff]/.test(text)) continue;
      const el = n.parentElement;
      if (!el || !el.offsetParent && getComputedStyle(el).position !== 'fixed') continue;
      if (allowList.some((a) => text.includes(a))) continue;
      out.push(text);
    }
    return out;
  }, allow);
}

describe('language', () => {
  it('switches a whole page (antd and dayjs too) and remembers it; no missing keys in either locale', async () => {
    const { page, close } = await loggedIn();
    const realName = String(((await stored(page, 'userInfo')) as { real_name?: string }).real_name ?? '');
    await page.goto('/merchant/merchant');
    await page.locator('.screen-page').waitFor();
    await page.locator('[data-testid=tb-lang]').hover();
    await page.locator('.ant-dropdown-menu-item', { hasText: 'English' }).click();
    await page.getByText('Merchants').first().waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');
    expect(await stored(page, 'language')).toBe('en');
    // merchant data (names, contacts) are records, not UI: allow the seeded values in the table body
    const dataTexts = await page.locator('.ant-table-tbody').allInnerTexts();
    const allow = [realName, '中文', ...dataTexts.join('\n').split(/\s+/).filter(Boolean)];
    await page.waitForTimeout(300);
    expect(await cjkTexts(page, allow)).toEqual([]);
    await page.goto('/wel/index');
    await page.locator('[data-testid=home-page]').waitFor();
    await page.waitForFunction(() => document.title === 'Home - Canteen Card Admin');
    expect(await cjkTexts(page, [realName, '中文'])).toEqual([]);
    // antd locale: pagination text in English
    await page.goto('/merchant/merchant');
    await page.locator('.ant-pagination').waitFor();
    expect(await page.locator('.ant-pagination-options').first().innerText()).toMatch(/page/i);
    let missing = await page.evaluate(() => [...((window as unknown as { __missingI18n: Set<string> }).__missingI18n ?? [])]);
    expect(missing).toEqual([]);
    // back to zh; missing keys in zh too
    await page.locator('[data-testid=tb-lang]').hover();
    await page.locator('.ant-dropdown-menu-item', { hasText: '中文' }).click();
    await page.getByText('商家管理').first().waitFor();
    await page.goto('/wel/index');
    await page.locator('[data-testid=home-page]').waitFor();
    missing = await page.evaluate(() => [...((window as unknown as { __missingI18n: Set<string> }).__missingI18n ?? [])]);
    expect(missing).toEqual([]);
    await close();
  });
});

describe('themes and colour', () => {
  it('applies each of the 11 themes visibly differently; dark is dark', async () => {
    const { page, close } = await loggedIn();
    const hashes = new Map<string, string>();
    const names = ['default', 'white', 'dark', 'star', 'bule', 'iview', 'vip', 'cool', 'd2', 'hey', 'lte'];
    for (const name of names) {
      await page.locator('[data-testid=tb-theme]').click();
      await page.locator(`[data-theme-name=${name}]`).click();
      await page.keyboard.press('Escape');
      await page.locator('.ant-modal-wrap').waitFor({ state: 'hidden' });
      await page.waitForTimeout(250);
      expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe(name);
      const file = await shot(page, `theme-${name}-1440`);
      hashes.set(name, createHash('sha1').update(fs.readFileSync(file)).digest('hex'));
    }
    expect(new Set(hashes.values()).size).toBe(11);
    expect(await stored(page, 'themeName')).toBe('lte');
    // dark: page, header and side menu backgrounds are dark
    await page.locator('[data-testid=tb-theme]').click();
    await page.locator('[data-theme-name=dark]').click();
    await page.keyboard.press('Escape');
    await page.goto('/merchant/merchant');
    await page.locator('.screen-page').waitFor();
    await page.waitForTimeout(300);
    const lum = await page.evaluate(() => {
      const l = (sel: string) => {
        const c = getComputedStyle(document.querySelector(sel)!).backgroundColor.match(/\d+(\.\d+)?/g)!.map(Number);
        return (0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2]) / 255;
      };
      return { content: l('.shell-main'), header: l('.shell-header'), sider: l('.shell-sider'), table: l('.ant-table') };
    });
    for (const [k, v] of Object.entries(lum)) expect(v, k).toBeLessThan(0.15);
    await shot(page, 'dark-merchants-1440');
    await page.setViewportSize({ width: 375, height: 812 });
    await page.waitForTimeout(300);
    await shot(page, 'dark-merchants-375');
    await close();
  });

  it('changes the primary colour (default #409EFF) and remembers it', async () => {
    const { page, close } = await loggedIn();
    const btnColor = () => page.evaluate(() => getComputedStyle(document.querySelector('.screen-page .ant-btn-primary')!).backgroundColor);
    await page.goto('/merchant/merchant');
    await page.locator('.screen-page .ant-btn-primary').first().waitFor();
    expect(await btnColor()).toBe('rgb(64, 158, 255)');
    await page.locator('[data-testid=tb-color] button').click();
    await page.locator('.ant-color-picker-presets-color').nth(2).click();
    // stored once the picker commits the choice (no fixed sleep: the machine may be busy)
    await page.waitForFunction(() => JSON.parse(localStorage.getItem('saber-colorName') ?? 'null')?.content === '#722ED1');
    expect(await stored(page, 'colorName')).toBe('#722ED1');
    // buttons animate their background: wait for the end colour
    await page.waitForFunction(() => getComputedStyle(document.querySelector('.screen-page .ant-btn-primary')!).backgroundColor === 'rgb(114, 46, 209)');
    await page.reload();
    await page.locator('.screen-page .ant-btn-primary').first().waitFor();
    await page.waitForFunction(() => getComputedStyle(document.querySelector('.screen-page .ant-btn-primary')!).backgroundColor === 'rgb(114, 46, 209)');
    expect(await btnColor()).toBe('rgb(114, 46, 209)');
    await close();
  });
});

describe('error log', () => {
  it('records uncaught errors, shows the badge, uploads and clears with confirms', async () => {
    const { page, close } = await loggedIn();
    await page.evaluate(() => setTimeout(() => { throw new Error('e2e boom'); }));
    await page.evaluate(() => {
      void Promise.reject(new Error('e2e rejected'));
    });
    await page.waitForFunction(() => document.querySelector('[data-testid=tb-log-badge] .ant-badge-count')?.getAttribute('title') === '2');
    await page.locator('[data-testid=tb-log]').click();
    await page.locator('[data-testid=log-table]').getByText('e2e boom', { exact: true }).waitFor();
    await page.locator('[data-testid=log-table]').getByText('e2e rejected', { exact: true }).waitFor();
    await clearToasts(page);
    await page.locator('[data-testid=log-upload]').click();
    await page.locator('.ant-modal-confirm-btns .ant-btn-primary').click();
    await page.locator('.ant-message-success', { hasText: '发送成功' }).waitFor();
    await page.locator('[data-testid=log-clear]').click();
    await page.locator('.ant-modal-confirm-btns .ant-btn-primary').click();
    await page.locator('.ant-message-success', { hasText: '清空成功' }).waitFor();
    await page.locator('[data-testid=tb-log-badge] .ant-badge-count').waitFor({ state: 'detached' });
    expect(await stored(page, 'logsList')).toBeUndefined();
    // the badge stops at 99+
    await page.evaluate(() => {
      for (let i = 0; i < 120; i++) setTimeout(() => { throw new Error('flood ' + i); });
    });
    await page.waitForFunction(() => document.querySelector('[data-testid=tb-log-badge] .ant-badge-count')?.getAttribute('title') === '120');
    await page.waitForFunction(() => document.querySelector('[data-testid=tb-log-badge] .ant-badge-count')?.textContent?.trim() === '99+');
    await close();
  });
});

describe('401 handling', () => {
  it('a rejected token logs out locally and goes to /login', async () => {
    const { page, close } = await loggedIn();
    await page.evaluate(() => {
      const raw = JSON.parse(localStorage.getItem('saber-token')!);
      raw.content = 'forged.token.value';
      localStorage.setItem('saber-token', JSON.stringify(raw));
    });
    await page.goto('/merchant/merchant');
    await page.waitForURL('**/login**');
    expect(await stored(page, 'token')).toBeUndefined();
    expect(await stored(page, 'menu')).toBeUndefined();
    expect(await stored(page, 'tagList')).toBeUndefined();
    await close();
  });
});

describe('user menu and responsive layout', () => {
  it('logs out with a confirm', async () => {
    const { page, close } = await loggedIn();
    await page.locator('[data-testid=tb-user]').click();
    expect(await page.locator('.ant-dropdown-menu-item', { hasText: '切换部门' }).count()).toBe(0);
    await page.locator('.ant-dropdown-menu-item', { hasText: '退出系统' }).click();
    await page.locator('.ant-modal-confirm-btns .ant-btn-primary').click();
    // the guard may add ?redirect=<the page left> (it and the logout race to the login page; both are fine)
    await page.waitForURL(/\/login(\?|$)/);
    expect(await stored(page, 'token')).toBeUndefined();
    await close();
  });

  it('is usable at 375 px: the side menu is a drawer', async () => {
    const { context, page } = await newPage(browser, server.url, 375, 812);
    await page.goto('/login');
    await page.locator('[data-testid=login-page]').waitFor();
    await shot(page, 'login-375');
    await login(page);
    await page.locator('[data-testid=stat-merchants] .ant-statistic-content').waitFor();
    expect(await page.locator('[data-testid=sider]').count()).toBe(0);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await shot(page, 'home-375');
    await page.locator('[data-testid=tb-collapse]').click();
    await page.locator('.side-drawer .side-menu').waitFor();
    await page.locator('.side-drawer .ant-menu-submenu-title', { hasText: '食堂管理' }).click();
    await page.locator('.side-drawer .ant-menu-item', { hasText: '商家管理' }).click();
    await page.waitForURL('**/merchant/merchant');
    await page.locator('.screen-page').waitFor();
    await page.waitForTimeout(800);
    await shot(page, 'merchants-375');
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.waitForTimeout(500);
    await shot(page, 'merchants-1440');
    await page.locator('[data-testid=tb-lock]').click();
    await page.locator('[data-testid=lock-password]').fill('1');
    await page.locator('[data-testid=lock-ok]').click();
    await page.waitForURL('**/lock');
    await page.setViewportSize({ width: 375, height: 812 });
    await page.waitForTimeout(300);
    await shot(page, 'lock-375');
    await context.close();
  });
});

describe('top menu, notice popover, personal info', () => {
  it('top menu switches the side menu to the server routes of that top menu; home brings the whole tree back', async () => {
    const { page, close } = await loggedIn();
    const topLevel = () => page.locator('.shell-sider .side-menu > li.ant-menu-item, .shell-sider .side-menu > li.ant-menu-submenu').count();
    const items = await page.locator('.top-menu .ant-menu-item').allInnerTexts();
    expect(items[0]).toBe('首页');
    expect(items.length).toBeGreaterThan(1);
    const routes = page.waitForResponse((r) => r.url().includes('/api/blade-system/menu/routes?topMenuId='));
    await page.locator('.top-menu .ant-menu-item').nth(1).click();
    const body = await (await routes).json();
    // the side menu shows exactly the server's tree for that top menu (plus the fixed home entry)
    await page.waitForFunction((n) => document.querySelectorAll('.shell-sider .side-menu > li.ant-menu-item, .shell-sider .side-menu > li.ant-menu-submenu').length === n, body.data.length + 1);
    expect(await stored(page, 'topMenuId')).toBeTruthy();
    const back = page.waitForResponse((r) => /\/api\/blade-system\/menu\/routes$/.test(r.url()));
    await page.locator('.top-menu .ant-menu-item').first().click();
    const all = await (await back).json();
    await page.waitForFunction((n) => document.querySelectorAll('.shell-sider .side-menu > li.ant-menu-item, .shell-sider .side-menu > li.ant-menu-submenu').length === n, all.data.length + 1);
    expect(await topLevel()).toBe(all.data.length + 1);
    await close();
  });

  it('notice popover: three tabs, width 350, scroll height 300, paging', async () => {
    const { page, close } = await loggedIn();
    await page.locator('[data-testid=tb-notice]').click();
    const pop = page.locator('[data-testid=notice-popover]');
    await pop.waitFor();
    expect(await pop.locator('.ant-tabs-tab').allInnerTexts()).toEqual(['邮件', '消息', '通知']);
    // layout sizes (offsetWidth/Height are not affected by the opening zoom animation)
    expect(await pop.evaluate((el) => (el as HTMLElement).offsetWidth)).toBe(350);
    expect(await pop.locator('.notice-scroll:visible').evaluate((el) => (el as HTMLElement).offsetHeight)).toBe(300);
    const first = await pop.locator('.notice-scroll:visible .ant-list-item').first().innerText();
    await pop.locator('.ant-pagination-next:visible').click();
    expect(await pop.locator('.notice-scroll:visible .ant-list-item').first().innerText()).not.toBe(first);
    await close();
  });

  it('personal info: phone rules on blur, avatar jpg/png ≤ 500 kb, password change checked by the server', async () => {
    const { page, close } = await loggedIn();
    await page.locator('[data-testid=tb-user]').click();
    const info = page.waitForResponse((r) => r.url().includes('/api/blade-system/user/info'));
    await page.locator('.ant-dropdown-menu-item', { hasText: '个人信息' }).click();
    await page.waitForURL('**/info/index');
    await info;
    await page.waitForTimeout(200);
    const phone = page.locator('[data-testid=info-phone]');
    await phone.fill('1');
    await phone.fill('');
    await phone.blur();
    await page.getByText('手机号码不能为空').waitFor();
    await phone.fill('1380013');
    await phone.blur();
    await page.getByText('手机号码长度不为11位').waitFor();
    await phone.fill('12345678901');
    await phone.blur();
    await page.getByText('手机号码格式不正确').waitFor();
    await phone.fill('13900139000');
    // a 1x1 png
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
    await page.locator('.avatar-field input[type=file]').setInputFiles({ name: 'a.png', mimeType: 'image/png', buffer: png });
    await page.waitForFunction(() => !!document.querySelector('.avatar-field img'));
    await page.locator('.avatar-field input[type=file]').setInputFiles({ name: 'big.png', mimeType: 'image/png', buffer: Buffer.alloc(600 * 1024, 1) });
    await page.locator('.ant-message-error', { hasText: '500kb' }).waitFor();
    await clearToasts(page);
    await page.locator('[data-testid=info-submit]').click();
    await page.locator('.ant-message-success').waitFor();
    await page.reload();
    await page.waitForFunction(() => (document.querySelector('[data-testid=info-phone]') as HTMLInputElement | null)?.value === '13900139000');
    // password: wrong old password → server error toast
    await page.locator('.ant-tabs-tab', { hasText: '修改密码' }).click();
    await page.locator('[data-testid=pw-old]').fill('not-admin');
    await page.locator('[data-testid=pw-new]').fill('admin123');
    await page.locator('[data-testid=pw-new1]').fill('admin123');
    await clearToasts(page);
    await page.locator('[data-testid=pw-submit]').click();
    await page.locator('.ant-message-error', { hasText: '原密码不正确' }).waitFor();
    await close();
  });
});

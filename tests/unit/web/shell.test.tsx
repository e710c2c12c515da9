// @vitest-environment happy-dom
import fs from 'node:fs';
import path from 'node:path';
import { isValidElement, type ReactElement } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import ShopOutlinedSvg from '@ant-design/icons-svg/es/asn/ShopOutlined';
import SettingOutlinedSvg from '@ant-design/icons-svg/es/asn/SettingOutlined';
import { MENU_ICONS, menuIcon } from '../../../src/web/layout/menuIcons.js';
import { IconByName } from '../../../src/runtime/react/icons.js';
import { findByRoute, routeOf } from '../../../src/web/lib/menu.js';
import type { MenuNode } from '../../../src/web/auth/session.js';

const ROOT = path.resolve(import.meta.dirname, '../../..');

describe('side-menu icons', () => {
  it('renders the antd icon the server names in `source` (its drawing loaded on first use), the fallback otherwise', async () => {
    const shop = menuIcon('ShopOutlined', 'generic') as ReactElement<{ name: string }>;
    expect(isValidElement(shop) && shop.type).toBe(IconByName);
    expect(shop.props.name).toBe('ShopOutlined');
    expect((menuIcon(' SettingOutlined ') as ReactElement<{ name: string }>).props.name).toBe('SettingOutlined');
    // the loader of a name gives antd's own drawing of that icon
    expect((await MENU_ICONS.ShopOutlined()).default).toBe(ShopOutlinedSvg);
    expect((await MENU_ICONS.SettingOutlined()).default).toBe(SettingOutlinedSvg);
    // unknown antd names, iconfont class names, prototype keys and nothing at all → the fallback
    for (const s of ['NoSuchOutlined', 'iconfont iconicon_shop', 'constructor', 'toString', '', undefined]) expect(menuIcon(s, 'generic')).toBe('generic');
    expect(menuIcon('NoSuchOutlined')).toBeNull();
  });

  it('knows every icon the seeded menus use', () => {
    const seed = ['schemas/data/menus.json', 'src/server/seed/index.ts'].map((f) => fs.readFileSync(path.join(ROOT, f), 'utf8')).join('\n');
    const used = [...new Set([...seed.matchAll(/['"]([A-Z][A-Za-z]+Outlined)['"]/g)].map((m) => m[1]))];
    expect(used.length).toBeGreaterThan(10);
    expect(used.filter((n) => !(n in MENU_ICONS))).toEqual([]);
  });
});

describe('external menu links', () => {
  const tree: MenuNode[] = [
    { id: '1', name: '资料', nameEn: 'Docs', path: '/docs', children: [
      { id: '2', name: '接口文档', nameEn: 'API docs', path: 'https://example.com/doc?x=1', code: 'api doc' },
      { id: '3', name: '报表', nameEn: 'Report', path: '/report/x.html', code: 'report' },
    ] },
  ];
  it('finds the menu entry behind an iframe route (for the tab label and the title), encoded or not', () => {
    expect(routeOf(tree[0].children![0]).split('?')[0]).toBe('/myiframe/api%20doc');
    expect(findByRoute(tree, '/myiframe/api%20doc')?.id).toBe('2');
    expect(findByRoute(tree, '/myiframe/api doc')?.id).toBe('2');
    expect(findByRoute(tree, '/myiframe/report')?.id).toBe('3');
    expect(findByRoute(tree, '/myiframe/other')).toBeUndefined();
    expect(findByRoute(tree, '/docs')).toBeUndefined();
    expect(findByRoute(null, '/myiframe/report')).toBeUndefined();
  });
});

describe('lock storage', () => {
  beforeEach(() => {
    localStorage.clear();
    sessionStorage.clear();
    vi.resetModules();
  });

  it('keeps the lock flag and password in sessionStorage only; a reload of the tab is still locked', async () => {
    const { setLock, session } = await import('../../../src/web/auth/session.js');
    setLock('9527');
    expect(session.get()).toMatchObject({ isLock: true, lockPasswd: '9527' });
    expect(localStorage.getItem('saber-isLock')).toBeNull();
    expect(localStorage.getItem('saber-lockPasswd')).toBeNull();
    expect(JSON.parse(sessionStorage.getItem('saber-isLock')!)).toMatchObject({ content: true, type: true });
    expect(JSON.parse(sessionStorage.getItem('saber-lockPasswd')!)).toMatchObject({ content: '9527', type: true });
    // "reload": a fresh module reads the stored state
    vi.resetModules();
    const again = await import('../../../src/web/auth/session.js');
    expect(again.session.get()).toMatchObject({ isLock: true, lockPasswd: '9527' });
  });

  it('unlock and logout clear it', async () => {
    const { setLock, clearLock, clearSession, session } = await import('../../../src/web/auth/session.js');
    setLock('1');
    clearLock();
    expect(sessionStorage.getItem('saber-isLock')).toBeNull();
    expect(session.get().isLock).toBe(false);
    setLock('2');
    clearSession();
    expect(sessionStorage.getItem('saber-lockPasswd')).toBeNull();
    expect(session.get()).toMatchObject({ isLock: false, lockPasswd: '' });
  });
});

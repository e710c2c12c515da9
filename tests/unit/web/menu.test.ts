// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { filterMenu, isExternal, leaves, opensNewWindow, routeOf, searchLeaves } from '../../../src/web/lib/menu.js';
import { iframeSrc } from '../../../src/web/pages/IframePage.js';
import type { MenuNode } from '../../../src/web/auth/session.js';

const tree: MenuNode[] = [
  { id: '1', name: '食堂管理', nameEn: 'Canteen', path: '/canteen', code: 'canteen', children: [
    { id: '2', name: '商家管理', nameEn: 'Merchants', path: '/merchant/merchant', code: 'merchant' },
    { id: '3', name: '商家结算', nameEn: 'Settlements', path: '/settlement/settlement', code: 'settlement', meta: { roles: ['finance'] } },
    { id: '4', name: '员工管理', nameEn: 'Employees', path: '/employee/employee', code: 'employee' },
  ] },
  { id: '5', name: '接口文档', nameEn: 'API docs', path: 'https://example.com/doc?x=1', code: 'doc', isOpen: 2 },
];

describe('menu helpers', () => {
  it('search lists leaves whose name starts with the text, in either language', () => {
    expect(searchLeaves(tree, '商家', 'zh').map((n) => n.id)).toEqual(['2', '3']);
    expect(searchLeaves(tree, 'emp', 'en').map((n) => n.id)).toEqual(['4']);
    expect(searchLeaves(tree, '管理', 'zh')).toEqual([]);
    expect(searchLeaves(tree, ' ', 'zh')).toEqual([]);
  });
  it('hides items whose meta roles miss the user roles', () => {
    expect(leaves(filterMenu(tree, ['administrator'])).map((n) => n.id)).toEqual(['2', '4', '5']);
    expect(leaves(filterMenu(tree, ['finance'])).map((n) => n.id)).toEqual(['2', '3', '4', '5']);
  });
  it('external links go to the iframe route; isOpen 2 + absolute link opens a window', () => {
    expect(isExternal('https://a.b')).toBe(true);
    expect(isExternal('/report/x.html')).toBe(true);
    expect(isExternal('/merchant/merchant')).toBe(false);
    expect(routeOf(tree[1])).toBe('/myiframe/doc?url=' + encodeURIComponent('https://example.com/doc?x=1'));
    expect(opensNewWindow(tree[1])).toBe(true);
    expect(opensNewWindow({ ...tree[1], isOpen: 1 })).toBe(false);
  });
  it('iframe URL: query url plus the other parameters, # restored to &, ${token} substituted', () => {
    expect(iframeSrc('?url=' + encodeURIComponent('https://r.x/d?a=1#b=2&blade-auth=bearer ${token}') + '&c=3', 'T')).toBe('https://r.x/d?a=1&b=2&blade-auth=bearer T&c=3');
    expect(iframeSrc('?url=javascript:alert(1)', 'T')).toBe('');
    expect(iframeSrc('', 'T')).toBe('');
  });
});

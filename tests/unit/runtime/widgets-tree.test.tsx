// @vitest-environment happy-dom
/**
 * The lazy treeSelect and icon widgets inside a real dialog: an x-joined "1,2" value is shown with the titles
 * the tree endpoint gives (params from the form), and the icon picker writes the icon's name.
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { SWRConfig } from 'swr';
import { ConfigProvider } from 'antd';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import zh from '../../../locales/zh.json';
import type { ScreenDocument } from '../../../src/shared/document.js';
import { ListScreen, RuntimeProvider, type RequestFn } from '../../../src/runtime/index.js';

beforeAll(async () => {
  await i18next.use(initReactI18next).init({ lng: 'zh', resources: { zh: { translation: zh } }, interpolation: { escapeValue: false } });
  i18next.addResourceBundle('zh', 'translation', { menuT: { title: '菜单', field: { name: '名称', roleId: '角色', source: '图标', tenantId: '租户' } } }, true, false);
});
afterEach(() => {
  cleanup();
  window.history.replaceState(null, '', '/');
});

const doc = {
  id: 'menuT',
  schemaVersion: 1,
  title: 'menuT.title',
  route: '/t/menu',
  resource: { api: '/api/t-menu', table: 't_menu', permissionPrefix: 't_menu' },
  schema: {
    type: 'object',
    properties: {
      name: { type: 'string', title: 'menuT.field.name' },
      tenantId: { type: 'string', title: 'menuT.field.tenantId' },
      roleId: { type: 'string', title: 'menuT.field.roleId', 'x-joined': true },
      source: { type: 'string', title: 'menuT.field.source' },
    },
  },
  uiSchema: {
    roleId: { 'ui:widget': 'treeSelect', 'ui:options': { multiple: true, tree: { endpoint: '/api/t-role/tree', paramsFrom: { tenantId: 'tenantId' } } } },
    source: { 'ui:widget': 'icon' },
  },
  list: { columns: [{ field: 'name' }], builtins: ['add', 'view'] },
} as unknown as ScreenDocument;

interface Call {
  url: string;
  params?: Record<string, unknown>;
  data?: unknown;
}

function mount(request: RequestFn) {
  return render(
    <ConfigProvider theme={{ token: { motion: false } }}>
      <SWRConfig value={{ provider: () => new Map(), dedupingInterval: 0 }}>
        <RuntimeProvider env={{ request, permissions: { t_menu_add: true, t_menu_view: true } }}>
          <ListScreen doc={doc} />
        </RuntimeProvider>
      </SWRConfig>
    </ConfigProvider>,
  );
}

function server() {
  const calls: Call[] = [];
  const request = (async (_m: string, url: string, opts?: { params?: Record<string, unknown>; data?: unknown }) => {
    calls.push({ url, params: opts?.params, data: opts?.data });
    if (url === '/api/t-menu/list') return { records: [{ id: '9', name: '系统管理' }], total: 1 };
    if (url === '/api/t-menu/detail') return { id: '9', name: '系统管理', tenantId: '000000', roleId: '1,2', source: 'ShopOutlined' };
    if (url === '/api/t-role/tree') return [{ id: '1', value: '1', title: '管理员', children: [{ id: '2', value: '2', title: '用户' }] }];
    return null;
  }) as RequestFn;
  return { calls, request };
}

describe('treeSelect and icon widgets', () => {
  it('a joined value shows the titles of its nodes; the tree is asked with params from the form', async () => {
    const { calls, request } = server();
    mount(request);
    await screen.findByText('系统管理');
    fireEvent.click(screen.getByRole('button', { name: /查\s*看/ }));
    const dialog = await screen.findByRole('dialog', {}, { timeout: 10_000 });
    await waitFor(() => expect((dialog.querySelector('#root_roleId') as HTMLInputElement | null)?.value).toBe('管理员, 用户'), { timeout: 10_000 });
    expect(calls.find((c) => c.url === '/api/t-role/tree')!.params).toEqual({ tenantId: '000000' });
    await waitFor(() => expect((dialog.querySelector('#root_source') as HTMLInputElement | null)?.value).toBe('ShopOutlined'), { timeout: 10_000 });
  }, 60_000);

  it('the icon picker writes the chosen icon’s name; no tree request before its paramsFrom field has a value', async () => {
    const { calls, request } = server();
    mount(request);
    await screen.findByText('系统管理');
    fireEvent.click(screen.getByRole('button', { name: /新\s*增/ }));
    const dialog = await screen.findByRole('dialog', {}, { timeout: 10_000 });
    const icon = await waitFor(() => dialog.querySelector('#root_source') as HTMLInputElement, { timeout: 10_000 });
    fireEvent.change(dialog.querySelector('#root_name')!, { target: { value: '订单' } });
    await act(async () => {
      fireEvent.click(icon);
    });
    const picker = await screen.findByTestId('icon-picker', {}, { timeout: 10_000 });
    fireEvent.change(within(picker).getByPlaceholderText('搜索图标'), { target: { value: 'shopping' } });
    fireEvent.click(within(picker).getByRole('button', { name: 'ShoppingCartOutlined' }));
    await waitFor(() => expect(icon.value).toBe('ShoppingCartOutlined'));
    expect(calls.some((c) => c.url === '/api/t-role/tree')).toBe(false);
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: /确\s*定/ }));
    });
    await waitFor(() => expect(calls.some((c) => c.url === '/api/t-menu/submit')).toBe(true));
    expect(calls.find((c) => c.url === '/api/t-menu/submit')!.data).toEqual({ name: '订单', source: 'ShoppingCartOutlined' });
  }, 60_000);
});

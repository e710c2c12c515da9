// @vitest-environment happy-dom
/**
 * The list controller in a real ListScreen (URL query restore and write, page clamp after the last row of the
 * last page goes), the tree view (whole tree, lazy children on expand, add-child with the parent filled) and
 * the master-detail view (detail listed and added with the link), against a fake `request`.
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { SWRConfig } from 'swr';
import { ConfigProvider } from 'antd';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import zh from '../../../locales/zh.json';
import noteJson from '../../fixtures/schemas/test/note.json';
import type { AnyDocument, ScreenDocument } from '../../../src/shared/document.js';
import { DocumentView, ListScreen, RuntimeProvider, type QueryStore, type RequestFn } from '../../../src/runtime/index.js';

const note = noteJson as unknown as ScreenDocument;

beforeAll(async () => {
  await i18next.use(initReactI18next).init({ lng: 'zh', resources: { zh: { translation: zh } }, interpolation: { escapeValue: false } });
  i18next.addResourceBundle('zh', 'translation', { testNote: { title: '测试便签', field: { noteTitle: '标题', content: '内容', priority: '优先级' } } }, true, false);
  i18next.addResourceBundle('zh', 'translation', { dept: { title: '部门', field: { deptName: '部门名称', parentId: '上级部门', sort: '排序' } } }, true, false);
});
afterEach(() => cleanup());

interface Call {
  method: string;
  url: string;
  params?: Record<string, unknown>;
  data?: unknown;
}

function memoryQuery(start = ''): QueryStore & { value: string } {
  const q = {
    value: start,
    get: () => q.value,
    replace: (v: string) => {
      q.value = v;
    },
  };
  return q;
}

function mount(node: React.ReactNode, request: RequestFn, permissions: Record<string, boolean>, query: QueryStore) {
  return render(
    <ConfigProvider theme={{ token: { motion: false } }}>
      <SWRConfig value={{ provider: () => new Map(), dedupingInterval: 0 }}>
        <RuntimeProvider env={{ request, permissions, query }}>{node}</RuntimeProvider>
      </SWRConfig>
    </ConfigProvider>,
  );
}

const NOTE_ALL = { test_note_add: true, test_note_view: true, test_note_delete: true, test_note_edit: true };

describe('list controller', () => {
  it('restores page, size, sort and search from the URL, writes changes back, and the search form shows them', async () => {
    const calls: Call[] = [];
    const request = (async (method: string, url: string, opts?: { params?: Record<string, unknown> }) => {
      calls.push({ method, url, params: opts?.params });
      return { records: [{ id: '1', noteTitle: '买菜', priority: 2 }], total: 80, size: 30, current: 2 };
    }) as RequestFn;
    const query = memoryQuery('?page=2&size=30&sort=priority&s.noteTitle=%E4%B9%B0&tab=x');
    mount(<ListScreen doc={note} />, request, NOTE_ALL, query);
    await screen.findByText('买菜');
    expect(calls[0].params).toEqual({ current: 2, size: 30, ascs: 'priority', noteTitle: '买' });
    expect((screen.getByPlaceholderText('请输入标题') as HTMLInputElement).value).toBe('买');
    // next page: the address follows, other keys kept
    fireEvent.click(screen.getByTitle('3'));
    await waitFor(() => expect(calls.at(-1)!.params).toMatchObject({ current: 3, size: 30 }));
    const q = new URLSearchParams(query.value);
    expect(q.get('page')).toBe('3');
    expect(q.get('tab')).toBe('x');
    expect(q.get('s.noteTitle')).toBe('买');
    // a new search starts at page 1, which the address leaves out
    fireEvent.change(screen.getByPlaceholderText('请输入标题'), { target: { value: '卖' } });
    fireEvent.click(screen.getByRole('button', { name: /搜\s*索/ }));
    await waitFor(() => expect(calls.at(-1)!.params).toMatchObject({ current: 1, noteTitle: '卖' }));
    expect(new URLSearchParams(query.value).get('page')).toBeNull();
  }, 60_000);

  it('after deleting the last row of the last page it shows the page before', async () => {
    const calls: Call[] = [];
    let rows = 21;
    const request = (async (method: string, url: string, opts?: { params?: Record<string, unknown> }) => {
      calls.push({ method, url, params: opts?.params });
      if (url.endsWith('/remove')) {
        rows -= 1;
        return null;
      }
      const current = Number(opts?.params?.current);
      const from = (current - 1) * 10;
      const records = Array.from({ length: Math.max(0, Math.min(10, rows - from)) }, (_, i) => ({ id: String(from + i + 1), noteTitle: `便签${from + i + 1}` }));
      return { records, total: rows, size: 10, current };
    }) as RequestFn;
    const query = memoryQuery('?page=3');
    mount(<ListScreen doc={note} />, request, NOTE_ALL, query);
    await screen.findByText('便签21');
    fireEvent.click(within(screen.getByText('便签21').closest('tr')!).getByRole('button', { name: /删\s*除/ }));
    await screen.findByText('确定将选择数据删除?', undefined, { timeout: 15_000 }); // (the confirm's code loads with the first one)
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: /确\s*定/ }));
    });
    await screen.findByText('便签20');
    const lists = calls.filter((c) => c.url.endsWith('/list'));
    expect(lists.map((c) => c.params!.current)).toEqual([3, 3, 2]);
    expect(query.value).toBe('?page=2');
  }, 60_000);
});

const deptDoc = (view: Record<string, unknown>) =>
  ({
    id: 'dept',
    schemaVersion: 1,
    title: 'dept.title',
    route: '/system/dept',
    view,
    resource: { api: '/api/blade-system/dept', table: 'blade_dept', permissionPrefix: 'dept', tree: { parentField: 'parentId', labelField: 'deptName' } },
    schema: {
      type: 'object',
      required: ['deptName'],
      properties: {
        deptName: { type: 'string', title: 'dept.field.deptName', maxLength: 45 },
        parentId: { type: 'string', title: 'dept.field.parentId', 'x-lookup': { screen: 'dept', label: 'deptName' } },
      },
    },
    uiSchema: { parentId: { 'ui:modes': { add: 'hidden', edit: 'hidden' } } },
    list: {
      columns: [{ field: 'deptName', width: 200 }, { field: 'parentId', width: 160 }],
      search: [{ field: 'deptName', op: 'contains' }],
      builtins: ['add', 'edit', 'view', 'delete'],
    },
  }) as unknown as ScreenDocument;

const DEPT_ALL = { dept_add: true, dept_edit: true, dept_view: true, dept_delete: true };

describe('tree view', () => {
  it('draws the whole tree with expandable rows, lookup labels, and add-child with the parent filled', async () => {
    const calls: Call[] = [];
    const tree = [
      { id: '1', deptName: '总部', parentId: '0', children: [{ id: '2', deptName: '财务部', parentId: '1', parentIdName: '总部', children: [] }] },
      { id: '3', deptName: '分部', parentId: '0', children: [] },
    ];
    const request = (async (method: string, url: string, opts?: { params?: Record<string, unknown>; data?: unknown }) => {
      calls.push({ method, url, params: opts?.params, data: opts?.data });
      if (url === '/api/blade-system/dept/list') return tree;
      return null;
    }) as RequestFn;
    mount(<DocumentView doc={deptDoc({ type: 'tree', addChild: true })} />, request, DEPT_ALL, memoryQuery());
    await screen.findByText('总部', {}, { timeout: 10_000 });
    expect(calls.find((c) => c.url.endsWith('/list'))!.params).toEqual({});
    expect(screen.queryByText('财务部')).toBeNull();
    const toggles = screen.getAllByRole('button', { name: '展开' });
    expect(toggles).toHaveLength(1); // only 总部 has children
    fireEvent.click(toggles[0]);
    await screen.findByText('财务部');
    expect(screen.getAllByText('总部')).toHaveLength(2); // the child's parent label (lookup cell)
    // add a child under 分部: the dialog starts with the parent, sent even though the field is hidden
    fireEvent.click(within(screen.getByText('分部').closest('tr')!).getByRole('button', { name: '新增子项' }));
    const dialog = await screen.findByRole('dialog', {}, { timeout: 10_000 });
    const name = await waitFor(() => dialog.querySelector('#root_deptName') as HTMLInputElement, { timeout: 10_000 });
    fireEvent.change(name, { target: { value: '分部财务' } });
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: /确\s*定/ }));
    });
    await waitFor(() => expect(calls.some((c) => c.url.endsWith('/submit'))).toBe(true));
    expect(calls.find((c) => c.url.endsWith('/submit'))!.data).toEqual({ parentId: '3', deptName: '分部财务' });
    // the expand state survives the refresh after saving
    await waitFor(() => expect(calls.filter((c) => c.url.endsWith('/list')).length).toBeGreaterThan(1));
    expect(screen.getByText('财务部')).toBeTruthy();
  }, 60_000);

  it('a lazy tree loads the roots from lazy-list and a node’s children when it is expanded', async () => {
    const calls: Call[] = [];
    const request = (async (method: string, url: string, opts?: { params?: Record<string, unknown> }) => {
      calls.push({ method, url, params: opts?.params });
      if (url === '/api/blade-system/dept/lazy-list' && opts?.params?.parentId === '0') return [{ id: '1', deptName: '总部', hasChildren: true }];
      if (url === '/api/blade-system/dept/lazy-list' && opts?.params?.parentId === '1') return [{ id: '2', deptName: '财务部', hasChildren: false }];
      if (url === '/api/blade-system/dept/list') return [{ id: '2', deptName: '财务部', children: [] }];
      return null;
    }) as RequestFn;
    mount(<DocumentView doc={deptDoc({ type: 'tree', lazy: true })} />, request, DEPT_ALL, memoryQuery());
    await screen.findByText('总部', {}, { timeout: 10_000 });
    expect(calls.filter((c) => c.url.endsWith('/lazy-list')).map((c) => c.params)).toEqual([{ parentId: '0' }]);
    fireEvent.click(screen.getByRole('button', { name: '展开' }));
    await screen.findByText('财务部');
    expect(calls.filter((c) => c.url.endsWith('/lazy-list')).map((c) => c.params)).toEqual([{ parentId: '0' }, { parentId: '1' }]);
    // a search lists the matches (the whole-tree list with the search), not the roots
    fireEvent.change(screen.getByPlaceholderText('请输入部门名称'), { target: { value: '财务' } });
    fireEvent.click(screen.getByRole('button', { name: /搜\s*索/ }));
    await waitFor(() => expect(calls.some((c) => c.url === '/api/blade-system/dept/list')).toBe(true));
    expect(calls.find((c) => c.url === '/api/blade-system/dept/list')!.params).toEqual({ deptName: '财务' });
    await waitFor(() => expect(screen.queryByText('总部')).toBeNull());
    expect(screen.getByText('财务部')).toBeTruthy();
  }, 60_000);
});

describe('master-detail view', () => {
  it('lists the detail of the chosen master with the link, and adds detail records with it filled', async () => {
    const calls: Call[] = [];
    const dict = {
      ...deptDoc({ type: 'tree' }),
      id: 'dictTest',
      resource: { api: '/api/blade-system/dict', table: 'blade_dict', permissionPrefix: 'dict', tree: { parentField: 'parentId', labelField: 'deptName' } },
    } as ScreenDocument;
    const layout: AnyDocument = {
      id: 'dictLayout',
      schemaVersion: 1,
      title: 'dept.title',
      route: '/dict-horizontal/index',
      permission: 'dict',
      view: { type: 'master-detail', master: 'dictTest', detail: 'dictTest', link: 'parentId', layout: 'horizontal', masterList: 'parent-list', detailList: 'child-list', dialogWidth: 880 },
    };
    const request = (async (method: string, url: string, opts?: { params?: Record<string, unknown>; data?: unknown }) => {
      calls.push({ method, url, params: opts?.params, data: opts?.data });
      if (url === '/api/blade-system/screen/detail') return dict;
      if (url === '/api/blade-system/dict/parent-list') return { records: [{ id: '10', deptName: '性别' }], total: 1 };
      if (url === '/api/blade-system/dict/child-list') return { records: [{ id: '11', deptName: '男', parentId: '10' }], total: 1 };
      return null;
    }) as RequestFn;
    const query = memoryQuery();
    mount(<DocumentView doc={layout} />, request, { dict_add: true, dict_view: true }, query);
    await screen.findByText('性别', {}, { timeout: 10_000 });
    expect(calls.find((c) => c.url.endsWith('/parent-list'))!.params).toMatchObject({ current: 1, size: 10 });
    expect(calls.some((c) => c.url.endsWith('/child-list'))).toBe(false);
    await screen.findByText('请在左侧选择一条记录');
    fireEvent.click(screen.getByText('性别'));
    await screen.findByText('男');
    expect(calls.find((c) => c.url.endsWith('/child-list'))!.params).toMatchObject({ parentId: '10', current: 1 });
    expect(new URLSearchParams(query.value).get('sel')).toBe('10');
    const detail = screen.getByTestId('md-detail');
    fireEvent.click(within(detail).getByRole('button', { name: /新\s*增$/ }));
    const dialog = await screen.findByRole('dialog', {}, { timeout: 10_000 });
    expect((dialog.closest('.ant-modal') as HTMLElement).style.width).toBe('880px');
    const name = await waitFor(() => dialog.querySelector('#root_deptName') as HTMLInputElement, { timeout: 10_000 });
    fireEvent.change(name, { target: { value: '女' } });
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: /确\s*定/ }));
    });
    await waitFor(() => expect(calls.some((c) => c.url.endsWith('/submit'))).toBe(true));
    expect(calls.find((c) => c.url.endsWith('/submit'))!.data).toEqual({ parentId: '10', deptName: '女' });
  }, 60_000);
});

describe('records named by another key (resource.keyField)', () => {
  it('view asks detail with that key, delete removes by it', async () => {
    const calls: Call[] = [];
    const region = {
      ...deptDoc({ type: 'list' }),
      id: 'regionT',
      resource: { api: '/api/t-region', table: 't_region', permissionPrefix: 't_region', keyField: 'code' },
    } as ScreenDocument;
    const request = (async (method: string, url: string, opts?: { params?: Record<string, unknown> }) => {
      calls.push({ method, url, params: opts?.params });
      if (url === '/api/t-region/list') return { records: [{ id: '7', code: '110101', deptName: '东城区' }], total: 1 };
      if (url === '/api/t-region/detail') return { id: '7', code: '110101', deptName: '东城区' };
      return null;
    }) as RequestFn;
    mount(<DocumentView doc={region} />, request, { t_region_view: true, t_region_delete: true }, memoryQuery());
    await screen.findByText('东城区', {}, { timeout: 10_000 });
    fireEvent.click(screen.getByRole('button', { name: /查\s*看/ }));
    await waitFor(() => expect(calls.some((c) => c.url === '/api/t-region/detail')).toBe(true), { timeout: 10_000 });
    expect(calls.find((c) => c.url === '/api/t-region/detail')!.params).toEqual({ code: '110101' });
    fireEvent.click(within(screen.getByText('东城区').closest('tr')!).getByRole('button', { name: /删\s*除/ }));
    await screen.findByText('确定将选择数据删除?');
    await act(async () => {
      fireEvent.click(screen.getAllByRole('button', { name: /确\s*定/ }).at(-1)!);
    });
    await waitFor(() => expect(calls.some((c) => c.url === '/api/t-region/remove')).toBe(true));
    expect(calls.find((c) => c.url === '/api/t-region/remove')!.params).toEqual({ ids: '110101' });
  }, 60_000);
});

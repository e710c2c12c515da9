// @vitest-environment happy-dom
/**
 * Renderer unit test: the merchant ListScreen against a fake `request` (no server): the list call and
 * its params, one dictionary batch, labels, permissions, the nothing-selected warning, the lazy dialog
 * with the document's messages on submit, a row action with confirm, search params.
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { SWRConfig } from 'swr';
import { ConfigProvider } from 'antd';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import zh from '../../../locales/zh.json';
import merchantJson from '../../../schemas/business/merchant.json';
import noteJson from '../../fixtures/schemas/test/note.json';
import type { ScreenDocument } from '../../../src/shared/document.js';
import { ListScreen, RuntimeProvider, ScreenPage, type RequestFn } from '../../../src/runtime/index.js';

const merchant = merchantJson as unknown as ScreenDocument;

beforeAll(async () => {
  await i18next.use(initReactI18next).init({ lng: 'zh', resources: { zh: { translation: zh } }, interpolation: { escapeValue: false } });
});
afterEach(() => {
  cleanup();
  // The list keeps its state in the address: each test starts from a clean one.
  window.history.replaceState(null, '', '/');
});

interface Call {
  method: string;
  url: string;
  params?: Record<string, unknown>;
  data?: unknown;
}

function fakeServer(page: Record<string, unknown> = { total: 42, size: 10, current: 1, pages: 5 }) {
  const calls: Call[] = [];
  const records = [
    { id: '1', merchantNo: 'SH20260101000001', merchantName: '老王食堂', status: 1, enableFlag: 1, bind: 1, feeRatio: 1.5, createTime: '2026-01-01 08:00:00' },
    { id: '2', merchantNo: 'SH20260101000002', merchantName: '小李面馆', status: 2, enableFlag: 3, bind: 2, feeRatio: 2, createTime: '2026-01-02 08:00:00' },
  ];
  const request = (async (method: string, url: string, opts?: { params?: Record<string, unknown>; data?: unknown }) => {
    calls.push({ method, url, params: opts?.params, data: opts?.data });
    if (url === '/api/blade-system/dict/batch') {
      return {
        merchant_status: [
          { dictKey: '1', dictValue: '营业中', dictValueEn: 'Open' },
          { dictKey: '2', dictValue: '暂停营业', dictValueEn: 'Suspended' },
        ],
        merchant_enable_flag: [
          { dictKey: '1', dictValue: '立即上架' },
          { dictKey: '3', dictValue: '定时上架' },
        ],
        yes_no: [
          { dictKey: '1', dictValue: '否' },
          { dictKey: '2', dictValue: '是' },
        ],
      };
    }
    if (url === '/api/merchant/list') return { records, ...page };
    return null;
  }) as RequestFn;
  return { calls, request };
}

const ALL = Object.fromEntries(
  ['merchant_add', 'merchant_edit', 'merchant_delete', 'merchant_view', 'merchant_export', 'merchant_reset_login_psw', 'merchant_clear_pay_psw', 'merchant_unbind'].map((c) => [c, true]),
);

function mount(request: RequestFn, permissions: Record<string, boolean> = ALL) {
  return render(
    <ConfigProvider theme={{ token: { motion: false } }}>
      <SWRConfig value={{ provider: () => new Map(), dedupingInterval: 0 }}>
        <RuntimeProvider env={{ request, permissions }}>
          <ListScreen doc={merchant} />
        </RuntimeProvider>
      </SWRConfig>
    </ConfigProvider>,
  );
}

describe('ListScreen (merchant, fake request)', () => {
  it('loads the page with paging and default sort, one dictionary batch, labels and row actions', async () => {
    const { calls, request } = fakeServer();
    mount(request);
    await screen.findByText('老王食堂');
    const list = calls.filter((c) => c.url === '/api/merchant/list');
    expect(list[0].params).toEqual({ current: 1, size: 10, descs: 'create_time' });
    const dict = calls.filter((c) => c.url === '/api/blade-system/dict/batch');
    expect(dict).toHaveLength(1);
    expect(dict[0].params).toEqual({ codes: 'merchant_enable_flag,merchant_status,yes_no' });
    await screen.findByText('暂停营业');
    expect(screen.getAllByText('营业中').length).toBeGreaterThan(0);
    expect(screen.getAllByText('序号').length).toBeGreaterThan(0);
    expect(screen.getAllByText('商家名称').length).toBeGreaterThan(0);
    expect(screen.queryByText('联系电话')).toBeNull(); // hidden column
    expect(screen.getByText('1.5%')).toBeTruthy();
    expect(screen.getByText('共 42 条')).toBeTruthy();
    // three buttons inline, the rest folded into "more" on every row
    expect(screen.getAllByText('查看')).toHaveLength(2);
    expect(screen.getAllByText('更多')).toHaveLength(2);
    expect(screen.queryByText('重置登录密码')).toBeNull();
    // unbind only on the bound row (小李面馆)
    fireEvent.click(within(screen.getByText('老王食堂').closest('tr')!).getByText('更多'));
    await screen.findByText('重置登录密码');
    expect(screen.queryByText('解绑微信')).toBeNull();
    fireEvent.click(within(screen.getByText('小李面馆').closest('tr')!).getByText('更多'));
    await screen.findByText('解绑微信');
    expect(screen.getByText('新增')).toBeTruthy();
    expect(screen.getByText('导出')).toBeTruthy();
  });

  it('writes an estimated total as "about" (约 N 条, thousands separated), an exact one as 共 N 条', async () => {
    const { request } = fakeServer({ total: 954711, size: 10, current: 1, pages: 95472, totalEstimated: true });
    mount(request);
    await screen.findByText('约 954,711 条');
    expect(screen.queryByText(/共 .* 条/)).toBeNull();
  });

  it('delete with nothing selected warns; after selecting, confirms and calls remove with ids', async () => {
    const { calls, request } = fakeServer();
    mount(request);
    await screen.findByText('老王食堂');
    const toolbarDelete = screen.getAllByRole('button', { name: /删\s*除/ })[0];
    fireEvent.click(toolbarDelete);
    // toasts and confirms load their code with the first one (issue 13): a busy machine takes more than a second
    await screen.findByText('请选择至少一条数据', undefined, { timeout: 15_000 });
    const row = screen.getByText('小李面馆').closest('tr')!;
    fireEvent.click(row.querySelector('input[type="checkbox"]')!);
    fireEvent.click(toolbarDelete);
    await screen.findByText('确定将选择数据删除?', undefined, { timeout: 15_000 });
    fireEvent.click(screen.getByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(calls.some((c) => c.url === '/api/merchant/remove')).toBe(true));
    expect(calls.find((c) => c.url === '/api/merchant/remove')!.params).toEqual({ ids: '2' });
    await screen.findByText('删除成功');
  });

  it('a row action confirms, calls its endpoint with the id and shows its success text', async () => {
    const { calls, request } = fakeServer();
    mount(request);
    await screen.findByText('老王食堂');
    fireEvent.click(within(screen.getByText('小李面馆').closest('tr')!).getByText('更多'));
    fireEvent.click(await screen.findByText('解绑微信'));
    await screen.findByText('确定解除该商家的微信绑定吗？', undefined, { timeout: 15_000 });
    fireEvent.click(screen.getByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(calls.some((c) => c.url === '/api/merchant/unbind')).toBe(true));
    expect(calls.find((c) => c.url === '/api/merchant/unbind')).toMatchObject({ method: 'GET', params: { id: '2' } });
    await screen.findByText('操作成功');
  });

  it('search sends the wire params and starts again at page 1', async () => {
    const { calls, request } = fakeServer();
    mount(request);
    await screen.findByText('老王食堂');
    const input = screen.getByPlaceholderText('请输入商家名称');
    fireEvent.change(input, { target: { value: '老王' } });
    fireEvent.click(screen.getByRole('button', { name: /搜\s*索/ }));
    await waitFor(() => expect(calls.filter((c) => c.url === '/api/merchant/list').some((c) => c.params?.merchantName === '老王')).toBe(true));
    expect(calls.filter((c) => c.url === '/api/merchant/list').at(-1)!.params).toEqual({ merchantName: '老王', current: 1, size: 10, descs: 'create_time' });
  });

  it('a page change reads once: the read it starts at once (before the list redraws) is the one the list takes', async () => {
    const { calls, request } = fakeServer();
    mount(request);
    await screen.findByText('老王食堂');
    const lists = () => calls.filter((c) => c.url === '/api/merchant/list');
    const before = lists().length;
    fireEvent.click(screen.getByTitle('2'));
    expect(lists().length).toBe(before + 1); // started by the click itself
    await waitFor(() => expect(screen.getByTitle('2').className).toContain('ant-pagination-item-active'));
    await act(async () => new Promise((r) => setTimeout(r, 50)));
    expect(lists().slice(before).map((c) => c.params?.current)).toEqual([2]);
  });

  it('add opens the lazy dialog; submitting empty shows the document messages and sends nothing', async () => {
    const { calls, request } = fakeServer();
    mount(request);
    await screen.findByText('老王食堂');
    fireEvent.click(screen.getByRole('button', { name: /新\s*增/ }));
    const dialog = await screen.findByRole('dialog', {}, { timeout: 10_000 });
    await within(dialog).findByText('登录密码', {}, { timeout: 10_000 });
    expect(within(dialog).queryByText('商家编号')).toBeNull();
    // on blur only the field the user left shows its message
    await act(async () => {
      fireEvent.focus(dialog.querySelector('#root_loginPhone')!);
      fireEvent.blur(dialog.querySelector('#root_loginPhone')!);
    });
    await within(dialog).findByText('请输入登录手机号');
    expect(within(dialog).queryByText('请输入商家名称')).toBeNull();
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: /确\s*定/ }));
    });
    await within(dialog).findByText('请输入商家名称');
    expect(within(dialog).getByText('请输入登录手机号')).toBeTruthy();
    expect(within(dialog).getByText('请输入合同有效期')).toBeTruthy();
    expect(calls.some((c) => c.url === '/api/merchant/submit')).toBe(false);
  }, 30_000);

  it('edit loads the detail first and submits the editable fields with the id', async () => {
    const { calls, request: base } = fakeServer();
    const detail = {
      id: '1', merchantNo: 'SH20260101000001', merchantName: '老王食堂', loginPhone: '13800138000', feeRatio: '1.50', status: 1, enableFlag: 1,
      contractDaterange: ['2026-01-01', '2026-12-31'], bind: 1, licenseNo: null,
    };
    const request = (async (method: string, url: string, opts?: { params?: Record<string, unknown>; data?: unknown }) => {
      if (url === '/api/merchant/detail') {
        calls.push({ method, url, params: opts?.params });
        return detail;
      }
      return base(method as 'GET', url, opts);
    }) as RequestFn;
    mount(request);
    await screen.findByText('老王食堂');
    const row = screen.getByText('老王食堂').closest('tr')!;
    fireEvent.click(within(row).getByRole('button', { name: /编\s*辑/ }));
    const dialog = await screen.findByRole('dialog', {}, { timeout: 10_000 });
    await waitFor(() => expect((dialog.querySelector('#root_merchantName') as HTMLInputElement | null)?.value).toBe('老王食堂'), { timeout: 10_000 });
    expect(calls.find((c) => c.url === '/api/merchant/detail')!.params).toEqual({ id: '1' });
    expect((dialog.querySelector('#root_merchantNo') as HTMLInputElement).readOnly).toBe(true);
    expect(dialog.querySelector('#root_loginPsw')).toBeNull();
    fireEvent.change(dialog.querySelector('#root_merchantName')!, { target: { value: '老王新食堂' } });
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: /确\s*定/ }));
    });
    await waitFor(() => expect(calls.some((c) => c.url === '/api/merchant/submit')).toBe(true));
    const body = calls.find((c) => c.url === '/api/merchant/submit')!.data as Record<string, unknown>;
    expect(body).toMatchObject({ id: '1', merchantName: '老王新食堂', loginPhone: '13800138000', feeRatio: 1.5, status: 1, enableFlag: 1, licenseNo: null });
    expect(body).not.toHaveProperty('merchantNo');
    expect(body).not.toHaveProperty('bind');
    await screen.findByText('修改成功');
  }, 30_000);

  it('ScreenPage loads a new document (test-only fixture) and renders it with no screen code', async () => {
    const calls: Call[] = [];
    const request = (async (method: string, url: string, opts?: { params?: Record<string, unknown> }) => {
      calls.push({ method, url, params: opts?.params });
      if (url === '/api/blade-system/screen/detail') return noteJson;
      if (url === '/api/test-note/list') return { records: [{ id: '5', noteTitle: '买菜', priority: 2, createTime: '2026-03-01 09:00:00' }], total: 1, size: 10, current: 1, pages: 1 };
      return null;
    }) as RequestFn;
    i18next.addResourceBundle('zh', 'translation', { testNote: { title: '测试便签', field: { noteTitle: '标题', content: '内容', priority: '优先级' } } }, true, false);
    render(
      <ConfigProvider theme={{ token: { motion: false } }}>
        <SWRConfig value={{ provider: () => new Map(), dedupingInterval: 0 }}>
          <RuntimeProvider env={{ request, permissions: { test_note_add: true, test_note_view: true, test_note_export: true } }}>
            <ScreenPage screenId="testNote" />
          </RuntimeProvider>
        </SWRConfig>
      </ConfigProvider>,
    );
    await screen.findByText('买菜');
    expect(calls[0]).toMatchObject({ url: '/api/blade-system/screen/detail', params: { id: 'testNote' } });
    expect(calls.find((c) => c.url === '/api/test-note/list')!.params).toEqual({ current: 1, size: 10, descs: 'create_time' });
    expect(calls.some((c) => c.url.includes('/dict/batch'))).toBe(false); // no dictionaries, no request
    expect(screen.getAllByText('优先级').length).toBeGreaterThan(0);
    expect(screen.getByRole('button', { name: /新\s*增/ })).toBeTruthy();
    expect(screen.queryByRole('button', { name: /导\s*出/ })).toBeNull(); // not among the screen's built-ins
    expect(screen.getAllByRole('button', { name: /查\s*看/ })).toHaveLength(1);
  });
});

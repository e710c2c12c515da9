// @vitest-environment happy-dom
/**
 * The search bar (src/runtime/react/SearchBar.tsx) on LightField: labels point at their controls, Enter and the
 * search button search with trimmed values, a required search shows its message and does not search until it is
 * filled, and reset goes back to the document's defaults.
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { ConfigProvider } from 'antd';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import zh from '../../../locales/zh.json';
import { RuntimeProvider, type RequestFn } from '../../../src/runtime/index.js';
import { SearchBar } from '../../../src/runtime/react/SearchBar.js';
import type { SearchModel } from '../../../src/runtime/model/index.js';

beforeAll(async () => {
  await i18next.use(initReactI18next).init({
    lng: 'zh',
    resources: { zh: { translation: { ...zh, t: { name: '名称', status: '状态', nameRequired: '请输入名称' } } } },
    interpolation: { escapeValue: false },
  });
});
afterEach(cleanup);

const request: RequestFn = async () => ({ code: 200, success: true, data: null, msg: '' }) as never;

function mount(model: SearchModel, defaults: Record<string, unknown> = {}, values?: Record<string, unknown>) {
  const searches: Array<Record<string, unknown>> = [];
  render(
    <ConfigProvider theme={{ token: { motion: false } }}>
      <RuntimeProvider env={{ request, permissions: {} }}>
        <SearchBar model={model} dicts={{}} defaults={defaults} values={values} onSearch={(v) => searches.push(v)} />
      </RuntimeProvider>
    </ConfigProvider>,
  );
  return searches;
}

const text = (field: string, required?: string) => ({ field, op: 'contains' as const, widget: 'text' as const, labelKey: `t.${field}`, numeric: false, required });

describe('SearchBar', () => {
  it('labels its controls and searches with trimmed values on the button and on Enter', async () => {
    const searches = mount({ fields: [text('name')] });
    const input = screen.getByLabelText('名称');
    fireEvent.change(input, { target: { value: '  老王 ' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: /搜\s*索/ })));
    expect(searches).toEqual([{ name: '老王' }]);
    await act(async () => fireEvent.submit(input.closest('form')!));
    expect(searches.at(-1)).toEqual({ name: '老王' });
  });

  it('shows the restored search, and reset goes back to the defaults', async () => {
    const searches = mount({ fields: [text('name')] }, { name: '默认' }, { name: '已恢复' });
    const input = screen.getByLabelText('名称') as HTMLInputElement;
    expect(input.value).toBe('已恢复');
    await act(async () => fireEvent.click(screen.getByRole('button', { name: /清\s*空/ })));
    expect(input.value).toBe('默认');
    expect(searches).toEqual([{ name: '默认' }]);
  });

  it('a required search shows its message, marks the control and does not search until filled', async () => {
    const searches = mount({ fields: [text('name', 't.nameRequired')] });
    expect(screen.queryByText('请输入名称')).toBeNull();
    await act(async () => fireEvent.click(screen.getByRole('button', { name: /搜\s*索/ })));
    expect(searches).toEqual([]);
    const message = screen.getByRole('alert');
    expect(message.textContent).toBe('请输入名称');
    const input = screen.getByLabelText(/名称/);
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(input.getAttribute('aria-describedby')).toBe(message.id);
    fireEvent.change(input, { target: { value: 'x' } });
    expect(screen.queryByText('请输入名称')).toBeNull();
    await act(async () => fireEvent.click(screen.getByRole('button', { name: /搜\s*索/ })));
    expect(searches).toEqual([{ name: 'x' }]);
  });
});

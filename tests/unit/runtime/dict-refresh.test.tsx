// @vitest-environment happy-dom
/**
 * A dictionary change is live on every screen at once (issue 9): after a successful write to a dictionary
 * endpoint through the runtime's request, every cached dictionary batch is fetched again — the mounted ones at
 * once, the others when they mount — while other writes and failed ones leave the cache alone.
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { SWRConfig } from 'swr';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { useState } from 'react';
import { RuntimeProvider, useDictionaries, useRuntime, type RequestFn } from '../../../src/runtime/index.js';

beforeAll(async () => {
  await i18next.use(initReactI18next).init({ lng: 'zh', resources: { zh: { translation: {} } } });
});
afterEach(() => cleanup());

function server() {
  let label = '营业中';
  const batches: string[] = [];
  const request = (async (method: string, url: string, opts?: { params?: Record<string, unknown> }) => {
    if (url === '/api/blade-system/dict/batch') {
      batches.push(String(opts?.params?.codes));
      return { merchant_status: [{ dictKey: '1', dictValue: label }] };
    }
    if (url.endsWith('/fail')) throw new Error('refused');
    return { ok: true };
  }) as RequestFn;
  return { request, batches, rename: (v: string) => (label = v) };
}

function Labels({ codes, id }: { codes: string[]; id: string }) {
  const { dicts } = useDictionaries(codes);
  return <span data-testid={id}>{JSON.stringify(dicts)}</span>;
}

function Screen() {
  const { request } = useRuntime();
  const [second, setSecond] = useState(false);
  return (
    <div>
      <Labels codes={['merchant_status']} id="a" />
      {second && <Labels codes={['merchant_status', 'yes_no']} id="b" />}
      <button onClick={() => void request('POST', '/api/blade-system/dict-biz/submit', { data: {} })}>dict</button>
      <button onClick={() => void request('POST', '/api/merchant/submit', { data: {} })}>merchant</button>
      <button onClick={() => void request('POST', '/api/blade-system/dict/fail', { data: {} }).catch(() => undefined)}>fail</button>
      <button onClick={() => setSecond((v) => !v)}>toggle</button>
    </div>
  );
}

describe('dictionary cache', () => {
  it('is fetched again after a dictionary write, not after other writes or a failed one', async () => {
    const s = server();
    render(
      <SWRConfig value={{ provider: () => new Map() }}>
        <RuntimeProvider env={{ request: s.request, permissions: {} }}>
          <Screen />
        </RuntimeProvider>
      </SWRConfig>,
    );
    await waitFor(() => expect(screen.getByTestId('a').textContent).toContain('营业中'));
    // a second batch is cached, then its screen closes (not mounted when the dictionary changes)
    await act(async () => fireEvent.click(screen.getByText('toggle')));
    await waitFor(() => expect(screen.getByTestId('b').textContent).toContain('营业中'));
    await act(async () => fireEvent.click(screen.getByText('toggle')));
    expect(s.batches).toEqual(['merchant_status', 'merchant_status,yes_no']);
    s.rename('正常营业');
    await act(async () => fireEvent.click(screen.getByText('merchant')));
    await act(async () => fireEvent.click(screen.getByText('fail')));
    expect(s.batches).toHaveLength(2);
    expect(screen.getByTestId('a').textContent).toContain('营业中');
    await act(async () => fireEvent.click(screen.getByText('dict')));
    await waitFor(() => expect(screen.getByTestId('a').textContent).toContain('正常营业'));
    // the closed screen's batch was dropped: reopened, it asks again and shows the new label
    await act(async () => fireEvent.click(screen.getByText('toggle')));
    await waitFor(() => expect(screen.getByTestId('b').textContent).toContain('正常营业'));
    expect(s.batches.filter((b) => b === 'merchant_status,yes_no')).toHaveLength(2);
  });
});

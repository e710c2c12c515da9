// @vitest-environment happy-dom
/**
 * The login form (src/web/pages/Login.tsx, on LightField): submitting it empty shows the required messages under
 * the fields, marks them invalid and sends nothing; a message goes as its field is filled; filled, it sends.
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import zh from '../../../locales/zh.json';
import Login from '../../../src/web/pages/Login.js';

beforeAll(async () => {
  await i18next.use(initReactI18next).init({ lng: 'zh', resources: { zh: { translation: zh } }, interpolation: { escapeValue: false } });
});
afterEach(cleanup);

describe('login form', () => {
  it('requires the account and the password before it sends anything', async () => {
    const sent: string[] = [];
    const realFetch = globalThis.fetch;
    globalThis.fetch = (async (input: RequestInfo | URL) => {
      sent.push(String(input));
      return new Response('{}', { status: 500 });
    }) as typeof fetch;
    try {
      render(
        <MemoryRouter initialEntries={['/login']}>
          <Login />
        </MemoryRouter>,
      );
      expect(screen.queryByText('请输入用户名')).toBeNull();
      await act(async () => fireEvent.click(screen.getByTestId('login-submit')));
      expect(screen.getByText('请输入用户名')).toBeTruthy();
      expect(screen.getByText('请输入密码')).toBeTruthy();
      expect(screen.getByTestId('login-username').getAttribute('aria-invalid')).toBe('true');
      await act(async () => fireEvent.change(screen.getByTestId('login-username'), { target: { value: 'admin' } }));
      expect(screen.queryByText('请输入用户名')).toBeNull();
      expect(screen.getByText('请输入密码')).toBeTruthy();
      expect(sent.filter((u) => u.includes('/oauth/token'))).toEqual([]);
      // filled: it sends (the fake server then answers 500, which the page reports)
      await act(async () => fireEvent.change(screen.getByTestId('login-password'), { target: { value: 'admin' } }));
      await act(async () => fireEvent.click(screen.getByTestId('login-submit')));
      expect(sent.filter((u) => u.includes('/oauth/token')).length).toBe(1);
    } finally {
      globalThis.fetch = realFetch;
    }
  });
});

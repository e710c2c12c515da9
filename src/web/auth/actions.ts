import { website } from '../config.js';
import { i18n } from '../i18n.js';
import { md5 } from '../../shared/md5.js';
import { request, onUnauthorized, getData, ApiError } from '../api/client.js';
import { getStore } from '../lib/storage.js';
import { toast } from '../lib/toast.js';
import {
  session, saveTokens, clearSession, clearLock, setMenu, setPermission, setRoles, setTabs, tokenAgeSeconds,
  type MenuNode, type UserInfo,
} from './session.js';

let navigator: (to: string) => void = (to) => window.location.assign(to);
/** The router registers its navigate function here (api client and timers live outside React). */
export function setNavigator(fn: (to: string) => void): void {
  navigator = fn;
}
export function navigateTo(to: string): void {
  navigator(to);
}

export interface LoginForm {
  tenantId?: string;
  username: string;
  password: string;
  captchaKey?: string;
  captchaCode?: string;
}

function switchHeaders(info: UserInfo | null): Record<string, string> {
  if (!website.switchMode || !info) return {};
  return { 'Dept-Id': String(info.dept_id ?? ''), 'Role-Id': String(info.role_id ?? '') };
}

/** POST /api/blade-auth/oauth/token (password or captcha grant); stores nothing on error_description. */
export async function login(form: LoginForm): Promise<UserInfo> {
  const tenantId = (website.tenantMode && form.tenantId) || website.tenantId;
  const headers: Record<string, string> = { 'Tenant-Id': tenantId };
  if (website.captchaMode) {
    headers['Captcha-Key'] = form.captchaKey ?? '';
    headers['Captcha-Code'] = form.captchaCode ?? '';
  }
  const reply = await request<UserInfo & { error_description?: string }>({
    url: '/api/blade-auth/oauth/token',
    method: 'POST',
    withToken: false,
    headers,
    params: {
      tenantId,
      username: form.username,
      password: md5(form.password),
      grant_type: website.captchaMode ? 'captcha' : 'password',
      scope: 'all',
      type: 'account',
    },
  });
  if (reply.error_description || !reply.access_token) {
    const msg = reply.error_description || i18n.t('error.unknown');
    toast.error(msg);
    throw new ApiError(msg, 400, reply);
  }
  clearSession();
  saveTokens(reply);
  clearLock();
  setRoles(String(reply.role_name ?? '').split(',').filter(Boolean));
  setTabs([]);
  await loadSessionData();
  return reply;
}

/** Menus (routes) and button permissions for the logged-in user. */
export async function loadSessionData(): Promise<void> {
  const [menu] = await Promise.all([loadMenu(session.get().topMenuId), loadButtons()]);
  void menu;
}

/** Where the shell reads the user's menus, buttons and top menus (start-up reads them early: lib/startup.ts). */
export const MENU_ROUTES_URL = '/api/blade-system/menu/routes';
export const MENU_BUTTONS_URL = '/api/blade-system/menu/buttons';
export const TOP_MENU_URL = '/api/blade-system/menu/top-menu';
export const menuParams = (topMenuId?: string) => (topMenuId ? { topMenuId } : undefined);

export async function loadMenu(topMenuId?: string): Promise<MenuNode[]> {
  const menu = (await getData<MenuNode[]>(MENU_ROUTES_URL, menuParams(topMenuId))) ?? [];
  setMenu(menu);
  return menu;
}

/** Button tree → {code: true} for every node without children. */
export function permissionMap(tree: MenuNode[]): Record<string, boolean> {
  const out: Record<string, boolean> = {};
  const walk = (nodes: MenuNode[]) => {
    for (const n of nodes) {
      if (n.children && n.children.length) walk(n.children);
      else if (n.code) out[n.code] = true;
    }
  };
  walk(tree);
  return out;
}

export async function loadButtons(): Promise<Record<string, boolean>> {
  const tree = (await getData<MenuNode[]>(MENU_BUTTONS_URL)) ?? [];
  const map = permissionMap(tree);
  setPermission(map);
  return map;
}

let refreshing: Promise<UserInfo> | null = null;
/** Refresh-token grant, single-flight. */
export function refreshToken(extraHeaders: Record<string, string> = {}): Promise<UserInfo> {
  if (refreshing) return refreshing;
  const s = session.get();
  refreshing = (async () => {
    try {
      const reply = await request<UserInfo & { error_description?: string }>({
        url: '/api/blade-auth/oauth/token',
        method: 'POST',
        withToken: false,
        headers: { 'Tenant-Id': s.tenantId || website.tenantId, ...switchHeaders(s.userInfo), ...extraHeaders },
        // refresh tokens are single use: the newest one any tab stored, not this tab's copy (a reused one ends the session)
        params: { tenantId: s.tenantId || website.tenantId, refresh_token: getStore<string>('refreshToken') || s.refreshToken, grant_type: 'refresh_token', scope: 'all' },
      });
      if (reply.error_description || !reply.access_token) throw new ApiError(reply.error_description || 'refresh failed', 401, reply);
      saveTokens(reply);
      refreshCount++;
      return reply;
    } finally {
      refreshing = null;
    }
  })();
  return refreshing;
}

export let refreshCount = 0;
let timer: ReturnType<typeof setInterval> | null = null;
/** Every tokenCheckInterval (10 s): refresh once the stored token's age reaches tokenTime seconds. */
export function startRefreshTimer(): void {
  if (timer) return;
  timer = setInterval(() => {
    const s = session.get();
    if (!s.token || !s.refreshToken) return;
    if (tokenAgeSeconds() >= website.tokenTime) refreshToken().catch(() => undefined);
  }, website.tokenCheckInterval);
  (window as unknown as { __tokenRefreshes: () => number }).__tokenRefreshes = () => refreshCount;
}

/** Local logout: clear everything, go to /login. */
export function localLogout(): void {
  clearSession();
  navigateTo('/login');
}

/** How long a logout waits for the server's revocation before logging out locally anyway. */
const LOGOUT_WAIT_MS = 3000;

/** Log out: revoke the token on the server, then local logout. */
export async function logout(): Promise<void> {
  try {
    // Revoke on the server, but never let a slow or unreachable server keep the user logged in here.
    if (session.get().token) await Promise.race([request({ url: '/api/blade-auth/oauth/logout', silent: true }), new Promise((r) => setTimeout(r, LOGOUT_WAIT_MS))]);
  } catch {
    /* revoked or offline: the local logout still happens */
  }
  localLogout();
}

onUnauthorized(() => {
  if (window.location.pathname !== '/login') localLogout();
  else clearSession();
});

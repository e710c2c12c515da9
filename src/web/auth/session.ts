import { createStore } from '../lib/createStore.js';
import { getStore, getStoreItem, removeStore, setStore } from '../lib/storage.js';

/** Raw OAuth token reply of POST /api/blade-auth/oauth/token (BladeX dialect). */
export interface UserInfo {
  access_token: string;
  refresh_token: string;
  token_type?: string;
  expires_in?: number;
  tenant_id: string;
  user_id: string;
  user_name?: string;
  account?: string;
  nick_name?: string;
  real_name?: string;
  role_name?: string;
  role_id?: string;
  dept_id?: string;
  avatar?: string;
  oauth_id?: string;
  [k: string]: unknown;
}

export interface MenuNode {
  id: string;
  parentId?: string;
  code?: string;
  name: string;
  nameEn?: string;
  path: string;
  source?: string;
  sort?: number;
  category?: number;
  isOpen?: number;
  alias?: string;
  meta?: { roles?: string[]; isTab?: boolean; isAuth?: boolean; target?: string; [k: string]: unknown };
  children?: MenuNode[];
  [k: string]: unknown;
}

export interface TabItem {
  label: string;
  /** i18n key, when the label is a fixed page name. */
  i18n?: string;
  path: string;
  /** full path with query, what the tab navigates to */
  value: string;
  params?: Record<string, string | undefined>;
  query?: Record<string, string>;
  meta?: Record<string, unknown>;
  close?: boolean;
}

export interface SessionState {
  token: string;
  refreshToken: string;
  tenantId: string;
  userInfo: UserInfo | null;
  menu: MenuNode[] | null;
  topMenuId: string;
  permission: Record<string, boolean>;
  roles: string[];
  isLock: boolean;
  lockPasswd: string;
  tabs: TabItem[];
}

function load(): SessionState {
  return {
    token: getStore<string>('token') ?? '',
    refreshToken: getStore<string>('refreshToken') ?? '',
    tenantId: getStore<string>('tenantId') ?? '',
    userInfo: getStore<UserInfo>('userInfo') ?? null,
    menu: getStore<MenuNode[]>('menu') ?? null,
    topMenuId: getStore<string>('topMenuId') ?? '',
    permission: getStore<Record<string, boolean>>('permission') ?? {},
    roles: getStore<string[]>('roles') ?? [],
    isLock: getStore<boolean>('isLock') ?? false,
    lockPasswd: getStore<string>('lockPasswd') ?? '',
    tabs: getStore<TabItem[]>('tagList') ?? [],
  };
}

export const session = createStore<SessionState>(load());

/** True when some session trace is stored: used to detect "empty token in the store". */
export function hasSessionTrace(): boolean {
  return ['token', 'refreshToken', 'userInfo'].some((n) => getStoreItem(n) !== undefined);
}

/** Age of the stored token in seconds (its store datetime), Infinity when none. */
export function tokenAgeSeconds(): number {
  const item = getStoreItem<string>('token');
  if (!item) return Infinity;
  return (Date.now() - item.datetime) / 1000;
}

export function saveTokens(info: UserInfo): void {
  setStore('token', info.access_token);
  setStore('refreshToken', info.refresh_token);
  setStore('tenantId', info.tenant_id);
  setStore('userInfo', info);
  session.set({ token: info.access_token, refreshToken: info.refresh_token, tenantId: info.tenant_id, userInfo: info });
}

export function setMenu(menu: MenuNode[]): void {
  setStore('menu', menu);
  session.set({ menu });
}

export function setTopMenuId(id: string): void {
  setStore('topMenuId', id);
  session.set({ topMenuId: id });
}

export function setPermission(permission: Record<string, boolean>): void {
  setStore('permission', permission, true);
  session.set({ permission });
}

export function setRoles(roles: string[]): void {
  setStore('roles', roles);
  session.set({ roles });
}

/**
 * Lock the screen. The flag and the lock password live in sessionStorage: they survive a reload of this tab
 * but are never written to disk-backed localStorage, nor shared with other tabs (spec: kept per session).
 */
export function setLock(passwd: string): void {
  setStore('isLock', true, true);
  setStore('lockPasswd', passwd, true);
  session.set({ isLock: true, lockPasswd: passwd });
}

export function clearLock(): void {
  removeStore('isLock');
  removeStore('lockPasswd');
  session.set({ isLock: false, lockPasswd: '' });
}

export function setTabs(tabs: TabItem[]): void {
  setStore('tagList', tabs);
  session.set({ tabs });
}

/** Local logout: tokens, user, menus, roles, permissions, tabs and the lock are cleared. */
export function clearSession(): void {
  for (const n of ['token', 'refreshToken', 'userInfo', 'menu', 'topMenuId', 'permission', 'roles', 'tagList', 'isLock', 'lockPasswd']) removeStore(n);
  session.set({ token: '', refreshToken: '', userInfo: null, menu: null, topMenuId: '', permission: {}, roles: [], tabs: [], isLock: false, lockPasswd: '' });
}

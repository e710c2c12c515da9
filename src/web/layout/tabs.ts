import { website } from '../config.js';
import { session, setTabs, type TabItem } from '../auth/session.js';

export const HOME_TAB: TabItem = { label: '', i18n: website.firstPage.label, path: website.firstPage.path, value: website.firstPage.path, close: false };

export function withHome(tabs: TabItem[]): TabItem[] {
  const rest = tabs.filter((t) => t.path !== HOME_TAB.path);
  return [HOME_TAB, ...rest];
}

/** Add (or refresh) the tab of an opened page. */
export function openTab(tab: TabItem): void {
  const tabs = withHome(session.get().tabs);
  const i = tabs.findIndex((t) => t.path === tab.path);
  if (i >= 0) tabs[i] = { ...tabs[i], ...tab, close: tab.path !== HOME_TAB.path };
  else tabs.push({ ...tab, close: true });
  setTabs(tabs);
}

/**
 * The open tab of `path` reopens it at this query (a list's page, size, sort and search, which the list replaces
 * in the address as they change). Nothing if the page has no tab.
 */
export function setTabQuery(path: string, search: string): void {
  const tabs = session.get().tabs;
  const i = tabs.findIndex((t) => t.path === path);
  if (i < 0 || tabs[i].value === path + search) return;
  const next = [...tabs];
  next[i] = { ...tabs[i], value: path + search, query: Object.fromEntries(new URLSearchParams(search)) };
  setTabs(next);
}

/** Remove a tab; returns the tab to show next when the removed one was active. */
export function closeTab(path: string, activePath: string): TabItem | undefined {
  const tabs = withHome(session.get().tabs);
  if (tabs.length <= 1 || path === HOME_TAB.path) return undefined;
  const i = tabs.findIndex((t) => t.path === path);
  if (i < 0) return undefined;
  tabs.splice(i, 1);
  setTabs(tabs);
  return path === activePath ? tabs[Math.max(0, i - 1)] : undefined;
}

export function closeOthers(activePath: string): void {
  setTabs(withHome(session.get().tabs).filter((t) => t.path === HOME_TAB.path || t.path === activePath));
}

export function closeAll(): void {
  setTabs([HOME_TAB]);
}

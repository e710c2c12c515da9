import { Dropdown, Tabs, type MenuProps } from 'antd';
import { DownOutlined } from '@ant-design/icons';
import { useLocation, useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { request } from '../api/client.js';
import { session, type TabItem } from '../auth/session.js';
import { findByPath, findByRoute, menuLabel } from '../lib/menu.js';
import { confirmDialog, toast } from '../lib/toast.js';
import { closeAll, closeOthers, closeTab, HOME_TAB, withHome } from './tabs.js';
import { ui } from './ui.js';

/** Tabs of opened pages, with the context menu and the tab menu (clear cache, close others, close all, search). */
export function TabsBar() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const loc = useLocation();
  const tabs = withHome(session.use((s) => s.tabs));
  const menu = session.use((s) => s.menu);
  const active = tabs.find((x) => x.path === loc.pathname)?.path ?? HOME_TAB.path;

  const label = (tab: TabItem) => {
    if (tab.i18n) return t(tab.i18n);
    const node = findByPath(menu, tab.path) ?? findByRoute(menu, tab.path);
    return node ? menuLabel(node, i18n.language) : tab.label;
  };

  const clearCache = async () => {
    if (!(await confirmDialog({ title: t('shell.tabs.clearCacheConfirm'), okText: t('common.action.ok'), cancelText: t('common.action.cancel') }))) return;
    try {
      await request({ url: '/api/blade-auth/oauth/clear-cache' });
      toast.success(t('shell.tabs.clearCacheDone'));
    } catch {
      /* toast shown by the client */
    }
  };

  const menuItems: MenuProps['items'] = [
    { key: 'clearCache', label: t('shell.tabs.clearCache') },
    { key: 'closeOthers', label: t('shell.tabs.closeOthers') },
    { key: 'closeAll', label: t('shell.tabs.closeAll') },
    { key: 'search', label: t('shell.tabs.search') },
  ];
  /** The context menu of one tab also offers closing that tab (when it may be closed). */
  const tabMenuItems = (tab: TabItem): MenuProps['items'] =>
    tabs.length > 1 && tab.path !== HOME_TAB.path ? [{ key: 'close', label: t('shell.tabs.close') }, ...menuItems!] : menuItems;

  /** Acts on `path`: the right-clicked tab for the context menu, the current tab for the tab menu. */
  const onMenu = (key: string, path: string) => {
    if (key === 'clearCache') void clearCache();
    else if (key === 'close') {
      const next = closeTab(path, active);
      if (next) navigate(next.value || next.path);
    } else if (key === 'closeOthers') {
      closeOthers(path);
      // the current page was one of the others: show the tab that stays
      if (path !== active) {
        const kept = tabs.find((x) => x.path === path);
        navigate(kept?.value || path);
      }
    } else if (key === 'closeAll') {
      closeAll();
      navigate(HOME_TAB.path);
    } else if (key === 'search') ui.set({ searchOpen: true });
  };

  return (
    <div className="tabs-bar" data-testid="tabs-bar">
      <Tabs
        type="editable-card"
        hideAdd
        size="small"
        activeKey={active}
        onChange={(key) => {
          const tab = tabs.find((x) => x.path === key);
          if (tab) navigate(tab.value || tab.path);
        }}
        onEdit={(key, action) => {
          if (action !== 'remove') return;
          const next = closeTab(String(key), active);
          if (next) navigate(next.value || next.path);
        }}
        items={tabs.map((tab) => ({
          key: tab.path,
          closable: tabs.length > 1 && tab.close !== false,
          label: (
            <Dropdown
              menu={{
                items: tabMenuItems(tab),
                onClick: ({ key, domEvent }) => {
                  // the menu is portalled but React bubbles its click to the tab, which would navigate to it
                  domEvent.stopPropagation();
                  onMenu(key, tab.path);
                },
              }}
              trigger={['contextMenu']}
            >
              <span className="tab-label" data-tab={tab.path}>{label(tab)}</span>
            </Dropdown>
          ),
        }))}
        tabBarExtraContent={{
          right: (
            <Dropdown menu={{ items: menuItems, onClick: ({ key }) => onMenu(key, active) }} trigger={['click']}>
              <a className="tabs-menu" data-testid="tabs-menu" onClick={(e) => e.preventDefault()}>
                {t('shell.tabs.more')} <DownOutlined />
              </a>
            </Dropdown>
          ),
        }}
      />
    </div>
  );
}

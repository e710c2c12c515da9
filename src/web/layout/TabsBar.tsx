import { Dropdown, Tabs, type MenuProps } from 'antd';
import { DownOutlined } from '@ant-design/icons';
import { useLocation, useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { request } from '../api/client.js';
import { session, type TabItem } from '../auth/session.js';
import { findByPath, menuLabel } from '../lib/menu.js';
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
    const node = findByPath(menu, tab.path);
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
  const onMenu = (key: string) => {
    if (key === 'clearCache') void clearCache();
    else if (key === 'closeOthers') closeOthers(active);
    else if (key === 'closeAll') {
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
            <Dropdown menu={{ items: menuItems, onClick: ({ key }) => onMenu(key) }} trigger={['contextMenu']}>
              <span className="tab-label" data-tab={tab.path}>{label(tab)}</span>
            </Dropdown>
          ),
        }))}
        tabBarExtraContent={{
          right: (
            <Dropdown menu={{ items: menuItems, onClick: ({ key }) => onMenu(key) }} trigger={['click']}>
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

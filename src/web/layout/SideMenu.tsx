import { useMemo } from 'react';
import { Menu, type MenuProps } from 'antd';
import { AppstoreOutlined, FileTextOutlined, HomeOutlined } from '@ant-design/icons';
import { useLocation, useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { session, type MenuNode } from '../auth/session.js';
import { filterMenu, findByPath, flattenMenu, menuLabel, opensNewWindow, routeOf } from '../lib/menu.js';
import { findTheme } from '../lib/themes.js';
import { menuIcon } from './menuIcons.js';
import { settings } from '../lib/settings.js';

type Item = Required<MenuProps>['items'][number];

/** Side menu from the server tree: sub-menus for items with children, meta roles filter, new-window links. */
export function SideMenu({ collapsed, onNavigate }: { collapsed: boolean; onNavigate?: () => void }) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const loc = useLocation();
  const menu = session.use((s) => s.menu);
  const roles = session.use((s) => s.roles);
  const themeName = settings.use((s) => s.themeName);
  const th = findTheme(themeName);
  const visible = useMemo(() => filterMenu(menu ?? [], roles), [menu, roles]);

  const items = useMemo<Item[]>(() => {
    const build = (nodes: MenuNode[], depth: number): Item[] =>
      nodes.map((n) => {
        const label = <span data-path={n.path}>{menuLabel(n, i18n.language)}</span>;
        // the server's icon (`source`) at every level; a generic one only where the collapsed menu needs one
        const generic = depth === 0 ? n.children?.length ? <AppstoreOutlined /> : <FileTextOutlined /> : null;
        const icon = menuIcon(n.source, generic) ?? undefined;
        if (n.children?.length) return { key: `sub:${n.id}`, label, icon, children: build(n.children, depth + 1) };
        return { key: n.path, label, icon };
      });
    return [{ key: '/wel/index', label: <span data-path="/wel/index">{t('shell.page.home')}</span>, icon: <HomeOutlined /> }, ...build(visible, 0)];
  }, [visible, i18n.language, t]);

  const openKeys = useMemo(() => {
    const keys: string[] = [];
    const walk = (nodes: MenuNode[], trail: string[]): boolean => {
      for (const n of nodes) {
        if (n.path === loc.pathname) {
          keys.push(...trail);
          return true;
        }
        if (n.children?.length && walk(n.children, [...trail, `sub:${n.id}`])) return true;
      }
      return false;
    };
    walk(visible, []);
    return keys;
  }, [visible, loc.pathname]);

  const onClick: MenuProps['onClick'] = ({ key }) => {
    if (key === '/wel/index') navigate('/wel/index');
    else {
      const node = findByPath(flattenMenu(visible), String(key));
      if (!node) return;
      if (opensNewWindow(node)) window.open(node.path, '_blank');
      else navigate(routeOf(node));
    }
    onNavigate?.();
  };

  return (
    <Menu
      className="side-menu"
      mode="inline"
      theme={th.siderDark ? 'dark' : 'light'}
      inlineCollapsed={collapsed}
      items={items}
      selectedKeys={[loc.pathname]}
      defaultOpenKeys={collapsed ? [] : openKeys}
      key={collapsed ? 'c' : openKeys.join(',')}
      onClick={onClick}
    />
  );
}

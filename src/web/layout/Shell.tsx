import { lazy, Suspense, useEffect, useState } from 'react';
import { Layout } from 'antd';
import { Navigate, Outlet, useLocation } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { session } from '../auth/session.js';
import { loadButtons, loadMenu } from '../auth/actions.js';
import { settings, setCollapse } from '../lib/settings.js';
import { findByPath, findByRoute, menuLabel } from '../lib/menu.js';
import { fixedPage } from '../pages/fixedPages.js';
import { openTab } from './tabs.js';
import { ui } from './ui.js';
import { TabsBar } from './TabsBar.js';
import { TopBar } from './TopBar.js';
import { SideMenu } from './SideMenu.js';
import { Loading } from './Lazy.js';
import { ErrorBoundary } from './ErrorBoundary.js';
import { SearchOverlay } from './SearchOverlay.js';
import IframePage from '../pages/IframePage.js';

// a social login without a user yet registers first (rare: its dialog loads only then)
const RegisterDialog = lazy(() => import('./TopBarDialogs.js').then((m) => ({ default: m.RegisterDialog })));
// a phone's menu drawer: its code loads when the menu is first opened (closed, it shows nothing)
const MobileDrawer = lazy(() => import('./MobileDrawer.js'));

const { Sider, Header, Content } = Layout;

/** Width-based screen size: xs (< 768), sm (768), md (992), lg (≥ 1200). */
export function useScreenSize(): 'xs' | 'sm' | 'md' | 'lg' {
  const get = (): 'xs' | 'sm' | 'md' | 'lg' => {
    const w = window.innerWidth;
    return w < 768 ? 'xs' : w < 992 ? 'sm' : w < 1200 ? 'md' : 'lg';
  };
  const [size, setSize] = useState(get);
  useEffect(() => {
    const on = () => setSize(get());
    window.addEventListener('resize', on);
    return () => window.removeEventListener('resize', on);
  }, []);
  return size;
}

export function Logo({ collapsed }: { collapsed: boolean }) {
  const { t } = useTranslation();
  return (
    <div className="shell-logo" data-testid="logo">
      {collapsed ? <span className="logo-short">{t('app.shortTitle')}</span> : <span className="logo-title">{t('app.indexTitle')}</span>}
    </div>
  );
}

export default function Shell() {
  const loc = useLocation();
  const { i18n } = useTranslation();
  const token = session.use((s) => s.token);
  const menu = session.use((s) => s.menu);
  const userInfo = session.use((s) => s.userInfo);
  const needsRegister = !!token && !!userInfo && (!userInfo.user_id || Number(userInfo.user_id) < 0);
  const collapse = settings.use((s) => s.collapse);
  const drawerOpen = ui.use((s) => s.drawerOpen);
  const [drawerUsed, setDrawerUsed] = useState(drawerOpen);
  if (drawerOpen && !drawerUsed) setDrawerUsed(true);
  const narrowExpanded = ui.use((s) => s.narrowExpanded);
  const size = useScreenSize();
  const mobile = size === 'xs';
  // under 992 px the side menu starts collapsed (the toggle still opens it, without changing the stored
  // preference of wider screens); under 768 px it is a drawer
  const narrow = size === 'sm';
  const collapsed = narrow ? !narrowExpanded : collapse;
  const toggleMenu = () => {
    if (mobile) ui.set({ drawerOpen: !ui.get().drawerOpen });
    else if (narrow) ui.set({ narrowExpanded: !narrowExpanded });
    else setCollapse(!collapse);
  };
  useEffect(() => {
    if (!narrow) ui.set({ narrowExpanded: false });
  }, [narrow]);

  // menus and buttons after a reload
  useEffect(() => {
    if (!token) return;
    if (!menu) loadMenu(session.get().topMenuId).catch(() => undefined);
    if (!Object.keys(session.get().permission).length) loadButtons().catch(() => undefined);
  }, [token]); // eslint-disable-line react-hooks/exhaustive-deps

  // a tab per opened page unless the route says it is not a tab
  useEffect(() => {
    if (!token) return;
    const path = loc.pathname;
    const fixed = fixedPage(path);
    const query = Object.fromEntries(new URLSearchParams(loc.search));
    // a `target` query opens the address in a new window (Root) and goes back: no tab for it
    if ('target' in query) return;
    if (fixed) {
      if (fixed.noTab) return;
      openTab({ label: '', i18n: fixed.label, path, value: path + loc.search, params: fixed.match(path) ?? {}, query });
      return;
    }
    const node = findByPath(menu, path);
    if (node) {
      if (node.meta?.isTab === false || node.children?.length) return;
      openTab({ label: menuLabel(node, i18n.language), path, value: path + loc.search, query, meta: node.meta ?? {} });
    } else if (path.startsWith('/myiframe/')) {
      // an external menu link: labelled with its menu name (the tabs bar relabels it on a language change)
      const ext = findByRoute(menu, path);
      openTab({ label: ext ? menuLabel(ext, i18n.language) : decodeURIComponent(path.slice(10)), path, value: path + loc.search, query, meta: ext?.meta ?? {} });
    }
  }, [loc.pathname, loc.search, menu, token]); // eslint-disable-line react-hooks/exhaustive-deps

  if (!token) {
    // /myiframe without a session: the external page alone (public route)
    if (loc.pathname.startsWith('/myiframe/')) return <IframePage />;
    return <Navigate to="/login" replace />;
  }

  const menuEl = <SideMenu collapsed={!mobile && collapsed} onNavigate={() => mobile && ui.set({ drawerOpen: false })} />;
  return (
    <Layout className={`shell shell-${size}`} data-testid="shell">
      {mobile ? (
        drawerUsed && (
          <Suspense fallback={null}>
            <MobileDrawer open={drawerOpen} onClose={() => ui.set({ drawerOpen: false })}>
              <Logo collapsed={false} />
              {menuEl}
            </MobileDrawer>
          </Suspense>
        )
      ) : (
        <Sider className="shell-sider" width={230} collapsedWidth={64} collapsed={collapsed} trigger={null} data-testid="sider">
          <Logo collapsed={collapsed} />
          {menuEl}
        </Sider>
      )}
      <Layout className="shell-main">
        <Header className="shell-header">
          <TopBar mobile={mobile} collapsed={mobile || collapsed} onToggleMenu={toggleMenu} />
        </Header>
        <TabsBar />
        <Content className="shell-content">
          <ErrorBoundary resetKey={loc.pathname}>
            <Suspense fallback={<Loading />}>
              <Outlet />
            </Suspense>
          </ErrorBoundary>
        </Content>
      </Layout>
      <SearchOverlay />
      {needsRegister && (
        <Suspense fallback={null}>
          <RegisterDialog />
        </Suspense>
      )}
    </Layout>
  );
}

import { lazy, useEffect, type ComponentType, type LazyExoticComponent } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router-dom';
import { Button } from 'antd';
import { Result } from '../../runtime/react/LazyResult.js';
import { useTranslation } from 'react-i18next';
import { session } from '../auth/session.js';
import { loadMenu } from '../auth/actions.js';
import { findByPath, menuLabel } from '../lib/menu.js';
import { screenForPath } from '../lib/screens.js';
import { useScreens } from '../lib/useScreens.js';
import { Lazy, Loading } from '../layout/Lazy.js';
import { FIXED_PAGES, type PageComponent } from './fixedPages.js';
import { withTimeout } from '../layout/ErrorBoundary.js';
import { eagerLazy } from '../../runtime/react/eagerLazy.js';
import { loadScreenRoute } from '../lib/chunks.js';

const ScreenRoute = eagerLazy(loadScreenRoute);
const MenuContainer = lazy(withTimeout(() => import('./MenuContainer.js')));

/** The components of fixed pages (fixedPages.ts names them), each its own chunk. */
const PAGE_COMPONENTS: Record<PageComponent, LazyExoticComponent<ComponentType<any>>> = {
  home: lazy(withTimeout(() => import('./Home.js'))),
  info: lazy(withTimeout(() => import('./Info.js'))),
  placeholder: lazy(withTimeout(() => import('./Placeholder.js'))),
};

/** One part of an address, decoded (a malformed escape stays as it is: the page then says it does not know it). */
function decodePart(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

/**
 * Resolves a shell path: special page (a placeholder gives way to a screen document of its route) → menu
 * container → screen document → "not available yet"; else 404.
 */
export default function MenuPage() {
  const loc = useLocation();
  const navigate = useNavigate();
  const { t, i18n } = useTranslation();
  const menu = session.use((s) => s.menu);
  const { screens, error } = useScreens();
  useEffect(() => {
    if (!menu) loadMenu(session.get().topMenuId).catch(() => undefined);
  }, [menu]);

  const path = loc.pathname;
  // a stand-in gives way to the document of its route, or of a route above it (a process form's pages)
  const docRoute = screenForPath(screens, path);
  for (const p of FIXED_PAGES) {
    const params = p.component && p.match(path);
    if (!params) continue;
    // A stand-in page gives way to a screen document with its route (dictionaries' layouts).
    if (p.placeholder && !screens && !error) return <Loading />;
    if (p.placeholder && docRoute) {
      const subPath = path === docRoute.route ? undefined : path.slice(docRoute.route.length + 1).split('/').map(decodePart);
      return <Lazy c={ScreenRoute} props={{ screenId: docRoute.id, subPath }} />;
    }
    return <Lazy c={PAGE_COMPONENTS[p.component!]} props={{ params, path }} />;
  }
  if (!menu) return <Loading />;
  const node = findByPath(menu, path);
  if (!node) return <Navigate to="/404" replace />;
  if (node.children?.length) {
    return <Lazy c={MenuContainer} props={{ node }} />;
  }
  if (!screens && !error) return <Loading />;
  const doc = screens?.find((s) => s.route === path);
  if (doc) return <Lazy c={ScreenRoute} props={{ screenId: doc.id }} />;
  return (
    <Result
      status="info"
      data-testid="not-available"
      title={t('shell.notAvailable.title', { name: menuLabel(node, i18n.language) })}
      subTitle={t('shell.notAvailable.text')}
      extra={<Button type="primary" onClick={() => navigate('/wel/index')}>{t('shell.notAvailable.home')}</Button>}
    />
  );
}

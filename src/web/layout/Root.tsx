import { useEffect, useState } from 'react';
import { Navigate, Outlet, useLocation, useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { website } from '../config.js';
import { session, hasSessionTrace, clearSession } from '../auth/session.js';
import { progressDone, progressStart } from '../lib/progress.js';
import { pageTitle } from '../lib/title.js';

/** Routes flagged as not needing authentication (meta isAuth false). */
export const PUBLIC_PATHS = ['/login', '/lock', '/404', '/403', '/500'];
export function isPublic(path: string): boolean {
  return PUBLIC_PATHS.includes(path) || path.startsWith('/myiframe/');
}

/**
 * Where a logged-in user goes from /login: the `redirect` query (same-origin paths only), else the first page.
 * The login form and this guard both navigate after a login; they must agree on ONE final address, or the
 * second navigation lands on `/` whose mounted <Navigate> does not fire again and the app sits on a blank page.
 */
export function afterLoginTarget(search: string): string {
  const redirect = new URLSearchParams(search).get('redirect');
  return redirect && redirect.startsWith('/') && !redirect.startsWith('//') && redirect !== '/login' ? redirect : website.firstPage.path;
}

/**
 * The route guard of the spec:
 * - no token: only public routes; everything else → /login (an empty token with other session traces in
 *   the store forces a local logout first);
 * - with a token: /login → the redirect target or the first page (spec: `/`, which leads there);
 * - locked screen: every route → /lock after 100 ms;
 * - `target` in the query opens the address in a new window;
 * - progress bar on every navigation; page title after each navigation.
 */
export function Root() {
  const loc = useLocation();
  const navigate = useNavigate();
  const { t, i18n } = useTranslation();
  const token = session.use((s) => s.token);
  const isLock = session.use((s) => s.isLock);
  const menu = session.use((s) => s.menu);
  const [, force] = useState(0);

  useEffect(() => {
    progressStart();
    let done = false;
    const finish = () => {
      if (!done) progressDone();
      done = true;
    };
    const id = setTimeout(finish, 150);
    return () => {
      clearTimeout(id);
      finish();
    };
  }, [loc.key]);

  // page title after each navigation (and on language change)
  useEffect(() => {
    document.title = pageTitle(loc.pathname, menu, t, i18n.language);
  }, [loc.pathname, menu, t, i18n.language]);

  // locked: every route goes to /lock after the lock delay
  useEffect(() => {
    if (!token || !isLock || loc.pathname === website.lockPage) return;
    const id = setTimeout(() => navigate(website.lockPage, { replace: true }), website.lockDelay);
    return () => clearTimeout(id);
  }, [token, isLock, loc.pathname, navigate]);

  // a `target` query parameter opens the address in a new window
  useEffect(() => {
    const q = new URLSearchParams(loc.search);
    if (!q.has('target')) return;
    const url = (q.get('url') ?? '').replace(/#/g, '&') || loc.pathname;
    window.open(url, q.get('target') || '_blank');
    if (window.history.length > 1) navigate(-1);
    else navigate('/', { replace: true });
  }, [loc.key]); // eslint-disable-line react-hooks/exhaustive-deps

  if (!token) {
    if (hasSessionTrace()) {
      clearSession(); // empty token in the store: local logout
      setTimeout(() => force((n) => n + 1));
      return <Navigate to="/login" replace />;
    }
    if (!isPublic(loc.pathname)) {
      const redirect = loc.pathname === '/' || loc.pathname === '/wel' ? '' : `?redirect=${encodeURIComponent(loc.pathname + loc.search)}`;
      return <Navigate to={`/login${redirect}`} replace />;
    }
  } else if (loc.pathname === '/login') {
    return <Navigate to={afterLoginTarget(loc.search)} replace />;
  }
  return <Outlet />;
}

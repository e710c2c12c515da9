import { lazy, useLayoutEffect } from 'react';
import { BrowserRouter, Navigate, Route, Routes, useNavigate } from 'react-router-dom';
import { Root } from './layout/Root.js';
import { Lazy } from './layout/Lazy.js';
import { withTimeout } from './layout/ErrorBoundary.js';
import { eagerLazy } from '../runtime/react/eagerLazy.js';
import { loadMenuPage, loadShell } from './lib/chunks.js';
import { setNavigator } from './auth/actions.js';

const Login = lazy(withTimeout(() => import('./pages/Login.js')));
const Lock = lazy(withTimeout(() => import('./pages/Lock.js')));
const ErrorPage = lazy(withTimeout(() => import('./pages/ErrorPage.js')));
// drawn in the same render as the route when start-up has already loaded them
const Shell = eagerLazy(loadShell);
const MenuPage = eagerLazy(loadMenuPage);
const IframePage = lazy(withTimeout(() => import('./pages/IframePage.js')));

/** Hands the router's navigate to the code outside React that must move the user (auth/actions.ts: logout, 401). */
function NavigatorBinder() {
  const navigate = useNavigate();
  useLayoutEffect(() => setNavigator((to) => void navigate(to)), [navigate]);
  return null;
}

/**
 * Routes. Public: /login /lock /404 /403 /500 (and /myiframe/* outside the shell when not logged in).
 * Inside the shell: the registered special pages by path (pages/fixedPages.ts) and every other path resolved
 * against the menu tree (MenuPage): screen document → generic list screen, else "not available yet", and
 * /404 when the path is unknown.
 *
 * Declarative routes (BrowserRouter + Routes), not createBrowserRouter: the app uses no loaders, actions or
 * blockers, and the data router's state machine would add ≈ 17 kB gzip to every page's start-up code (issue 13).
 */
export function AppRouter() {
  return (
    <BrowserRouter>
      <NavigatorBinder />
      <Routes>
        <Route element={<Root />}>
          <Route path="/login" element={<Lazy c={Login} />} />
          <Route path="/lock" element={<Lazy c={Lock} />} />
          <Route path="/404" element={<Lazy c={ErrorPage} props={{ status: '404' }} />} />
          <Route path="/403" element={<Lazy c={ErrorPage} props={{ status: '403' }} />} />
          <Route path="/500" element={<Lazy c={ErrorPage} props={{ status: '500' }} />} />
          <Route path="/" element={<Navigate to="/wel" replace />} />
          <Route path="/wel" element={<Navigate to="/wel/index" replace />} />
          <Route element={<Lazy c={Shell} />}>
            <Route path="/myiframe/:routerPath" element={<Lazy c={IframePage} />} />
            <Route path="*" element={<Lazy c={MenuPage} />} />
          </Route>
        </Route>
      </Routes>
    </BrowserRouter>
  );
}

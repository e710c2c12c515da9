import { lazy } from 'react';
import { createBrowserRouter, Navigate } from 'react-router-dom';
import { Root } from './layout/Root.js';
import { Lazy } from './layout/Lazy.js';
import { withTimeout } from './layout/ErrorBoundary.js';
import { eagerLazy } from '../runtime/react/eagerLazy.js';
import { loadMenuPage, loadShell } from './lib/chunks.js';

const Login = lazy(withTimeout(() => import('./pages/Login.js')));
const Lock = lazy(withTimeout(() => import('./pages/Lock.js')));
const ErrorPage = lazy(withTimeout(() => import('./pages/ErrorPage.js')));
// drawn in the same render as the route when start-up has already loaded them
const Shell = eagerLazy(loadShell);
const MenuPage = eagerLazy(loadMenuPage);
const IframePage = lazy(withTimeout(() => import('./pages/IframePage.js')));

/**
 * Routes. Public: /login /lock /404 /403 /500 (and /myiframe/* outside the shell when not logged in).
 * Inside the shell: the registered special pages by path (pages/fixedPages.ts) and every other path resolved
 * against the menu tree (MenuPage): screen document → generic list screen, else "not available yet", and
 * /404 when the path is unknown.
 */
export const router = createBrowserRouter([
  {
    element: <Root />,
    children: [
      { path: '/login', element: <Lazy c={Login} /> },
      { path: '/lock', element: <Lazy c={Lock} /> },
      { path: '/404', element: <Lazy c={ErrorPage} props={{ status: '404' }} /> },
      { path: '/403', element: <Lazy c={ErrorPage} props={{ status: '403' }} /> },
      { path: '/500', element: <Lazy c={ErrorPage} props={{ status: '500' }} /> },
      { path: '/', element: <Navigate to="/wel" replace /> },
      { path: '/wel', element: <Navigate to="/wel/index" replace /> },
      {
        element: <Lazy c={Shell} />,
        children: [
          { path: '/myiframe/:routerPath', element: <Lazy c={IframePage} /> },
          { path: '*', element: <Lazy c={MenuPage} /> },
        ],
      },
    ],
  },
]);

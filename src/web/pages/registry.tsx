import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

/**
 * Special pages registered by route path (React components instead of screen documents). Other engineers
 * add their pages here: `'/path': lazy(() => import('./X.js'))`. Patterns follow react-router (`:param`).
 */
export const SPECIAL_PAGES: Record<string, LazyExoticComponent<ComponentType<any>>> = {
  '/wel/index': lazy(() => import('./Home.js')),
  '/wel/dashboard': lazy(() => import('./Home.js')),
  '/test/index': lazy(() => import('./Placeholder.js')),
  '/info/index': lazy(() => import('./Info.js')),
  '/dict-horizontal/index': lazy(() => import('./Placeholder.js')),
  '/dict-vertical/index': lazy(() => import('./Placeholder.js')),
  '/work/process/leave/form/:processDefinitionId': lazy(() => import('./Placeholder.js')),
  '/work/process/leave/handle/:taskId/:processInstanceId/:businessId': lazy(() => import('./Placeholder.js')),
  '/work/process/leave/detail/:processInstanceId/:businessId': lazy(() => import('./Placeholder.js')),
};

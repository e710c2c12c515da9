import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { withTimeout } from '../layout/ErrorBoundary.js';

/**
 * Special pages registered by route path (React components instead of screen documents). Other engineers
 * add their pages here: `'/path': lazy(withTimeout(() => import('./X.js')))`. Patterns follow react-router (`:param`).
 */
export const SPECIAL_PAGES: Record<string, LazyExoticComponent<ComponentType<any>>> = {
  '/wel/index': lazy(withTimeout(() => import('./Home.js'))),
  '/wel/dashboard': lazy(withTimeout(() => import('./Home.js'))),
  '/test/index': lazy(withTimeout(() => import('./Placeholder.js'))),
  '/info/index': lazy(withTimeout(() => import('./Info.js'))),
  '/dict-horizontal/index': lazy(withTimeout(() => import('./Placeholder.js'))),
  '/dict-vertical/index': lazy(withTimeout(() => import('./Placeholder.js'))),
  '/work/process/leave/form/:processDefinitionId': lazy(withTimeout(() => import('./Placeholder.js'))),
  '/work/process/leave/handle/:taskId/:processInstanceId/:businessId': lazy(withTimeout(() => import('./Placeholder.js'))),
  '/work/process/leave/detail/:processInstanceId/:businessId': lazy(withTimeout(() => import('./Placeholder.js'))),
};

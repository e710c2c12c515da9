import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { matchPath } from 'react-router-dom';
import { withTimeout } from '../layout/ErrorBoundary.js';

/**
 * The shell's pages that are not built from the menu tree, written once: their route pattern (react-router
 * `:param`), tab/title label (i18n key) and, for pages drawn inside the shell, the component (lazy, its own
 * chunk). The router's special pages (registry.tsx) and the tab/title labels (title.ts, Shell) both read this
 * list. Add a page here: `page('/path', 'label.key', { load: () => import('./X.js') })`.
 */
export interface FixedPage {
  pattern: string;
  label: string;
  /** not added as a tab */
  noTab?: boolean;
  /** Drawn inside the shell by this component (absent: a top-level route of router.tsx). */
  component?: LazyExoticComponent<ComponentType<any>>;
  /** A stand-in until the real page lands: a screen document with the same route wins over it. */
  placeholder?: boolean;
  match(path: string): Record<string, string | undefined> | null;
}

interface PageOptions {
  noTab?: boolean;
  load?: () => Promise<{ default: ComponentType<any> }>;
  placeholder?: boolean;
}

function page(pattern: string, label: string, { load, ...extra }: PageOptions = {}): FixedPage {
  return {
    pattern,
    label,
    ...extra,
    component: load ? lazy(withTimeout(load)) : undefined,
    match: (p) => matchPath({ path: pattern, end: true }, p)?.params ?? null,
  };
}

const home = () => import('./Home.js');
const placeholder = { load: () => import('./Placeholder.js'), placeholder: true };

export const FIXED_PAGES: FixedPage[] = [
  page('/wel/index', 'shell.page.home', { load: home }),
  page('/wel/dashboard', 'shell.page.dashboard', { load: home }),
  page('/test/index', 'shell.page.test', placeholder),
  page('/info/index', 'shell.page.info', { load: () => import('./Info.js') }),
  page('/dict-horizontal/index', 'shell.page.dictHorizontal', placeholder),
  page('/dict-vertical/index', 'shell.page.dictVertical', placeholder),
  page('/work/process/leave/form/:processDefinitionId', 'shell.page.leaveStart', placeholder),
  page('/work/process/leave/handle/:taskId/:processInstanceId/:businessId', 'shell.page.leaveHandle', placeholder),
  page('/work/process/leave/detail/:processInstanceId/:businessId', 'shell.page.leaveDetail', placeholder),
  page('/lock', 'shell.page.lock', { noTab: true }),
  page('/404', 'error.page.404', { noTab: true }),
  page('/403', 'error.page.403', { noTab: true }),
  page('/500', 'error.page.500', { noTab: true }),
];

export function fixedPage(path: string): FixedPage | undefined {
  return FIXED_PAGES.find((p) => p.match(path));
}

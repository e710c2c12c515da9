import { matchPath } from 'react-router-dom';

/**
 * The shell's pages that are not built from the menu tree, written once: their route pattern (react-router
 * `:param`), tab/title label (i18n key) and, for pages drawn inside the shell, the component (lazy, its own
 * chunk). The shell's page resolver (MenuPage) and the tab/title labels (title.ts, Shell) both read this list.
 * The first screen imports it, so a page names its component (`PAGE_COMPONENTS` in MenuPage.tsx) rather than
 * importing it. Add a page here: `page('/path', 'label.key', { component: 'home' })`.
 */
export interface FixedPage {
  pattern: string;
  label: string;
  /** not added as a tab */
  noTab?: boolean;
  /** Drawn inside the shell by this component of MenuPage's PAGE_COMPONENTS (absent: a top-level route of router.tsx). */
  component?: PageComponent;
  /** A stand-in until the real page lands: a screen document with the same route wins over it. */
  placeholder?: boolean;
  match(path: string): Record<string, string | undefined> | null;
}

/** The components fixed pages are drawn by (loaded lazily by MenuPage). */
export type PageComponent = 'home' | 'info' | 'placeholder';

interface PageOptions {
  noTab?: boolean;
  component?: PageComponent;
  placeholder?: boolean;
}

function page(pattern: string, label: string, extra: PageOptions = {}): FixedPage {
  return {
    pattern,
    label,
    ...extra,
    match: (p) => matchPath({ path: pattern, end: true }, p)?.params ?? null,
  };
}

const home = { component: 'home' } as const;
const placeholder = { component: 'placeholder', placeholder: true } as const;

export const FIXED_PAGES: FixedPage[] = [
  page('/wel/index', 'shell.page.home', home),
  page('/wel/dashboard', 'shell.page.dashboard', home),
  page('/test/index', 'shell.page.test', placeholder),
  page('/info/index', 'shell.page.info', { component: 'info' }),
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

import { matchPath } from 'react-router-dom';

/** Pages of the shell that are not built from the menu tree (label = i18n key). */
export interface FixedPage {
  pattern: string;
  label: string;
  /** not added as a tab */
  noTab?: boolean;
  match(path: string): Record<string, string | undefined> | null;
}

function page(pattern: string, label: string, extra: Partial<FixedPage> = {}): FixedPage {
  return { pattern, label, ...extra, match: (p) => matchPath({ path: pattern, end: true }, p)?.params ?? null };
}

export const FIXED_PAGES: FixedPage[] = [
  page('/wel/index', 'shell.page.home'),
  page('/wel/dashboard', 'shell.page.dashboard'),
  page('/test/index', 'shell.page.test'),
  page('/info/index', 'shell.page.info'),
  page('/dict-horizontal/index', 'shell.page.dictHorizontal'),
  page('/dict-vertical/index', 'shell.page.dictVertical'),
  page('/work/process/leave/form/:processDefinitionId', 'shell.page.leaveStart'),
  page('/work/process/leave/handle/:taskId/:processInstanceId/:businessId', 'shell.page.leaveHandle'),
  page('/work/process/leave/detail/:processInstanceId/:businessId', 'shell.page.leaveDetail'),
  page('/lock', 'shell.page.lock', { noTab: true }),
  page('/404', 'error.page.404', { noTab: true }),
  page('/403', 'error.page.403', { noTab: true }),
  page('/500', 'error.page.500', { noTab: true }),
];

export function fixedPage(path: string): FixedPage | undefined {
  return FIXED_PAGES.find((p) => p.match(path));
}

import type { TFunction } from 'i18next';
import type { MenuNode } from '../auth/session.js';
import { findByPath, findByRoute, menuLabel } from './menu.js';
import { FIXED_PAGES } from '../pages/fixedPages.js';

/** Label of a path: fixed page (i18n key) or menu name in the current language. */
export function pathLabel(path: string, menu: MenuNode[] | null, t: TFunction, lang: string): string {
  const fixed = FIXED_PAGES.find((p) => p.match(path));
  if (fixed) return t(fixed.label);
  const node = findByPath(menu, path) ?? findByRoute(menu, path);
  if (node) return menuLabel(node, lang);
  if (path.startsWith('/myiframe/')) return decodeURIComponent(path.slice('/myiframe/'.length));
  return '';
}

export function pageTitle(path: string, menu: MenuNode[] | null, t: TFunction, lang: string): string {
  const app = t('app.title');
  if (path === '/login') return `${t('login.title')} - ${app}`;
  const label = pathLabel(path, menu, t, lang);
  return label ? `${label} - ${app}` : app;
}

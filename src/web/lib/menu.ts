import type { MenuNode } from '../auth/session.js';

export function isExternal(path: string | undefined): boolean {
  return !!path && (/^https?:\/\//i.test(path) || /\.html?(\?|#|$)/i.test(path));
}

/** Menu label in the current language (server sends name (zh) and nameEn). */
export function menuLabel(node: Pick<MenuNode, 'name' | 'nameEn'>, lang: string): string {
  return lang === 'en' ? node.nameEn || node.name : node.name;
}

/** Items whose meta roles do not include one of the user's roles are hidden. */
export function visibleByRoles(node: MenuNode, roles: string[]): boolean {
  const r = node.meta?.roles;
  if (!Array.isArray(r) || r.length === 0) return true;
  return r.some((x) => roles.includes(x));
}

export function filterMenu(nodes: MenuNode[], roles: string[]): MenuNode[] {
  return nodes
    .filter((n) => visibleByRoles(n, roles))
    .map((n) => (n.children?.length ? { ...n, children: filterMenu(n.children, roles) } : n));
}

export function flattenMenu(nodes: MenuNode[] | null | undefined, out: MenuNode[] = []): MenuNode[] {
  for (const n of nodes ?? []) {
    out.push(n);
    if (n.children?.length) flattenMenu(n.children, out);
  }
  return out;
}

export function leaves(nodes: MenuNode[] | null | undefined): MenuNode[] {
  return flattenMenu(nodes).filter((n) => !n.children?.length);
}

export function findByPath(nodes: MenuNode[] | null | undefined, path: string): MenuNode | undefined {
  return flattenMenu(nodes).find((n) => n.path === path);
}

/** Internal route of a menu node: external links go to the iframe route with the URL in the query. */
export function routeOf(node: MenuNode): string {
  if (isExternal(node.path)) {
    const code = node.code || node.id;
    return `/myiframe/${encodeURIComponent(code)}?url=${encodeURIComponent(node.path)}`;
  }
  return node.path;
}

/** The external menu entry shown at an iframe route (`/myiframe/<code>`), by the route `routeOf` gives it. */
export function findByRoute(nodes: MenuNode[] | null | undefined, path: string): MenuNode | undefined {
  if (!path.startsWith('/myiframe/')) return undefined;
  const decode = (p: string) => {
    try {
      return decodeURIComponent(p);
    } catch {
      return p;
    }
  };
  const want = decode(path);
  return flattenMenu(nodes).find((n) => isExternal(n.path) && decode(routeOf(n).split('?')[0]) === want);
}

/** Open flag 2 + absolute link → a new window. */
export function opensNewWindow(node: MenuNode): boolean {
  return Number(node.isOpen) === 2 && /^https?:\/\//i.test(node.path);
}

/** Leaf entries whose label starts with the typed text (either language). */
export function searchLeaves(nodes: MenuNode[] | null | undefined, text: string, lang: string): MenuNode[] {
  const q = text.trim().toLowerCase();
  if (!q) return [];
  return leaves(nodes).filter((n) => menuLabel(n, lang).toLowerCase().startsWith(q) || n.name.toLowerCase().startsWith(q));
}

/**
 * The routes the server serves, known without building it: the generic routes of every screen document
 * (src/server/crud/route-schemas.ts genericRoutes) plus the routes the modules register, read from their
 * source (`app.get('/api/…'`, `app.post(\`${api}/…\``). A route whose URL is built from a variable reads as
 * a pattern (`${api}/submit` matches any `/api/…/submit`), so the check never refuses a route the server
 * has; it refuses the ones nobody wrote.
 */
import fs from 'node:fs';
import path from 'node:path';
import { genericRoutes } from '../../src/server/crud/route-schemas.js';
import type { ScreenDocument } from '../../src/shared/document.js';

export interface RouteTable {
  hasRoute(method: 'GET' | 'POST', url: string): boolean;
}

const ROUTE_CALL = /\b\w+\.(get|post|put|delete|patch)\(\s*(?:'([^']*)'|"([^"]*)"|`([^`]*)`)/g;
/** `app.route({ method: 'GET', url: '/api/…' })` (either order). */
const ROUTE_OBJECT = /\broute\(\s*\{[^}]*?\bmethod:\s*['"](\w+)['"][^}]*?\burl:\s*(?:'([^']*)'|"([^"]*)"|`([^`]*)`)|\broute\(\s*\{[^}]*?\burl:\s*(?:'([^']*)'|"([^"]*)"|`([^`]*)`)[^}]*?\bmethod:\s*['"](\w+)['"]/g;

function tsFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? tsFiles(p) : e.name.endsWith('.ts') ? [p] : [];
  });
}

const STRING_CONST = /\bconst\s+([A-Z_][A-Za-z0-9_]*)\s*=\s*'([^']*)'/g;

/**
 * A route path as written in the source → a RegExp over request paths. `${NAME}` of a known string constant
 * is replaced by its value, any other `${…}` matches anything; `:param` one segment.
 */
export function routePattern(written: string, constants: Map<string, string> = new Map()): RegExp {
  const parts = written.split(/(\$\{[^}]*\}|:[A-Za-z_][A-Za-z0-9_]*|\*)/).filter((p) => p !== '');
  const literal = (p: string) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const re = parts
    .map((p) => {
      if (p.startsWith('${')) {
        const known = constants.get(p.slice(2, -1).trim());
        return known !== undefined ? literal(known) : '.+';
      }
      return p.startsWith(':') ? '[^/]+' : p === '*' ? '.*' : literal(p);
    })
    .join('');
  return new RegExp(`^${re}/?$`);
}

/** Module routes read from the source files under `dirs`: [METHOD, pattern]. */
export function moduleRoutes(dirs: string[], constantFiles: string[] = []): Array<[string, RegExp]> {
  const out: Array<[string, RegExp]> = [];
  const files = dirs.flatMap(tsFiles);
  const constants = new Map<string, string>();
  for (const file of [...constantFiles, ...files]) {
    if (!fs.existsSync(file)) continue;
    for (const m of fs.readFileSync(file, 'utf8').matchAll(STRING_CONST)) constants.set(m[1], m[2]);
  }
  for (const file of files) {
    const text = fs.readFileSync(file, 'utf8');
    for (const m of text.matchAll(ROUTE_CALL)) {
      const url = m[2] ?? m[3] ?? m[4];
      // route-like: an /api path, or a template whose first part is a variable (a document's api base)
      if (!url.startsWith('/api/') && !url.startsWith('${')) continue;
      out.push([m[1].toUpperCase(), routePattern(url, constants)]);
    }
    for (const m of text.matchAll(ROUTE_OBJECT)) {
      const method = m[1] ?? m[8];
      const url = m[2] ?? m[3] ?? m[4] ?? m[5] ?? m[6] ?? m[7];
      if (url.startsWith('/api/') || url.startsWith('${')) out.push([method.toUpperCase(), routePattern(url, constants)]);
    }
  }
  return out;
}

/** The route table of the project at `root` for these documents. */
export function staticRoutes(root: string, docs: ScreenDocument[]): RouteTable {
  const exact = new Set(docs.flatMap((d) => genericRoutes(d).map((r) => `${r.method} ${r.url}`)));
  const patterns = moduleRoutes([path.join(root, 'src/server/modules')], [path.join(root, 'src/server/app.ts')]);
  return {
    hasRoute: (method, url) => exact.has(`${method} ${url}`) || patterns.some(([m, re]) => m === method && re.test(url)),
  };
}

/**
 * The generic routes of a screen document as data: which METHOD + URL the generic plugins (crud, export, tree)
 * serve for it. The schema lint checks documents' endpoints against this table without building the app, and
 * the OpenAPI description takes each generic route's JSON Schemas from here (see routeSchema below).
 */
import type { ScreenDocument } from '../../shared/document.js';

export type HttpMethod = 'GET' | 'POST';

export type GenericRouteKind = 'list' | 'detail' | 'submit' | 'remove' | 'export' | 'tree' | 'lazy-list' | 'lazy-tree';

export interface GenericRoute {
  method: HttpMethod;
  url: string;
  kind: GenericRouteKind;
}

/** The generic routes mounted for `doc` (a module may serve one of them itself instead: same METHOD + URL). */
export function genericRoutes(doc: ScreenDocument): GenericRoute[] {
  const api = doc.resource.api;
  const out: GenericRoute[] = [
    { method: 'GET', url: `${api}/list`, kind: 'list' },
    { method: 'GET', url: `${api}/detail`, kind: 'detail' },
    { method: 'POST', url: `${api}/submit`, kind: 'submit' },
    { method: 'POST', url: `${api}/remove`, kind: 'remove' },
    { method: 'GET', url: `${api}/export`, kind: 'export' },
  ];
  if (doc.resource.tree) {
    for (const kind of ['tree', 'lazy-list', 'lazy-tree'] as const) out.push({ method: 'GET', url: `${api}/${kind}`, kind });
  }
  return out;
}

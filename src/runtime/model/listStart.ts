/**
 * Where a list starts: the document's starting state, and the first request a plain list screen sends when it
 * opens at an address. The list controller starts from the first; start-up (src/web/lib/startup.ts) sends the
 * second before the screen's code has loaded, and the controller's own request then takes its answer (the same
 * address, so the same request: both come from these functions).
 */
import type { AnyDocument, ScreenDocument } from '../../shared/document.js';
import { columnsModel } from './columns.js';
import { dictCodes, dictKey } from './dicts.js';
import { initialSorting, listParams, listUrl } from './list.js';
import { stateFromQuery, type ListState } from './listQuery.js';
import { searchDefaults, searchModel, validateSearch } from './search.js';

/** The document's starting state (its default page size, sort and search defaults). */
export function baseState(doc: ScreenDocument): ListState {
  return { current: 1, size: columnsModel(doc).defaultPageSize, search: searchDefaults(searchModel(doc)), sorting: initialSorting(doc) };
}

/**
 * The reads a `list` view of `doc` makes when opened with the address query `query`: its page, and its
 * dictionaries in one batch. Only for the plain list (a tree, master-detail or aside list asks otherwise); no page
 * while a required search is empty (the screen asks for it first).
 */
export function firstListReads(doc: AnyDocument, query: string): { list?: { url: string; params: Record<string, string | number> }; dictCodes?: string } {
  const type = doc.view?.type ?? 'list';
  if (type !== 'list' || !('list' in doc) || !doc.list || doc.list.aside) return {};
  const screen = doc as ScreenDocument;
  const state = stateFromQuery(query, baseState(screen), '', columnsModel(screen).pageSizes);
  const codes = dictKey(dictCodes(screen));
  return {
    list: validateSearch(searchModel(screen), state.search).length ? undefined : { url: listUrl(screen, 'list'), params: listParams(screen, state) },
    dictCodes: codes || undefined,
  };
}

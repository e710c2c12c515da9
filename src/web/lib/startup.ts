/**
 * The first screen of a reload in one round trip (issue 13). Before, each read waited for the code that makes
 * it: site config → shell code → page code → buttons and screen list → runtime code → screen document → the
 * list's page and dictionaries, one after another. From the address and the stored session alone, start-up knows
 * all of them: it starts the code and the reads together, and each later read (screen document, then the page
 * and dictionaries) as soon as the one before answers. The requests the app then makes take these answers
 * (api/client.ts `prefetch`); nothing is read twice, and a read that failed is simply made again by the app.
 */
import type { AnyDocument } from '../../shared/document.js';
import { DICT_BATCH_URL, SCREEN_DETAIL_URL } from '../../runtime/react/screenUrls.js';
import { prefetch, takeAnswer } from '../api/client.js';
import { MENU_BUTTONS_URL, MENU_ROUTES_URL, TOP_MENU_URL, menuParams, permissionMap } from '../auth/actions.js';
import { session, setMenu, setPermission, type MenuNode } from '../auth/session.js';
import { isPublic } from '../layout/Root.js';
import { LOCALE_EXTRA_URL, SCREEN_LIST_URL, screenForPath, screenSummaries } from './screens.js';
import { loadSections, sectionsOf } from '../i18n.js';
import { loadMenuPage, loadScreenRoute, loadShell } from './chunks.js';

export function startFirstScreen(path: string, query: string): void {
  const { token, menu, permission, topMenuId } = session.get();
  if (!token || isPublic(path)) return;
  void loadShell().catch(() => undefined);
  void loadMenuPage().catch(() => undefined);
  // Menus and buttons (a new tab has none stored) are applied the moment they arrive, so the shell's first render
  // has them: else the list draws without its row buttons and again, every cell anew, with them. A read that
  // failed is left for the shell's own (which handles a 401 or an error as usual).
  if (!menu)
    void prefetch(MENU_ROUTES_URL, menuParams(topMenuId)).then(() => {
      const tree = takeAnswer<MenuNode[]>(MENU_ROUTES_URL, menuParams(topMenuId));
      if (tree && !session.get().menu) setMenu(tree);
    });
  if (!Object.keys(permission).length)
    void prefetch(MENU_BUTTONS_URL).then(() => {
      const tree = takeAnswer<MenuNode[]>(MENU_BUTTONS_URL);
      if (tree && !Object.keys(session.get().permission).length) setPermission(permissionMap(tree));
    });
  void prefetch(TOP_MENU_URL);
  void prefetch(LOCALE_EXTRA_URL);
  void prefetch(SCREEN_LIST_URL).then(async (list) => {
    const screen = list?.code === 200 ? screenForPath(screenSummaries(list.data), path) : undefined;
    if (!screen) return;
    void loadScreenRoute().then((m) => m.preloadRuntime(), () => undefined);
    const [doc, model] = await Promise.all([prefetch<AnyDocument>(SCREEN_DETAIL_URL, { id: screen.id }), import('../../runtime/model/index.js')]);
    if (doc?.code !== 200 || !doc.data) return;
    // the strings the document names, alongside its list's reads
    void loadSections(sectionsOf(doc.data)).catch(() => undefined);
    if (screen.route !== path) return;
    const reads = model.firstListReads(doc.data, query);
    if (reads.list) void prefetch(reads.list.url, reads.list.params);
    if (reads.dictCodes) void prefetch(DICT_BATCH_URL, { codes: reads.dictCodes });
  });
}

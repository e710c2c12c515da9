/**
 * The code of a reloaded page's first screen, one load each: start-up starts them (lib/startup.ts) and the
 * routes draw them (eagerLazy), so a part that has arrived is drawn in its parent's render without suspending.
 */
import { loadOnce } from '../../shared/loadOnce.js';
import { withTimeout } from '../layout/ErrorBoundary.js';

export const loadShell = loadOnce(withTimeout(() => import('../layout/Shell.js')));
export const loadMenuPage = loadOnce(withTimeout(() => import('../pages/MenuPage.js')));
export const loadScreenRoute = loadOnce(withTimeout(() => import('../pages/ScreenRoute.js')));

/**
 * The code of a reloaded page's first screen, one load each: start-up starts them (lib/startup.ts) and the
 * routes draw them (eagerLazy), so a part that has arrived is drawn in its parent's render without suspending.
 */
import { loader } from '../../runtime/react/eagerLazy.js';
import { withTimeout } from '../layout/ErrorBoundary.js';

export const loadShell = loader(withTimeout(() => import('../layout/Shell.js')));
export const loadMenuPage = loader(withTimeout(() => import('../pages/MenuPage.js')));
export const loadScreenRoute = loader(withTimeout(() => import('../pages/ScreenRoute.js')));

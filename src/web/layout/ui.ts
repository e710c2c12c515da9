import { createStore } from '../lib/createStore.js';

/** Transient shell UI state shared by the top bar, tabs and overlays. */
/** `narrowExpanded`: the user opened the side menu on a 768–991 px screen, where it starts collapsed. */
export const ui = createStore({ searchOpen: false, drawerOpen: false, narrowExpanded: false });

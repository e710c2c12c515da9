import { createStore } from '../lib/createStore.js';

/** Transient shell UI state shared by the top bar, tabs and overlays. */
export const ui = createStore({ searchOpen: false, drawerOpen: false });

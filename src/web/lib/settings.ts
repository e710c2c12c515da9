import { website } from '../config.js';
import { createStore } from './createStore.js';
import { getStore, setStore } from './storage.js';
import { findTheme } from './themes.js';

/** UI preferences remembered in local storage (theme, primary colour, collapse). */
export const settings = createStore({
  themeName: findTheme(getStore<string>('themeName')).name,
  color: getStore<string>('colorName') ?? website.primaryColor,
  collapse: getStore<boolean>('collapse') ?? false,
  fullscreen: false,
});

export function setThemeName(name: string): void {
  setStore('themeName', name);
  settings.set({ themeName: findTheme(name).name });
}

export function setColor(color: string): void {
  setStore('colorName', color);
  settings.set({ color });
}

export function setCollapse(collapse: boolean): void {
  setStore('collapse', collapse);
  settings.set({ collapse });
}

import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import zh from '../../locales/zh.json';
import { getStore, setStore } from './lib/storage.js';

export type Lang = 'zh' | 'en';
export const LANGS: Lang[] = ['zh', 'en'];

/** Keys looked up but missing in the current language (the e2e language check reads this). */
export const missingKeys = new Set<string>();

// Chinese, the default, ships with the app; English is fetched when first used (at start-up when it is the
// stored choice, in parallel with the site config; else when the user switches).
const bundles: Record<Lang, () => Promise<Record<string, unknown>>> = {
  zh: async () => zh,
  en: () => import('../../locales/en.json').then((m) => m.default),
};

/** Makes a language's strings available (once). */
export async function loadLanguage(lng: Lang): Promise<void> {
  if (!i18n.hasResourceBundle(lng, 'translation')) i18n.addResourceBundle(lng, 'translation', await bundles[lng]());
}

export function storedLanguage(): Lang {
  const l = getStore<string>('language');
  return l === 'en' ? 'en' : 'zh';
}

/** Sets i18next up in the stored language; resolves when that language's strings are loaded (render after it). */
export function initI18n(): Promise<void> {
  const lng = storedLanguage();
  void i18n.use(initReactI18next).init({
    resources: { zh: { translation: zh } },
    lng,
    fallbackLng: false,
    interpolation: { escapeValue: false },
    returnNull: false,
    saveMissing: true,
    missingKeyHandler: (_lngs, _ns, key) => {
      missingKeys.add(`${i18n.language}:${key}`);
    },
    initAsync: false,
  });
  dayjs.locale(lng === 'zh' ? 'zh-cn' : 'en');
  document.documentElement.lang = lng === 'zh' ? 'zh-CN' : 'en';
  (window as unknown as { __missingI18n: Set<string> }).__missingI18n = missingKeys;
  // English unreachable (offline, a failed deploy): Chinese rather than raw keys
  return loadLanguage(lng).catch(async () => {
    dayjs.locale('zh-cn');
    document.documentElement.lang = 'zh-CN';
    await i18n.changeLanguage('zh');
  });
}

export async function changeLanguage(lng: Lang): Promise<void> {
  await loadLanguage(lng);
  setStore('language', lng);
  dayjs.locale(lng === 'zh' ? 'zh-cn' : 'en');
  document.documentElement.lang = lng === 'zh' ? 'zh-CN' : 'en';
  await i18n.changeLanguage(lng);
}

export { i18n };

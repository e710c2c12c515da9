import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import zh from '../../locales/zh.json';
import en from '../../locales/en.json';
import { getStore, setStore } from './lib/storage.js';

export type Lang = 'zh' | 'en';
export const LANGS: Lang[] = ['zh', 'en'];

/** Keys looked up but missing in the current language (the e2e language check reads this). */
export const missingKeys = new Set<string>();

export function storedLanguage(): Lang {
  const l = getStore<string>('language');
  return l === 'en' ? 'en' : 'zh';
}

export function initI18n(): typeof i18n {
  const lng = storedLanguage();
  void i18n.use(initReactI18next).init({
    resources: { zh: { translation: zh }, en: { translation: en } },
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
  return i18n;
}

export async function changeLanguage(lng: Lang): Promise<void> {
  setStore('language', lng);
  dayjs.locale(lng === 'zh' ? 'zh-cn' : 'en');
  document.documentElement.lang = lng === 'zh' ? 'zh-CN' : 'en';
  await i18n.changeLanguage(lng);
}

export { i18n };

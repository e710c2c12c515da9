import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
// The sections of locales/zh.json that any page may show (scripts/vite-locales.ts): those the code names (the app's,
// the shell's, the login page's, the runtime's own, the error pages', the home and personal-info pages', the
// built-in import action's, the cron widget's). The other sections (one per screen) load with the screen documents
// that name them (loadSections).
import zhCore from 'virtual:locales/zh/app,common,shell,runtime,error,login,home,info,import,job';
import { SECTIONS, sectionLoaders } from 'virtual:locales';
import zhCN from 'antd/es/locale/zh_CN';
// (antd's own default: it ships with antd's config provider anyway, so it is not loaded with the English strings)
import enUS from 'antd/es/locale/en_US';
import type { Locale as AntdLocale } from 'antd/es/locale';
import { getStore, setStore } from './lib/storage.js';

export type Lang = 'zh' | 'en';
export const LANGS: Lang[] = ['zh', 'en'];

/** Keys looked up but missing in the current language (the e2e language check reads this). */
export const missingKeys = new Set<string>();

// Chinese, the default, ships with the app; English is fetched when first used (at start-up when it is the
// stored choice, in parallel with the site config; else when the user switches). Same sections as zhCore.
const cores: Record<Lang, () => Promise<Record<string, unknown>>> = {
  zh: async () => zhCore,
  en: () => import('virtual:locales/en/app,common,shell,runtime,error,login,home,info,import,job').then((m) => m.default),
};

/** antd's own texts (pagination, empty states, pickers) in this language. */
export function antdLocale(lng: string): AntdLocale {
  return lng === 'en' ? enUS : zhCN;
}
/** The sections that ship with the app (a test checks that they cover every key the code names). */
export const CORE = new Set(Object.keys(zhCore));

/** Sections each language has; `wanted`: the sections some page has needed (a language switch loads them all). */
const have: Record<Lang, Set<string>> = { zh: new Set(), en: new Set() };
const wanted = new Set<string>();

async function addSection(lng: Lang, section: string): Promise<void> {
  if (have[lng].has(section)) return;
  const texts = CORE.has(section) ? undefined : (await sectionLoaders[lng][section]()).default;
  if (texts) i18n.addResourceBundle(lng, 'translation', texts, true, true);
  have[lng].add(section);
}

/** Makes a language's strings available: its core (once) and the sections pages have needed so far. */
export async function loadLanguage(lng: Lang): Promise<void> {
  if (!have[lng].has('')) {
    // bundled texts win over a document folder's (loadExtraTexts may have added some of this language first)
    i18n.addResourceBundle(lng, 'translation', await cores[lng](), true, true);
    have[lng].add('');
    for (const s of CORE) have[lng].add(s);
  }
  await Promise.all([...wanted].map((s) => addSection(lng, s)));
}

/** Loads these sections' strings (a screen document's) in the current language; a later language gets them too. */
export async function loadSections(sections: Iterable<string>): Promise<void> {
  const lng = (i18n.language === 'en' ? 'en' : 'zh') satisfies Lang;
  const more = [...sections].filter((s) => SECTIONS.includes(s) && !CORE.has(s));
  for (const s of more) wanted.add(s);
  await Promise.all(more.map((s) => addSection(lng, s)));
}

/** Whether these sections' strings are already here in the current language (loadSections would not wait). */
export function sectionsLoaded(sections: Iterable<string>): boolean {
  const lng = (i18n.language === 'en' ? 'en' : 'zh') satisfies Lang;
  return [...sections].every((s) => !SECTIONS.includes(s) || CORE.has(s) || have[lng].has(s));
}

const KEY = /^([a-z][A-Za-z0-9]*)\.[\w-]+(?:\.[\w-]+)*$/;

/** The sections a document's texts come from: the prefixes of its keys (`merchant.field.x`) and its id. */
export function sectionsOf(doc: unknown): Set<string> {
  const out = new Set<string>();
  const walk = (v: unknown): void => {
    if (typeof v === 'string') {
      const m = KEY.exec(v);
      if (m) out.add(m[1]);
    } else if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') Object.values(v).forEach(walk);
  };
  walk(doc);
  const id = (doc as { id?: unknown } | null)?.id;
  if (typeof id === 'string') out.add(id);
  return out;
}

export function storedLanguage(): Lang {
  const l = getStore<string>('language');
  return l === 'en' ? 'en' : 'zh';
}

/** Sets i18next up in the stored language; resolves when that language's strings are loaded (render after it). */
export function initI18n(): Promise<void> {
  const lng = storedLanguage();
  void i18n.use(initReactI18next).init({
    resources: { zh: { translation: zhCore } },
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
  have.zh = new Set(['', ...CORE]);
  dayjs.locale(lng === 'zh' ? 'zh-cn' : 'en');
  document.documentElement.lang = lng === 'zh' ? 'zh-CN' : 'en';
  (window as unknown as { __missingI18n: Set<string> }).__missingI18n = missingKeys;
  // English unreachable (offline, a failed deploy): Chinese rather than raw keys
  return loadLanguage(lng).catch(async () => {
    dayjs.locale('zh-cn');
    document.documentElement.lang = 'zh-CN';
    await loadLanguage('zh').catch(() => undefined);
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

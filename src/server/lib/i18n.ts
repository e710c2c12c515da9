/**
 * Server-side texts: the same locale files as the web app (locales/zh.json default, locales/en.json), read once,
 * plus the strings an extra folder of screen documents (SCHEMA_DIRS) brings in its own `locales/zh.json` and
 * `locales/en.json` (e.g. the test fixture screen): added to the product's texts, never replacing them.
 * The request language comes from `?lang=` or `Accept-Language` (en… → en, anything else → zh).
 */
import fs from 'node:fs';
import path from 'node:path';
import { PRODUCT_ROOT } from './productRoot.js';
import { SERVER_MESSAGES } from './http.js';

export type Lang = 'zh' | 'en';
export const LANGS: Lang[] = ['zh', 'en'];

/** The locale file of `lang` that an extra document folder may bring: `<dir>/locales/<lang>.json`. */
export function extraLocaleFile(dir: string, lang: Lang): string {
  return path.join(dir, 'locales', `${lang}.json`);
}

/** Copy of `base` with the keys of `extra` it lacks (nested objects merged; base texts win). */
export function addTexts(base: unknown, extra: unknown): unknown {
  if (!extra || typeof extra !== 'object' || Array.isArray(extra)) return base;
  if (!base || typeof base !== 'object' || Array.isArray(base)) return base === undefined ? extra : base;
  const out: Record<string, unknown> = { ...(base as Record<string, unknown>) };
  for (const [k, v] of Object.entries(extra as Record<string, unknown>)) out[k] = k in out ? addTexts(out[k], v) : v;
  return out;
}

export class I18n {
  private texts: Record<Lang, any> = { zh: {}, en: {} };
  /** Only the texts of the extra folders, per language (served to the web app). */
  private extras: Record<Lang, any> = { zh: {}, en: {} };

  constructor(
    private rootDir: string,
    private extraDirs: string[] = [],
  ) {
    this.reload();
  }

  reload(): void {
    const read = (file: string): unknown => {
      try {
        return JSON.parse(fs.readFileSync(file, 'utf8'));
      } catch {
        return {};
      }
    };
    for (const lang of LANGS) {
      let extras: unknown = {};
      for (const dir of this.extraDirs) if (fs.existsSync(extraLocaleFile(dir, lang))) extras = addTexts(extras, read(extraLocaleFile(dir, lang)));
      this.extras[lang] = extras;
      this.texts[lang] = addTexts(read(path.join(this.rootDir, 'locales', `${lang}.json`)), extras);
    }
  }

  /** The texts the extra document folders add (SCHEMA_DIRS `locales/`), `{}` without any. */
  extraTexts(lang: Lang): Record<string, unknown> {
    return this.extras[lang];
  }

  has(lang: Lang, key: string): boolean {
    return typeof this.lookup(lang, key) === 'string';
  }

  private lookup(lang: Lang, key: string): unknown {
    let cur: any = this.texts[lang];
    for (const part of key.split('.')) {
      if (cur === null || typeof cur !== 'object') return undefined;
      cur = cur[part];
    }
    return cur;
  }

  /** Text of a key with {{name}} interpolation; falls back to the server catalogue, zh, `fallback`, the key. */
  t(lang: Lang, key: string, params: Record<string, unknown> = {}, fallback?: string): string {
    let s = this.lookup(lang, key);
    if (typeof s !== 'string' && SERVER_MESSAGES[key]) s = SERVER_MESSAGES[key][lang === 'en' ? 1 : 0];
    if (typeof s !== 'string') s = this.lookup('zh', key);
    if (typeof s !== 'string') s = fallback ?? key;
    return (s as string).replace(/\{\{\s*(\w+)\s*\}\}/g, (_, k: string) => {
      const v = params[k];
      return v === undefined || v === null ? '' : String(v);
    });
  }
}

export function requestLang(query: unknown, acceptLanguage: string | undefined): Lang {
  const q = query && typeof query === 'object' ? (query as Record<string, unknown>).lang : undefined;
  const raw = typeof q === 'string' && q ? q : acceptLanguage ?? '';
  return /^\s*en/i.test(raw) ? 'en' : 'zh';
}

let productTexts: I18n | undefined;

/**
 * The text of a product i18n key outside a request (no `app.ctx.i18n` at hand: a BusinessError's logged message,
 * an import's row errors, a sheet's headers), read through the same I18n as requests — one locale reader.
 */
export function translate(key: string, params: Record<string, unknown> = {}, lang: string = 'zh'): string {
  productTexts ??= new I18n(PRODUCT_ROOT);
  return productTexts.t(lang === 'en' ? 'en' : 'zh', key, params);
}

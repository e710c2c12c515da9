/**
 * Server-side texts: the same locale files as the web app (locales/zh.json default, locales/en.json), read once.
 * The request language comes from `?lang=` or `Accept-Language` (en… → en, anything else → zh).
 */
import fs from 'node:fs';
import path from 'node:path';
import { SERVER_MESSAGES } from './http.js';

export type Lang = 'zh' | 'en';

export class I18n {
  private texts: Record<Lang, any> = { zh: {}, en: {} };

  constructor(private rootDir: string) {
    this.reload();
  }

  reload(): void {
    for (const lang of ['zh', 'en'] as const) {
      const file = path.join(this.rootDir, 'locales', `${lang}.json`);
      try {
        this.texts[lang] = JSON.parse(fs.readFileSync(file, 'utf8'));
      } catch {
        this.texts[lang] = {};
      }
    }
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

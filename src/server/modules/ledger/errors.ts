/**
 * Business refusals of the ledger and the business modules: an i18n key (locales/*.json), its parameters,
 * and the HTTP status (400 unless said). The message is resolved in the request language (zh default).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { HttpError } from '../../lib/http.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const cache = new Map<string, Record<string, unknown>>();

function locale(lang: string): Record<string, unknown> {
  const l = lang === 'en' ? 'en' : 'zh';
  let m = cache.get(l);
  if (!m) {
    try {
      m = JSON.parse(fs.readFileSync(path.join(root, 'locales', `${l}.json`), 'utf8')) as Record<string, unknown>;
    } catch {
      m = {};
    }
    cache.set(l, m);
  }
  return m;
}

/** The text of an i18n key with {{param}} interpolation; the key itself when missing. */
export function translate(key: string, params: Record<string, unknown> = {}, lang = 'zh'): string {
  let cur: unknown = locale(lang);
  for (const part of key.split('.')) cur = cur && typeof cur === 'object' ? (cur as Record<string, unknown>)[part] : undefined;
  const text = typeof cur === 'string' ? cur : key;
  return text.replace(/\{\{(\w+)\}\}/g, (_, k: string) => String(params[k] ?? ''));
}

/** An HttpError (the app's error handler answers HTTP <status> + R with the text in the request language). */
export class BusinessError extends HttpError {
  constructor(key: string, params: Record<string, unknown> = {}, status = 400) {
    super(status, key, params, null);
    this.message = translate(key, params);
    this.name = 'BusinessError';
  }

  messageIn(lang: string): string {
    return translate(this.key, this.params, lang);
  }
}

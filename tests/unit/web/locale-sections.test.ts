// @vitest-environment happy-dom
/**
 * The app's strings in sections (issue 13, scripts/vite-locales.ts + src/web/i18n.ts): the pages' common sections
 * ship with the app, a screen's own load with the document that names them, in the current language and in a
 * language switched to later.
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { SECTIONS } from 'virtual:locales';
import zh from '../../../locales/zh.json';
import en from '../../../locales/en.json';
import merchantJson from '../../../schemas/business/merchant.json';
import orderJson from '../../../schemas/business/order.json';
import { CORE, changeLanguage, i18n, initI18n, loadSections, sectionsOf } from '../../../src/web/i18n.js';

function files(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((d) => (d.isDirectory() ? files(path.join(dir, d.name)) : /\.tsx?$/.test(d.name) ? [path.join(dir, d.name)] : []));
}

beforeAll(async () => {
  localStorage.clear();
  await initI18n();
});

describe('locale sections', () => {
  it('are the top-level keys of the locale files', () => {
    expect(SECTIONS).toEqual(Object.keys(zh));
  });

  it('the code names keys of the shipped sections only (a screen section loads with its document, not with code)', () => {
    const root = path.resolve(import.meta.dirname, '../../../src');
    const named = new Map<string, string>();
    for (const dir of ['web', 'runtime', 'shared']) {
      for (const f of files(path.join(root, dir))) {
        for (const m of fs.readFileSync(f, 'utf8').matchAll(/['"`]([a-z][A-Za-z0-9]*)\.[\w-]+(?:\.[\w-]+)+['"`]/g)) {
          if (SECTIONS.includes(m[1]) && !CORE.has(m[1])) named.set(m[0], path.relative(root, f));
        }
      }
    }
    // i18n.ts' own comment example aside
    expect([...named].filter(([, f]) => f !== path.join('web', 'i18n.ts'))).toEqual([]);
  });

  it('a document names the sections of its keys and its own', () => {
    expect([...sectionsOf(merchantJson)]).toEqual(expect.arrayContaining(['merchant', 'common']));
    // the order screen's refund form borrows the employee screen's amount messages
    expect([...sectionsOf(orderJson)]).toEqual(expect.arrayContaining(['order', 'employee']));
    expect(sectionsOf({ id: 'x', route: '/a/b', api: 'image/png', note: 'merchant' }).has('merchant')).toBe(false);
  });

  it('the shell ships; a screen section loads when asked for, and comes along on a language switch', async () => {
    expect(i18n.t('shell.page.home')).toBe(zh.shell.page.home);
    expect(i18n.exists('merchant.title')).toBe(false);
    await loadSections(sectionsOf(merchantJson));
    expect(i18n.t('merchant.title')).toBe(zh.merchant.title);
    await changeLanguage('en');
    expect(i18n.t('merchant.title')).toBe(en.merchant.title);
    expect(i18n.t('shell.page.home')).toBe(en.shell.page.home);
    await changeLanguage('zh');
  });
});

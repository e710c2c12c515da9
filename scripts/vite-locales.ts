/**
 * Vite plugin: the app's strings (locales/<lang>.json) in sections, so a page loads the sections it shows rather
 * than every screen's strings (issue 13). The JSON files stay the one source (lint and tests read them whole).
 *
 *   import texts from 'virtual:locales/zh/common,shell'  → { common: {...}, shell: {...} } of zh.json
 *   import { SECTIONS, sectionLoaders } from 'virtual:locales'
 *       SECTIONS: the top-level keys of zh.json; sectionLoaders[lang][section]: () => import of that one section
 *       (each its own small chunk).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Plugin } from 'vite';

const PREFIX = 'virtual:locales';
const LANGS = ['zh', 'en'];

export function localeSections(root: string): Plugin {
  const file = (lang: string) => path.join(root, 'locales', `${lang}.json`);
  const read = (lang: string): Record<string, unknown> => JSON.parse(fs.readFileSync(file(lang), 'utf8'));
  return {
    name: 'locale-sections',
    resolveId(id) {
      if (id === PREFIX || id.startsWith(`${PREFIX}/`)) return `\0${id}`;
      return null;
    },
    load(id) {
      if (!id.startsWith(`\0${PREFIX}`)) return null;
      for (const lang of LANGS) this.addWatchFile(file(lang));
      const rest = id.slice(PREFIX.length + 2);
      if (!rest) {
        const sections = Object.keys(read('zh'));
        const loaders = LANGS.map((lang) => `${JSON.stringify(lang)}: {${sections.map((s) => `${JSON.stringify(s)}: () => import(${JSON.stringify(`${PREFIX}/${lang}/${s}`)})`).join(',')}}`);
        return `export const SECTIONS = ${JSON.stringify(sections)};\nexport const sectionLoaders = {${loaders.join(',')}};`;
      }
      const [lang, list] = rest.split('/');
      if (!LANGS.includes(lang) || !list) this.error(`unknown locale module ${id.slice(1)}`);
      const all = read(lang);
      return `export default ${JSON.stringify(Object.fromEntries(list.split(',').map((s) => [s, all[s] ?? {}])))};`;
    },
  };
}

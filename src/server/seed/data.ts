/**
 * The data files an analyst edits besides screen documents: schemas/data/menus.json (the menu tree) and
 * schemas/data/dictionaries/*.json (dictionaries), each with its JSON Schema in schemas/meta/ so editors
 * complete them. One loader for the server's seed sync (a bad file stops the start) and the schema lint
 * (which reports the same problems as `file: /pointer: message` lines).
 */
import fs from 'node:fs';
import path from 'node:path';
import { PRODUCT_ROOT } from '../lib/productRoot.js';
import { metaValidator } from '../meta-schema.js';
import { fileDictionaries, type DictionaryFile, type SeedDictionary } from './dictionaries.js';
import { expandMenus, type MenuEntry, type SeedMenu } from './menus.js';

export const DATA_DIR = 'schemas/data';
export const MENUS_FILE = `${DATA_DIR}/menus.json`;
export const DICTIONARIES_DIR = `${DATA_DIR}/dictionaries`;

export interface DataProblem {
  /** Relative to the project root. */
  file: string;
  pointer: string;
  message: string;
}

export interface SeedData {
  menus: SeedMenu[];
  dictionaries: SeedDictionary[];
  /** The data files read (relative to the root). */
  files: string[];
  problems: DataProblem[];
}

/** A JSON reader: the lint passes one that also reports duplicate keys. */
export type JsonReader = (text: string) => { value: unknown; duplicates: Array<{ pointer: string; message: string }> };

const plainJson: JsonReader = (text) => ({ value: JSON.parse(text), duplicates: [] });

export interface LoadDataOptions {
  parse?: JsonReader;
}

const q = (v: unknown) => JSON.stringify(v);

/** Read, validate and expand the data files under `root`/schemas/data. Never throws: problems are returned. */
export function loadSeedData(root: string = PRODUCT_ROOT, opts: LoadDataOptions = {}): SeedData {
  const parse = opts.parse ?? plainJson;
  const out: SeedData = { menus: [], dictionaries: [], files: [], problems: [] };
  const metaDir = fs.existsSync(path.join(root, 'schemas/meta/menus.schema.json')) ? path.join(root, 'schemas/meta') : path.join(PRODUCT_ROOT, 'schemas/meta');
  const read = (rel: string, schemaFile: string): unknown => {
    out.files.push(rel);
    const add = (pointer: string, message: string) => out.problems.push({ file: rel, pointer, message });
    let value: unknown;
    try {
      const parsed = parse(fs.readFileSync(path.join(root, rel), 'utf8'));
      value = parsed.value;
      for (const d of parsed.duplicates) add(d.pointer, d.message);
    } catch (e) {
      add('/', `invalid JSON: ${e instanceof Error ? e.message : String(e)}`);
      return undefined;
    }
    const problems = metaValidator(path.join(metaDir, schemaFile))(value);
    for (const p of problems) add(p.pointer, p.message);
    return problems.length ? undefined : value;
  };

  // Menus: one file, codes unique over the expanded tree (standard buttons included).
  if (!fs.existsSync(path.join(root, MENUS_FILE))) out.problems.push({ file: MENUS_FILE, pointer: '/', message: 'missing: the menu tree is required' });
  else {
    const content = read(MENUS_FILE, 'menus.schema.json') as { menus: MenuEntry[] } | undefined;
    if (content) {
      out.menus = expandMenus(content.menus);
      const seen = new Map<string, string>();
      const paths = new Map<string, string>();
      const walk = (nodes: SeedMenu[]) => {
        for (const n of nodes) {
          const prev = seen.get(n.code);
          if (prev) out.problems.push({ file: MENUS_FILE, pointer: n.at ?? '/', message: `code ${q(n.code)} is also at ${prev}` });
          else seen.set(n.code, n.at ?? '/');
          // a route leads to one menu entry (the web app finds the screen of an entry by its path)
          if (n.category === 1) {
            const at = (n.at ?? '').replace(/\/code$/, '/path');
            const other = paths.get(n.path);
            if (other) out.problems.push({ file: MENUS_FILE, pointer: at, message: `path ${q(n.path)} is also at ${other}` });
            else paths.set(n.path, at);
          }
          walk(n.children);
        }
      };
      walk(out.menus);
    }
  }

  // Dictionaries: any number of files, codes unique across them, keys unique in a dictionary.
  const dictDir = path.join(root, DICTIONARIES_DIR);
  const dictFiles = fs.existsSync(dictDir) ? fs.readdirSync(dictDir).filter((f) => f.endsWith('.json')).sort() : [];
  const codes = new Map<string, string>();
  for (const name of dictFiles) {
    const rel = `${DICTIONARIES_DIR}/${name}`;
    const content = read(rel, 'dictionaries.schema.json') as DictionaryFile | undefined;
    if (!content) continue;
    for (const [i, d] of fileDictionaries(content, rel).entries()) {
      const prev = codes.get(d.code);
      if (prev) out.problems.push({ file: rel, pointer: d.at!, message: `dictionary ${q(d.code)} is also defined at ${prev}` });
      else codes.set(d.code, `${rel}: ${d.at}`);
      const keys = new Map<string, number>();
      d.items.forEach((it, j) => {
        if (keys.has(it.key)) out.problems.push({ file: rel, pointer: `/dictionaries/${i}/items/${j}/key`, message: `key ${q(it.key)} is also item ${keys.get(it.key)}` });
        else keys.set(it.key, j);
      });
      out.dictionaries.push(d);
    }
  }
  return out;
}

export class SeedDataError extends Error {}

/** The data files for the server: a problem stops the start with one `file: /pointer: message` line each. */
export function readSeedData(root: string = PRODUCT_ROOT): SeedData {
  const data = loadSeedData(root);
  if (data.problems.length) throw new SeedDataError(data.problems.map((p) => `${p.file}: ${p.pointer}: ${p.message}`).join('\n'));
  return data;
}

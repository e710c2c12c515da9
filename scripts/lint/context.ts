/**
 * Gathers what the cross-reference checks compare documents with: the data files (dictionaries, menu tree), both
 * locale files, the routes the server serves (a static table, scripts/lint/routes.ts) and CURRENT_SCHEMA_VERSION.
 * Anything that cannot be loaded is reported as a problem (so the lint fails), and its checks are skipped.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { addTexts, extraLocaleFile } from '../../src/server/lib/i18n.js';
import { CURRENT_SCHEMA_VERSION, type ScreenDocument } from '../../src/shared/document.js';
import { loadSeedData } from '../../src/server/seed/data.js';
import { dictionaryIndex, menuIndex, type LintContext } from './crossref.js';
import { collectFiles, type LintProblem } from './index.js';
import { parseJson } from './json.js';
import { registryDrift } from './meta.js';
import { staticRoutes } from './routes.js';

export const LOCALE_FILES = ['locales/zh.json', 'locales/en.json'];

export interface LoadedContext {
  ctx: LintContext;
  /** Problems loading the context (missing module, bad locale JSON …). */
  problems: LintProblem[];
  /** Release what was opened (nothing today; kept for callers). */
  close(): Promise<void>;
}

async function importTs(root: string, rel: string): Promise<Record<string, unknown>> {
  return (await import(pathToFileURL(path.join(root, rel)).href)) as Record<string, unknown>;
}

/** SCHEMA_DIRS as the server reads it (comma-separated, relative to the project root). */
function schemaDirs(root: string): string[] {
  return (process.env.SCHEMA_DIRS ?? '').split(',').map((d) => d.trim()).filter(Boolean).map((d) => path.resolve(root, d));
}

const reason = (e: unknown) => (e instanceof Error ? e.message.split('\n')[0] : String(e));

export interface LoadOptions {
  /** Skip the endpoint checks. */
  endpoints?: boolean;
}

export async function loadContext(root: string, opts: LoadOptions = {}): Promise<LoadedContext> {
  const problems: LintProblem[] = [];
  const ctx: LintContext = { currentSchemaVersion: CURRENT_SCHEMA_VERSION };

  // Locales
  const locales: Record<string, unknown> = {};
  for (const rel of LOCALE_FILES) {
    try {
      locales[rel] = JSON.parse(fs.readFileSync(path.join(root, rel), 'utf8'));
    } catch (e) {
      problems.push({ file: rel, pointer: '/', message: `cannot read the locale file: ${reason(e)}` });
    }
  }
  // Extra document folders (SCHEMA_DIRS) may bring their own strings in <dir>/locales/<lang>.json: the server
  // adds them to the product's texts (src/server/lib/i18n.ts), so the lint counts them as present too.
  for (const dir of schemaDirs(root)) {
    for (const rel of LOCALE_FILES) {
      const lang = path.basename(rel, '.json') as 'zh' | 'en';
      const file = extraLocaleFile(dir, lang);
      if (!fs.existsSync(file) || !(rel in locales)) continue;
      try {
        locales[rel] = addTexts(locales[rel], JSON.parse(fs.readFileSync(file, 'utf8')));
      } catch (e) {
        problems.push({ file: path.relative(root, file), pointer: '/', message: `cannot read the locale file: ${reason(e)}` });
      }
    }
  }
  if (Object.keys(locales).length === LOCALE_FILES.length) ctx.locales = locales;

  // The static meta-schema (what editors complete from) names the registry's widgets, options, cells, views.
  const metaFile = 'schemas/meta/screen.schema.json';
  try {
    for (const p of registryDrift(JSON.parse(fs.readFileSync(path.join(root, metaFile), 'utf8')) as object)) problems.push({ file: metaFile, ...p });
  } catch (e) {
    problems.push({ file: metaFile, pointer: '/', message: `cannot read the meta-schema: ${reason(e)}` });
  }

  // Document migrations (older schemaVersions are linted as the server upgrades them)
  const docsFile = 'src/server/documents.ts';
  try {
    const m = await importTs(root, docsFile);
    if (typeof m.migrateDocument !== 'function') throw new Error('it does not export migrateDocument');
    ctx.migrate = m.migrateDocument as (doc: unknown) => unknown;
  } catch (e) {
    problems.push({ file: docsFile, pointer: '/', message: `cannot load migrateDocument (${reason(e)}): older documents cannot be migrated` });
  }

  // Data files (schemas/data: dictionaries and the menu tree), read by the server's own loader; their
  // problems (meta-schema, duplicate codes or keys) are lint problems.
  const data = loadSeedData(root, { parse: parseJson });
  problems.push(...data.problems);
  ctx.dictionaries = dictionaryIndex(data.dictionaries);
  ctx.menus = menuIndex(data.menus);
  ctx.dataFiles = data.files;

  // Screen ids the server loads (schemas/ without meta and data, plus SCHEMA_DIRS): what references to other
  // screens may name, and whose generic routes the server mounts. Read leniently (a broken file is the lint's
  // own finding, reported once at its pointer, not a context problem).
  const screens = new Set<string>();
  const docs: ScreenDocument[] = [];
  const dirs = [path.join(root, 'schemas'), ...schemaDirs(root)];
  for (const file of collectFiles(dirs.filter((d) => fs.existsSync(d)))) {
    try {
      const doc = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<ScreenDocument> | null;
      if (typeof doc?.id === 'string') screens.add(doc.id);
      if (typeof doc?.resource?.api === 'string') docs.push(doc as ScreenDocument);
    } catch {
      /* reported when the file itself is linted */
    }
  }
  ctx.screens = screens;

  // Routes: a static table (generic routes of those documents + the modules' routes read from their source);
  // the app is not built, so a broken document is one line of its own and nothing else.
  if (opts.endpoints !== false) ctx.hasRoute = staticRoutes(root, docs).hasRoute;
  return { ctx, problems, close: async () => {} };
}

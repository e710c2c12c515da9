/**
 * The schema lint as functions: collect documents, check each against the meta-schema, then (only when
 * it is well-formed) its cross-references, then the set as a whole. No printing, no process exit.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { AnyDocument } from '../../src/shared/document.js';
import { checkDocument, checkScreenRefs, checkSet, type LintContext, type LintedDocument } from './crossref.js';
import { JsonSyntaxError, parseJson } from './json.js';
import { metaValidator } from './meta.js';

export interface LintProblem {
  /** File path as given / relative to the working directory. */
  file: string;
  /** JSON pointer into the document ('/' = the whole document). */
  pointer: string;
  message: string;
}

export interface LintResult {
  files: string[];
  problems: LintProblem[];
}

/** `file: /json/pointer: message` */
export function formatProblem(p: LintProblem): string {
  return `${p.file}: ${p.pointer}: ${p.message}`;
}

/**
 * Screen documents under the given files/directories (recursively, *.json), skipping meta-schemas
 * (`*.schema.json` and any `meta` directory), a folder's strings (`locales` directories) and data files
 * (`data` directories: dictionaries and the menu tree, checked by their own loader, see context.ts).
 * Sorted, deduplicated.
 */
export function collectFiles(targets: string[]): string[] {
  const out = new Set<string>();
  const walk = (p: string, explicit: boolean) => {
    const st = fs.statSync(p);
    if (st.isDirectory()) {
      if (!explicit && ['meta', 'node_modules', 'locales', 'data'].includes(path.basename(p))) return;
      for (const e of fs.readdirSync(p).sort()) walk(path.join(p, e), false);
    } else if (explicit || (p.endsWith('.json') && !p.endsWith('.schema.json'))) {
      out.add(p);
    }
  };
  for (const t of targets) walk(t, true);
  return [...out].sort();
}

export interface LintOptions {
  /** Project root: where schemas/meta/screen.schema.json lives. */
  root: string;
  /** Directory file names are shown relative to (default process.cwd()). */
  cwd?: string;
}

/** Lint the documents at `targets` (files or directories) against `ctx`. */
export function lintPaths(targets: string[], ctx: LintContext, opts: LintOptions): LintResult {
  const cwd = opts.cwd ?? process.cwd();
  const metaPath = path.join(opts.root, 'schemas', 'meta', 'screen.schema.json');
  const validate = metaValidator(metaPath);
  const problems: LintProblem[] = [];
  const good: Array<{ file: string; doc: AnyDocument }> = [];
  const files: string[] = [];

  for (const t of targets) {
    if (!fs.existsSync(t)) problems.push({ file: path.relative(cwd, path.resolve(t)) || t, pointer: '/', message: 'no such file or directory' });
  }
  const dataDir = path.join(opts.root, 'schemas', 'data') + path.sep;
  for (const abs of collectFiles(targets.filter((t) => fs.existsSync(t)).map((t) => path.resolve(t)))) {
    const file = path.relative(cwd, abs) || abs;
    files.push(file);
    // a data file named explicitly: checked with the context (loadContext), not as a screen document
    if (abs.startsWith(dataDir)) continue;
    const add = (pointer: string, message: string) => problems.push({ file, pointer, message });
    let value: unknown;
    try {
      const parsed = parseJson(fs.readFileSync(abs, 'utf8'));
      value = parsed.value;
      for (const d of parsed.duplicates) add(d.pointer, d.message);
    } catch (e) {
      add('/', e instanceof JsonSyntaxError ? `invalid JSON: ${e.message}` : String(e));
      continue;
    }
    // Older documents are checked as the server sees them: upgraded by its migrations first.
    let note = '';
    const version = (value as { schemaVersion?: unknown } | null)?.schemaVersion;
    if (ctx.migrate && value && typeof value === 'object' && !Array.isArray(value) && (version === undefined || (typeof version === 'number' && version < ctx.currentSchemaVersion))) {
      try {
        value = ctx.migrate(value);
        note = ` (in the document as migrated from schemaVersion ${version ?? 0} to ${ctx.currentSchemaVersion})`;
      } catch (e) {
        add('/schemaVersion', `cannot migrate: ${e instanceof Error ? e.message : String(e)}`);
        continue;
      }
    }
    const metaProblems = validate(value);
    for (const p of metaProblems) add(p.pointer, p.message + note);
    if (metaProblems.length) continue; // cross-references need a well-formed document

    const doc = value as LintedDocument;
    // $schema must really lead to the meta-schema, or editors give no completion.
    if (doc.$schema && path.resolve(path.dirname(abs), doc.$schema) !== metaPath) {
      add('/$schema', `must be the relative path from this file to schemas/meta/screen.schema.json: ${JSON.stringify(path.relative(path.dirname(abs), metaPath).split(path.sep).join('/'))}`);
    }
    for (const p of checkDocument(doc, ctx)) add(p.pointer, p.message + note);
    good.push({ file, doc });
  }
  problems.push(...checkScreenRefs(good, ctx.screens));
  problems.push(...checkSet(good));
  return { files, problems };
}

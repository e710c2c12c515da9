/**
 * Meta-schema check: validates a document against schemas/meta/screen.schema.json with ajv and turns
 * ajv's errors into short analyst-friendly messages at exact JSON pointers. One implementation for both
 * users: the server's document loader (documents.ts: a bad document stops the start, naming file and
 * pointer) and the schema lint (scripts/lint, which re-exports this module as scripts/lint/meta.ts).
 * The names of widgets, their ui:options, cells, views and pages come from the registry
 * (src/shared/registry.ts): applyRegistry writes them into the meta-schema before it is compiled, and
 * registryDrift tells where the static file (what editors complete from) disagrees with the registry.
 */
import fs from 'node:fs';
import path from 'node:path';
import { PRODUCT_ROOT } from './lib/productRoot.js';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { CELL_NAMES, COMMON_UI_OPTIONS, PAGE_NAMES, VIEW_NAMES, WIDGET_SPECS, widgetNames } from '../shared/registry.js';

/** One problem at a JSON pointer into a document ('/' = the whole document). */
export interface Problem {
  pointer: string;
  message: string;
}

/** JSON pointer segment escaping (RFC 6901). */
export function escapePointer(segment: string | number): string {
  return String(segment).replace(/~/g, '~0').replace(/\//g, '~1');
}

/** schemas/meta/screen.schema.json of this checkout. */
export const META_SCHEMA_PATH = path.join(PRODUCT_ROOT, 'schemas/meta/screen.schema.json');

// ajv-formats is CommonJS; under ESM its default export may arrive wrapped.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (a: Ajv) => Ajv;

/** Build the validator for a meta-schema object (the content of schemas/meta/screen.schema.json). */
export function compileMetaSchema(metaSchema: object): (doc: unknown) => Problem[] {
  const ajv = new Ajv({ allErrors: true, verbose: true, strict: true, allowUnionTypes: true, strictRequired: false });
  addFormats(ajv);
  // Annotation keyword: the message shown to analysts when the schema object it sits on fails.
  ajv.addKeyword({ keyword: 'x-lint-message', schemaType: 'string' });
  const validate: ValidateFunction = ajv.compile(metaSchema);
  return (doc) => (validate(doc) ? [] : simplify(validate.errors ?? []));
}

/** Edit distance with adjacent transpositions (optimal string alignment), for "did you mean" hints. */
export function distance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}

/** The closest candidate within a small edit distance (case-insensitive equality counts as 0). */
export function suggest(word: string, candidates: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestD = Infinity;
  for (const c of candidates) {
    const dd = c.toLowerCase() === word.toLowerCase() ? 0 : distance(word, c);
    if (dd < bestD) {
      best = c;
      bestD = dd;
    }
  }
  return best !== undefined && bestD <= Math.max(1, Math.min(3, Math.floor(word.length / 3))) ? best : undefined;
}

const fmt = (v: unknown) => JSON.stringify(v);

function lintMessage(schema: unknown): string | undefined {
  return schema && typeof schema === 'object' ? ((schema as Record<string, unknown>)['x-lint-message'] as string | undefined) : undefined;
}

function message(e: ErrorObject): string {
  const p = e.params as Record<string, unknown>;
  const custom = lintMessage(e.parentSchema);
  switch (e.keyword) {
    case 'additionalProperties': {
      const key = String(p.additionalProperty);
      const known = Object.keys(((e.parentSchema as Record<string, unknown>)?.properties as object) ?? {});
      const hint = suggest(key, known);
      if (custom) return `unknown key ${fmt(key)}: ${custom}`;
      return `unknown key ${fmt(key)}` + (hint ? ` (did you mean ${fmt(hint)}?)` : known.length ? ` (allowed: ${known.join(', ')})` : '');
    }
    case 'required':
      return `missing required key ${fmt(p.missingProperty)}`;
    case 'enum': {
      const allowed = p.allowedValues as unknown[];
      const hint = typeof e.data === 'string' ? suggest(e.data, allowed.filter((a): a is string => typeof a === 'string')) : undefined;
      return `must be one of: ${allowed.map((v) => fmt(v)).join(', ')}` + (hint ? ` (did you mean ${fmt(hint)}?)` : '');
    }
    case 'const':
      return `must be ${fmt(p.allowedValue)}`;
    case 'type':
      return `must be ${String(p.type).replace(/,/g, ' or ')}`;
    case 'pattern':
      return custom ?? `must match ${fmt(p.pattern)}`;
    case 'format':
      return p.format === 'regex' ? 'must be a valid regular expression' : `must be a valid ${p.format}`;
    case 'uniqueItems':
      return `must not repeat items (items ${p.j} and ${p.i} are equal)`;
    case 'anyOf':
      return custom ?? 'must match one of the allowed forms (see schemas/README.md)';
    case 'minProperties':
    case 'maxProperties':
    case 'not':
      return custom ?? (e.message ?? 'invalid');
    default:
      return e.message ?? 'invalid';
  }
}

/**
 * ajv with allErrors reports every failing branch of anyOf and both the inner and outer error of
 * propertyNames; keep one message per problem.
 */
export function simplify(errors: ErrorObject[]): Problem[] {
  const out: Problem[] = [];
  const anyOfs = errors.filter((e) => e.keyword === 'anyOf');
  const namesDone = new Set<string>();
  for (const e of errors) {
    const base = e.instancePath;
    // Errors inside a failed anyOf branch are summarised by the anyOf error itself.
    if (e.keyword !== 'anyOf' && anyOfs.some((a) => a !== e && e.instancePath.startsWith(a.instancePath) && e.schemaPath.startsWith(a.schemaPath + '/'))) continue;
    const propertyName = (e as ErrorObject & { propertyName?: string }).propertyName ?? (e.keyword === 'propertyNames' ? String((e.params as Record<string, unknown>).propertyName) : undefined);
    if (propertyName !== undefined) {
      const ptr = `${base}/${escapePointer(propertyName)}`;
      if (namesDone.has(ptr)) continue;
      namesDone.add(ptr);
      // The propertyNames schema of the object tells the rule; else the inner error does.
      const inner = errors.find((x) => (x as ErrorObject & { propertyName?: string }).propertyName === propertyName && x.instancePath === base && x.keyword !== 'anyOf' && x.keyword !== 'propertyNames');
      const objSchema = (e.keyword === 'propertyNames' ? e.schema : undefined) as unknown;
      const outer = errors.find((x) => x.keyword === 'propertyNames' && x.instancePath === base && String((x.params as Record<string, unknown>).propertyName) === propertyName);
      const rule = lintMessage(outer?.schema ?? objSchema) ?? (inner ? message(inner) : 'is not an allowed name');
      out.push({ pointer: ptr, message: `invalid key ${fmt(propertyName)}: ${rule}` });
      continue;
    }
    if (e.keyword === 'if') continue;
    const ptr = e.keyword === 'additionalProperties' ? `${base}/${escapePointer(String((e.params as Record<string, unknown>).additionalProperty))}` : base;
    out.push({ pointer: ptr === '' ? '/' : ptr, message: message(e) });
  }
  // A bad key name says it all: drop what was also said about its value. One line per pointer + message.
  const seen = new Set<string>();
  return out.filter((p) => {
    if (namesDone.has(p.pointer) && !p.message.startsWith('invalid key')) return false;
    const k = p.pointer + '\n' + p.message;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

const compiled = new Map<string, { text: string; validate: (doc: unknown) => Problem[] }>();

/**
 * The compiled validator of the meta-schema file at `metaPath` (with the registry's names applied, see
 * applyRegistry), compiled once and again only when the file or the registry changed.
 */
export function metaValidator(metaPath: string = META_SCHEMA_PATH): (doc: unknown) => Problem[] {
  const text = fs.readFileSync(metaPath, 'utf8');
  const key = text + '\n' + registrySignature();
  const hit = compiled.get(metaPath);
  if (hit && hit.text === key) return hit.validate;
  const validate = compileMetaSchema(applyRegistry(JSON.parse(text) as object));
  compiled.set(metaPath, { text: key, validate });
  return validate;
}

// ── the registry (src/shared/registry.ts) in the meta-schema ──

type Json = Record<string, any>;

function registrySignature(): string {
  return JSON.stringify([WIDGET_SPECS, COMMON_UI_OPTIONS, CELL_NAMES, VIEW_NAMES, PAGE_NAMES]);
}

/** Where the registry's names sit in schemas/meta/screen.schema.json (undefined parts: another kind of schema). */
function registrySites(meta: Json) {
  const d = meta.definitions ?? {};
  const viewBranches: Json[] = Array.isArray(d.view?.oneOf) ? d.view.oneOf : [];
  return {
    widget: d.fieldUi?.properties?.['ui:widget'] as Json | undefined,
    options: d.fieldUi?.properties?.['ui:options'] as Json | undefined,
    render: d.column?.properties?.render as Json | undefined,
    views: d.view ? viewBranches : undefined,
    page: viewBranches.find((b) => b.properties?.type?.const === 'page')?.properties?.page as Json | undefined,
  };
}

/** All ui:options keys some widget reads. */
function registryOptions(): string[] {
  return [...new Set([...COMMON_UI_OPTIONS, ...Object.values(WIDGET_SPECS).flatMap((w) => w.options)])];
}

/**
 * The meta-schema with the names of the registry: `ui:widget` and `render` enums, one `ui:options` entry per
 * option a widget reads, a `view` branch per view type and the `view.page` names. The static file carries the
 * same lists (editors complete from it; registryDrift checks they agree); a module that extends the registry
 * at run time (extendRegistry) is taken into account here. Schemas without these parts are returned as they are.
 */
export function applyRegistry<T extends object>(metaSchema: T): T {
  const meta = structuredClone(metaSchema) as Json;
  const at = registrySites(meta);
  if (at.widget) at.widget.enum = widgetNames();
  if (at.options) {
    at.options.properties ??= {};
    for (const o of registryOptions()) at.options.properties[o] ??= {};
  }
  if (at.render) at.render.enum = [...CELL_NAMES];
  if (at.views) {
    const have = new Set(at.views.map((b) => b.properties?.type?.const));
    for (const v of VIEW_NAMES) if (!have.has(v)) at.views.push({ type: 'object', properties: { type: { const: v } } });
  }
  if (at.page && PAGE_NAMES.length) {
    delete at.page.pattern;
    at.page.enum = [...PAGE_NAMES];
  }
  return meta as T;
}

/**
 * Where the static meta-schema file and the registry disagree (one problem per difference, at the pointer of
 * the list to fix): the file must name exactly the registry's widgets, options, cells, views (and pages).
 */
export function registryDrift(metaSchema: object): Problem[] {
  const at = registrySites(metaSchema as Json);
  const out: Problem[] = [];
  const compare = (pointer: string, inFile: unknown[] | undefined, inRegistry: string[], what: string) => {
    const file = new Set((inFile ?? []).map(String));
    const missing = inRegistry.filter((n) => !file.has(n));
    const extra = [...file].filter((n) => !inRegistry.includes(n));
    if (missing.length) out.push({ pointer, message: `lacks the ${what} ${missing.map((n) => fmt(n)).join(', ')} of src/shared/registry.ts` });
    if (extra.length) out.push({ pointer, message: `names ${what} ${extra.map((n) => fmt(n)).join(', ')} that src/shared/registry.ts does not have` });
  };
  compare('/definitions/fieldUi/properties/ui:widget/enum', at.widget?.enum, widgetNames(), 'widget(s)');
  compare('/definitions/fieldUi/properties/ui:options/properties', Object.keys(at.options?.properties ?? {}), registryOptions(), 'ui:options key(s)');
  compare('/definitions/column/properties/render/enum', at.render?.enum, CELL_NAMES, 'cell(s)');
  compare('/definitions/view/oneOf', at.views?.map((b) => b.properties?.type?.const), VIEW_NAMES, 'view type(s)');
  if (PAGE_NAMES.length || at.page?.enum) compare('/definitions/view/oneOf/page/properties/page/enum', at.page?.enum, PAGE_NAMES, 'page(s)');
  return out;
}

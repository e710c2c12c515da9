/**
 * Meta-schema check: validates a document against schemas/meta/screen.schema.json with ajv and turns
 * ajv's errors into short analyst-friendly messages at exact JSON pointers. One implementation for both
 * users: the server's document loader (documents.ts: a bad document stops the start, naming file and
 * pointer) and the schema lint (scripts/lint, which re-exports this module as scripts/lint/meta.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';

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
export const META_SCHEMA_PATH = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../schemas/meta/screen.schema.json');

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

/** The compiled validator of the meta-schema file at `metaPath`, compiled once and again only when the file changed. */
export function metaValidator(metaPath: string = META_SCHEMA_PATH): (doc: unknown) => Problem[] {
  const text = fs.readFileSync(metaPath, 'utf8');
  const hit = compiled.get(metaPath);
  if (hit && hit.text === text) return hit.validate;
  const validate = compileMetaSchema(JSON.parse(text) as object);
  compiled.set(metaPath, { text, validate });
  return validate;
}

/**
 * Document registry: loads every screen document (schemas/**\/*.json except schemas/meta, plus SCHEMA_DIRS;
 * `locales` folders hold the strings of a folder's documents, see lib/i18n.ts),
 * upgrades old schemaVersions with pure migration functions, validates each against the meta-schema
 * (schemas/meta/screen.schema.json, the same check as step 2 of the schema lint: src/server/meta-schema.ts)
 * and the minimum the server builds SQL and routes from, and exposes them by id and by API base. A bad
 * document stops the start with `file: /json/pointer: message` lines. Cross-references (dictionaries,
 * permission codes, i18n keys, endpoints) stay the lint's job (`npm run lint:schemas`).
 */
import fs from 'node:fs';
import path from 'node:path';
import { CURRENT_SCHEMA_VERSION, isLayoutDocument, type AnyDocument, type LayoutDocument, type ScreenDocument } from '../shared/document.js';
import { allProperties, toSnake } from '../shared/fields.js';
import { META_SCHEMA_PATH, metaValidator } from './meta-schema.js';

export class DocumentError extends Error {}

/** Upgrades from version N to N+1, keyed by N. Pure functions of the document. */
export const DOCUMENT_MIGRATIONS: Record<number, (doc: any) => any> = {
  // Version 0 (drafts before the format was versioned): `resource.prefix` was the name of the permission prefix.
  0: (doc) => {
    const { prefix, ...resource } = doc.resource ?? {};
    return { ...doc, schemaVersion: 1, resource: { permissionPrefix: prefix, ...resource } };
  },
};

/** Upgrade a parsed document to CURRENT_SCHEMA_VERSION (pure; throws on unknown or future versions). */
export function migrateDocument(doc: any): ScreenDocument {
  let d = doc;
  const v0 = d?.schemaVersion ?? 0;
  if (typeof v0 !== 'number' || v0 > CURRENT_SCHEMA_VERSION) throw new DocumentError(`schemaVersion ${v0} is not supported (current ${CURRENT_SCHEMA_VERSION})`);
  while ((d.schemaVersion ?? 0) < CURRENT_SCHEMA_VERSION) {
    const step = DOCUMENT_MIGRATIONS[d.schemaVersion ?? 0];
    if (!step) throw new DocumentError(`no migration from schemaVersion ${d.schemaVersion ?? 0}`);
    d = step(d);
  }
  // A layout document (view master-detail/page) comes out of here too: loadDocumentFile tells them apart.
  return d as ScreenDocument;
}

const IDENT = /^[a-z][a-z0-9_]{0,62}$/;
const FIELD = /^[a-zA-Z][a-zA-Z0-9]{0,60}$/;

/** Minimal structural check of what the server builds SQL and routes from. Returns error messages. */
export function checkDocument(doc: AnyDocument): string[] {
  const errs: string[] = [];
  if (typeof doc.id !== 'string' || !/^[a-zA-Z][a-zA-Z0-9_-]*$/.test(doc.id)) errs.push('/id: must be an identifier');
  if (typeof doc.title !== 'string') errs.push('/title: required i18n key');
  if (typeof doc.route !== 'string' || !doc.route.startsWith('/')) errs.push('/route: must start with /');
  if (isLayoutDocument(doc)) {
    if (typeof doc.permission !== 'string' || !/^[a-z][a-z0-9_]*$/.test(doc.permission)) errs.push('/permission: must be a menu code');
    return errs;
  }
  const r = doc.resource;
  if (!r || typeof r !== 'object') return [...errs, '/resource: required'];
  if (typeof r.api !== 'string' || !/^\/api(\/[a-zA-Z0-9_-]+)+$/.test(r.api)) errs.push('/resource/api: must look like /api/name');
  if (typeof r.table !== 'string' || !IDENT.test(r.table)) errs.push('/resource/table: must be a snake_case identifier');
  if (typeof r.permissionPrefix !== 'string' || !/^[a-z][a-z0-9_]*$/.test(r.permissionPrefix)) errs.push('/resource/permissionPrefix: must be a code');
  if (!doc.schema || doc.schema.type !== 'object' || typeof doc.schema.properties !== 'object') errs.push('/schema: must be an object schema with properties');
  else {
    for (const f of Object.keys(allProperties(doc.schema))) {
      if (!FIELD.test(f) || !IDENT.test(toSnake(f))) errs.push(`/schema/properties/${f}: field names must be camelCase identifiers`);
    }
  }
  if (!doc.list || !Array.isArray(doc.list.columns)) errs.push('/list/columns: required array');
  if (doc.menu !== undefined && (typeof doc.menu !== 'object' || typeof doc.menu.parent !== 'string')) errs.push('/menu/parent: required menu code');
  return errs;
}

function jsonFiles(dir: string, skipMeta: boolean): string[] {
  if (!fs.existsSync(dir)) return [];
  const out: string[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) {
      if (skipMeta && e.name === 'meta') continue;
      // a folder's own strings (SCHEMA_DIRS: <dir>/locales/zh.json, en.json), not documents
      if (e.name === 'locales') continue;
      // data files (dictionaries, the menu tree: seed/data.ts), not documents
      if (e.name === 'data') continue;
      out.push(...jsonFiles(p, false));
    } else if (e.isFile() && e.name.endsWith('.json')) out.push(p);
  }
  return out.sort();
}

export interface DocumentRegistry {
  /** Documents of records (resource + schema + list): every server part iterates these. */
  all: ScreenDocument[];
  /** Layout documents (view master-detail or page): no table, no endpoints; served by screen/detail. */
  layouts: LayoutDocument[];
  byId: Map<string, ScreenDocument>;
  /** Source file of each document id. */
  files: Map<string, string>;
  /** The document with this id. */
  get(id: string): ScreenDocument | undefined;
  /** The layout document with this id. */
  layout(id: string): LayoutDocument | undefined;
}

/** A file as the user would type it: relative to the working directory when it lies below it. */
function displayPath(file: string): string {
  const rel = path.relative(process.cwd(), file);
  return rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel : file;
}

/**
 * Read, migrate and check one document file. Throws a DocumentError whose message has one line per problem,
 * `file: /json/pointer: message` (as the lint prints them).
 */
export function loadDocumentFile(file: string, metaSchemaPath: string = META_SCHEMA_PATH): AnyDocument {
  let parsed: unknown;
  try {
    parsed = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (e) {
    throw new DocumentError(`${displayPath(file)}: not valid JSON (${(e as Error).message})`);
  }
  let doc: AnyDocument;
  try {
    doc = migrateDocument(parsed) as AnyDocument;
  } catch (e) {
    throw new DocumentError(`${displayPath(file)}: /schemaVersion: ${(e as Error).message}`);
  }
  const version = (parsed as { schemaVersion?: unknown } | null)?.schemaVersion;
  const note = version !== CURRENT_SCHEMA_VERSION ? ` (in the document as migrated from schemaVersion ${version ?? 0} to ${CURRENT_SCHEMA_VERSION})` : '';
  const shown = displayPath(file);
  const meta = metaValidator(metaSchemaPath)(doc);
  if (meta.length) {
    throw new DocumentError(
      `${shown}: does not match the meta-schema (details: npm run lint:schemas -- ${shown}):\n` + meta.map((p) => `${shown}: ${p.pointer}: ${p.message}${note}`).join('\n'),
    );
  }
  const errs = checkDocument(doc);
  if (errs.length) throw new DocumentError(errs.map((e) => `${shown}: ${e}`).join('\n'));
  return doc;
}

/** Load ./schemas (without schemas/meta) under rootDir plus the extra dirs. */
export function loadDocuments(rootDir: string, extraDirs: string[] = []): DocumentRegistry {
  const files = [...jsonFiles(path.join(rootDir, 'schemas'), true), ...extraDirs.flatMap((d) => jsonFiles(d, false))];
  const byId = new Map<string, ScreenDocument>();
  const layoutsById = new Map<string, LayoutDocument>();
  const reg: DocumentRegistry = { all: [], layouts: [], byId, files: new Map(), get: (id) => byId.get(id), layout: (id) => layoutsById.get(id) };
  const apis = new Map<string, string>();
  const routes = new Map<string, string>();
  const ownMeta = path.join(rootDir, 'schemas', 'meta', 'screen.schema.json');
  const metaPath = fs.existsSync(ownMeta) ? ownMeta : META_SCHEMA_PATH;
  for (const file of files) {
    const doc = loadDocumentFile(file, metaPath);
    if (reg.files.has(doc.id)) throw new DocumentError(`${file}: duplicate document id ${doc.id} (also in ${reg.files.get(doc.id)})`);
    // Two screens on one route would be one menu entry drawing two things.
    const sameRoute = routes.get(doc.route);
    if (sameRoute) throw new DocumentError(`${file}: /route: ${doc.route} already used by ${sameRoute}`);
    routes.set(doc.route, file);
    reg.files.set(doc.id, file);
    if (isLayoutDocument(doc)) {
      reg.layouts.push(doc);
      layoutsById.set(doc.id, doc);
      continue;
    }
    const other = apis.get(doc.resource.api);
    if (other) throw new DocumentError(`${file}: resource.api ${doc.resource.api} already used by ${other}`);
    apis.set(doc.resource.api, file);
    reg.all.push(doc);
    reg.byId.set(doc.id, doc);
  }
  // A master-detail draws two documents of records: both must exist (checked once all files are read).
  for (const l of reg.layouts) {
    if (l.view.type !== 'master-detail') continue;
    const problems: string[] = [];
    for (const part of ['master', 'detail'] as const) {
      if (!byId.has(l.view[part])) problems.push(`${displayPath(reg.files.get(l.id)!)}: /view/${part}: no document of records with id ${l.view[part]}`);
    }
    const detail = byId.get(l.view.detail);
    if (detail && !(l.view.link in allProperties(detail.schema)) && l.view.link !== 'id')
      problems.push(`${displayPath(reg.files.get(l.id)!)}: /view/link: ${l.view.link} is not a field of ${detail.id}`);
    if (problems.length) throw new DocumentError(problems.join('\n'));
  }
  return reg;
}

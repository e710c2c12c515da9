/**
 * Cross-reference checks of one screen document (already valid against the meta-schema): dictionaries,
 * permission codes, i18n keys, field names, search/sort fitness, conditions, uploads, endpoints, version.
 * Pure: everything outside the document comes in through the LintContext.
 */
import { isLayoutDocument, type AnyDocument, type EntitySchema, type FieldSchema, type LayoutDocument, type ScreenDocument, type UiSchema } from '../../src/shared/document.js';
import { AUDIT_FIELDS, allProperties, builtins, isWriteOnly, listableProperties } from '../../src/shared/fields.js';
import { ACTION_DIALOG_NAMES, defaultWidget, widgetOptions } from '../../src/shared/registry.js';
import type { Problem } from './json.js';
import { pointer as ptr } from './json.js';
import { suggest } from './meta.js';

export interface SeedDictionary {
  code: string;
  name?: string;
  nameEn?: string;
  biz?: boolean;
  items: Array<{ key: string | number; value: string; valueEn?: string }>;
}

export interface SeedMenu {
  code: string;
  path?: string;
  category?: number;
  children?: SeedMenu[];
}

/** What the checks compare a document with. A missing part means that family of checks is skipped. */
export interface LintContext {
  /** dictionary code → its keys (as strings). */
  dictionaries?: Map<string, string[]>;
  /** menu/button code → path (undefined for buttons). */
  menus?: Map<string, string | undefined>;
  /** locale file (e.g. `locales/zh.json`) → parsed content. */
  locales?: Record<string, unknown>;
  /** Upgrade an older document to CURRENT_SCHEMA_VERSION (the server's migrateDocument). */
  migrate?: (doc: unknown) => unknown;
  /** Is METHOD URL served by the app? */
  hasRoute?: (method: 'GET' | 'POST', url: string) => boolean;
  /** The data files read (schemas/data), relative to the root. */
  dataFiles?: string[];
  /** Ids of the screen documents the server loads (schemas/ and SCHEMA_DIRS), for references to other screens. */
  screens?: Set<string>;
  currentSchemaVersion: number;
}

export function dictionaryIndex(seed: SeedDictionary[]): Map<string, string[]> {
  return new Map(seed.map((d) => [d.code, d.items.map((i) => String(i.key))]));
}

export function menuIndex(seed: SeedMenu[]): Map<string, string | undefined> {
  const out = new Map<string, string | undefined>();
  const walk = (nodes: SeedMenu[] | undefined) => {
    for (const n of nodes ?? []) {
      // Buttons carry API paths; only menus (category 1, or no category) have a route.
      out.set(n.code, typeof n.path === 'string' && n.category !== 2 ? n.path : undefined);
      walk(n.children);
    }
  };
  walk(seed);
  return out;
}

/** Resolve a dotted i18n key in a nested locale object; true when it names a string. */
export function hasI18nKey(locale: unknown, key: string): boolean {
  let node: unknown = locale;
  for (const part of key.split('.')) {
    if (!node || typeof node !== 'object' || !(part in (node as object))) {
      // i18next also accepts flat keys containing dots at any level; try the rest as one key.
      return false;
    }
    node = (node as Record<string, unknown>)[part];
  }
  return typeof node === 'string';
}

const q = (v: unknown) => JSON.stringify(v);
const SEED_DICT = 'schemas/data/dictionaries/';
const SEED_MENU = 'schemas/data/menus.json';

/** Where a field is declared, as a pointer prefix. */
interface FieldSite {
  field: FieldSchema;
  at: string;
}

function notAField(name: string, known: Iterable<string>, what = 'a field of this screen'): string {
  const hint = suggest(name, known);
  return `${q(name)} is not ${what}` + (hint ? ` (did you mean ${q(hint)}?)` : '');
}

function isNumeric(f: FieldSchema | undefined) {
  return f?.type === 'integer' || f?.type === 'number';
}

function isDate(f: FieldSchema | undefined) {
  return f?.type === 'string' && (f.format === 'date' || f.format === 'date-time');
}

function typeName(f: FieldSchema) {
  return f.format ? `${f.type ?? 'untyped'} (${f.format})` : f.type ?? 'untyped';
}

/** Does a literal fit the field's type? (integer fields take integers, string fields strings …) */
function fitsType(f: FieldSchema, v: unknown): boolean {
  if (v === null) return true;
  switch (f.type) {
    case 'integer':
      return Number.isInteger(v);
    case 'number':
      return typeof v === 'number';
    case 'string':
      return typeof v === 'string';
    case 'boolean':
      return typeof v === 'boolean';
    default:
      return true;
  }
}

export type LintedDocument = AnyDocument;

/** A menu code that is missing from the menu tree, with a hint among `pool`. */
function missingMenu(code: string, pool: Iterable<string>): string {
  const hint = suggest(code, pool);
  return `${q(code)} is not in the menu tree (${SEED_MENU})` + (hint ? ` (did you mean ${q(hint)}?)` : '');
}

/**
 * A layout document (master-detail or page: no records of its own): its menu code exists and points to its
 * route, its title is translated, its version is understood. The screens it names are checked with the set
 * (checkScreenRefs).
 */
function checkLayout(doc: LayoutDocument, ctx: LintContext): Problem[] {
  const out: Problem[] = [];
  const add = (pointer: string, message: string) => out.push({ pointer, message });
  if (doc.schemaVersion > ctx.currentSchemaVersion) {
    add('/schemaVersion', `schemaVersion ${doc.schemaVersion} is newer than this code understands (CURRENT_SCHEMA_VERSION is ${ctx.currentSchemaVersion})`);
  }
  if (ctx.menus) {
    if (!ctx.menus.has(doc.permission)) add('/permission', `menu ${missingMenu(doc.permission, ctx.menus.keys())}`);
    else {
      const path = ctx.menus.get(doc.permission);
      if (path !== doc.route) add('/route', `menu ${q(doc.permission)} has the path ${q(path ?? null)} in the menu tree (${SEED_MENU}), not ${q(doc.route)}: no menu entry leads to this screen`);
    }
  }
  if (ctx.locales) {
    for (const f of Object.keys(ctx.locales)) if (!hasI18nKey(ctx.locales[f], doc.title)) add('/title', `i18n key ${q(doc.title)} is missing in ${f}`);
  }
  return out;
}

export function checkDocument(anyDoc: LintedDocument, ctx: LintContext): Problem[] {
  if (isLayoutDocument(anyDoc)) return checkLayout(anyDoc, ctx);
  const doc = anyDoc;
  const out: Problem[] = [];
  const add = (pointer: string, message: string) => out.push({ pointer, message });

  // ── version ──
  if (doc.schemaVersion > ctx.currentSchemaVersion) {
    add('/schemaVersion', `schemaVersion ${doc.schemaVersion} is newer than this code understands (CURRENT_SCHEMA_VERSION is ${ctx.currentSchemaVersion})`);
  }

  // ── fields: where each is declared; duplicates between base and branches ──
  const sites = new Map<string, FieldSite>();
  for (const [k, f] of Object.entries(doc.schema.properties)) sites.set(k, { field: f, at: ptr('schema', 'properties', k) });
  (doc.schema.allOf ?? []).forEach((b, i) => {
    for (const part of ['then', 'else'] as const) {
      for (const [k, f] of Object.entries(b[part]?.properties ?? {})) {
        const at = ptr('schema', 'allOf', i, part, 'properties', k);
        const prev = sites.get(k);
        if (prev) add(at, `field ${q(k)} is already declared at ${prev.at}`);
        else sites.set(k, { field: f, at });
      }
    }
  });
  const props = allProperties(doc.schema);
  const listable = listableProperties(doc);

  checkEntity(doc.schema, '/schema', ctx, add, (k) => sites.get(k)?.at);

  // ── i18n keys ──
  const keys: Array<[string, string]> = [['/title', doc.title]];
  collectEntityKeys(doc.schema, '/schema', keys);
  collectUiKeys(doc.uiSchema, '/uiSchema', keys);

  // ── uiSchema ──
  checkUi(doc.uiSchema, '/uiSchema', props, doc.schema, add);

  // ── list ──
  const L = doc.list;
  const seenCol = new Map<string, number>();
  L.columns.forEach((c, i) => {
    const at = ptr('list', 'columns', i);
    if (c.label) keys.push([at + '/label', c.label]);
    if (seenCol.has(c.field)) add(at + '/field', `duplicate column ${q(c.field)} (also /list/columns/${seenCol.get(c.field)})`);
    else seenCol.set(c.field, i);
    const f = listable[c.field];
    if (!f) return add(at + '/field', notAField(c.field, Object.keys(listable), 'a field of this screen nor an audit field'));
    if (isWriteOnly(f)) add(at + '/field', `${q(c.field)} is write-only: the server never sends it back`);
    if (c.sortable) {
      if (f['x-virtual']) add(at + '/sortable', `${q(c.field)} cannot be sorted: it is not a stored column (x-virtual)`);
      else if (f.type === 'array' || f.type === 'object') add(at + '/sortable', `${q(c.field)} cannot be sorted: it is ${f.type} (stored as jsonb)`);
      else if (isWriteOnly(f)) add(at + '/sortable', `${q(c.field)} cannot be sorted: it is write-only`);
    }
  });

  const seenSearch = new Map<string, number>();
  (L.search ?? []).forEach((s, i) => {
    const at = ptr('list', 'search', i);
    if (s.label) keys.push([at + '/label', s.label]);
    if (s.required) keys.push([at + '/required', s.required]);
    if (seenSearch.has(s.field)) add(at + '/field', `duplicate search field ${q(s.field)} (also /list/search/${seenSearch.get(s.field)})`);
    else seenSearch.set(s.field, i);
    const f = listable[s.field];
    if (!f) return add(at + '/field', notAField(s.field, Object.keys(listable), 'a field of this screen nor an audit field'));
    if (f['x-virtual']) return add(at + '/field', `${q(s.field)} cannot be searched: it is not a stored column (x-virtual)`);
    if (isWriteOnly(f)) return add(at + '/field', `${q(s.field)} cannot be searched: it is write-only`);
    const bad = (need: string) => add(at + '/op', `${s.op} needs ${need}; ${q(s.field)} is ${typeName(f)}`);
    switch (s.op) {
      case 'dateRange':
        if (!isDate(f)) bad('a date or date-time field');
        if (s.default !== undefined && !(s.default === 'today' || s.default === 'thisMonth' || Array.isArray(s.default))) {
          add(at + '/default', 'a dateRange default is "today", "thisMonth" or ["yyyy-MM-dd", "yyyy-MM-dd"]');
        }
        break;
      case 'range':
        if (!isNumeric(f)) bad('a number or integer field');
        break;
      case 'contains':
      case 'prefix':
        if (f.type !== 'string' || isDate(f) || f['x-dict']) bad('a text field (not a date or dictionary)');
        break;
      case 'equal':
        if (f.type === 'array' || f.type === 'object') bad('a single-valued field');
        break;
      case 'under':
        if (!(f as { 'x-lookup'?: { screen?: string } })['x-lookup']?.screen) bad('an x-lookup of a tree screen');
        break;
    }
    if (s.op !== 'dateRange' && s.default !== undefined) {
      if (Array.isArray(s.default)) add(at + '/default', `a ${s.op} default is a single value`);
      else checkValue(f, s.default, at + '/default', s.field, ctx, add);
    }
  });

  if (L.aside) {
    if (!seenSearch.has(L.aside.field)) add(ptr('list', 'aside', 'field'), `${q(L.aside.field)} must be a declared search (the server filters the list by it)`);
    if (L.aside.title) keys.push([ptr('list', 'aside', 'title'), L.aside.title]);
  }

  (L.defaultSort ?? []).forEach((s, i) => {
    const at = ptr('list', 'defaultSort', i, 'field');
    const f = listable[s.field];
    if (!f) add(at, notAField(s.field, Object.keys(listable), 'a field of this screen nor an audit field'));
    else if (f['x-virtual'] || f.type === 'array' || f.type === 'object') add(at, `${q(s.field)} cannot be sorted: it is not a plain stored column`);
  });

  if (L.defaultPageSize !== undefined && L.pageSizes && !L.pageSizes.includes(L.defaultPageSize)) {
    add('/list/defaultPageSize', `${L.defaultPageSize} is not one of pageSizes (${L.pageSizes.join(', ')})`);
  }

  (doc.resource.indexes ?? []).forEach((ix, i) =>
    ix.forEach((f, j) => {
      if (!(f in listable)) add(ptr('resource', 'indexes', i, j), notAField(f, Object.keys(listable)));
      else if (listable[f]['x-virtual']) add(ptr('resource', 'indexes', i, j), `${q(f)} is not a stored column (x-virtual)`);
    }),
  );

  // ── actions ──
  const seenAction = new Map<string, number>();
  (L.actions ?? []).forEach((a, i) => {
    const at = ptr('list', 'actions', i);
    keys.push([at + '/label', a.label]);
    if (a.confirm) keys.push([at + '/confirm', a.confirm]);
    if (a.success) keys.push([at + '/success', a.success]);
    if (seenAction.has(a.name)) add(at + '/name', `duplicate action name ${q(a.name)} (also /list/actions/${seenAction.get(a.name)})`);
    else seenAction.set(a.name, i);
    if (a.position === 'row' && a.selection) add(at + '/selection', 'only toolbar actions work on a selection');
    if (a.position === 'toolbar' && a.selection && !L.selection) add(at + '/selection', 'a selection action needs "selection": true in /list');
    if (a.position === 'toolbar' && a.visibleWhen) add(at + '/visibleWhen', 'only row actions have a row visibility rule');
    (a.visibleWhen ?? []).forEach((r, j) => {
      const rat = ptr('list', 'actions', i, 'visibleWhen', j);
      const f = listable[r.field];
      if (!f) return add(rat + '/field', notAField(r.field, Object.keys(listable)));
      if (isWriteOnly(f)) return add(rat + '/field', `${q(r.field)} is write-only: rows never carry it`);
      if (r.eq !== undefined) checkValue(f, r.eq, rat + '/eq', r.field, ctx, add);
      if (r.ne !== undefined) checkValue(f, r.ne, rat + '/ne', r.field, ctx, add);
      (r.in ?? []).forEach((v, k) => checkValue(f, v, `${rat}/in/${k}`, r.field, ctx, add));
    });
    if (a.show) {
      // A show action only reads the records of one row: a GET, no form, no confirmation.
      if (a.position !== 'row') add(at + '/position', 'a "show" action lists the records of one row: its position is "row"');
      if (a.method !== 'GET') add(at + '/method', 'a "show" action only reads: its method is "GET"');
      if (a.form) add(at + '/form', 'a "show" action has no form (it sends only the row id and the page)');
      if (a.confirm) add(at + '/confirm', 'a "show" action changes nothing, so it asks no confirmation');
      if (a.selection) add(at + '/selection', 'a "show" action works on one row, not on a selection');
    }
    // navigate and dialog: row actions whose {field} parts / params name fields the rows carry
    const rowField = (field: string, fat: string) => {
      const f = listable[field];
      if (!f) add(fat, notAField(field, Object.keys(listable)));
      else if (isWriteOnly(f)) add(fat, `${q(field)} is write-only: rows never carry it`);
    };
    if (a.navigate) {
      if (a.position !== 'row') add(at + '/position', 'a "navigate" action opens the page of one row: its position is "row"');
      for (const m of a.navigate.matchAll(/\{([A-Za-z][A-Za-z0-9_]*)\}/g)) rowField(m[1], at + '/navigate');
    }
    if (a.dialog) {
      if (a.position !== 'row') add(at + '/position', 'a "dialog" action shows something of one row: its position is "row"');
      if (a.method !== 'GET') add(at + '/method', 'a "dialog" action only reads: its method is "GET"');
      if (!ACTION_DIALOG_NAMES.includes(a.dialog.name)) add(at + '/dialog/name', `${q(a.dialog.name)} is not a registered action dialog (${ACTION_DIALOG_NAMES.join(', ')})`);
      for (const [param, field] of Object.entries(a.dialog.params)) rowField(field, `${at}/dialog/params/${param}`);
    }
    if (a.form) {
      const formProps = allProperties(a.form.schema);
      checkEntity(a.form.schema, at + '/form/schema', ctx, add, (k) => (k in a.form!.schema.properties ? ptr('list', 'actions', i, 'form', 'schema', 'properties', k) : undefined));
      collectEntityKeys(a.form.schema, at + '/form/schema', keys);
      collectUiKeys(a.form.uiSchema, at + '/form/uiSchema', keys);
      checkUi(a.form.uiSchema, at + '/form/uiSchema', formProps, a.form.schema, add);
    }
  });

  // ── permissions ──
  if (ctx.menus) {
    const menus = ctx.menus;
    const prefix = doc.resource.permissionPrefix;
    // Suggest only codes of the same screen for buttons (fx_delete is no hint for fy_delete).
    const missing = (code: string) => {
      const pool = code.startsWith(prefix + '_') ? [...menus.keys()].filter((c) => c.startsWith(prefix + '_')) : [...menus.keys()];
      const hint = suggest(code, pool);
      return `${q(code)} is not in the menu tree (${SEED_MENU})` + (hint ? ` (did you mean ${q(hint)}?)` : '');
    };
    if (doc.grantedBy) {
      // reached from other screens (a process form from the work lists), not from the menu: no entry, no built-ins
      if (builtins(doc).size) add('/list/builtins', 'a screen reached through "grantedBy" has no menu entry for its built-in buttons: "builtins": []');
    } else if (doc.menu) {
      if (!menus.has(doc.menu.parent)) add('/menu/parent', `parent menu ${missing(doc.menu.parent)}`);
      if (menus.has(prefix)) add('/resource/permissionPrefix', `menu ${q(prefix)} is already in the menu tree (${SEED_MENU}): drop the "menu" key or choose another permissionPrefix`);
    } else {
      if (!menus.has(prefix)) add('/resource/permissionPrefix', `menu ${missing(prefix)}; add it there, or add a "menu" key to register the screen automatically`);
      else {
        const path = menus.get(prefix);
        if (path !== undefined && path !== doc.route) add('/route', `menu ${q(prefix)} has the path ${q(path)} in the menu tree (${SEED_MENU}), not ${q(doc.route)}`);
      }
      const declared = doc.list.builtins;
      for (const b of builtins(doc)) {
        const code = `${prefix}_${b}`;
        if (menus.has(code)) continue;
        if (declared) add(ptr('list', 'builtins', declared.indexOf(b as never)), `button ${missing(code)}`);
        else add('/list', `button ${missing(code)}; list the built-ins the screen offers in "builtins"`);
      }
      (L.actions ?? []).forEach((a, i) => {
        if (!menus.has(a.permission)) add(ptr('list', 'actions', i, 'permission'), `button ${missing(a.permission)}`);
      });
    }
    (doc.grantedBy ?? []).forEach((code, i) => {
      if (!menus.has(code)) add(ptr('grantedBy', i), `code ${missing(code)}`);
    });
  }

  // ── i18n ──
  if (ctx.locales) {
    const files = Object.keys(ctx.locales);
    for (const [at, key] of keys) {
      const lacking = files.filter((f) => !hasI18nKey(ctx.locales![f], key));
      if (lacking.length) add(at, `i18n key ${q(key)} is missing in ${lacking.join(' and ')}`);
    }
  }

  // ── endpoints ──
  if (ctx.hasRoute) {
    const api = doc.resource.api;
    const offered = builtins(doc);
    const ro = !!doc.resource.readOnlyApi;
    // A module serving the screen itself (resource.routes module) serves what its view calls: a list its list,
    // a process form start-process and detail; the generic routes serve list and detail of every screen.
    const byModule = doc.resource.routes === 'module';
    const need: Array<['GET' | 'POST', string]> =
      doc.view?.type === 'flowForm'
        ? [['POST', `${api}/start-process`], ['GET', `${api}/detail`]]
        : byModule
          ? [['GET', `${api}/list`], ...(offered.has('view') ? ([['GET', `${api}/detail`]] as Array<['GET', string]>) : [])]
          : [['GET', `${api}/list`], ['GET', `${api}/detail`]];
    if (!ro && (offered.has('add') || offered.has('edit'))) need.push(['POST', `${api}/submit`]);
    if (!ro && offered.has('delete')) need.push(['POST', `${api}/remove`]);
    for (const [m, url] of need) if (!ctx.hasRoute(m, url)) add('/resource/api', `${m} ${url} is not served by the server`);
    (L.actions ?? []).forEach((a, i) => {
      if (!a.endpoint || !a.method) return; // navigate: calls nothing
      const url = a.endpoint.startsWith('/') ? a.endpoint : `${api}/${a.endpoint}`;
      if (!ctx.hasRoute!(a.method, url)) add(ptr('list', 'actions', i, 'endpoint'), `${a.method} ${url} is not served by the server`);
    });
  }

  return out;
}

/** A literal compared with a field (defaults, conditions, row rules): right type, and a key of its dictionary. */
function checkValue(f: FieldSchema, v: unknown, at: string, name: string, ctx: LintContext, add: (p: string, m: string) => void) {
  if (!fitsType(f, v)) {
    add(at, `${q(v)} does not fit ${q(name)}, which is ${typeName(f)}`);
    return;
  }
  const code = f['x-dict'];
  const keys = code ? ctx.dictionaries?.get(code) : undefined;
  if (keys && v !== null && !keys.includes(String(v))) add(at, `${q(v)} is not a key of dictionary ${q(code)} (keys: ${keys.join(', ')})`);
  if (f.enum && v !== null && !f.enum.some((e) => String(e) === String(v))) add(at, `${q(v)} is not one of the field's enum values (${f.enum.join(', ')})`);
}

/** Checks on an entity schema (the screen's or an action form's). */
function checkEntity(schema: EntitySchema, base: string, ctx: LintContext, add: (p: string, m: string) => void, siteOf: (k: string) => string | undefined) {
  const props = allProperties(schema);

  const checkField = (k: string, f: FieldSchema, at: string) => {
    const code = f['x-dict'];
    if (code) {
      if (f.type !== 'integer' && f.type !== 'string') add(at + '/type', `a dictionary field is integer or string, not ${f.type ?? 'untyped'}`);
      if (ctx.dictionaries && !ctx.dictionaries.has(code)) {
        const hint = suggest(code, ctx.dictionaries.keys());
        add(at + '/x-dict', `dictionary ${q(code)} is not defined in ${SEED_DICT}` + (hint ? ` (did you mean ${q(hint)}?)` : ''));
      }
    }
    if (f['x-password'] && f.type !== 'string') add(at + '/x-password', 'a password field must be a string');
    if (f.minLength !== undefined && f.maxLength !== undefined && f.minLength > f.maxLength) add(at + '/minLength', `minLength ${f.minLength} is greater than maxLength ${f.maxLength}`);
    if (f.minimum !== undefined && f.maximum !== undefined && f.minimum > f.maximum) add(at + '/minimum', `minimum ${f.minimum} is greater than maximum ${f.maximum}`);
    if (f.default !== undefined && !Array.isArray(f.default) && f.type !== 'array' && f.type !== 'object') checkValue(f, f.default, at + '/default', k, ctx, add);
    (f.enum ?? []).forEach((v, i) => {
      if (!fitsType(f, v)) add(`${at}/enum/${i}`, `${q(v)} does not fit ${q(k)}, which is ${typeName(f)}`);
      else if (code && ctx.dictionaries?.get(code) && !ctx.dictionaries.get(code)!.includes(String(v))) add(`${at}/enum/${i}`, `${q(v)} is not a key of dictionary ${q(code)}`);
    });
  };
  for (const [k, f] of Object.entries(schema.properties)) checkField(k, f, `${base}/properties/${k}`);

  const checkRequired = (list: string[] | undefined, at: string, known: string[]) =>
    (list ?? []).forEach((r, i) => {
      if (!known.includes(r)) add(`${at}/${i}`, notAField(r, known));
    });
  checkRequired(schema.required, `${base}/required`, Object.keys(schema.properties));

  (schema.allOf ?? []).forEach((b, i) => {
    const at = `${base}/allOf/${i}`;
    const tested = Object.entries(b.if.properties ?? {}) as Array<[string, { const?: unknown; enum?: unknown[] }]>;
    for (const [k, test] of tested) {
      const f = schema.properties[k];
      if (!f) {
        add(`${at}/if/properties/${k}`, k in props ? `a condition may only test a field of ${base}/properties, ${q(k)} is itself conditional` : notAField(k, Object.keys(schema.properties)));
        continue;
      }
      if ('const' in test) checkValue(f, test.const, `${at}/if/properties/${k}/const`, k, ctx, add);
      (test.enum ?? []).forEach((v, j) => checkValue(f, v, `${at}/if/properties/${k}/enum/${j}`, k, ctx, add));
      if (!(b.if.required ?? []).includes(k)) {
        add(`${at}/if`, `list ${q(k)} in "required" of the condition, otherwise it also holds when ${q(k)} is empty`);
      }
    }
    checkRequired(b.if.required, `${at}/if/required`, tested.map(([k]) => k));
    for (const part of ['then', 'else'] as const) {
      const p = b[part];
      if (!p) continue;
      for (const [k, f] of Object.entries(p.properties ?? {})) {
        if (siteOf(k) === `${at}/${part}/properties/${k}` || !(k in schema.properties)) checkField(k, f, `${at}/${part}/properties/${k}`);
      }
      checkRequired(p.required, `${at}/${part}/required`, [...Object.keys(schema.properties), ...Object.keys(p.properties ?? {})]);
    }
  });
}

function collectEntityKeys(schema: EntitySchema, base: string, keys: Array<[string, string]>) {
  const field = (f: FieldSchema, at: string) => {
    if (f.title) keys.push([at + '/title', f.title]);
    if (f.description) keys.push([at + '/description', f.description]);
    if (f.items) field(f.items, at + '/items');
  };
  for (const [k, f] of Object.entries(schema.properties)) field(f, `${base}/properties/${k}`);
  (schema.allOf ?? []).forEach((b, i) => {
    for (const part of ['then', 'else'] as const) {
      for (const [k, f] of Object.entries(b[part]?.properties ?? {})) field(f, `${base}/allOf/${i}/${part}/properties/${k}`);
    }
  });
}

function collectUiKeys(ui: UiSchema | undefined, base: string, keys: Array<[string, string]>) {
  for (const [k, v] of Object.entries(ui ?? {})) {
    if (!v || Array.isArray(v)) continue;
    const at = `${base}/${k}`;
    if (v['ui:placeholder']) keys.push([at + '/ui:placeholder', v['ui:placeholder']]);
    if (v['ui:help']) keys.push([at + '/ui:help', v['ui:help']]);
    for (const [kw, key] of Object.entries(v['ui:messages'] ?? {})) keys.push([`${at}/ui:messages/${kw}`, key]);
    const tip = v['ui:options']?.tip;
    if (typeof tip === 'string') keys.push([at + '/ui:options/tip', tip]);
  }
}

const KEYWORD_OWNED = ['maxLength', 'minLength', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf', 'pattern', 'minItems', 'maxItems', 'uniqueItems', 'enum', 'const', 'format'];

function checkUi(ui: UiSchema | undefined, base: string, props: Record<string, FieldSchema>, schema: EntitySchema, add: (p: string, m: string) => void) {
  if (!ui) return;
  const names = Object.keys(props);
  const requiredSomewhere = new Set([...(schema.required ?? []), ...(schema.allOf ?? []).flatMap((b) => [...(b.then?.required ?? []), ...(b.else?.required ?? [])])]);
  (ui['ui:order'] ?? []).forEach((f, i) => {
    if (f === '*' || f in props) return;
    if (f in AUDIT_FIELDS) add(`${base}/ui:order/${i}`, `${q(f)} is an audit field: dialogs show only the document's own fields (declare it in schema.properties with "readOnly": true to show it)`);
    else add(`${base}/ui:order/${i}`, notAField(f, names));
  });
  for (const [k, v] of Object.entries(ui)) {
    if (k === 'ui:order' || !v || Array.isArray(v)) continue;
    const at = `${base}/${k}`;
    const f = props[k];
    if (!f) {
      add(at, notAField(k, names));
      continue;
    }
    const widget = v['ui:widget'];
    if (widget === 'upload' || widget === 'file') {
      const o = v['ui:options'] ?? {};
      if (!Array.isArray(o.accept) || !o.accept.length) add(at, `an ${widget} widget needs ui:options.accept (the accepted MIME types)`);
      if (typeof o.maxSize !== 'number') add(at, `an ${widget} widget needs ui:options.maxSize (bytes)`);
    }
    if (widget === 'dict' && !f['x-dict']) add(`${at}/ui:widget`, `the dict widget needs "x-dict" on field ${q(k)}`);
    // Every option must be one the widget reads (registry): a misspelt or misplaced option is otherwise ignored.
    const shown = widget ?? defaultWidget(f);
    const reads = widgetOptions(shown);
    for (const o of Object.keys(v['ui:options'] ?? {})) {
      if (!reads || reads.includes(o)) continue;
      const hint = suggest(o, reads);
      const why = widget ? `the ${q(shown)} widget` : `the field's default widget ${q(shown)} (no "ui:widget")`;
      add(`${at}/ui:options/${o}`, `${why} does not read ui:options.${o}` + (hint ? ` (did you mean ${q(hint)}?)` : ` (it reads: ${reads.join(', ')})`));
    }
    for (const kw of Object.keys(v['ui:messages'] ?? {})) {
      const mat = `${at}/ui:messages/${kw}`;
      if (kw === 'required' && !requiredSomewhere.has(k)) add(mat, `${q(k)} is never required, so this message is never shown`);
      if (KEYWORD_OWNED.includes(kw) && (f as Record<string, unknown>)[kw] === undefined) add(mat, `${q(k)} has no ${q(kw)} rule, so this message is never shown`);
    }
  }
}

/**
 * References to other screens (an action's `show.screen`) name a screen document: one the server loads
 * (`known`) or one linted in the same run.
 */
export function checkScreenRefs(docs: Array<{ file: string; doc: AnyDocument }>, known?: Set<string>): Array<Problem & { file: string }> {
  const ids = new Set([...(known ?? []), ...docs.map((d) => d.doc.id)]);
  const out: Array<Problem & { file: string }> = [];
  const unknown = (file: string, pointer: string, id: string) => {
    const hint = suggest(id, [...ids]);
    out.push({ file, pointer, message: `${q(id)} is not a screen document (ids: schemas/ and SCHEMA_DIRS)` + (hint ? ` (did you mean ${q(hint)}?)` : '') });
  };
  const byId = new Map(docs.map((d) => [d.doc.id, d.doc]));
  for (const { file, doc } of docs) {
    if (isLayoutDocument(doc)) {
      const v = doc.view;
      if (v.type !== 'master-detail') continue;
      for (const part of ['master', 'detail'] as const) {
        if (!ids.has(v[part])) unknown(file, ptr('view', part), v[part]);
        else if (byId.has(v[part]) && isLayoutDocument(byId.get(v[part])!)) out.push({ file, pointer: ptr('view', part), message: `${q(v[part])} is a layout document: ${part} names a screen of records` });
      }
      const detail = byId.get(v.detail);
      if (detail && !isLayoutDocument(detail) && !(v.link in allProperties(detail.schema))) {
        out.push({ file, pointer: ptr('view', 'link'), message: notAField(v.link, Object.keys(allProperties(detail.schema)), `a field of the detail screen ${q(v.detail)}`) });
      }
      continue;
    }
    (doc.list.actions ?? []).forEach((a, i) => {
      if (a.show && !ids.has(a.show.screen)) unknown(file, ptr('list', 'actions', i, 'show', 'screen'), a.show.screen);
    });
  }
  return out;
}

/** Checks across documents: ids, routes, APIs, tables and permission prefixes are unique. */
export function checkSet(docs: Array<{ file: string; doc: AnyDocument }>): Array<Problem & { file: string }> {
  const out: Array<Problem & { file: string }> = [];
  const record = (get: (d: ScreenDocument) => string | undefined) => (d: AnyDocument) => (isLayoutDocument(d) ? undefined : get(d));
  const unique: Array<[string, (d: AnyDocument) => string | undefined]> = [
    ['/id', (d) => d.id],
    ['/route', (d) => d.route],
    ['/resource/api', record((d) => d.resource.api)],
    // a screen its module serves only names where its records live (three work lists read the tasks)
    ['/resource/table', record((d) => (d.resource.routes === 'module' ? undefined : d.resource.table))],
    ['/resource/permissionPrefix', record((d) => d.resource.permissionPrefix)],
  ];
  for (const [at, get] of unique) {
    const first = new Map<string, string>();
    for (const { file, doc } of docs) {
      const v = get(doc);
      if (v === undefined) continue;
      const prev = first.get(v);
      if (prev) out.push({ file, pointer: at, message: `${q(v)} is also used by ${prev}` });
      else first.set(v, file);
    }
  }
  return out;
}

/**
 * The generic routes of a screen document as data: which METHOD + URL the generic plugins (crud, export, tree)
 * serve for it. The schema lint checks documents' endpoints against this table without building the app, and
 * the OpenAPI description takes each generic route's JSON Schemas from here (see routeSchema below).
 */
import type { FieldSchema, ScreenDocument } from '../../shared/document.js';
import { allProperties, isWriteOnly, listableProperties, toSnake } from '../../shared/fields.js';
import { OP_SUFFIXES } from '../../shared/search.js';

export type HttpMethod = 'GET' | 'POST';

export type GenericRouteKind = 'list' | 'detail' | 'submit' | 'remove' | 'export' | 'tree' | 'lazy-list' | 'lazy-tree';

export interface GenericRoute {
  method: HttpMethod;
  url: string;
  kind: GenericRouteKind;
}

/** The generic routes mounted for `doc` (a module may serve one of them itself instead: same METHOD + URL). */
export function genericRoutes(doc: ScreenDocument): GenericRoute[] {
  const api = doc.resource.api;
  const out: GenericRoute[] = [
    { method: 'GET', url: `${api}/list`, kind: 'list' },
    { method: 'GET', url: `${api}/detail`, kind: 'detail' },
    { method: 'POST', url: `${api}/submit`, kind: 'submit' },
    { method: 'POST', url: `${api}/remove`, kind: 'remove' },
    { method: 'GET', url: `${api}/export`, kind: 'export' },
  ];
  if (doc.resource.tree) {
    for (const kind of ['tree', 'lazy-list', 'lazy-tree'] as const) out.push({ method: 'GET', url: `${api}/${kind}`, kind });
  }
  return out;
}

// ── JSON Schemas of the generic routes (OpenAPI) ──

type JsonSchema = Record<string, unknown>;

/** A field as a wire value: its JSON type and format, its title key as description. */
function wireSchema(f: FieldSchema): JsonSchema {
  const out: JsonSchema = {};
  if (f.type) out.type = f.type;
  if (f.format && ['date', 'date-time', 'email', 'uri'].includes(f.format)) out.format = f.format;
  if (f.maxLength !== undefined) out.maxLength = f.maxLength;
  if (f.enum) out.enum = f.enum;
  if (f.type === 'array') out.items = f.items ? wireSchema(f.items) : {};
  const notes = [f.title, f['x-dict'] ? `dictionary ${f['x-dict']}` : undefined, f.readOnly ? 'read-only' : undefined].filter(Boolean);
  if (notes.length) out.description = notes.join('; ');
  return out;
}

/** The record as list/detail send it: readable fields (write-only ones never leave the server) and id. */
export function recordSchema(doc: ScreenDocument): JsonSchema {
  const properties: Record<string, JsonSchema> = { id: { type: 'string', description: 'record id (a string: 19-digit ids exceed JSON numbers)' } };
  for (const [k, f] of Object.entries(listableProperties(doc))) if (!isWriteOnly(f)) properties[k] = wireSchema(f);
  // modules add computed fields (afterRead hooks): the record stays open
  return { type: 'object', properties, additionalProperties: true };
}

/** The BladeX R envelope around `data`. */
export function envelope(data: JsonSchema): JsonSchema {
  return {
    type: 'object',
    required: ['code', 'success', 'msg'],
    properties: { code: { type: 'integer' }, success: { type: 'boolean' }, data, msg: { type: 'string' } },
  };
}

/** BladeX's page (IPage) of records. */
export function pageSchema(record: JsonSchema): JsonSchema {
  return {
    type: 'object',
    properties: {
      records: { type: 'array', items: record },
      total: { type: 'integer' },
      size: { type: 'integer' },
      current: { type: 'integer' },
      pages: { type: 'integer' },
    },
    additionalProperties: true,
  };
}

/** Query parameters of list/export: paging, sorting, and the search keys the document declares (suffix convention). */
export function listQuerySchema(doc: ScreenDocument, paged = true): JsonSchema {
  const props = listableProperties(doc);
  const properties: Record<string, JsonSchema> = {};
  if (paged) {
    properties.current = { type: 'integer', minimum: 1, description: 'page number (from 1)' };
    properties.size = { type: 'integer', minimum: 1, description: 'page size' };
  }
  const sortable = doc.list.columns.filter((c) => c.sortable).map((c) => toSnake(c.field));
  if (sortable.length) {
    properties.ascs = { type: 'string', description: `ascending sort columns, comma-separated: ${sortable.join(', ')}` };
    properties.descs = { type: 'string', description: `descending sort columns, comma-separated: ${sortable.join(', ')}` };
  }
  for (const s of doc.list.search ?? []) {
    const f = props[s.field];
    for (const suffix of Object.keys(OP_SUFFIXES[s.op])) {
      const value = f ? wireSchema(f) : {};
      properties[`${s.field}${suffix}`] = { type: value.type === 'integer' || value.type === 'number' ? value.type : 'string', description: `${s.op} search on ${s.field}` };
    }
  }
  return { type: 'object', properties };
}

/** Body of submit: the document's editable fields (id present = edit; only the fields sent are changed). */
export function submitBodySchema(doc: ScreenDocument): JsonSchema {
  const properties: Record<string, JsonSchema> = { id: { type: 'string', description: 'absent: add; present: edit this record' } };
  for (const [k, f] of Object.entries(allProperties(doc.schema))) if (!f.readOnly) properties[k] = wireSchema(f);
  return { type: 'object', properties, additionalProperties: true };
}

/** The JSON Schemas (querystring, body, response 200) of one generic route of `doc`. */
export function routeSchema(doc: ScreenDocument, kind: GenericRouteKind): { querystring?: JsonSchema; body?: JsonSchema; response?: Record<string, JsonSchema>; summary: string } {
  const title = doc.id;
  const record = recordSchema(doc);
  const key = doc.resource.keyField ?? 'id';
  switch (kind) {
    case 'list':
      return { summary: `${title}: a page of records`, querystring: listQuerySchema(doc), response: { 200: envelope(pageSchema(record)) } };
    case 'detail':
      return { summary: `${title}: one record`, querystring: { type: 'object', required: [key], properties: { [key]: { type: 'string' } } }, response: { 200: envelope(record) } };
    case 'submit':
      return { summary: `${title}: add or edit a record`, body: submitBodySchema(doc), response: { 200: envelope({ type: 'object', additionalProperties: true }) } };
    case 'remove':
      return {
        summary: `${title}: remove records`,
        querystring: { type: 'object', required: ['ids'], properties: { ids: { type: 'string', description: 'comma-separated ids' } } },
        response: { 200: envelope({ type: 'object', properties: { removed: { type: 'integer' } }, additionalProperties: true }) },
      };
    case 'export':
      return { summary: `${title}: the records found, as an .xlsx file`, querystring: { ...listQuerySchema(doc, false), properties: { ...(listQuerySchema(doc, false).properties as object), columns: { type: 'string', description: 'fields to export, comma-separated' } } } };
    case 'tree':
      return { summary: `${title}: the whole tree (TreeNode)`, response: { 200: envelope({ type: 'array', items: { type: 'object', additionalProperties: true } }) } };
    case 'lazy-list':
    case 'lazy-tree':
      return { summary: `${title}: the children of one node`, response: { 200: envelope({ type: 'array', items: { type: 'object', additionalProperties: true } }) } };
  }
}

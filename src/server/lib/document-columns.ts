/**
 * Columns of a document-managed table named in a module's own SQL. The analyst owns those names (a field of the
 * screen document, stored as its snake_case column), so a module declares the fields its SQL uses, derives the
 * columns from them (toSnake, the CRUD plugin's rule) and checks them against the loaded document when the app
 * starts: a renamed or removed field stops the start with `file: field … that the document lacks`, instead of a
 * 500 the first time that SQL runs (tests/api/business/boundaries.test.ts holds every module to it).
 */
import type { DocumentRegistry } from '../documents.js';
import { allProperties, toSnake } from '../../shared/fields.js';

/** The document fields a module's SQL names, with their columns (`c.merchantName` → 'merchant_name'). */
export interface DocumentColumns<F extends string = string> {
  /** The screen document (id) that owns the table. */
  docId: string;
  table: string;
  fields: readonly F[];
  c: Record<F, string>;
}

export function documentColumns<F extends string>(docId: string, table: string, fields: readonly F[]): DocumentColumns<F> {
  return { docId, table, fields, c: Object.fromEntries(fields.map((f) => [f, toSnake(f)])) as Record<F, string> };
}

/** What does not match the loaded documents: the document or its table, and every declared field it lacks. */
export function documentColumnProblems(docs: DocumentRegistry, use: DocumentColumns): string[] {
  const doc = docs.get(use.docId);
  if (!doc) return [`document ${use.docId} is not loaded`];
  const out: string[] = [];
  if (doc.resource?.table !== use.table) out.push(`resource.table is ${JSON.stringify(doc.resource?.table)}, not ${use.table}`);
  const props = allProperties(doc.schema);
  const missing = use.fields.filter((f) => !(f in props));
  if (missing.length) out.push(`field${missing.length > 1 ? 's' : ''} ${missing.join(', ')} named in SQL ${missing.length > 1 ? 'are' : 'is'} not in the document`);
  return out;
}

/** Throws (stops the start) when the document no longer has what `owner`'s SQL names; skips an unloaded document. */
export function checkDocumentColumns(docs: DocumentRegistry, owner: string, use: DocumentColumns): void {
  if (!docs.get(use.docId)) return;
  const problems = documentColumnProblems(docs, use);
  if (problems.length) throw new Error(`${docs.files.get(use.docId) ?? use.docId}: module ${owner}: ${problems.join('; ')}`);
}

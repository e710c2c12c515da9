/**
 * Reading an .xlsx import against a screen document — the part every import shares (the generic `import`
 * built-in, the employees' card import):
 * - the template: one header row, the document's importable fields (editable in add mode; never a password,
 *   a confirmation or another write-only helper — a spreadsheet of plain passwords is a leak) by their titles;
 * - headers matched to those fields by their title in zh or en, or the field name; an unknown header is refused;
 * - cells as values: dates as YYYY-MM-DD, numbers of numeric fields, dictionary cells by key or label in either
 *   language, looked-up cells (x-lookup: roles, departments …) by the other screen's label or id, several
 *   separated by commas; anything else is a row error naming the column and, for a dictionary, what it accepts.
 * Errors are {row, column letter, field, message}, sorted by row; any error → nothing is imported.
 */
import type { CellValue } from 'exceljs';
import { loadExcel } from '../lib/lazyImport.js';
import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import type { ScreenDocument } from '../../shared/document.js';
import { allProperties, isWriteOnly, toSnake } from '../../shared/fields.js';
import { formSchema } from '../../shared/form.js';
import type { AuthUser } from '../context.js';
import type { DocumentRegistry } from '../documents.js';
import { BusinessError } from '../lib/errors.js';
import { translate } from '../lib/i18n.js';
import { describeChoices, loadDictionaries } from './dictionaries.js';
import { lookupFields } from './lookup.js';

export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
export const MAX_IMPORT_FILE = 10 * 1024 * 1024;

export interface RowError {
  row: number;
  /** Column letter in the file (A, B …) of the field, when the file has that column. */
  column?: string;
  field?: string;
  message: string;
}

export function columnLetter(n: number): string {
  let s = '';
  for (; n > 0; n = Math.floor((n - 1) / 26)) s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
  return s;
}

/** Fields an import fills (add mode, editable, not a password or a write-only helper), in dialog order. */
export function importFields(doc: ScreenDocument): string[] {
  const form = formSchema(doc, 'add');
  const props = allProperties(doc.schema);
  return form.order.filter((f) => !form.readonly.includes(f) && props[f] && !isWriteOnly(props[f]) && !props[f]['x-virtual']);
}

export async function templateWorkbook(doc: ScreenDocument, lang: 'zh' | 'en'): Promise<Buffer> {
  const ExcelJS = await loadExcel();
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet(translate(doc.title, {}, lang).slice(0, 31) || doc.id);
  const props = allProperties(doc.schema);
  ws.addRow(importFields(doc).map((f) => translate(props[f].title ?? f, {}, lang)));
  ws.getRow(1).font = { bold: true };
  ws.columns.forEach((c) => (c.width = 18));
  return Buffer.from(await wb.xlsx.writeBuffer());
}

function cellValue(v: CellValue): unknown {
  if (v === null || v === undefined) return undefined;
  if (v instanceof Date) {
    const p = (n: number) => String(n).padStart(2, '0');
    return `${v.getUTCFullYear()}-${p(v.getUTCMonth() + 1)}-${p(v.getUTCDate())}`;
  }
  if (typeof v === 'object') {
    if ('text' in v && typeof (v as any).text === 'string') return (v as any).text;
    if ('richText' in v) return (v as any).richText.map((r: any) => r.text).join('');
    if ('result' in v) return cellValue((v as any).result);
    return undefined;
  }
  return v;
}

export interface SheetRow {
  /** Row number in the file (the header is row 1). */
  row: number;
  /** Trimmed non-empty cells by field, as written (dictionary and lookup cells not yet resolved). */
  cells: Record<string, unknown>;
}

export interface ImportSheet {
  rows: SheetRow[];
  /** field → its column in the file: letter and header as written. */
  columnOf: Map<string, { letter: string; header: string }>;
}

/** The first worksheet's header and non-empty rows; a file that is no .xlsx, has no row or an unknown header is refused. */
export async function readImportSheet(doc: ScreenDocument, file: Buffer): Promise<ImportSheet> {
  const ExcelJS = await loadExcel();
  const wb = new ExcelJS.Workbook();
  try {
    await wb.xlsx.load(file as any);
  } catch {
    throw new BusinessError('import.msg.badFile');
  }
  const ws = wb.worksheets[0];
  if (!ws || ws.rowCount < 2) throw new BusinessError('import.msg.empty');
  const props = allProperties(doc.schema);
  const byHeader = new Map<string, string>();
  for (const f of importFields(doc)) {
    for (const name of [f, translate(props[f].title ?? f, {}, 'zh'), translate(props[f].title ?? f, {}, 'en')]) byHeader.set(name.trim().toLowerCase(), f);
  }
  const columns: Array<string | undefined> = [];
  const unknown: string[] = [];
  const columnOf = new Map<string, { letter: string; header: string }>();
  ws.getRow(1).eachCell({ includeEmpty: false }, (cell, col) => {
    const h = String(cellValue(cell.value) ?? '').trim();
    const f = byHeader.get(h.toLowerCase());
    columns[col] = f;
    if (f && !columnOf.has(f)) columnOf.set(f, { letter: columnLetter(col), header: h });
    if (h && !f) unknown.push(h);
  });
  if (unknown.length) throw new BusinessError('import.msg.header', { headers: unknown.join(', ') });
  const rows: SheetRow[] = [];
  for (let r = 2; r <= ws.rowCount; r++) {
    const cells: Record<string, unknown> = {};
    ws.getRow(r).eachCell({ includeEmpty: false }, (cell, col) => {
      const f = columns[col];
      if (!f) return;
      let v = cellValue(cell.value);
      if (typeof v === 'string') v = v.trim();
      if (v !== '' && v !== undefined) cells[f] = v;
    });
    if (Object.keys(cells).length) rows.push({ row: r, cells });
  }
  return { rows, columnOf };
}

/** An error of one row, with the column letter of its field when the file has that column. */
export function rowError(sheet: ImportSheet, row: number, field: string | undefined, message: string): RowError {
  const col = field ? sheet.columnOf.get(field) : undefined;
  return { row, ...(col ? { column: col.letter } : {}), ...(field ? { field } : {}), message };
}

/** The refusal of a whole import: how many rows are wrong, and every error (sorted by row) as data. */
export function importFailed(errors: RowError[]): BusinessError {
  errors.sort((a, b) => a.row - b.row);
  const count = new Set(errors.map((e) => e.row)).size;
  return Object.assign(new BusinessError('import.msg.failed', { count }), { data: { errors } });
}

type Resolve = (value: unknown) => { value: unknown } | { error: string };

/**
 * Per field, how a cell becomes the stored value: dictionary label/key → key, lookup label/id → id (joined with
 * commas for x-joined fields), a numeric text of a number field → number, a number of a text field → text.
 */
export async function cellResolvers(
  db: Kysely<any>,
  docs: Pick<DocumentRegistry, 'get'>,
  doc: ScreenDocument,
  user: Pick<AuthUser, 'tenantId'>,
  sheet: ImportSheet,
  lang: 'zh' | 'en',
): Promise<Map<string, Resolve>> {
  const props = allProperties(doc.schema);
  const fields = [...sheet.columnOf.keys()];
  const header = (f: string) => sheet.columnOf.get(f)?.header ?? f;
  const out = new Map<string, Resolve>();

  const dictCodes = [...new Set(fields.map((f) => props[f]['x-dict']).filter(Boolean))] as string[];
  const dicts = await loadDictionaries(db, dictCodes, user.tenantId);
  for (const f of fields) {
    const code = props[f]['x-dict'];
    const entries = code ? dicts.get(code) : undefined;
    if (!code || !entries?.length) continue;
    const keys = new Map<string, string>();
    for (const e of entries) for (const label of [e.key, e.label, e.labelEn]) if (label) keys.set(String(label).trim().toLowerCase(), e.key);
    out.set(f, (v) => {
      const key = keys.get(String(v).toLowerCase());
      return key === undefined
        ? { error: translate('import.msg.dictValue', { value: String(v), column: header(f), options: describeChoices(entries, lang, false) }, lang) }
        : { value: key };
    });
  }

  for (const { field, schema, lookup } of lookupFields(doc)) {
    if (!sheet.columnOf.has(field)) continue;
    const target = docs.get(lookup.screen);
    if (!target) continue;
    const valueField = lookup.value ?? target.resource.keyField ?? target.resource.tree?.keyField ?? 'id';
    const valueCol = valueField === 'id' ? 'id' : toSnake(valueField);
    let q = db.selectFrom(target.resource.table).select([sql<string>`${sql.ref(valueCol)}::text`.as('v'), sql<string>`${sql.ref(toSnake(lookup.label))}::text`.as('l')]);
    if (target.resource.tenantScoped !== false) q = q.where('tenant_id', '=', user.tenantId);
    if (target.resource.softDelete !== false) q = q.where('is_deleted', '=', 0);
    const byLabel = new Map<string, string[]>();
    const values = new Set<string>();
    for (const r of (await q.execute()) as Array<{ v: string; l: string | null }>) {
      values.add(r.v);
      if (r.l) byLabel.set(r.l.trim().toLowerCase(), [...(byLabel.get(r.l.trim().toLowerCase()) ?? []), r.v]);
    }
    const joined = !!schema['x-joined'] || schema.type === 'array';
    out.set(field, (cell) => {
      const items = joined ? String(cell).split(/[,，、;；]/).map((s) => s.trim()).filter(Boolean) : [String(cell).trim()];
      const ids: string[] = [];
      for (const item of items) {
        const named = byLabel.get(item.toLowerCase());
        if (named?.length === 1) ids.push(named[0]);
        else if (named && named.length > 1) return { error: translate('import.msg.lookupAmbiguous', { value: item, column: header(field) }, lang) };
        else if (values.has(item)) ids.push(item);
        else return { error: translate('import.msg.lookupValue', { value: item, column: header(field) }, lang) };
      }
      return { value: joined ? [...new Set(ids)].join(',') : ids[0] };
    });
  }

  // then every value as the field's type: a numeric text of a number field → number (a dictionary key '1' too),
  // a number of a text field → text
  const typed = new Map<string, Resolve>();
  for (const f of fields) {
    const p = props[f];
    const resolve = out.get(f) ?? ((v: unknown) => ({ value: v }));
    typed.set(f, (cell) => {
      const r = resolve(cell);
      if ('error' in r) return r;
      const v = r.value;
      if ((p.type === 'integer' || p.type === 'number') && typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v)) return { value: Number(v) };
      if (p.type === 'string' && typeof v === 'number') return { value: String(v) };
      return r;
    });
  }
  return typed;
}

/** The row's cells as values to save; cells that resolve to nothing are reported (and left out). */
export function resolveRow(sheet: ImportSheet, row: SheetRow, resolvers: Map<string, Resolve>, errors: RowError[]): { values: Record<string, unknown>; bad: Set<string> } {
  const values: Record<string, unknown> = {};
  const bad = new Set<string>();
  for (const [f, cell] of Object.entries(row.cells)) {
    const resolve = resolvers.get(f);
    const r = resolve ? resolve(cell) : { value: cell };
    if ('error' in r) {
      errors.push(rowError(sheet, row.row, f, r.error));
      bad.add(f);
    } else values[f] = r.value;
  }
  return { values, bad };
}

/** The uploaded file of an import: a multipart field `file`, or the raw .xlsx body. */
export async function uploadedFile(req: { isMultipart?: () => boolean; file?: () => Promise<{ toBuffer(): Promise<Buffer> } | undefined>; body?: unknown }): Promise<Buffer> {
  let file: Buffer | undefined;
  if (req.isMultipart?.()) {
    const part = await req.file!();
    if (part) file = await part.toBuffer();
  } else if (Buffer.isBuffer(req.body)) file = req.body;
  if (!file || !file.length) throw new BusinessError('import.msg.badFile');
  return file;
}

/**
 * Employee import from .xlsx: headers are matched to the document's editable add-mode fields by their
 * title in zh or en (or the field name); every row is validated with formSchema(doc, 'add') through ajv —
 * the same schema the dialog and submit use — dictionary cells accept the key or the label in either
 * language, anything else is refused naming the allowed labels; card numbers must be unique in the file
 * (every repeat names the row it repeats) and in the tenant (every row with a taken number is reported).
 * Any error → nothing is written and the answer lists every bad row as {row, column (letter), field,
 * message}; otherwise all rows go in one statement inside one transaction.
 */
import ExcelJS from 'exceljs';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import type { ScreenDocument } from '../../../shared/document.js';
import { allProperties } from '../../../shared/fields.js';
import { describeChoices, loadDictionaries, type DictEntry } from '../../crud/dictionaries.js';
import { CUSTOM_FORMATS, formSchema, messageKey, messageParams } from '../../../shared/form.js';
import { BusinessError } from '../../lib/errors.js';
import { translate } from '../../lib/i18n.js';
import { issueCards, takenCardNumbers } from '../ledger/cards.js';
import type { LedgerContext } from '../ledger/service.js';
import type { Kysely } from 'kysely';

export interface RowError {
  row: number;
  /** Column letter in the file (A, B …) of the field, when the file has that column. */
  column?: string;
  field?: string;
  message: string;
}

function columnLetter(n: number): string {
  let s = '';
  for (; n > 0; n = Math.floor((n - 1) / 26)) s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
  return s;
}

const validators = new WeakMap<ScreenDocument, ValidateFunction>();

function validator(doc: ScreenDocument): ValidateFunction {
  let v = validators.get(doc);
  if (!v) {
    const ajv = new Ajv({ allErrors: true, strict: false, coerceTypes: false });
    for (const [name, re] of Object.entries(CUSTOM_FORMATS)) ajv.addFormat(name, re);
    v = ajv.compile(formSchema(doc, 'add').schema);
    validators.set(doc, v);
  }
  return v;
}

/** Editable fields of the import (add mode), in dialog order. */
function importFields(doc: ScreenDocument): string[] {
  const form = formSchema(doc, 'add');
  return form.order.filter((f) => !form.readonly.includes(f));
}

export async function templateWorkbook(doc: ScreenDocument, lang: 'zh' | 'en'): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet(translate(doc.title, {}, lang));
  const props = allProperties(doc.schema);
  ws.addRow(importFields(doc).map((f) => translate(props[f].title ?? f, {}, lang)));
  ws.getRow(1).font = { bold: true };
  ws.columns.forEach((c) => (c.width = 18));
  return Buffer.from(await wb.xlsx.writeBuffer());
}

function cellValue(v: ExcelJS.CellValue): unknown {
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

export async function importEmployees(db: Kysely<any>, ctx: LedgerContext, doc: ScreenDocument, file: Buffer, lang: 'zh' | 'en') {
  const wb = new ExcelJS.Workbook();
  try {
    await wb.xlsx.load(file as any);
  } catch {
    throw new BusinessError('employee.msg.importBadFile');
  }
  const ws = wb.worksheets[0];
  if (!ws || ws.rowCount < 2) throw new BusinessError('employee.msg.importEmpty');
  const props = allProperties(doc.schema);
  const fields = importFields(doc);
  const byHeader = new Map<string, string>();
  for (const f of fields) {
    for (const name of [f, translate(props[f].title ?? f, {}, 'zh'), translate(props[f].title ?? f, {}, 'en')]) byHeader.set(name.trim().toLowerCase(), f);
  }
  const columns: Array<string | undefined> = [];
  const unknown: string[] = [];
  /** field → its column in the file: letter and header as written. */
  const columnOf = new Map<string, { letter: string; header: string }>();
  ws.getRow(1).eachCell({ includeEmpty: false }, (cell, col) => {
    const h = String(cellValue(cell.value) ?? '').trim();
    const f = byHeader.get(h.toLowerCase());
    columns[col] = f;
    if (f && !columnOf.has(f)) columnOf.set(f, { letter: columnLetter(col), header: h });
    if (h && !f) unknown.push(h);
  });
  if (unknown.length) throw new BusinessError('employee.msg.importHeader', { headers: unknown.join(', ') });

  // Dictionary labels (zh or en) and keys → keys, for the dictionary fields.
  const dictCodes = [...new Set(fields.map((f) => props[f]['x-dict']).filter(Boolean))] as string[];
  const dicts = await loadDictionaries(db, dictCodes, ctx.tenantId);
  const dictMap = new Map<string, Map<string, string>>();
  for (const [code, entries] of dicts) {
    const m = new Map<string, string>();
    for (const e of entries) for (const label of [e.key, e.label, e.labelEn]) if (label) m.set(String(label).trim().toLowerCase(), e.key);
    dictMap.set(code, m);
  }
  const errors: RowError[] = [];
  const records: Array<Record<string, unknown>> = [];
  const at = (row: number, field: string | undefined, message: string): RowError => ({ row, ...(field && columnOf.has(field) ? { column: columnOf.get(field)!.letter } : {}), ...(field ? { field } : {}), message });
  /** card number → the rows that carry it (in file order), over every row, valid or not. */
  const cards = new Map<string, number[]>();
  const validate = validator(doc);
  for (let r = 2; r <= ws.rowCount; r++) {
    const row = ws.getRow(r);
    const values: Record<string, unknown> = {};
    const badDict = new Set<string>();
    let any = false;
    row.eachCell({ includeEmpty: false }, (cell, col) => {
      const f = columns[col];
      if (!f) return;
      let v = cellValue(cell.value);
      if (typeof v === 'string') v = v.trim();
      if (v === '' || v === undefined) return;
      any = true;
      const p = props[f];
      const code = p['x-dict'];
      const known = code ? dictMap.get(code) : undefined;
      if (code && known?.size) {
        const key = known.get(String(v).toLowerCase());
        if (key === undefined) {
          // Not a key nor a label of the dictionary: name the column and what it accepts.
          const entries: DictEntry[] = dicts.get(code) ?? [];
          errors.push(at(r, f, translate('employee.msg.importDictValue', { value: String(v), column: columnOf.get(f)?.header ?? f, options: describeChoices(entries, lang, false) }, lang)));
          badDict.add(f);
          return;
        }
        v = key;
      }
      if ((p.type === 'integer' || p.type === 'number') && typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v)) v = Number(v);
      if (p.type === 'string' && typeof v === 'number') v = String(v);
      values[f] = v;
    });
    if (!any) continue;
    if (typeof values.cardNo === 'string' && values.cardNo) {
      const seen = cards.get(values.cardNo);
      if (seen) errors.push(at(r, 'cardNo', translate('employee.msg.rowDuplicateOf', { cardNo: values.cardNo, first: seen[0] }, lang)));
      cards.set(values.cardNo, [...(seen ?? []), r]);
    }
    for (const f of fields) if (values[f] === undefined && !badDict.has(f) && props[f].default !== undefined) values[f] = props[f].default;
    if (!validate(values)) {
      for (const e of validate.errors as ErrorObject[]) {
        const field = e.keyword === 'required' ? (e.params as any).missingProperty : e.instancePath.replace(/^\//, '').split('/')[0];
        if (badDict.has(field)) continue;
        const key = messageKey(doc, field, e.keyword);
        const params = messageParams(doc, field, e.keyword);
        errors.push(at(r, field, translate(key, { ...params, field: translate(String(params.field ?? field), {}, lang) }, lang)));
      }
      continue;
    }
    if (badDict.size) continue;
    records.push({ ...values, _row: r });
  }
  if (!records.length && !errors.length) throw new BusinessError('employee.msg.importEmpty');
  if (cards.size) {
    for (const cardNo of await takenCardNumbers(db, ctx.tenantId, [...cards.keys()])) {
      for (const r of cards.get(cardNo) ?? []) errors.push(at(r, 'cardNo', translate('employee.msg.cardNoTaken', { cardNo }, lang)));
    }
  }
  if (errors.length) {
    errors.sort((a, b) => a.row - b.row);
    const badRows = new Set(errors.map((e) => e.row)).size;
    throw Object.assign(new BusinessError('employee.msg.importFailed', { count: badRows }), { data: { errors } });
  }
  const inserted = await issueCards(db, ctx, records);
  return { imported: inserted };
}

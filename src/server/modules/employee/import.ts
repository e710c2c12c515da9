/**
 * Employee import from .xlsx: headers are matched to the document's editable add-mode fields by their
 * title in zh or en (or the field name); every row is validated with formSchema(doc, 'add') through ajv —
 * the same schema the dialog and submit use — dictionary cells accept the key or the label in either
 * language; card numbers must be unique in the file and in the tenant. Any error → nothing is written and
 * the answer lists every bad row; otherwise all rows go in one statement inside one transaction.
 */
import ExcelJS from 'exceljs';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import type { ScreenDocument } from '../../../shared/document.js';
import { allProperties } from '../../../shared/fields.js';
import { CUSTOM_FORMATS, formSchema, messageKey, messageParams } from '../../../shared/form.js';
import { BusinessError, translate } from '../ledger/errors.js';
import { query, tx, type LedgerContext } from '../ledger/service.js';
import type { Kysely } from 'kysely';

export interface RowError {
  row: number;
  field?: string;
  message: string;
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
export function importFields(doc: ScreenDocument): string[] {
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
  ws.getRow(1).eachCell({ includeEmpty: false }, (cell, col) => {
    const h = String(cellValue(cell.value) ?? '').trim();
    const f = byHeader.get(h.toLowerCase());
    columns[col] = f;
    if (h && !f) unknown.push(h);
  });
  if (unknown.length) throw new BusinessError('employee.msg.importHeader', { headers: unknown.join(', ') });

  // Dictionary labels (zh or en) → keys, for the dictionary fields.
  const dictCodes = [...new Set(fields.map((f) => props[f]['x-dict']).filter(Boolean))] as string[];
  const dictRows = dictCodes.length
    ? await query<{ code: string; dict_key: string; dict_value: string; dict_value_en: string | null }>(
        db,
        `select code, dict_key, dict_value, dict_value_en from blade_dict where code = any($1) and parent_id <> 0 and is_deleted = 0
         union all
         select code, dict_key, dict_value, dict_value_en from blade_dict_biz where code = any($1) and parent_id <> 0 and is_deleted = 0 and tenant_id = $2`,
        [dictCodes, ctx.tenantId],
      )
    : [];
  const dictMap = new Map<string, string>();
  for (const d of dictRows) {
    for (const label of [d.dict_key, d.dict_value, d.dict_value_en]) if (label) dictMap.set(`${d.code}\u0000${String(label).trim().toLowerCase()}`, d.dict_key);
  }

  const errors: RowError[] = [];
  const records: Array<Record<string, unknown>> = [];
  const seen = new Map<string, number>();
  const validate = validator(doc);
  for (let r = 2; r <= ws.rowCount; r++) {
    const row = ws.getRow(r);
    const values: Record<string, unknown> = {};
    let any = false;
    row.eachCell({ includeEmpty: false }, (cell, col) => {
      const f = columns[col];
      if (!f) return;
      let v = cellValue(cell.value);
      if (typeof v === 'string') v = v.trim();
      if (v === '' || v === undefined) return;
      any = true;
      const p = props[f];
      if (p['x-dict']) {
        const key = dictMap.get(`${p['x-dict']}\u0000${String(v).toLowerCase()}`);
        v = key !== undefined ? key : v;
      }
      if ((p.type === 'integer' || p.type === 'number') && typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v)) v = Number(v);
      if (p.type === 'string' && typeof v === 'number') v = String(v);
      values[f] = v;
    });
    if (!any) continue;
    for (const f of fields) if (values[f] === undefined && props[f].default !== undefined) values[f] = props[f].default;
    if (!validate(values)) {
      for (const e of validate.errors as ErrorObject[]) {
        const field = e.keyword === 'required' ? (e.params as any).missingProperty : e.instancePath.replace(/^\//, '').split('/')[0];
        const key = messageKey(doc, field, e.keyword);
        const params = messageParams(doc, field, e.keyword);
        errors.push({ row: r, field, message: translate(key, { ...params, field: translate(String(params.field ?? field), {}, lang) }, lang) });
      }
      continue;
    }
    const card = String(values.cardNo);
    if (seen.has(card)) errors.push({ row: r, field: 'cardNo', message: translate('employee.msg.rowDuplicate', {}, lang) + ` (${seen.get(card)})` });
    else seen.set(card, r);
    records.push({ ...values, _row: r });
  }
  if (!records.length && !errors.length) throw new BusinessError('employee.msg.importEmpty');
  if (seen.size) {
    const existing = await query<{ card_no: string }>(db, `select card_no from canteen_employee where tenant_id = $1 and is_deleted = 0 and card_no = any($2)`, [
      ctx.tenantId,
      [...seen.keys()],
    ]);
    for (const e of existing) errors.push({ row: seen.get(e.card_no)!, field: 'cardNo', message: translate('employee.msg.cardNoExists', {}, lang) });
  }
  if (errors.length) {
    errors.sort((a, b) => a.row - b.row);
    const badRows = new Set(errors.map((e) => e.row)).size;
    throw Object.assign(new BusinessError('employee.msg.importFailed', { count: badRows }), { data: { errors } });
  }
  const json = JSON.stringify(
    records.map((v) => ({
      employee_name: v.employeeName, card_no: v.cardNo, phone: v.phone ?? null, idcard: v.idcard ?? null, gender: v.gender ?? null,
      birthday: v.birthday ?? null, address: v.address ?? null, psw_free: v.pswFree ?? 1, details: v.details ?? null,
      status: v.status ?? 1, remarks: v.remarks ?? null,
    })),
  );
  const inserted = await tx(db, async (t) => {
    const rows = await query<{ id: string }>(
      t,
      `insert into canteen_employee (tenant_id, create_user, create_dept, employee_name, card_no, phone, idcard, gender, birthday, address,
              psw_free, details, status, remarks)
       select $2, $3, $4, employee_name, card_no, phone, idcard, gender, birthday, address, coalesce(psw_free, 1), details, coalesce(status, 1), remarks
         from json_to_recordset($1::json) as x(employee_name text, card_no text, phone text, idcard text, gender int, birthday date,
              address text, psw_free int, details text, status int, remarks text)
       returning id`,
      [json, ctx.tenantId, ctx.userId ?? null, ctx.deptId ?? null],
    );
    return rows.length;
  });
  return { imported: inserted };
}

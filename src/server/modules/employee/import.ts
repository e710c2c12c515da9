/**
 * Employee import from .xlsx: the sheet is read, headers matched and cells resolved (dictionary labels in
 * either language) by the shared import reader (crud/import-sheet.ts); every row is validated with
 * formSchema(doc, 'add') through ajv — the same schema the dialog and submit use; card numbers must be unique
 * in the file (every repeat names the row it repeats) and in the tenant (every row with a taken number is
 * reported). Any error → nothing is written and the answer lists every bad row as {row, column (letter), field,
 * message}; otherwise all rows go in one statement inside one transaction (cards are the ledger's: issueCards).
 */
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import type { Kysely } from 'kysely';
import type { ScreenDocument } from '../../../shared/document.js';
import { allProperties } from '../../../shared/fields.js';
import { CUSTOM_FORMATS, formSchema, messageKey, messageParams } from '../../../shared/form.js';
import type { DocumentRegistry } from '../../documents.js';
import { cellResolvers, importFailed, importFields, readImportSheet, resolveRow, rowError, type RowError } from '../../crud/import-sheet.js';
import { BusinessError } from '../../lib/errors.js';
import { translate } from '../../lib/i18n.js';
import { issueCards, takenCardNumbers } from '../ledger/cards.js';
import type { LedgerContext } from '../ledger/service.js';

export { templateWorkbook } from '../../crud/import-sheet.js';

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

export async function importEmployees(db: Kysely<any>, docs: Pick<DocumentRegistry, 'get'>, ctx: LedgerContext, doc: ScreenDocument, file: Buffer, lang: 'zh' | 'en') {
  const sheet = await readImportSheet(doc, file);
  if (!sheet.rows.length) throw new BusinessError('import.msg.empty');
  const props = allProperties(doc.schema);
  const importable = importFields(doc);
  const resolvers = await cellResolvers(db, docs, doc, { tenantId: ctx.tenantId }, sheet, lang);
  const errors: RowError[] = [];
  const records: Array<Record<string, unknown>> = [];
  /** card number → the rows that carry it (in file order), over every row, valid or not. */
  const cards = new Map<string, number[]>();
  const validate = validator(doc);
  for (const row of sheet.rows) {
    const r = row.row;
    const { values, bad } = resolveRow(sheet, row, resolvers, errors);
    if (typeof values.cardNo === 'string' && values.cardNo) {
      const seen = cards.get(values.cardNo);
      if (seen) errors.push(rowError(sheet, r, 'cardNo', translate('employee.msg.rowDuplicateOf', { cardNo: values.cardNo, first: seen[0] }, lang)));
      cards.set(values.cardNo, [...(seen ?? []), r]);
    }
    for (const f of importable) if (values[f] === undefined && !bad.has(f) && props[f].default !== undefined) values[f] = props[f].default;
    if (!validate(values)) {
      for (const e of validate.errors as ErrorObject[]) {
        const field = e.keyword === 'required' ? (e.params as any).missingProperty : e.instancePath.replace(/^\//, '').split('/')[0];
        if (bad.has(field)) continue;
        const key = messageKey(doc, field, e.keyword);
        const params = messageParams(doc, field, e.keyword);
        errors.push(rowError(sheet, r, field, translate(key, { ...params, field: translate(String(params.field ?? field), {}, lang) }, lang)));
      }
      continue;
    }
    if (bad.size) continue;
    records.push({ ...values, _row: r });
  }
  if (cards.size) {
    for (const cardNo of await takenCardNumbers(db, ctx.tenantId, [...cards.keys()])) {
      for (const r of cards.get(cardNo) ?? []) errors.push(rowError(sheet, r, 'cardNo', translate('employee.msg.cardNoTaken', { cardNo }, lang)));
    }
  }
  if (errors.length) throw importFailed(errors);
  const inserted = await issueCards(db, ctx, records);
  return { imported: inserted };
}

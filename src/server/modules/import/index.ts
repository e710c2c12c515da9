/**
 * Import for every screen document that offers it (list.builtins includes 'import'):
 *   GET  <resource.api>/import/template?lang=zh|en   the .xlsx header row to fill in (importable fields by title)
 *   POST <resource.api>/import                       .xlsx (multipart field `file`, or the raw body) → all rows or none
 * (and resource.aliases.import / importTemplate: BladeX users' import-user, export-template)
 * Permission: <permissionPrefix>_import. Each row goes through the same write as the add dialog's submit
 * (crud writeRecord: the document's validation and rules, uniqueness, lookups, the module's beforeSave hooks —
 * a tenant's account limit, roles the caller may hand out …), all rows in one transaction with origin 'import';
 * every refused row is reported as {row, column, field, message} and then nothing is kept. A module serving
 * its own import (employees: cards are the ledger's) registers the URL first and this one steps aside.
 */
import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import type { ScreenDocument } from '../../../shared/document.js';
import { builtins } from '../../../shared/fields.js';
import { requirePermission, type ServerModule } from '../../context.js';
import { inTransaction, refuseSharedWrite, writeRecord } from '../../crud/index.js';
import {
  MAX_IMPORT_FILE, XLSX_TYPE, cellResolvers, importFailed, readImportSheet, resolveRow, rowError, templateWorkbook, uploadedFile, type RowError,
} from '../../crud/import-sheet.js';
import { BusinessError } from '../../lib/errors.js';
import { HttpError, ok } from '../../lib/http.js';

/** Rows of one import at most (a larger file is refused before anything is read into the database). */
export const MAX_IMPORT_ROWS = 5000;

function mountImport(app: FastifyInstance, doc: ScreenDocument): void {
  const api = doc.resource.api;
  const code = `${doc.resource.permissionPrefix}_import`;

  const templateUrls = [`${api}/import/template`, ...(doc.resource.aliases?.importTemplate ? [`${api}/${doc.resource.aliases.importTemplate}`] : [])];
  const importUrls = [`${api}/import`, ...(doc.resource.aliases?.import ? [`${api}/${doc.resource.aliases.import}`] : [])];

  for (const url of templateUrls.filter((u) => !app.hasRoute({ method: 'GET', url: u })))
    app.get(url, async (req, reply) => {
      await requirePermission(app, req, code);
      return reply
        .header('content-type', XLSX_TYPE)
        .header('content-disposition', `attachment; filename="${doc.id}-template.xlsx"`)
        .send(await templateWorkbook(doc, req.lang));
    });

  for (const url of importUrls.filter((u) => !app.hasRoute({ method: 'POST', url: u })))
    app.post(url, async (req) => {
      const user = await requirePermission(app, req, code);
      refuseSharedWrite(doc, user);
      const sheet = await readImportSheet(doc, await uploadedFile(req as any));
      if (!sheet.rows.length) throw new BusinessError('import.msg.empty');
      if (sheet.rows.length > MAX_IMPORT_ROWS) throw new BusinessError('import.msg.tooMany', { max: MAX_IMPORT_ROWS });
      const imported = await inTransaction(app.ctx.db(), async (db) => {
        const resolvers = await cellResolvers(db, app.ctx.docs, doc, user, sheet, req.lang);
        const errors: RowError[] = [];
        let saved = 0;
        for (const row of sheet.rows) {
          const before = errors.length;
          const { values } = resolveRow(sheet, row, resolvers, errors);
          if (errors.length > before) continue;
          try {
            await writeRecord(app, db, doc, 'add', values, undefined, user, req, 'import');
            saved++;
          } catch (e) {
            // A refusal of this row (validation, a taken value, a hook's rule) is reported; a failed statement
            // or anything unexpected ends the import (the transaction takes nothing more).
            if (!(e instanceof HttpError) || e.status >= 500 || (e as { statementFailed?: boolean }).statementFailed) throw e;
            const fields = Array.isArray(e.data) ? (e.data as Array<{ field?: string; message?: string }>) : [];
            const message = e.text ?? app.ctx.i18n.t(req.lang, e.key, e.params);
            if (fields.length) for (const f of fields) errors.push(rowError(sheet, row.row, f.field, f.message ?? message));
            else errors.push(rowError(sheet, row.row, undefined, message));
          }
        }
        if (errors.length) throw importFailed(errors);
        return saved;
      });
      return ok({ imported });
    });
}

export const importModule: ServerModule = {
  name: 'import',
  plugin: async (app) => {
    const docs = app.ctx.docs.all.filter((d) => builtins(d).has('import'));
    if (!docs.length) return;
    if (!app.hasContentTypeParser('multipart/form-data')) await app.register(multipart, { limits: { fileSize: MAX_IMPORT_FILE, files: 1 } });
    app.addContentTypeParser([XLSX_TYPE, 'application/octet-stream'], { parseAs: 'buffer', bodyLimit: MAX_IMPORT_FILE }, (_req, body, done) => done(null, body));
    for (const doc of docs) mountImport(app, doc);
  },
};

export default importModule;

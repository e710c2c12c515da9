/**
 * Employees (cards). List/detail/view/export come from the CRUD plugin (the document offers no add/edit/
 * delete). Actions:
 *   GET  /api/employee/unbind?id=                 clears the messaging-app binding (wxUserId)
 *   GET  /api/employee/getAndSyncById?id=         sync through the messaging-app provider seam (400 without one)
 *   POST /api/employee/import                     .xlsx (multipart field `file`, or the raw body) → all rows or none
 *   GET  /api/employee/import/template?lang=      the .xlsx header row to fill in
 *   POST /api/employee/recharge {id, amount, remarks?}
 *   POST /api/employee/recharge/preview {amount, status?, ids?}   → {count, amount, total}
 *   POST /api/employee/recharge/batch {amount, status?, ids?, expectCount?}
 */
import multipart from '@fastify/multipart';
import type { ServerModule } from '../../context.js';
import { recordEvent } from '../log/index.js';
import { ok, okStatus } from '../../lib/http.js';
import { BusinessError } from '../../lib/errors.js';
import { idParam, listParam, optionalText, param } from '../../lib/params.js';
import { applyCardSync, findCard, unbindCard } from '../ledger/cards.js';
import { ledgerContext } from '../ledger/index.js';
import { batchRecharge, previewBatchRecharge, recharge } from '../ledger/service.js';
import { importEmployees, templateWorkbook } from './import.js';
import { MAX_IMPORT_FILE as MAX_FILE, XLSX_TYPE as XLSX, uploadedFile } from '../../crud/import-sheet.js';
import { messagingProvider } from './provider.js';


export const employeeModule: ServerModule = {
  name: 'employee',
  plugin: async (app) => {
    if (!app.hasContentTypeParser('multipart/form-data')) await app.register(multipart, { limits: { fileSize: MAX_FILE, files: 1 } });
    app.addContentTypeParser([XLSX, 'application/octet-stream'], { parseAs: 'buffer', bodyLimit: MAX_FILE }, (_req, body, done) => done(null, body));

    app.get('/api/employee/unbind', async (req) => {
      const ctx = await ledgerContext(app, req, 'employee_unbind');
      if (!(await unbindCard(app.ctx.db(), ctx, idParam(req)))) throw new BusinessError('employee.msg.notFound', {}, 404);
      return okStatus();
    });

    app.get('/api/employee/getAndSyncById', async (req) => {
      const ctx = await ledgerContext(app, req, 'employee_sync');
      const db = app.ctx.db();
      const e = await findCard(db, ctx.tenantId, idParam(req));
      if (!e) throw new BusinessError('employee.msg.notFound', {}, 404);
      const provider = messagingProvider();
      if (!provider) throw new BusinessError('employee.msg.providerMissing');
      const got = await provider.fetchEmployee(e);
      if (!got) throw new BusinessError('employee.msg.notBound');
      return ok(await applyCardSync(db, ctx, e.id, got));
    });

    app.get('/api/employee/import/template', async (req, reply) => {
      await ledgerContext(app, req, 'employee_import');
      const doc = app.ctx.docs.get('employee')!;
      const buf = await templateWorkbook(doc, req.lang);
      return reply
        .header('content-type', XLSX)
        .header('content-disposition', `attachment; filename="employee-template.xlsx"`)
        .send(buf);
    });

    app.post('/api/employee/import', async (req) => {
      const ctx = await ledgerContext(app, req, 'employee_import');
      const file = await uploadedFile(req as any);
      const doc = app.ctx.docs.get('employee')!;
      try {
        return ok(await importEmployees(app.ctx.db(), app.ctx.docs, ctx, doc, file, req.lang));
      } catch (e: any) {
        if (e?.code === '23505') throw new BusinessError('employee.msg.cardNoExists');
        throw e;
      }
    });

    app.post('/api/employee/recharge', async (req) => {
      const ctx = await ledgerContext(app, req, 'employee_recharge');
      const r = await recharge(app.ctx.db(), ctx, { employeeId: idParam(req), amount: param(req, 'amount'), remarks: optionalText(param(req, 'remarks'), 144) });
      recordEvent(req, 'recharge', `充值 卡 ${idParam(req)}，金额 ${String(param(req, 'amount'))}：${JSON.stringify(r)}`);
      return ok(r);
    });

    const batchInput = (req: any) => {
      const status = param(req, 'status');
      return {
        amount: param(req, 'amount'),
        status: status === undefined || status === '' ? 1 : status,
        employeeIds: listParam(param(req, 'ids')),
        remarks: optionalText(param(req, 'remarks'), 144),
      };
    };
    app.post('/api/employee/recharge/preview', async (req) => {
      const ctx = await ledgerContext(app, req, 'employee_recharge');
      return ok(await previewBatchRecharge(app.ctx.db(), ctx, batchInput(req)));
    });
    app.post('/api/employee/recharge/batch', async (req) => {
      const ctx = await ledgerContext(app, req, 'employee_recharge');
      const expect = param(req, 'expectCount');
      const r = await batchRecharge(app.ctx.db(), ctx, { ...batchInput(req), expectCount: expect === undefined || expect === '' ? undefined : Number(expect) });
      recordEvent(req, 'rechargeBatch', `批量充值 每卡 ${String(param(req, 'amount'))}：${JSON.stringify(r)}`);
      return ok(r);
    });
  },
};

export default employeeModule;

/**
 * Settlements (view-only list through the CRUD plugin) and their actions:
 *   POST /api/settlement/gen {settlementCycle: 'yyyyMM', merchantIds?: [] | 'a,b'}
 *   GET  /api/settlement/audit?id=            (idempotent)
 *   POST /api/settlement/auditBatch?ids=a,b   (idempotent)
 *   GET  /api/settlement/detail/list?settlementId=&current=&size=   the orders a settlement covers
 * The money rules live in ledger/settlement.ts.
 */
import type { ServerModule } from '../../context.js';
import { recordEvent } from '../log/index.js';
import { pageEnvelope, pageParams, recordSerializer } from '../../crud/index.js';
import { HttpError, ok } from '../../lib/http.js';
import { idParam, param } from '../../lib/params.js';
import { ledgerContext } from '../ledger/index.js';
import { auditSettlements, generateSettlements, settlementOrders } from '../ledger/settlement.js';

export const settlementModule: ServerModule = {
  name: 'settlement',
  plugin: async (app) => {
    app.post('/api/settlement/gen', async (req) => {
      const ctx = await ledgerContext(app, req, 'settlement_gen');
      const r = await generateSettlements(app.ctx.db(), ctx, { settlementCycle: param(req, 'settlementCycle'), merchantIds: param(req, 'merchantIds') });
      recordEvent(req, 'settlementGenerate', `结算周期 ${String(param(req, 'settlementCycle'))}：${JSON.stringify(r)}`);
      return ok(r);
    });
    app.get('/api/settlement/audit', async (req) => {
      const ctx = await ledgerContext(app, req, 'settlement_audit');
      const r = await auditSettlements(app.ctx.db(), ctx, [idParam(req)]);
      recordEvent(req, 'settlementAudit', `审核结算 ${idParam(req)}：${JSON.stringify(r)}`);
      return ok(r);
    });
    app.post('/api/settlement/auditBatch', async (req) => {
      const ctx = await ledgerContext(app, req, 'settlement_audit_batch');
      const r = await auditSettlements(app.ctx.db(), ctx, param(req, 'ids'));
      recordEvent(req, 'settlementAudit', `批量审核结算 ${String(param(req, 'ids'))}：${JSON.stringify(r)}`);
      return ok(r);
    });
    app.get('/api/settlement/detail/list', async (req) => {
      const ctx = await ledgerContext(app, req, 'settlement_view');
      const id = idParam(req, 'settlementId');
      // Order records as every list sends them (money as numbers), paged and serialized by the order document,
      // whose list (columns, page sizes) the settlement's `details` row action shows.
      const orderDoc = app.ctx.docs.get('order');
      if (!orderDoc) throw new HttpError(404, 'error.notFound');
      const { current, size } = pageParams(orderDoc, req.query as Record<string, unknown>);
      const { rows, total } = await settlementOrders(app.ctx.db(), ctx.tenantId, id, { limit: size, offset: (current - 1) * size });
      const records = rows.map(recordSerializer(orderDoc));
      return ok(pageEnvelope(records, { total, estimated: false }, current, size));
    });
  },
};

export default settlementModule;

/**
 * Settlements (view-only list through the CRUD plugin) and their actions:
 *   POST /api/settlement/gen {settlementCycle: 'yyyyMM', merchantIds?: [] | 'a,b'}
 *   GET  /api/settlement/audit?id=            (idempotent)
 *   POST /api/settlement/auditBatch?ids=a,b   (idempotent)
 *   GET  /api/settlement/detail/list?settlementId=&current=&size=   the orders a settlement covers
 * The money rules live in ledger/settlement.ts.
 */
import type { ServerModule } from '../../context.js';
import { pageEnvelope, recordSerializer } from '../../crud/index.js';
import { ok } from '../../lib/http.js';
import { idParam, param } from '../../lib/params.js';
import { ledgerContext } from '../ledger/index.js';
import { auditSettlements, generateSettlements, settlementOrders } from '../ledger/settlement.js';

function pageArgs(q: Record<string, unknown>) {
  const current = Math.max(1, Math.floor(Number(q.current) || 1));
  const size = Math.min(1000, Math.max(1, Math.floor(Number(q.size) || 10)));
  return { current, size };
}

export const settlementModule: ServerModule = {
  name: 'settlement',
  plugin: async (app) => {
    app.post('/api/settlement/gen', async (req) => {
      const ctx = await ledgerContext(app, req, 'settlement_gen');
      const r = await generateSettlements(app.ctx.db(), ctx, { settlementCycle: param(req, 'settlementCycle'), merchantIds: param(req, 'merchantIds') });
      return ok(r);
    });
    app.get('/api/settlement/audit', async (req) => {
      const ctx = await ledgerContext(app, req, 'settlement_audit');
      return ok(await auditSettlements(app.ctx.db(), ctx, [idParam(req)]));
    });
    app.post('/api/settlement/auditBatch', async (req) => {
      const ctx = await ledgerContext(app, req, 'settlement_audit_batch');
      return ok(await auditSettlements(app.ctx.db(), ctx, param(req, 'ids')));
    });
    app.get('/api/settlement/detail/list', async (req) => {
      const ctx = await ledgerContext(app, req, 'settlement_view');
      const id = idParam(req, 'settlementId');
      const { current, size } = pageArgs(req.query as Record<string, unknown>);
      const { rows, total } = await settlementOrders(app.ctx.db(), ctx.tenantId, id, { limit: size, offset: (current - 1) * size });
      // Order records as every list sends them (money as numbers): serialized by the order document, whose list
      // columns the settlement's `details` row action shows.
      const orderDoc = app.ctx.docs.get('order');
      const records = orderDoc ? rows.map(recordSerializer(orderDoc)) : rows;
      return ok(pageEnvelope(records, { total, estimated: false }, current, size));
    });
  },
};

export default settlementModule;

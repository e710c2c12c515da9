/**
 * Orders are view-only (resource.readOnlyApi: the CRUD plugin refuses submit/remove). This module adds the
 * refund action: POST /api/order/refund {id, amount?, remarks?} — full refund when amount is absent,
 * never more than what is left of the payment (ledger.refund).
 */
import type { ServerModule } from '../../context.js';
import { ok } from '../../lib/http.js';
import { idParam, param } from '../../lib/params.js';
import { ledgerContext } from '../ledger/index.js';
import { refund } from '../ledger/service.js';

export const orderModule: ServerModule = {
  name: 'order',
  plugin: async (app) => {
    app.post('/api/order/refund', async (req) => {
      const ctx = await ledgerContext(app, req, 'order_refund');
      const r = await refund(app.ctx.db(), ctx, {
        orderId: idParam(req),
        amount: param(req, 'amount') as unknown,
        remarks: typeof param(req, 'remarks') === 'string' ? (param(req, 'remarks') as string).slice(0, 144) : undefined,
      });
      return ok(r);
    });
  },
};

export default orderModule;

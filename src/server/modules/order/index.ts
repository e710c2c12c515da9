/**
 * Orders are view-only (resource.readOnlyApi: the CRUD plugin refuses submit/remove). This module adds the
 * refund action: POST /api/order/refund {id, amount?, remarks?} — full refund when amount is absent,
 * never more than what is left of the payment (ledger.refund).
 */
import type { ServerModule } from '../../context.js';
import { ok } from '../../lib/http.js';
import { idParam, optionalText, param } from '../../lib/params.js';
import { ledgerContext } from '../ledger/index.js';
import { refund } from '../ledger/service.js';

export const orderModule: ServerModule = {
  name: 'order',
  plugin: async (app) => {
    app.post('/api/order/refund', async (req) => {
      const ctx = await ledgerContext(app, req, 'order_refund');
      const r = await refund(app.ctx.db(), ctx, {
        orderId: idParam(req),
        amount: param(req, 'amount'),
        remarks: optionalText(param(req, 'remarks'), 144),
      });
      return ok(r);
    });
  },
};

export default orderModule;

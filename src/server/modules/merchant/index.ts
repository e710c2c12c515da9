/**
 * Merchant screen (schemas/business/merchant.json): row actions reset/loginPsw, setnull/payPsw, unbind, and
 * a beforeSave hook (contractEnd = end of contractDaterange). The generic CRUD plugin serves list/detail/
 * submit/remove.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { requirePermission, type ServerModule } from '../../context.js';
import { notFound, okStatus } from '../../lib/http.js';
import { isId } from '../../lib/ids.js';
import { hashPassword } from '../../lib/password.js';
import { localDateTime } from '../../lib/time.js';

const TABLE = 'canteen_merchant';

async function updateMerchant(app: FastifyInstance, req: FastifyRequest, code: string, set: (req: FastifyRequest) => Promise<Record<string, unknown>>) {
  const user = await requirePermission(app, req, code);
  const id = String(((req.query ?? {}) as Record<string, unknown>).id ?? '');
  if (!isId(id)) throw notFound();
  const values = await set(req);
  const r = await app.ctx
    .db()
    .updateTable(TABLE)
    .set({ ...values, update_user: user.userId, update_time: localDateTime(app.ctx.config.appTimezone) })
    .where('id', '=', id)
    .where('tenant_id', '=', user.tenantId)
    .where('is_deleted', '=', 0)
    .executeTakeFirst();
  if (r.numUpdatedRows === 0n) throw notFound();
  return okStatus();
}

export async function initPassword(app: FastifyInstance): Promise<string> {
  const row = await app.ctx.db().selectFrom('blade_param').select('param_value').where('param_key', '=', 'account.initPassword').where('is_deleted', '=', 0).executeTakeFirst();
  return (row?.param_value as string | undefined) || '123456';
}

const merchantModule: ServerModule = {
  name: 'merchant',
  screenHooks: {
    merchant: {
      beforeSave({ values }) {
        const range = values.contractDaterange;
        if (Array.isArray(range) && range.length === 2) values.contractEnd = String(range[1]).slice(0, 10);
        else if (range === null) values.contractEnd = null;
      },
    },
  },
  async plugin(app) {
    app.get('/api/merchant/reset/loginPsw', (req) =>
      updateMerchant(app, req, 'merchant_reset_login_psw', async () => ({ login_psw: await hashPassword(await initPassword(app)) })),
    );
    app.get('/api/merchant/setnull/payPsw', (req) => updateMerchant(app, req, 'merchant_clear_pay_psw', async () => ({ pay_psw: null })));
    app.get('/api/merchant/unbind', (req) => updateMerchant(app, req, 'merchant_unbind', async () => ({ bind: 1, wx_user_id: null })));
  },
};

export default merchantModule;

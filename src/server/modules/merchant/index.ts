/**
 * Merchant screen (schemas/business/merchant.json): row actions reset/loginPsw, setnull/payPsw, unbind, and
 * a beforeSave hook (contractEnd = end of contractDaterange). The generic CRUD plugin serves list/detail/
 * submit/remove.
 */
import { readParam } from '../param/index.js';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { requirePermission, type ServerModule } from '../../context.js';
import { checkDocumentColumns } from '../../lib/document-columns.js';
import { notFound, okStatus } from '../../lib/http.js';
import { isId } from '../../lib/ids.js';
import { param } from '../../lib/params.js';
import { hashPassword } from '../../lib/password.js';
import { localDateTime } from '../../lib/time.js';
import { MERCHANT_COLUMNS, updateMerchant } from './service.js';

type MerchantChange = Parameters<typeof updateMerchant>[3];

/** A row action: the permission, the merchant named by ?id= (of the caller's tenant), then its change. */
async function merchantAction(app: FastifyInstance, req: FastifyRequest, code: string, change: () => Promise<MerchantChange>) {
  const user = await requirePermission(app, req, code);
  const id = String(param(req, 'id') ?? '');
  if (!isId(id)) throw notFound();
  const done = await updateMerchant(app.ctx.db(), user.tenantId, id, await change(), user.userId, localDateTime(app.ctx.config.appTimezone));
  if (!done) throw notFound();
  return okStatus();
}

/** The initial password of the system parameter account.initPassword (default 123456), read by its module's service. */
export async function initPassword(app: FastifyInstance): Promise<string> {
  return (await readParam(app.ctx.db(), 'account.initPassword')) || '123456';
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
    checkDocumentColumns(app.ctx.docs, 'merchant', MERCHANT_COLUMNS);
    app.get('/api/merchant/reset/loginPsw', (req) =>
      merchantAction(app, req, 'merchant_reset_login_psw', async () => ({ loginPsw: await hashPassword(await initPassword(app)) })),
    );
    app.get('/api/merchant/setnull/payPsw', (req) => merchantAction(app, req, 'merchant_clear_pay_psw', async () => ({ payPsw: null })));
    app.get('/api/merchant/unbind', (req) => merchantAction(app, req, 'merchant_unbind', async () => ({ bind: 1, wxUserId: null })));
  },
};

export default merchantModule;

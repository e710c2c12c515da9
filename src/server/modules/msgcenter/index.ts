/**
 * Message center: CRUD from the document; this hook checks that bizId names an existing merchant
 * (msgType 1) or employee (msgType 2) of the caller's tenant and keeps its name in bizName — asking the
 * merchant module and the ledger's cards, whose tables they are.
 */
import type { ServerModule } from '../../context.js';
import { checkDocumentColumns } from '../../lib/document-columns.js';
import { BusinessError } from '../../lib/errors.js';
import { cardHolderName } from '../ledger/cards.js';
import { merchantName } from '../merchant/service.js';
import { MSG_CENTER_COLUMNS } from './service.js';

export const msgCenterModule: ServerModule = {
  name: 'msgcenter',
  screenHooks: {
    msgCenter: {
      beforeSave: async ({ values, existing, req, db }) => {
        const type = Number(values.msgType ?? existing?.msgType);
        const bizId = String(values.bizId ?? existing?.bizId ?? '');
        if (!/^[0-9]{1,19}$/.test(bizId)) throw new BusinessError('msgCenter.msg.bizId');
        const tenantId = req.user?.tenantId ?? '000000';
        const nameOf = type === 1 ? merchantName : type === 2 ? cardHolderName : null;
        if (!nameOf) throw new BusinessError('msgCenter.msg.msgType');
        const name = await nameOf(db, tenantId, bizId);
        if (name === undefined) throw new BusinessError('msgCenter.msg.bizNotFound');
        values.bizName = name;
      },
    },
  },
  plugin: async (app) => {
    checkDocumentColumns(app.ctx.docs, 'msgcenter', MSG_CENTER_COLUMNS);
  },
};

export default msgCenterModule;

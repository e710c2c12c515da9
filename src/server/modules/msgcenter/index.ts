/**
 * Message center: CRUD from the document; this hook checks that bizId names an existing merchant
 * (msgType 1) or employee (msgType 2) of the caller's tenant and keeps its name in bizName.
 */
import type { ServerModule } from '../../context.js';
import { BusinessError } from '../../lib/errors.js';
import { query } from '../../lib/sql.js';

export const msgCenterModule: ServerModule = {
  name: 'msgcenter',
  screenHooks: {
    msgCenter: {
      beforeSave: async ({ values, existing, req, db }) => {
        const type = Number(values.msgType ?? existing?.msgType);
        const bizId = String(values.bizId ?? existing?.bizId ?? '');
        if (!/^[0-9]{1,19}$/.test(bizId)) throw new BusinessError('msgCenter.msg.bizId');
        const tenantId = req.user?.tenantId ?? '000000';
        const sqlText =
          type === 1
            ? `select merchant_name as name from canteen_merchant where id = $1 and tenant_id = $2 and is_deleted = 0`
            : type === 2
              ? `select employee_name as name from canteen_employee where id = $1 and tenant_id = $2 and is_deleted = 0`
              : null;
        if (!sqlText) throw new BusinessError('msgCenter.msg.msgType');
        const [row] = await query<{ name: string }>(db, sqlText, [bizId, tenantId]);
        if (!row) throw new BusinessError('msgCenter.msg.bizNotFound');
        values.bizName = row.name;
      },
    },
  },
};

export default msgCenterModule;

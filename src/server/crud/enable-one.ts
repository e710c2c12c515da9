/**
 * "One in use per tenant" for provider configurations (SMS, object storage: BladeX's `enable`):
 * POST …/enable?id= puts that configuration in use (status 2) and the tenant's others out of use (status 1), in one
 * transaction. `check` may refuse first (object storage: the bucket must answer with these credentials).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { requirePermission } from '../context.js';
import { HttpError, okStatus } from '../lib/http.js';
import { isId } from '../lib/ids.js';
import { requestParams } from '../lib/params.js';
import { localDateTime } from '../lib/time.js';

export const CONFIG_ENABLED = 2;
export const CONFIG_DISABLED = 1;

export interface EnableOneOptions {
  table: string;
  permission: string;
  /** Message key when the id names no live configuration of the caller's tenant. */
  notFound: string;
  check?: (row: Record<string, unknown>, req: FastifyRequest) => Promise<void>;
}

/** The handler of a module's `enable` route (the module registers it, so its routes stay readable in its source). */
export function enableOneHandler(app: FastifyInstance, opts: EnableOneOptions): (req: FastifyRequest) => Promise<unknown> {
  return async (req) => {
    const user = await requirePermission(app, req, opts.permission);
    const id = String(requestParams(req).id ?? '');
    if (!isId(id)) throw new HttpError(400, 'error.paramMissing', { name: 'id' });
    const db = app.ctx.db();
    const row = await db.selectFrom(opts.table).selectAll().where('id', '=', id).where('tenant_id', '=', user.tenantId).where('is_deleted', '=', 0).executeTakeFirst();
    if (!row) throw new HttpError(404, opts.notFound);
    await opts.check?.(row, req);
    await db.transaction().execute(async (trx) => {
      const now = localDateTime(app.ctx.config.appTimezone);
      await trx.updateTable(opts.table).set({ status: CONFIG_DISABLED }).where('tenant_id', '=', user.tenantId).where('id', '!=', id).where('status', '=', CONFIG_ENABLED).execute();
      await trx.updateTable(opts.table).set({ status: CONFIG_ENABLED, update_user: user.userId, update_time: now }).where('id', '=', id).execute();
    });
    return okStatus();
  };
}

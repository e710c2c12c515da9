/**
 * The ledger module: owns the money tables (migrations.ts) and the one service that moves money
 * (service.ts), settles merchants (settlement.ts) and sums transactions (statistics.ts). Other business
 * modules (employee, order, statistic, settlement, seed-demo) call these functions; none writes the ledger
 * tables itself.
 */
import type { FastifyRequest } from 'fastify';
import { requirePermission, type ServerModule } from '../../context.js';
import type { FastifyInstance } from 'fastify';
import { LEDGER_MIGRATIONS } from './migrations.js';
import type { LedgerContext } from './service.js';
import { BusinessError } from './errors.js';

export const ledgerModule: ServerModule = {
  name: 'ledger',
  migrations: LEDGER_MIGRATIONS,
};

export default ledgerModule;

/** The ledger context of an authorised request (tenant from the token, never from a parameter). */
export async function ledgerContext(app: FastifyInstance, req: FastifyRequest, permission: string): Promise<LedgerContext> {
  const user = await requirePermission(app, req, permission);
  return { tenantId: user.tenantId, userId: user.userId, deptId: user.deptIds?.[0] ?? null };
}

/** A parameter from the query string or the JSON body. */
export function param(req: FastifyRequest, name: string): unknown {
  const q = (req.query ?? {}) as Record<string, unknown>;
  const b = req.body && typeof req.body === 'object' && !Buffer.isBuffer(req.body) ? (req.body as Record<string, unknown>) : {};
  return q[name] ?? b[name];
}

export function idParam(req: FastifyRequest, name = 'id'): string {
  const v = param(req, name);
  const s = typeof v === 'string' || typeof v === 'number' ? String(v).trim() : '';
  if (!s) throw new BusinessError('error.paramMissing', { name });
  if (!/^[0-9]{1,19}$/.test(s)) throw new BusinessError('error.recordNotFound', {}, 404);
  return s;
}

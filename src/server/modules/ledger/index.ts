/**
 * The ledger module: owns the money tables (migrations.ts) and the one service that moves money
 * (service.ts), settles merchants (settlement.ts) and sums transactions (statistics.ts). Other business
 * modules (employee, order, statistic, settlement, seed-demo) call these functions; none writes the ledger
 * tables itself.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { requirePermission, type ServerModule } from '../../context.js';
import { LEDGER_MIGRATIONS } from './migrations.js';
import type { LedgerContext } from './service.js';

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

/**
 * The ledger module: owns the money tables (migrations.ts: cards, orders, account records, settlements, the
 * daily rollup) and the services on them — moving money (service.ts), settling merchants (settlement.ts),
 * summing transactions (statistics.ts) and the cards' other reads and writes (cards.ts). Other modules
 * (employee, order, statistic, settlement, msgcenter, dashboard) call these functions; none names a ledger
 * table itself. The ledger in turn asks the merchant module's service about merchants.
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

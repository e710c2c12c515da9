/**
 * The home page's operator figures: GET /api/blade-desk/dashboard/summary (any signed-in user, own tenant).
 * Asked of the modules that own them — the ledger's orders, cards and settlements, the merchant module's
 * merchants; money as SQL numeric text, never summed in JS.
 */
import { requireUser, type ServerModule } from '../../context.js';
import type { DB } from '../../db/index.js';
import { ok } from '../../lib/http.js';
import { localDateTime } from '../../lib/time.js';
import type { DashboardSummary } from '../../../shared/dashboard.js';
import { countCardHolders } from '../ledger/cards.js';
import { pendingSettlementCount } from '../ledger/settlement.js';
import { paidPaymentsPerDay } from '../ledger/statistics.js';
import { countMerchants } from '../merchant/service.js';

function ymd(d: Date): string {
  return d.toISOString().slice(0, 10);
}

/** Today's paid payments, card holders, merchants, pending settlements and the 30 days' trend ending today (in `tz`). */
export async function dashboardSummary(db: DB, tenantId: string, tz: string, now = new Date()): Promise<DashboardSummary> {
  const today = localDateTime(tz, now).slice(0, 10);
  const from = ymd(new Date(new Date(`${today}T00:00:00Z`).getTime() - 29 * 86_400_000));
  const [trend, cardHolders, merchants, pendingSettlements] = await Promise.all([
    paidPaymentsPerDay(db, tenantId, from, today),
    countCardHolders(db, tenantId),
    countMerchants(db, tenantId),
    pendingSettlementCount(db, tenantId),
  ]);
  const last = trend[trend.length - 1];
  return { todayOrders: last?.orders ?? 0, todayAmount: last?.amount ?? '0.00', cardHolders, merchants, pendingSettlements, trend };
}

const dashboardModule: ServerModule = {
  name: 'dashboard',
  plugin: async (app) => {
    app.get('/api/blade-desk/dashboard/summary', async (req) => {
      const u = requireUser(req);
      return ok(await dashboardSummary(app.ctx.db(), u.tenantId, app.ctx.config.appTimezone));
    });
  },
};

export default dashboardModule;

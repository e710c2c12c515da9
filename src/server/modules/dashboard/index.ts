/**
 * The home page's operator figures: GET /api/blade-desk/dashboard/summary (own tenant). Each figure comes only
 * to a caller holding the code of the screen it summarises (orders, card holders, merchants, settlements): a
 * role granted the merchant screen alone sees the merchant count, never the takings; a caller holding none of
 * them gets 403. Asked of the modules that own them — the ledger's orders, cards and settlements, the merchant module's
 * merchants; money as SQL numeric text, never summed in JS.
 */
import { requireUser, type ServerModule } from '../../context.js';
import { forbidden } from '../../lib/http.js';
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

/** Which figures of the summary a caller sees: the screen code each one summarises. */
const FIGURE_CODES = { orders: ['order', 'order_statistics'], cardHolders: ['employee'], merchants: ['merchant'], pendingSettlements: ['settlement'] } as const;
export type SummaryFigure = keyof typeof FIGURE_CODES;

/** The figures a holder of `codes` may see. */
export function visibleFigures(codes: Set<string>): Set<SummaryFigure> {
  return new Set((Object.keys(FIGURE_CODES) as SummaryFigure[]).filter((f) => FIGURE_CODES[f].some((c) => codes.has(c))));
}

/** Today's paid payments and the 30 days' trend ending today (in `tz`), card holders, merchants, pending settlements — those in `figures`. */
export async function dashboardSummary(db: DB, tenantId: string, tz: string, figures: Set<SummaryFigure> = new Set(Object.keys(FIGURE_CODES) as SummaryFigure[]), now = new Date()): Promise<DashboardSummary> {
  const today = localDateTime(tz, now).slice(0, 10);
  const from = ymd(new Date(new Date(`${today}T00:00:00Z`).getTime() - 29 * 86_400_000));
  const [trend, cardHolders, merchants, pendingSettlements] = await Promise.all([
    figures.has('orders') ? paidPaymentsPerDay(db, tenantId, from, today) : undefined,
    figures.has('cardHolders') ? countCardHolders(db, tenantId) : undefined,
    figures.has('merchants') ? countMerchants(db, tenantId) : undefined,
    figures.has('pendingSettlements') ? pendingSettlementCount(db, tenantId) : undefined,
  ]);
  const out: DashboardSummary = {};
  if (trend) {
    const last = trend[trend.length - 1];
    Object.assign(out, { todayOrders: last?.orders ?? 0, todayAmount: last?.amount ?? '0.00', trend });
  }
  if (cardHolders !== undefined) out.cardHolders = cardHolders;
  if (merchants !== undefined) out.merchants = merchants;
  if (pendingSettlements !== undefined) out.pendingSettlements = pendingSettlements;
  return out;
}

const dashboardModule: ServerModule = {
  name: 'dashboard',
  plugin: async (app) => {
    app.get('/api/blade-desk/dashboard/summary', async (req) => {
      const u = requireUser(req);
      const figures = visibleFigures(await app.ctx.permissions.codes(u.roleIds));
      if (!figures.size) throw forbidden();
      return ok(await dashboardSummary(app.ctx.db(), u.tenantId, app.ctx.config.appTimezone, figures));
    });
  },
};

export default dashboardModule;

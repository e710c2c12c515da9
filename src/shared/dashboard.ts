/**
 * GET /api/blade-desk/dashboard/summary: the operator's home figures (server builds it, the home page draws it).
 * A figure is absent when the caller holds no code of the screen it summarises.
 */
export interface DashboardSummary {
  todayOrders?: number;
  /** decimal string from SQL numeric (never a JS float sum) */
  todayAmount?: string;
  cardHolders?: number;
  merchants?: number;
  pendingSettlements?: number;
  trend?: Array<{ date: string; orders: number; amount: string }>;
}

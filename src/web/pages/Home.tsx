import { useMemo } from 'react';
import { Card, Skeleton, Statistic } from 'antd';
import { ShopOutlined, ShoppingCartOutlined, IdcardOutlined, AuditOutlined, MoneyCollectOutlined } from '@ant-design/icons';
import useSWR from 'swr';
import { useTranslation } from 'react-i18next';
import { request, type ApiError, type R } from '../api/client.js';
import { session } from '../auth/session.js';
import type { DashboardSummary } from '../../shared/dashboard.js';
import { DayChart } from '../../runtime/react/charts/DayChart.js';
import { drawn, type ChartSpec } from '../../runtime/charts/chartOption.js';


/** The 30-day trend: orders as bars on the left axis, the amount as a line on the right one. */
function TrendChart({ data }: { data: NonNullable<DashboardSummary['trend']> }) {
  const { t, i18n } = useTranslation();
  const spec = useMemo<ChartSpec>(
    () => ({
      days: data.map((d) => d.date),
      series: [
        { name: t('home.trendOrders'), kind: 'bar', values: data.map((d) => d.orders), integer: true },
        { name: t('home.trendAmount'), kind: 'line', axis: 1, values: data.map((d) => drawn(d.amount)), format: (v) => v.toLocaleString(i18n.language, { maximumFractionDigits: 2 }) },
      ],
    }),
    [data, t, i18n.language],
  );
  return <DayChart spec={spec} height={260} locale={i18n.language} testId="trend-chart" />;
}

/** Home (/wel/index): what an operator wants first, from GET /api/blade-desk/dashboard/summary. */
export default function Home() {
  const { t } = useTranslation();
  const userInfo = session.use((s) => s.userInfo);
  const { data, error } = useSWR(
    'dashboard-summary',
    // silent: a caller without any summarised screen gets 403, which is not an error to announce
    async () => (await request<R<DashboardSummary>>({ url: '/api/blade-desk/dashboard/summary', silent: true })).data,
    { revalidateOnFocus: false },
  );
  const name = userInfo?.real_name || userInfo?.nick_name || userInfo?.account || '';
  // a figure the caller may not see is absent from the reply (403 when none): its card is not drawn
  const denied = (error as ApiError | undefined)?.code === 403;
  const cards = [
    { key: 'todayOrders', icon: <ShoppingCartOutlined />, value: data?.todayOrders },
    { key: 'todayAmount', icon: <MoneyCollectOutlined />, value: data?.todayAmount, precision: 2 },
    { key: 'cardHolders', icon: <IdcardOutlined />, value: data?.cardHolders },
    { key: 'merchants', icon: <ShopOutlined />, value: data?.merchants },
    { key: 'pendingSettlements', icon: <AuditOutlined />, value: data?.pendingSettlements },
  ].filter((c) => !denied && (!data || c.value !== undefined));
  return (
    <div className="home-page" data-testid="home-page">
      <Card className="home-welcome" variant="borderless">
        <h2>{t('home.welcome', { name })}</h2>
        <p>{t('home.subtitle')}</p>
      </Card>
      <div className="home-stats" data-testid="home-stats">
        {cards.map((c) => (
          <Card key={c.key} variant="borderless" className="home-stat" data-testid={`stat-${c.key}`}>
            {data ? (
              <Statistic title={t(`home.${c.key}`)} value={c.value ?? 0} precision={c.precision} prefix={c.icon} />
            ) : error ? (
              <Statistic title={t(`home.${c.key}`)} value="-" prefix={c.icon} />
            ) : (
              <Skeleton active paragraph={false} />
            )}
          </Card>
        ))}
      </div>
      {!denied && (!data || data.trend) && (
        <Card variant="borderless" title={t('home.trend')} style={{ marginTop: 16 }}>
          {data?.trend ? <TrendChart data={data.trend} /> : <Skeleton active />}
        </Card>
      )}
    </div>
  );
}

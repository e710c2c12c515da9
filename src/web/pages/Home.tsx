import { Card, Skeleton, Statistic } from 'antd';
import { ShopOutlined, ShoppingCartOutlined, IdcardOutlined, AuditOutlined, MoneyCollectOutlined } from '@ant-design/icons';
import useSWR from 'swr';
import { useTranslation } from 'react-i18next';
import { getData } from '../api/client.js';
import { session } from '../auth/session.js';
import type { DashboardSummary } from '../../shared/dashboard.js';


/** 30-day trend as a small inline SVG (orders as bars, amount as a line). */
function TrendChart({ data }: { data: DashboardSummary['trend'] }) {
  const { t } = useTranslation();
  const w = 720, h = 220, pad = 32;
  const maxO = Math.max(1, ...data.map((d) => d.orders));
  const maxA = Math.max(1, ...data.map((d) => Number(d.amount)));
  const bw = (w - pad * 2) / Math.max(1, data.length);
  const pts = data.map((d, i) => `${pad + i * bw + bw / 2},${h - pad - (Number(d.amount) / maxA) * (h - pad * 2)}`).join(' ');
  return (
    <svg viewBox={`0 0 ${w} ${h}`} className="trend-chart" role="img" aria-label={t('home.trend')} data-testid="trend-chart">
      <line x1={pad} y1={h - pad} x2={w - pad} y2={h - pad} stroke="currentColor" opacity={0.3} />
      {data.map((d, i) => {
        const bh = (d.orders / maxO) * (h - pad * 2);
        return (
          <g key={d.date}>
            <rect x={pad + i * bw + 2} y={h - pad - bh} width={Math.max(1, bw - 4)} height={bh} fill="var(--primary)" opacity={0.35}>
              <title>{`${d.date}: ${d.orders} / ${d.amount}`}</title>
            </rect>
            {i % 5 === 0 && (
              <text x={pad + i * bw + bw / 2} y={h - pad + 14} fontSize={10} textAnchor="middle" fill="currentColor" opacity={0.6}>
                {d.date.slice(5)}
              </text>
            )}
          </g>
        );
      })}
      <polyline points={pts} fill="none" stroke="var(--primary)" strokeWidth={2} />
      <text x={pad} y={16} fontSize={11} fill="currentColor" opacity={0.7}>{t('home.trendLegend')}</text>
    </svg>
  );
}

/** Home (/wel/index): what an operator wants first, from GET /api/blade-desk/dashboard/summary. */
export default function Home() {
  const { t } = useTranslation();
  const userInfo = session.use((s) => s.userInfo);
  const { data, error } = useSWR('dashboard-summary', () => getData<DashboardSummary>('/api/blade-desk/dashboard/summary'), { revalidateOnFocus: false });
  const name = userInfo?.real_name || userInfo?.nick_name || userInfo?.account || '';
  const cards = [
    { key: 'todayOrders', icon: <ShoppingCartOutlined />, value: data?.todayOrders },
    { key: 'todayAmount', icon: <MoneyCollectOutlined />, value: data?.todayAmount, precision: 2 },
    { key: 'cardHolders', icon: <IdcardOutlined />, value: data?.cardHolders },
    { key: 'merchants', icon: <ShopOutlined />, value: data?.merchants },
    { key: 'pendingSettlements', icon: <AuditOutlined />, value: data?.pendingSettlements },
  ];
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
      <Card variant="borderless" title={t('home.trend')} style={{ marginTop: 16 }}>
        {data ? <TrendChart data={data.trend ?? []} /> : <Skeleton active />}
      </Card>
    </div>
  );
}

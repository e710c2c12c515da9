import { useCallback, useRef, useState } from 'react';
import { Card, Skeleton, Statistic } from 'antd';
import { ShopOutlined, ShoppingCartOutlined, IdcardOutlined, AuditOutlined, MoneyCollectOutlined } from '@ant-design/icons';
import useSWR from 'swr';
import { useTranslation } from 'react-i18next';
import { request, type ApiError, type R } from '../api/client.js';
import { session } from '../auth/session.js';
import type { DashboardSummary } from '../../shared/dashboard.js';


/** The width of an element, followed as it resizes (the chart draws in real pixels: text stays legible). */
function useWidth(fallback: number): [(el: HTMLDivElement | null) => void, number] {
  const [width, setWidth] = useState(fallback);
  const observer = useRef<ResizeObserver>(null);
  const ref = useCallback((el: HTMLDivElement | null) => {
    observer.current?.disconnect();
    if (!el) return;
    setWidth(el.clientWidth || fallback);
    observer.current = new ResizeObserver(([e]) => setWidth(Math.round(e.contentRect.width) || fallback));
    observer.current.observe(el);
  }, [fallback]);
  return [ref, width];
}

/**
 * 30-day trend as an inline SVG (orders as bars on the left scale, amount as a line on the right scale), drawn
 * at the card's real width so its labels keep their size on a phone; each day's figures in its tooltip.
 */
function TrendChart({ data }: { data: NonNullable<DashboardSummary['trend']> }) {
  const { t } = useTranslation();
  const [ref, width] = useWidth(720);
  const w = Math.max(280, width), h = 240, left = 40, right = 64, top = 28, bottom = 24;
  const plotH = h - top - bottom;
  const maxO = Math.max(1, ...data.map((d) => d.orders));
  const maxA = Math.max(1, ...data.map((d) => Number(d.amount)));
  const bw = (w - left - right) / Math.max(1, data.length);
  const every = Math.max(1, Math.ceil(44 / bw)); // a date label at least every 44 px
  const y = (v: number, max: number) => top + plotH - (v / max) * plotH;
  const pts = data.map((d, i) => `${left + i * bw + bw / 2},${y(Number(d.amount), maxA)}`).join(' ');
  const money = (v: number) => v.toLocaleString(undefined, { maximumFractionDigits: 2 });
  return (
    <div ref={ref} style={{ width: '100%' }}>
      <svg width={w} height={h} viewBox={`0 0 ${w} ${h}`} className="trend-chart" role="img" aria-label={t('home.trend')} data-testid="trend-chart">
        {[0, 0.5, 1].map((f) => (
          <g key={f} fontSize={11} fill="currentColor" opacity={0.6}>
            <line x1={left} y1={y(f, 1)} x2={w - right} y2={y(f, 1)} stroke="currentColor" opacity={f === 0 ? 0.4 : 0.12} />
            <text x={left - 6} y={y(f, 1) + 4} textAnchor="end" data-axis="orders">{Math.round(maxO * f)}</text>
            <text x={w - right + 6} y={y(f, 1) + 4} data-axis="amount">{money(maxA * f)}</text>
          </g>
        ))}
        {data.map((d, i) => {
          const bh = (d.orders / maxO) * plotH;
          return (
            <g key={d.date}>
              <rect x={left + i * bw + 1} y={top + plotH - bh} width={Math.max(1, bw - 2)} height={bh} fill="var(--primary)" opacity={0.35} data-day={d.date}>
                <title>{t('home.trendTip', { date: d.date, orders: d.orders, amount: d.amount })}</title>
              </rect>
              {i % every === 0 && (
                <text x={left + i * bw + bw / 2} y={h - 6} fontSize={11} textAnchor="middle" fill="currentColor" opacity={0.6}>
                  {d.date.slice(5)}
                </text>
              )}
            </g>
          );
        })}
        <polyline points={pts} fill="none" stroke="var(--primary)" strokeWidth={2} />
        <text x={left} y={14} fontSize={12} fill="currentColor" opacity={0.75}>{t('home.trendLegend')}</text>
      </svg>
    </div>
  );
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

/**
 * Totals and a per-day chart for a list page that carries `summary: {totals, series}` (e.g. transaction
 * statistics over the searched time range). Labels are `<section>.summary.<key>` of the screen's i18n
 * section; amounts arrive as decimal strings and are only displayed, never summed here.
 */
import { Card, Col, Row, Statistic } from 'antd';
import { useRuntime } from './context.js';

export interface PageSummary {
  totals?: Record<string, string | number>;
  series?: Array<Record<string, string | number>>;
}

const isCount = (k: string) => /count$/i.test(k);

export function Summary({ summary, section }: { summary: PageSummary; section: string }) {
  const { t } = useRuntime();
  const totals = Object.entries(summary.totals ?? {});
  const series = summary.series ?? [];
  // Bars: the amount keys the totals also carry (paid, refunded …), one colour each.
  const keys = Object.keys(series[0] ?? {}).filter((k) => k !== 'day' && !isCount(k) && (summary.totals ?? {})[k] !== undefined);
  const colours = ['#409eff', '#f56c6c', '#67c23a', '#e6a23c'];
  const max = Math.max(1, ...series.flatMap((d) => keys.map((k) => Number(d[k]) || 0)));
  const h = 160;
  const slot = 28;
  const bar = Math.max(4, Math.floor((slot - 6) / Math.max(1, keys.length)));
  const w = Math.max(300, series.length * slot + 40);
  return (
    <Card size="small" style={{ marginBottom: 16 }} data-testid="runtime-summary">
      <Row gutter={[16, 8]} data-testid="summary-totals">
        {totals.map(([k, v]) => (
          <Col key={k} xs={12} sm={8} md={4}>
            <Statistic title={t(`${section}.summary.${k}`)} value={String(v)} data-key={k} />
          </Col>
        ))}
      </Row>
      {series.length > 0 && keys.length > 0 && (
        <div style={{ marginTop: 12, overflowX: 'auto' }}>
          <div style={{ display: 'flex', gap: 16, alignItems: 'center', marginBottom: 4 }}>
            <strong>{t(`${section}.summary.chart`)}</strong>
            {keys.map((k, i) => (
              <span key={k} style={{ display: 'inline-flex', alignItems: 'center', gap: 4 }}>
                <span style={{ width: 10, height: 10, background: colours[i % colours.length], display: 'inline-block' }} />
                {t(`${section}.summary.${k}`)}
              </span>
            ))}
          </div>
          <svg width={w} height={h + 24} role="img" aria-label={t(`${section}.summary.chart`)} data-testid="summary-chart">
            <line x1={20} y1={h} x2={w} y2={h} stroke="#ccc" />
            {series.map((d, i) => (
              <g key={String(d.day)} transform={`translate(${24 + i * slot},0)`}>
                {keys.map((k, j) => {
                  const v = Number(d[k]) || 0;
                  const bh = Math.round((v / max) * (h - 10));
                  return (
                    <rect key={k} x={j * bar} y={h - bh} width={bar - 1} height={bh} fill={colours[j % colours.length]} data-day={String(d.day)} data-key={k}>
                      <title>{`${d.day} ${t(`${section}.summary.${k}`)} ${d[k]}`}</title>
                    </rect>
                  );
                })}
                {(series.length <= 16 || i % Math.ceil(series.length / 16) === 0) && (
                  <text x={0} y={h + 16} fontSize={10} fill="#888">
                    {String(d.day).slice(5)}
                  </text>
                )}
              </g>
            ))}
          </svg>
        </div>
      )}
    </Card>
  );
}

/**
 * Totals and a per-day chart for a list page that carries `summary: {totals, series}` (e.g. transaction
 * statistics over the searched time range), the chart one bar per amount key and day. Labels are `<section>.summary.<key>` of the screen's i18n
 * section; amounts arrive as decimal strings and are only displayed, never summed here.
 */
import { useMemo } from 'react';
import { Card, Col, Row, Statistic } from 'antd';
import { useRuntime } from './context.js';
import { DayChart } from './charts/DayChart.js';
import { drawn, type ChartSpec } from '../charts/chartOption.js';

export interface PageSummary {
  totals?: Record<string, string | number>;
  series?: Array<Record<string, string | number>>;
}

const isCount = (k: string) => /count$/i.test(k);
const money = (v: number) => v.toFixed(2);

export function Summary({ summary, section }: { summary: PageSummary; section: string }) {
  const { t, lang } = useRuntime();
  const totals = Object.entries(summary.totals ?? {});
  const series = summary.series ?? [];
  // Bars: the amount keys the totals also carry (paid, refunded …), one colour each.
  const keys = Object.keys(series[0] ?? {}).filter((k) => k !== 'day' && !isCount(k) && (summary.totals ?? {})[k] !== undefined);
  const spec = useMemo<ChartSpec>(
    () => ({
      days: series.map((d) => String(d.day)),
      series: keys.map((k) => ({ name: t(`${section}.summary.${k}`), kind: 'bar', values: series.map((d) => drawn(d[k])), format: money })),
    }),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- keys follow series
    [series, section, t],
  );
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
        <div style={{ marginTop: 12 }}>
          <strong>{t(`${section}.summary.chart`)}</strong>
          <DayChart spec={spec} height={260} locale={lang} testId="summary-chart" />
        </div>
      )}
    </Card>
  );
}

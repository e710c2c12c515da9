import { describe, expect, it } from 'vitest';
import { chartOption, drawn, MAX_BAR_WIDTH } from '../../../src/runtime/charts/chartOption.js';

const look = { text: 'rgb(1, 2, 3)', line: 'rgba(0,0,0,0.1)', colours: ['#409eff', '#f56c6c'] };

describe('chartOption', () => {
  it('puts counts and money on two value axes, grid lines once, counts in whole numbers', () => {
    const o = chartOption(
      {
        days: ['2026-11-01', '2026-11-02'],
        series: [
          { name: 'orders', kind: 'bar', values: [3, 9], integer: true },
          { name: 'amount', kind: 'line', axis: 1, values: [12.5, 80], format: (v) => v.toFixed(2) },
        ],
      },
      look,
    );
    expect(o.yAxis.map((a) => a.position)).toEqual(['left', 'right']);
    expect(o.yAxis[0].minInterval).toBe(1);
    expect(o.yAxis[1].minInterval).toBeUndefined();
    expect(o.yAxis.map((a) => a.splitLine.show)).toEqual([true, false]);
    expect(o.series.map((s) => s.yAxisIndex)).toEqual([0, 1]);
    expect(o.series[1].tooltip!.valueFormatter('80')).toBe('80.00');
    expect(o.yAxis[1].axisLabel.formatter!(7)).toBe('7.00');
    // the axis shows month-day, the tooltip (the category itself) the whole date
    expect(o.xAxis.data).toEqual(['2026-11-01', '2026-11-02']);
    expect(o.xAxis.axisLabel.formatter('2026-11-02')).toBe('11-02');
    expect(o.tooltip.trigger).toBe('axis');
    expect(o.color).toEqual(look.colours);
  });

  it('draws a one-day range as bars no wider than the maximum, on a single axis', () => {
    const o = chartOption({ days: ['2026-11-25'], series: [{ name: 'paid', kind: 'bar', values: [9] }, { name: 'refunded', kind: 'bar', values: [1] }] }, look);
    expect(o.yAxis).toHaveLength(1);
    expect(o.series.every((s) => s.yAxisIndex === 0 && (s as { barMaxWidth?: number }).barMaxWidth === MAX_BAR_WIDTH)).toBe(true);
    expect(o.aria.label.data.maxCount).toBeGreaterThanOrEqual(366);
  });

  it('draws decimal strings without summing them, a missing value as zero', () => {
    expect(drawn('12.30')).toBe(12.3);
    expect(drawn(undefined)).toBe(0);
    expect(drawn('x')).toBe(0);
  });
});

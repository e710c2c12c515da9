/**
 * Bar and line charts over days, as ECharts options: one place decides how our charts look (value axes with
 * round ticks, an axis tooltip, a legend, bars no wider than 40 px so a one-day range is one sensible bar).
 * Pure: the React part only draws what this returns, so the shape is unit-tested without a browser.
 */
export interface ChartSeries {
  name: string;
  kind: 'bar' | 'line';
  values: number[];
  /** 0: the left value axis (default), 1: the right one. */
  axis?: 0 | 1;
  /** Counts: the axis ticks are whole numbers. */
  integer?: boolean;
  /** How a value reads on its axis and in the tooltip (e.g. money with two decimals). */
  format?: (v: number) => string;
}

export interface ChartSpec {
  /** One category per day, `YYYY-MM-DD`: the axis shows `MM-DD`, the tooltip the whole date. */
  days: string[];
  series: ChartSeries[];
}

/** Colours taken from the page (theme text colour, a faint line colour, the primary colour first). */
export interface ChartLook {
  text: string;
  line: string;
  colours: string[];
}

export const MAX_BAR_WIDTH = 40;

export function chartOption(spec: ChartSpec, look: ChartLook) {
  const axisOf = (s: ChartSeries) => s.axis ?? 0;
  const axes = ([0, 1] as const).filter((a) => spec.series.some((s) => axisOf(s) === a));
  const yAxis = axes.map((a, i) => {
    const first = spec.series.find((s) => axisOf(s) === a)!;
    return {
      type: 'value' as const,
      position: a === 1 ? ('right' as const) : ('left' as const),
      minInterval: first.integer ? 1 : undefined,
      axisLabel: { color: look.text, formatter: first.format },
      // one set of grid lines: a second axis's lines would not meet the first's ticks
      splitLine: { show: i === 0, lineStyle: { color: look.line } },
    };
  });
  return {
    color: look.colours,
    textStyle: { color: look.text },
    // screen readers get each day's figures (the default stops after 10 values)
    aria: { enabled: true, label: { data: { maxCount: 400 } } },
    tooltip: { trigger: 'axis' as const, confine: true, axisPointer: { type: 'shadow' as const } },
    legend: { top: 0, textStyle: { color: look.text } },
    grid: { left: 8, right: 8, top: 36, bottom: 8, containLabel: true },
    xAxis: {
      type: 'category' as const,
      data: spec.days,
      axisLabel: { color: look.text, hideOverlap: true, formatter: (d: string) => d.slice(5) },
      axisLine: { lineStyle: { color: look.line } },
      axisTick: { alignWithLabel: true },
    },
    yAxis,
    series: spec.series.map((s) => ({
      type: s.kind,
      name: s.name,
      data: s.values,
      yAxisIndex: axes.indexOf(axisOf(s)),
      ...(s.kind === 'bar' ? { barMaxWidth: MAX_BAR_WIDTH } : { showSymbol: spec.days.length <= 31 }),
      tooltip: s.format ? { valueFormatter: (v: unknown) => s.format!(Number(v)) } : undefined,
    })),
  };
}

/** Amounts arrive as decimal strings; a chart only draws them (no sum is made from these numbers). */
export const drawn = (v: string | number | undefined) => Number(v) || 0;

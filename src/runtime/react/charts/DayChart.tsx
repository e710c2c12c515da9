/**
 * A chart over days (bars and lines, see chartOption), drawn by ECharts, which loads with the first chart on a
 * page. Follows its box as it resizes; takes the page's colours when drawn; its aria-label describes the data.
 */
import { useEffect, useRef, useState } from 'react';
import { Skeleton } from 'antd';
import { chartOption, type ChartSpec } from '../../charts/chartOption.js';

type ECharts = typeof import('./echarts.js')['echarts'];
let loading: Promise<ECharts> | undefined;
const loadECharts = () => (loading ??= import('./echarts.js').then((m) => m.echarts));

/** The page's colours: text colour of the box, the theme's primary first, then antd's status colours. */
function lookOf(el: HTMLElement) {
  const cs = getComputedStyle(el);
  const primary = cs.getPropertyValue('--primary').trim() || '#409eff';
  return { text: cs.color, line: 'rgba(128,128,128,0.25)', colours: [primary, '#f56c6c', '#67c23a', '#e6a23c', '#909399'] };
}

export function DayChart({ spec, height = 240, locale, testId }: { spec: ChartSpec; height?: number; locale: string; testId?: string }) {
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<ReturnType<ECharts['init']>>(null);
  const [lib, setLib] = useState<ECharts>();
  useEffect(() => {
    let live = true;
    void loadECharts().then((e) => live && setLib(() => e));
    return () => {
      live = false;
    };
  }, []);
  // one instance per locale (ECharts takes its locale at init)
  useEffect(() => {
    if (!lib || !box.current) return;
    const el = box.current;
    const c = lib.init(el, undefined, { renderer: 'svg', locale: locale.startsWith('en') ? 'EN' : 'ZH' });
    chart.current = c;
    const resize = new ResizeObserver(() => c.resize());
    resize.observe(el);
    return () => {
      resize.disconnect();
      c.dispose();
      chart.current = null;
    };
  }, [lib, locale]);
  useEffect(() => {
    if (chart.current && box.current) chart.current.setOption(chartOption(spec, lookOf(box.current)), true);
  }, [lib, locale, spec]);
  return (
    <div style={{ position: 'relative', width: '100%', height }} data-testid={testId}>
      <div ref={box} style={{ width: '100%', height }} />
      {!lib && <Skeleton active style={{ position: 'absolute', inset: 0 }} />}
    </div>
  );
}

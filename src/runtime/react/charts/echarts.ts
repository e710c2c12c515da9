/** The parts of ECharts our charts use, registered once; imported lazily (only pages with a chart load it). */
import * as echarts from 'echarts/core';
import { BarChart, LineChart } from 'echarts/charts';
import { AriaComponent, GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import { SVGRenderer } from 'echarts/renderers';

// SVG: sharp at any zoom, text selectable, and lighter than the canvas renderer for a few dozen bars
echarts.use([BarChart, LineChart, AriaComponent, GridComponent, LegendComponent, TooltipComponent, SVGRenderer]);

export { echarts };

import { describe, expect, it } from 'vitest';
import { isBright as antdIsBright } from 'antd/es/color-picker/components/ColorPresets';
import { AggregationColor } from 'antd/es/color-picker/color';
import { toNamePathStr as antdToNamePathStr } from 'antd/es/form/hooks/useForm';
import { isBright, toNamePathStr } from '../../../src/web/lib/antdHelpers.js';

// The build hands a few antd modules our copies of antd helpers (vite.config.ts, NARROW_IMPORTS): they must answer as antd's do.
describe('isBright', () => {
  const colours = ['#000000', '#ffffff', '#1677ff', '#fadb14', '#ff4d4f', '#52c41a', '#20222a', 'rgba(255,255,255,0.3)', 'rgba(0,0,0,0.4)', 'rgba(250,219,20,0.6)', '#c0c0c0', '#bfbfbf'];
  const backgrounds = ['#fff', '#000', '#141414'];
  it.each(colours)('%s on light and dark backgrounds', (c) => {
    for (const bg of backgrounds) expect(isBright(new AggregationColor(c), bg)).toBe(antdIsBright(new AggregationColor(c), bg));
  });
  it('tells bright from dark', () => {
    expect(isBright(new AggregationColor('#ffffff'), '#fff')).toBe(true);
    expect(isBright(new AggregationColor('#000000'), '#fff')).toBe(false);
  });
});

describe('toNamePathStr', () => {
  it.each([['name'], [['a', 'b']], [['list', 0, 'x']], [undefined], [false], [0], [[]]])('%j', (name) => {
    expect(toNamePathStr(name)).toBe(antdToNamePathStr(name as never));
  });
});

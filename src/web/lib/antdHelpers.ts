/**
 * Copies of two small antd 6 helpers, which the build hands to the antd modules that import them from a large module
 * (vite.config.ts, NARROW_IMPORTS), so that importing the helper does not bring that module's code along:
 * - `isBright` (antd/es/color-picker/components/ColorPresets.js) for antd's Button and Tag styles: the colour picker;
 * - `toNamePathStr` (antd/es/form/hooks/useForm.js) for antd's Radio.Group: antd's Form and its field store.
 * tests/unit/web/antd-narrow-imports.test.ts keeps them equal to antd's.
 */
import { Color as RcColor } from '@rc-component/color-picker/es/color.js';

interface RgbColor {
  toRgb(): { r: number; g: number; b: number; a: number };
  toRgbString(): string;
}

export const isBright = (value: RgbColor, bgColorToken: string): boolean => {
  const { r, g, b, a } = value.toRgb();
  const hsv = new RcColor(value.toRgbString()).onBackground(bgColorToken).toHsv();
  if (a <= 0.5) return hsv.v > 0.5; // adapted to dark mode, as antd does
  return r * 0.299 + g * 0.587 + b * 0.114 > 192;
};

export function toNamePathStr(name: unknown): string {
  const path = name === undefined || name === false ? [] : Array.isArray(name) ? name : [name];
  return path.join('_');
}

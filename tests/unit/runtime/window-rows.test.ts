/**
 * The pure maths of our window virtualiser (src/runtime/model/windowRows.ts): where each row sits from the sizes
 * measured so far, and which rows to draw for a scroll position (TanStack Virtual's window virtualiser's rules,
 * which it replaces). The component around it is in window-rows-react.test.tsx.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { RowLayout } from '../../../src/runtime/model/windowRows.js';
import { rowWindow } from '../../../src/runtime/model/virtualRows.js';

const H = 47;
const key = (i: number) => `k${i}`;

function layout(count: number, margin = 0, keyOf: (i: number) => string | number = key) {
  const l = new RowLayout(H, 10);
  l.setRows(count, keyOf, margin);
  return l;
}

/** First and last index of the drawn rows. */
const span = (l: RowLayout, y: number, viewport: number) => {
  const rows = l.visible(y, viewport);
  return rows.length ? [rows[0].index, rows[rows.length - 1].index] : [];
};

describe('RowLayout.visible', () => {
  it('at the top: the rows filling the screen and the overscan below, none above row 0', () => {
    const l = layout(200);
    expect(span(l, 0, 470)).toEqual([0, 19]); // rows 0-9 fill 470 px, 10 more below
    expect(l.visible(0, 470)[0]).toEqual({ index: 0, start: 0, end: H });
  });

  it('in the middle: the overscan on both sides; the rows are contiguous', () => {
    const l = layout(200);
    expect(span(l, 100 * H, 470)).toEqual([90, 119]);
    // one pixel further: row 110 peeks in at the bottom
    expect(span(l, 100 * H + 1, 470)).toEqual([90, 120]);
    const rows = l.visible(100 * H, 470);
    expect(rows.map((r) => r.index)).toEqual(Array.from({ length: 30 }, (_, i) => 90 + i));
  });

  it('at the bottom, and past it (the page just shrank): the last screenful, no overscan past the last row', () => {
    const l = layout(200);
    expect(span(l, 200 * H - 470, 470)).toEqual([180, 199]);
    expect(span(l, 99_999, 470)).toEqual([180, 199]);
  });

  it('the scroll margin: rows start where the table starts in the document', () => {
    const l = layout(200, 300);
    // the table's first 170 px are on screen: rows 0-3
    expect(span(l, 0, 470)).toEqual([0, 13]);
    expect(l.visible(0, 470)[1]).toEqual({ index: 1, start: 300 + H, end: 300 + 2 * H });
    expect(span(l, 300 + 100 * H, 470)).toEqual([90, 119]);
    // the table far below the screen: its first rows are ready
    expect(span(l, 0, 100)).toEqual([0, 10]);
    // rowWindow takes the margin off again
    expect(rowWindow(l.visible(300 + 100 * H, 470), l.total, 300)).toEqual({ first: 90, last: 119, top: 90 * H, bottom: 80 * H });
  });

  it('no rows, or no screen: nothing drawn', () => {
    const l = layout(0);
    expect(l.visible(0, 470)).toEqual([]);
    expect(l.total).toBe(0);
    expect(rowWindow(l.visible(0, 470), l.total, 0)).toEqual({ first: -1, last: -1, top: 0, bottom: 0 });
    expect(layout(200).visible(0, 0)).toEqual([]);
  });
});

describe('RowLayout sizes', () => {
  it('unmeasured rows are the estimate; a measured size moves the rows below it and the total', () => {
    const l = layout(200, 100);
    expect(l.total).toBe(200 * H);
    expect(l.setSize('k5', 100)).toBe(100 - H);
    expect(l.measured('k5')).toBe(true);
    expect(l.measured('k6')).toBe(false);
    expect(l.start(5)).toBe(100 + 5 * H);
    expect(l.end(5)).toBe(100 + 5 * H + 100);
    expect(l.start(6)).toBe(100 + 5 * H + 100);
    expect(l.total).toBe(199 * H + 100);
    // measured again: the change from the last measure
    expect(l.setSize('k5', 90)).toBe(-10);
    expect(l.setSize('k5', 90)).toBe(0);
    expect(l.total).toBe(199 * H + 90);
  });

  it('taller rows draw fewer rows on the screen', () => {
    const l = layout(200);
    l.setSize('k0', 100);
    // 100 + 8 × 47 = 476 ≥ 470: rows 0-8 on screen
    expect(span(l, 0, 470)).toEqual([0, 18]);
    expect(rowWindow(l.visible(0, 470), l.total, 0).bottom).toBe(181 * H);
  });

  it('sizes follow their rows when the rows change order', () => {
    const ids = ['a', 'b', 'c', 'd'];
    const l = layout(4, 0, (i) => ids[i]);
    l.setSize('c', 100);
    expect(l.start(3)).toBe(2 * H + 100);
    const reversed = [...ids].reverse();
    l.setRows(4, (i) => reversed[i], 0); // a new key function: the layout is rebuilt
    expect(l.start(1)).toBe(H);
    expect(l.end(1)).toBe(H + 100);
    expect(l.start(2)).toBe(H + 100);
    expect(l.total).toBe(3 * H + 100);
  });

  it('the page shrinks and grows again', () => {
    const l = layout(200);
    l.setSize('k2', 60);
    l.setRows(5, key, 0);
    expect(l.total).toBe(4 * H + 60);
    expect(span(l, 0, 470)).toEqual([0, 4]);
    expect(span(l, 5000, 470)).toEqual([0, 4]);
    l.setRows(200, key, 0);
    expect(l.total).toBe(199 * H + 60);
  });

  it('for any sizes, margin, scroll position and screen: TanStack’s range, and each row where the sizes put it', () => {
    fc.assert(
      fc.property(
        fc.array(fc.option(fc.integer({ min: 1, max: 200 }), { nil: undefined }), { minLength: 1, maxLength: 300 }),
        fc.integer({ min: 0, max: 3000 }),
        fc.integer({ min: 0, max: 40_000 }),
        fc.integer({ min: 1, max: 2000 }),
        (sizes, margin, scrollY, viewport) => {
          const l = layout(sizes.length, margin);
          sizes.forEach((s, i) => s !== undefined && l.setSize(key(i), s));
          const h = sizes.map((s) => s ?? H);
          const starts = h.map((_, i) => margin + h.slice(0, i).reduce((a, b) => a + b, 0));
          const total = h.reduce((a, b) => a + b, 0);
          expect(l.total).toBe(total);
          // TanStack: the offset clamped to the last screenful; the last row starting at or above it; then down
          // to the first row ending at or below the screen's bottom; overscan on both sides
          const y = Math.min(scrollY, Math.max(margin + total - viewport, 0));
          let first = 0;
          for (let i = 0; i < h.length; i++) if (starts[i] <= y) first = i;
          let last = first;
          while (last < h.length - 1 && starts[last] + h[last] < y + viewport) last++;
          const rows = l.visible(scrollY, viewport);
          expect(rows.map((r) => r.index)).toEqual(
            Array.from({ length: Math.min(h.length - 1, last + 10) - Math.max(0, first - 10) + 1 }, (_, k) => Math.max(0, first - 10) + k),
          );
          for (const r of rows) expect([r.start, r.end]).toEqual([starts[r.index], starts[r.index] + h[r.index]]);
        },
      ),
    );
  });
});

/**
 * The pure maths of the virtualised table body (src/runtime/model/virtualRows.ts): when to virtualise, the
 * drawn slice and its spacer rows, the ARIA row numbers, and the page-wide select-all.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  VIRTUAL_ROW_THRESHOLD,
  ariaRowCount,
  ariaRowIndex,
  pageSelectState,
  rowWindow,
  shouldVirtualize,
  toggledPageSelection,
  type PlacedRow,
} from '../../../src/runtime/model/virtualRows.js';

/** Rows of the given heights laid out from `margin` down, and the slice [first, last] of them. */
function layout(heights: number[], margin: number) {
  const rows: PlacedRow[] = [];
  let y = margin;
  for (const [index, h] of heights.entries()) {
    rows.push({ index, start: y, end: y + h });
    y += h;
  }
  return { rows, total: y - margin };
}

describe('shouldVirtualize', () => {
  it('only pages longer than the threshold (50)', () => {
    expect(VIRTUAL_ROW_THRESHOLD).toBe(50);
    expect(shouldVirtualize(0)).toBe(false);
    expect(shouldVirtualize(10)).toBe(false);
    expect(shouldVirtualize(50)).toBe(false);
    expect(shouldVirtualize(51)).toBe(true);
    expect(shouldVirtualize(200)).toBe(true);
    expect(shouldVirtualize(30, 20)).toBe(true);
  });
});

describe('rowWindow', () => {
  it('a slice in the middle: the spacers are the heights of the rows left out above and below', () => {
    const { rows, total } = layout(Array(200).fill(47), 300);
    const w = rowWindow(rows.slice(40, 75), total, 300);
    expect(w).toEqual({ first: 40, last: 74, top: 40 * 47, bottom: (200 - 75) * 47 });
  });

  it('the first and the last slice: no spacer on the open side', () => {
    const { rows, total } = layout(Array(200).fill(47), 120);
    expect(rowWindow(rows.slice(0, 30), total, 120)).toEqual({ first: 0, last: 29, top: 0, bottom: 170 * 47 });
    expect(rowWindow(rows.slice(170), total, 120)).toEqual({ first: 170, last: 199, top: 170 * 47, bottom: 0 });
  });

  it('no rows drawn: everything is the bottom spacer', () => {
    expect(rowWindow([], 940, 50)).toEqual({ first: -1, last: -1, top: 0, bottom: 940 });
  });

  it('never a negative spacer (a measurement racing a render)', () => {
    expect(rowWindow([{ index: 0, start: 90, end: 140 }], 40, 100)).toEqual({ first: 0, last: 0, top: 0, bottom: 0 });
  });

  it('for any row heights, margin and slice: top + drawn rows + bottom = the whole body', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 20, max: 200 }), { minLength: 1, maxLength: 300 }),
        fc.integer({ min: 0, max: 5000 }),
        fc.nat(),
        fc.nat(),
        (heights, margin, a, b) => {
          const { rows, total } = layout(heights, margin);
          const first = a % heights.length;
          const last = first + (b % (heights.length - first));
          const w = rowWindow(rows.slice(first, last + 1), total, margin);
          const drawn = heights.slice(first, last + 1).reduce((s, h) => s + h, 0);
          expect(w.first).toBe(first);
          expect(w.last).toBe(last);
          expect(w.top).toBe(heights.slice(0, first).reduce((s, h) => s + h, 0));
          expect(w.top + drawn + w.bottom).toBe(total);
        },
      ),
    );
  });
});

describe('ARIA row numbers', () => {
  it('the header row is row 1, the first body row 2, the 200th body row 201 of 201', () => {
    expect(ariaRowCount(200)).toBe(201);
    expect(ariaRowIndex(0)).toBe(2);
    expect(ariaRowIndex(199)).toBe(201);
    expect(ariaRowCount(200, 2)).toBe(202);
    expect(ariaRowIndex(0, 2)).toBe(3);
  });
});

describe('page-wide select-all', () => {
  const page = Array.from({ length: 200 }, (_, i) => `id${i}`);

  it('checked only when every row of the page is selected, indeterminate when some are', () => {
    expect(pageSelectState(page, [])).toEqual({ checked: false, indeterminate: false });
    expect(pageSelectState(page, ['id3', 'id150'])).toEqual({ checked: false, indeterminate: true });
    expect(pageSelectState(page, page)).toEqual({ checked: true, indeterminate: false });
    // a key that is not on the page (kept from elsewhere) does not count
    expect(pageSelectState(page, ['other'])).toEqual({ checked: false, indeterminate: false });
    expect(pageSelectState([], [])).toEqual({ checked: false, indeterminate: false });
  });

  it('on: the whole page (not only drawn rows) joins the selection; off: the page leaves it', () => {
    const on = toggledPageSelection(page, ['id5', 'other'], true);
    expect(on).toHaveLength(201);
    expect(new Set(on)).toEqual(new Set([...page, 'other']));
    expect(toggledPageSelection(page, on, false)).toEqual(['other']);
    expect(toggledPageSelection(page, [], false)).toEqual([]);
  });
});

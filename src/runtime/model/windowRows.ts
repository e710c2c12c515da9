/**
 * Pure maths of the window virtualiser (src/runtime/react/WindowRows.tsx), which replaces TanStack Virtual
 * (≈ 10 kB gzip for what a table page needs): where each row of a page sits in the document, from the sizes
 * measured so far (the estimate for a row not drawn yet), and which rows to draw for a scroll position. Sizes
 * are kept by row key, not by index, so that when the rows change order or number a size follows its row.
 */
import type { PlacedRow } from './virtualRows.js';

export type RowKey = string | number;

export class RowLayout {
  private readonly sizes = new Map<RowKey, number>();
  private ends: number[] = []; // ends[i]: bottom of row i below the first row's top; rebuilt when dirty
  private dirty = true;
  private keyOf: (index: number) => RowKey = (i) => i;
  count = 0;
  /** Document y of the first row's top (the scroll margin). */
  margin = 0;

  constructor(
    readonly estimate: number,
    readonly overscan: number,
  ) {}

  /** The page's rows (called on every render: a no-op unless something changed). */
  setRows(count: number, keyOf: (index: number) => RowKey, margin: number): void {
    if (count !== this.count || keyOf !== this.keyOf) this.dirty = true;
    this.count = count;
    this.keyOf = keyOf;
    this.margin = margin;
  }

  key(index: number): RowKey {
    return this.keyOf(index);
  }

  measured(key: RowKey): boolean {
    return this.sizes.has(key);
  }

  /** Records a row's measured size; returns how much it grew (0: unchanged, the layout is kept). */
  setSize(key: RowKey, size: number): number {
    const delta = size - (this.sizes.get(key) ?? this.estimate);
    this.sizes.set(key, size);
    if (delta) this.dirty = true;
    return delta;
  }

  /** The prefix sums, rebuilt in place (O(count)) only after a change. */
  private layout(): number[] {
    if (!this.dirty) return this.ends;
    const ends = this.ends;
    ends.length = this.count;
    let y = 0;
    for (let i = 0; i < this.count; i++) ends[i] = y += this.sizes.get(this.keyOf(i)) ?? this.estimate;
    this.dirty = false;
    return ends;
  }

  /** Height of all the rows. */
  get total(): number {
    const ends = this.layout();
    return ends.length ? ends[ends.length - 1] : 0;
  }

  /** Document y of row `index`'s top (margin included, as TanStack reports it). */
  start(index: number): number {
    return this.margin + (index > 0 ? this.layout()[index - 1] : 0);
  }

  end(index: number): number {
    return this.margin + this.layout()[index];
  }

  /**
   * The rows to draw when the window shows document y [scrollY, scrollY + viewport]: those it intersects,
   * `overscan` more on each side, within [0, count). None when there are no rows or no viewport. As TanStack:
   * a scroll position past the end (the page just shrank) counts as the end, so the last rows are drawn.
   */
  visible(scrollY: number, viewport: number): PlacedRow[] {
    const n = this.count;
    if (!n || viewport <= 0) return [];
    const ends = this.layout();
    const m = this.margin;
    const y = Math.min(scrollY, Math.max(m + ends[n - 1] - viewport, 0)) - m;
    // first: the first row whose bottom is below y (the row y falls in)
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (ends[mid] <= y) lo = mid + 1;
      else hi = mid;
    }
    let last = lo;
    while (last < n - 1 && ends[last] < y + viewport) last++;
    const rows: PlacedRow[] = [];
    for (let i = Math.max(0, lo - this.overscan), z = Math.min(n - 1, last + this.overscan); i <= z; i++)
      rows.push({ index: i, start: m + (i > 0 ? ends[i - 1] : 0), end: m + ends[i] });
    return rows;
  }
}

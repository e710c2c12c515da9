/**
 * Pure maths of the virtualised table body (src/runtime/react/virtualRows.tsx): when a page is long enough to
 * virtualise, which slice of the page's rows to draw, the heights of the two spacer rows standing in for the
 * rows left out, the ARIA row numbers that tell a screen reader where a drawn row sits in the whole page, and
 * the page-wide select-all (it covers every row of the page, not only the drawn ones).
 */

/** Pages with more rows than this are virtualised; shorter pages draw every row, as before. */
export const VIRTUAL_ROW_THRESHOLD = 50;
/** Rows drawn beyond each edge of the screen, so that fast scrolling shows no blank rows. */
export const VIRTUAL_OVERSCAN = 10;
/** First guess at a row's height (antd `middle` size: 12 px padding twice, 22 px line, 1 px border); every drawn row is then measured. */
export const VIRTUAL_ROW_ESTIMATE = 47;

export function shouldVirtualize(rowCount: number, threshold = VIRTUAL_ROW_THRESHOLD): boolean {
  return rowCount > threshold;
}

/** A drawn row as the virtualiser places it: `start`/`end` are document offsets (they include the scroll margin). */
export interface PlacedRow {
  index: number;
  start: number;
  end: number;
}

export interface RowWindow {
  /** Page indexes of the drawn rows, first and last inclusive (-1, -1 when none). */
  first: number;
  last: number;
  /** Height of the spacer row above the drawn rows (the rows before `first`), px. */
  top: number;
  /** Height of the spacer row below them (the rows after `last`), px. */
  bottom: number;
}

/**
 * The drawn slice and its spacers from the virtualiser's items (contiguous, ascending), its total size (of all
 * rows, without the margin) and its scroll margin (the document offset of the first row). Negative heights (a
 * measurement racing a render) are clamped to 0, so the body never has a negative spacer.
 */
export function rowWindow(items: readonly PlacedRow[], totalSize: number, scrollMargin: number): RowWindow {
  if (!items.length) return { first: -1, last: -1, top: 0, bottom: Math.max(0, totalSize) };
  const a = items[0];
  const z = items[items.length - 1];
  return {
    first: a.index,
    last: z.index,
    top: Math.max(0, a.start - scrollMargin),
    bottom: Math.max(0, totalSize - (z.end - scrollMargin)),
  };
}

/**
 * The slice drawn before the virtualiser has measured anything (its code loads with the first long page): the
 * rows that fill a viewport of this height from the top, plus the overscan, and a spacer of estimated height
 * for the rest.
 */
export function initialWindow(rowCount: number, viewport: number): RowWindow {
  if (rowCount <= 0) return { first: -1, last: -1, top: 0, bottom: 0 };
  const last = Math.min(rowCount, Math.ceil(viewport / VIRTUAL_ROW_ESTIMATE) + VIRTUAL_OVERSCAN) - 1;
  return { first: 0, last, top: 0, bottom: (rowCount - last - 1) * VIRTUAL_ROW_ESTIMATE };
}

/** Whether two windows draw the same rows with the same spacers. */
export function sameWindow(a: RowWindow, b: RowWindow): boolean {
  return a.first === b.first && a.last === b.last && a.top === b.top && a.bottom === b.bottom;
}

/** `aria-rowcount` of a table showing `rows` body rows under `headerRows` header rows. */
export function ariaRowCount(rows: number, headerRows = 1): number {
  return rows + headerRows;
}

/** `aria-rowindex` (1-based, header rows first) of the body row at page index `index`. */
export function ariaRowIndex(index: number, headerRows = 1): number {
  return index + 1 + headerRows;
}

/** The select-all checkbox of a page: checked when every row of the page is selected, indeterminate when some are. */
export function pageSelectState(pageKeys: readonly string[], selected: readonly string[]): { checked: boolean; indeterminate: boolean } {
  const set = new Set(selected);
  const n = pageKeys.reduce((k, key) => k + (set.has(key) ? 1 : 0), 0);
  return { checked: pageKeys.length > 0 && n === pageKeys.length, indeterminate: n > 0 && n < pageKeys.length };
}

/** The selection after the select-all checkbox is set to `on`: every row of the page added, or every row of the page removed. */
export function toggledPageSelection(pageKeys: readonly string[], selected: readonly string[], on: boolean): string[] {
  if (on) return [...new Set([...selected, ...pageKeys])];
  const page = new Set(pageKeys);
  return selected.filter((k) => !page.has(k));
}

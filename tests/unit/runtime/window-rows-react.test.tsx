// @vitest-environment happy-dom
/**
 * Our window virtualiser (src/runtime/react/WindowRows.tsx) in a DOM: it reports the window PageTable draws at
 * mount, on scroll and as rows are measured (by their ref callback, then by a ResizeObserver), keeps what is on
 * screen in place when a row above it changes size, and follows its props. happy-dom lays nothing out and its
 * ResizeObserver never reports: rows' sizes are stubbed, and a small fake observer stands in for the browser's.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render } from '@testing-library/react';
import { StrictMode } from 'react';
import WindowRows from '../../../src/runtime/react/WindowRows.js';
import type { RowWindow } from '../../../src/runtime/model/virtualRows.js';

const H = 47;

class FakeResizeObserver {
  static last: FakeResizeObserver | null = null;
  static all: FakeResizeObserver[] = [];
  readonly observed = new Set<Element>();
  constructor(readonly cb: ResizeObserverCallback) {
    FakeResizeObserver.last = this;
    FakeResizeObserver.all.push(this);
  }
  observe(el: Element) {
    this.observed.add(el);
  }
  unobserve(el: Element) {
    this.observed.delete(el);
  }
  disconnect() {
    this.observed.clear();
  }
  /** The browser reporting these rows' new heights. */
  report(sizes: [Element, number][]) {
    const entries = sizes.map(([target, blockSize]) => ({ target, borderBoxSize: [{ blockSize, inlineSize: 0 }] }));
    this.cb(entries as unknown as ResizeObserverEntry[], this as unknown as ResizeObserver);
  }
}

const calls: { win: RowWindow; measure: (el: Element | null) => void }[] = [];
const onWindow = (win: RowWindow, measure: (el: Element | null) => void) => void calls.push({ win, measure });
const lastWin = () => calls[calls.length - 1].win;
const getItemKey = (i: number) => `k${i}`;

/** A drawn row of page index `index`, `height` px tall (as laid out), in the document unless `attach` is false. */
function row(index: number, height: number, attach = true) {
  const tr = document.createElement('tr');
  tr.setAttribute('data-index', String(index));
  tr.getBoundingClientRect = () => ({ height, width: 100, top: 0, left: 0, bottom: height, right: 100, x: 0, y: 0, toJSON: () => ({}) });
  if (attach) document.body.appendChild(tr);
  return tr;
}

function scrollTo(y: number) {
  window.scrollTo(0, y);
  act(() => void window.dispatchEvent(new Event('scroll')));
}

beforeEach(() => {
  calls.length = 0;
  FakeResizeObserver.all = [];
  vi.stubGlobal('ResizeObserver', FakeResizeObserver);
  Object.defineProperty(window, 'innerHeight', { value: 470, configurable: true });
  window.scrollTo(0, 0);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  document.body.innerHTML = '';
});

describe('WindowRows', () => {
  it('reports the rows that fill the window at mount, then the window scrolled to; a scroll within it reports nothing', () => {
    render(<WindowRows count={200} scrollMargin={0} getItemKey={getItemKey} onWindow={onWindow} />);
    expect(calls).toHaveLength(1);
    expect(lastWin()).toEqual({ first: 0, last: 19, top: 0, bottom: 180 * H });

    scrollTo(100 * H);
    expect(lastWin()).toEqual({ first: 90, last: 119, top: 90 * H, bottom: 80 * H });
    const n = calls.length;
    scrollTo(100 * H); // an event without a move
    expect(calls).toHaveLength(n);
    // the same measuring function all along
    expect(new Set(calls.map((c) => c.measure)).size).toBe(1);
  });

  it('a taller window (resize) draws more rows', () => {
    render(<WindowRows count={200} scrollMargin={0} getItemKey={getItemKey} onWindow={onWindow} />);
    Object.defineProperty(window, 'innerHeight', { value: 940, configurable: true });
    act(() => void window.dispatchEvent(new Event('resize')));
    expect(lastWin()).toEqual({ first: 0, last: 29, top: 0, bottom: 170 * H });
  });

  it('a measured row moves the rows below it: fewer rows fit on screen, the bottom spacer grows', () => {
    render(<WindowRows count={200} scrollMargin={0} getItemKey={getItemKey} onWindow={onWindow} />);
    const { measure } = calls[0];
    act(() => measure(row(0, 100)));
    // 100 + 8 × 47 fills 470 px: rows 0-8 on screen, 10 more below
    expect(lastWin()).toEqual({ first: 0, last: 18, top: 0, bottom: 181 * H });
    expect(FakeResizeObserver.last?.observed.size).toBe(1);
  });

  it('later size changes come from the ResizeObserver; a removed row is no longer watched', () => {
    render(<WindowRows count={200} scrollMargin={0} getItemKey={getItemKey} onWindow={onWindow} />);
    const { measure } = calls[0];
    const r0 = row(0, H);
    const r1 = row(1, H);
    act(() => {
      measure(r0);
      measure(r1);
    });
    expect(lastWin()).toEqual({ first: 0, last: 19, top: 0, bottom: 180 * H });
    const ro = FakeResizeObserver.last!;
    expect(ro.observed).toEqual(new Set([r0, r1]));
    // the first row wraps onto a second line
    act(() => ro.report([[r0, 2 * H]]));
    expect(lastWin()).toEqual({ first: 0, last: 18, top: 0, bottom: 181 * H });
    // a row leaves the table: reported as it goes, it is dropped (its size is not 0)
    r1.remove();
    const n = calls.length;
    act(() => ro.report([[r1, 0]]));
    expect(ro.observed).toEqual(new Set([r0]));
    expect(calls).toHaveLength(n);
    // React detaching a row's ref: rows no longer in the document are dropped too
    r0.remove();
    act(() => measure(null));
    expect(ro.observed.size).toBe(0);
  });

  it('scroll anchoring: a row above the screen changing size scrolls by the change; one on screen or below does not', () => {
    render(<WindowRows count={200} scrollMargin={0} getItemKey={getItemKey} onWindow={onWindow} />);
    scrollTo(100 * H);
    const { measure } = calls[0];
    act(() => measure(row(95, H + 20))); // first measure, above the screen
    expect(window.scrollY).toBe(100 * H + 20);
    act(() => measure(row(105, H + 20))); // on screen
    act(() => measure(row(115, H + 20))); // below
    expect(window.scrollY).toBe(100 * H + 20);
    // measured again: only when the whole row is above the screen
    const r95 = document.querySelector('[data-index="95"]')!;
    act(() => FakeResizeObserver.last!.report([[r95, H]]));
    expect(window.scrollY).toBe(100 * H);
    const r100 = row(100, H);
    act(() => measure(r100)); // the row at the screen's top: its estimate was right
    act(() => FakeResizeObserver.last!.report([[r100, 2 * H]])); // it spans the top edge: no scroll
    expect(window.scrollY).toBe(100 * H);
  });

  it('a row index out of the page, or no index, is not measured', () => {
    render(<WindowRows count={200} scrollMargin={0} getItemKey={getItemKey} onWindow={onWindow} />);
    const { measure } = calls[0];
    const n = calls.length;
    act(() => measure(row(500, 100)));
    const bare = row(0, 100);
    bare.removeAttribute('data-index');
    act(() => measure(bare));
    expect(calls).toHaveLength(n);
  });

  it('follows its props: the scroll margin, a shorter page, rows in another order keep their sizes', () => {
    const keys = Array.from({ length: 200 }, (_, i) => `k${i}`);
    const keyOf = (list: string[]) => (i: number) => list[i];
    const { rerender } = render(<WindowRows count={200} scrollMargin={0} getItemKey={keyOf(keys)} onWindow={onWindow} />);
    act(() => calls[0].measure(row(0, 100)));
    expect(lastWin().bottom).toBe(181 * H);

    // the table moves 1000 px down the page: only its first rows are drawn
    rerender(<WindowRows count={200} scrollMargin={1000} getItemKey={keyOf(keys)} onWindow={onWindow} />);
    expect(lastWin()).toEqual({ first: 0, last: 10, top: 0, bottom: 189 * H });

    // the measured row is now last: its size goes with it
    const moved = [...keys.slice(1), keys[0]];
    rerender(<WindowRows count={200} scrollMargin={0} getItemKey={keyOf(moved)} onWindow={onWindow} />);
    expect(lastWin()).toEqual({ first: 0, last: 19, top: 0, bottom: 179 * H + 100 });

    rerender(<WindowRows count={12} scrollMargin={0} getItemKey={keyOf(moved)} onWindow={onWindow} />);
    expect(lastWin()).toEqual({ first: 0, last: 11, top: 0, bottom: 0 });

    // a new onWindow is told the window at once
    const other: RowWindow[] = [];
    rerender(<WindowRows count={12} scrollMargin={0} getItemKey={keyOf(moved)} onWindow={(w) => void other.push(w)} />);
    expect(other).toEqual([{ first: 0, last: 11, top: 0, bottom: 0 }]);
  });

  it('under StrictMode (mounted, unmounted and mounted again) it listens and watches rows as usual', () => {
    render(
      <StrictMode>
        <WindowRows count={200} scrollMargin={0} getItemKey={getItemKey} onWindow={onWindow} />
      </StrictMode>,
    );
    const r0 = row(0, H);
    act(() => calls[0].measure(r0));
    // (StrictMode also makes a driver that is thrown away: the observer that watches the row is the one used)
    const ro = FakeResizeObserver.all.find((o) => o.observed.has(r0));
    expect(ro?.observed).toEqual(new Set([r0]));
    act(() => ro!.report([[r0, 100]]));
    expect(lastWin()).toEqual({ first: 0, last: 18, top: 0, bottom: 181 * H });
    scrollTo(100 * H);
    expect(lastWin()).toMatchObject({ first: 88, last: 118 }); // row 0 is 53 px taller than the estimate
  });

  it('stops listening when unmounted', () => {
    const { unmount } = render(<WindowRows count={200} scrollMargin={0} getItemKey={getItemKey} onWindow={onWindow} />);
    act(() => calls[0].measure(row(0, H)));
    unmount();
    expect(FakeResizeObserver.last?.observed.size).toBe(0);
    const n = calls.length;
    scrollTo(100 * H);
    expect(calls).toHaveLength(n);
  });
});

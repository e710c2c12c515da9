/**
 * The window virtualiser of long table pages, in its own chunk: PageTable (virtualRows.tsx) mounts it only for a
 * page long enough to virtualise, and it draws nothing: it tells PageTable which rows to draw (and gives it the
 * function that measures a drawn row) whenever that changes, on scroll and as rows are measured.
 *
 * Our own (the maths in model/windowRows.ts) rather than TanStack Virtual's window virtualiser, which it replaces
 * with the same behaviour: a page's table needs only this much of it, and TanStack's costs ≈ 10 kB gzip more.
 */
import { useLayoutEffect, useReducer, useState } from 'react';
import { flushSync } from 'react-dom';
import { VIRTUAL_OVERSCAN, VIRTUAL_ROW_ESTIMATE, rowWindow, sameWindow, type RowWindow } from '../model/virtualRows.js';
import { RowLayout } from '../model/windowRows.js';

export interface WindowRowsProps {
  count: number;
  /** Where the first row starts in the document. */
  scrollMargin: number;
  getItemKey: (index: number) => string | number;
  onWindow: (win: RowWindow, measure: (el: Element | null) => void) => void;
}

/** What lives as long as the component: the layout, the window's scroll position and size, the row measurer. */
function createDriver(redraw: () => void) {
  const rows = new RowLayout(VIRTUAL_ROW_ESTIMATE, VIRTUAL_OVERSCAN);
  // read at the first render, so the first drawing already fills the screen; scroll and resize keep them current
  const view = { y: window.scrollY, height: window.innerHeight };
  const place = (): RowWindow => rowWindow(rows.visible(view.y, view.height), rows.total, rows.margin);
  const d = { rows, place, measure, start, stop, shown: null as RowWindow | null, onWindow: null as WindowRowsProps['onWindow'] | null };

  /** A drawn row (its page index in `data-index`, as PageTable's rows carry it) is `size` px tall. */
  function resize(el: Element, size: number) {
    const index = parseInt(el.getAttribute('data-index') ?? '', 10);
    if (!(index >= 0 && index < rows.count)) return; // no index, or a row of a page that has since shrunk
    const key = rows.key(index);
    const first = !rows.measured(key);
    const start = rows.start(index);
    const end = rows.end(index);
    const delta = rows.setSize(key, size);
    if (!delta) return;
    // Scroll anchoring (as TanStack): a row above the screen changed size, so what is on screen moved by delta;
    // scrolling by delta keeps it in place. A row measured for the first time counts when its top is above the
    // screen (its whole estimate was), a row measured again only when it is entirely above the screen.
    if (first ? start < view.y : end <= view.y) {
      window.scrollBy(0, delta);
      view.y = window.scrollY;
    }
    redraw();
  }

  // One observer for every drawn row: a row's size changes after it is drawn (fonts, wrapping, a column resized).
  const observed = new Set<Element>();
  const forget = (el: Element) => {
    ro?.unobserve(el);
    observed.delete(el);
  };
  const ro =
    typeof ResizeObserver === 'undefined'
      ? null
      : new ResizeObserver((entries) => {
          for (const e of entries) {
            // a removed row is reported (as 0 px tall): stop watching it, its size is not 0
            if (!e.target.isConnected) forget(e.target);
            else resize(e.target, e.borderBoxSize?.[0]?.blockSize ?? e.target.getBoundingClientRect().height);
          }
        });

  /** The rows' ref callback (one function for the component's life): measures a row as it is drawn. */
  function measure(el: Element | null) {
    if (!el) {
      for (const o of observed) if (!o.isConnected) forget(o);
      return;
    }
    if (!observed.has(el)) {
      observed.add(el);
      ro?.observe(el);
    }
    if (el.isConnected) resize(el, el.getBoundingClientRect().height);
  }

  /** Scroll and resize: redraw (at once, so the new rows are painted with the scroll) only when the window changes. */
  function sync() {
    view.y = window.scrollY;
    view.height = window.innerHeight;
    if (!d.shown || !sameWindow(place(), d.shown)) flushSync(redraw);
  }

  // mount and unmount (StrictMode unmounts and mounts again: the rows drawn meanwhile are watched again)
  function start() {
    window.addEventListener('scroll', sync, { passive: true });
    window.addEventListener('resize', sync);
    for (const el of observed) ro?.observe(el);
  }
  function stop() {
    window.removeEventListener('scroll', sync);
    window.removeEventListener('resize', sync);
    ro?.disconnect();
  }
  return d;
}

export default function WindowRows({ count, scrollMargin, getItemKey, onWindow }: WindowRowsProps) {
  const [, redraw] = useReducer((n: number) => n + 1, 0);
  const [d] = useState(() => createDriver(redraw));
  // the props of this render (a no-op unless they changed; the sizes measured so far are kept by row key)
  d.rows.setRows(count, getItemKey, scrollMargin);
  const win = d.place();

  useLayoutEffect(() => {
    d.start();
    return d.stop;
  }, [d]);
  // tell PageTable when the window changes (it also dedupes with sameWindow)
  useLayoutEffect(() => {
    if (d.shown && sameWindow(d.shown, win) && d.onWindow === onWindow) return;
    d.shown = win;
    d.onWindow = onWindow;
    onWindow(win, d.measure);
  });
  return null;
}

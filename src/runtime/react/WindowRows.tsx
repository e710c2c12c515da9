/**
 * The window virtualiser of long table pages (TanStack Virtual), in its own chunk: PageTable (virtualRows.tsx)
 * mounts it only for a page long enough to virtualise, and it draws nothing: it tells PageTable which rows to draw
 * (and gives it the function that measures a drawn row) whenever that changes, on scroll and as rows are measured.
 */
import { useLayoutEffect } from 'react';
import { useWindowVirtualizer } from '@tanstack/react-virtual';
import { VIRTUAL_OVERSCAN, VIRTUAL_ROW_ESTIMATE, rowWindow, type RowWindow } from '../model/virtualRows.js';

export interface WindowRowsProps {
  count: number;
  /** Where the first row starts in the document. */
  scrollMargin: number;
  getItemKey: (index: number) => string | number;
  onWindow: (win: RowWindow, measure: (el: Element | null) => void) => void;
}

export default function WindowRows({ count, scrollMargin, getItemKey, onWindow }: WindowRowsProps) {
  const v = useWindowVirtualizer({
    count,
    estimateSize: () => VIRTUAL_ROW_ESTIMATE,
    overscan: VIRTUAL_OVERSCAN,
    scrollMargin,
    getItemKey,
    // the window's size from the first render, so the first drawing already fills the screen
    initialRect: { width: window.innerWidth, height: window.innerHeight },
  });
  const win = rowWindow(v.getVirtualItems(), v.getTotalSize(), scrollMargin);
  useLayoutEffect(() => onWindow(win, v.measureElement));
  return null;
}

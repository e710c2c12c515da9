/**
 * The Tree of antd's table filter menu (`filterMode: 'tree'`), loaded when such a menu first opens. antd's Table
 * imports Tree for that menu alone, which put the whole tree component (≈ 14 kB gzip) into every list's code; our
 * documents search through the search bar and never set column filters. The build hands antd's FilterDropdown this
 * module in place of `antd/es/tree` (vite.config.ts, NARROW_IMPORTS).
 */
import { createElement, lazy, Suspense, type ComponentProps } from 'react';

const Tree = lazy(() => import('antd/es/tree'));

export default function TableFilterTree(props: ComponentProps<typeof Tree>) {
  return createElement(Suspense, { fallback: null }, createElement(Tree, props));
}

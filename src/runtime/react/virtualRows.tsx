/**
 * antd's Table with a virtualised body for long pages (issue 13): a 200-row page costs the DOM of the rows on
 * screen. Why not antd's own `virtual` prop: it draws <div> rows, so the table loses its table semantics
 * (screen readers, keyboard). Here antd keeps drawing a real <table>/<tr>, but is given only the slice of rows
 * near the screen (a window virtualiser, WindowRows.tsx: the page scrolls, not an inner box), with one spacer
 * <tr aria-hidden> above and one below of the skipped rows' height, so the scrollbar and the layout are those
 * of the whole page. Rows are measured as drawn (and watched after), so a taller row does not make the page jump.
 *
 * For assistive technology the <table> carries `aria-rowcount` (the page's rows + the header row) and every
 * drawn row its `aria-rowindex` (header = 1). Select-all in the header covers every row of the page, not only
 * the drawn slice (antd's own would select the slice). Pages of up to VIRTUAL_ROW_THRESHOLD rows, and tree
 * tables (rows with sub-rows: their expansion changes the row list under the virtualiser), are drawn as before.
 *
 * The virtualiser is in its own chunk (WindowRows.tsx), loaded by the first long page (issue 13: most lists show
 * 10 rows); until it has measured anything, the rows that fill the window are drawn (initialWindow).
 */
import { createContext, useCallback, useContext, useLayoutEffect, useMemo, useRef, useState, type ComponentProps, type HTMLAttributes, type RefObject } from 'react';
import { Checkbox, Table } from 'antd';
import type { TableProps } from 'antd';
import {
  ariaRowCount,
  ariaRowIndex,
  initialWindow,
  pageSelectState,
  sameWindow,
  shouldVirtualize,
  toggledPageSelection,
  type RowWindow,
} from '../model/virtualRows.js';
import { useRuntime } from './context.js';
import { useOnDemand } from './onDemand.js';
import { loadOnce } from '../../shared/loadOnce.js';

const loadWindowRows = loadOnce(() => import('./WindowRows.js'));

interface SpacerState {
  top: number;
  bottom: number;
  colSpan: number;
  topRef: RefObject<HTMLTableRowElement | null>;
}

// Two contexts: the spacers change on every scroll step, the measuring ref never (rows need not re-render).
const SpacerContext = createContext<SpacerState | null>(null);
const MeasureContext = createContext<((el: Element | null) => void) | null>(null);

function Spacer({ height, colSpan, rowRef }: { height: number; colSpan: number; rowRef?: RefObject<HTMLTableRowElement | null> }) {
  return (
    <tr ref={rowRef} aria-hidden="true" className="runtime-virtual-spacer">
      <td colSpan={colSpan} style={{ height, padding: 0, border: 0 }} />
    </tr>
  );
}

/** antd's tbody with the spacer rows around its rows (`components.body.wrapper`: must be one stable component). */
function BodyWrapper({ children, ...rest }: ComponentProps<'tbody'>) {
  const s = useContext(SpacerContext);
  // the rows keep their place among the tbody's children whether the spacers are drawn or not: a page growing
  // past the threshold then keeps its drawn rows instead of drawing them anew
  return (
    <tbody {...rest}>
      {s && <Spacer height={s.top} colSpan={s.colSpan} rowRef={s.topRef} />}
      {children}
      {s && <Spacer height={s.bottom} colSpan={s.colSpan} />}
    </tbody>
  );
}

/** antd's body row, measured by the virtualiser (it reads the row's `data-index`). */
function BodyRow(props: ComponentProps<'tr'>) {
  const measure = useContext(MeasureContext);
  return <tr {...props} ref={measure ?? undefined} />;
}

const COMPONENTS: TableProps<unknown>['components'] = { body: { wrapper: BodyWrapper, row: BodyRow } };

export type PageTableProps<T> = TableProps<T> & { rowKey: (r: T) => string };

/** antd's Table; pages longer than the threshold get the virtualised body. Same props as Table (rowKey a function). */
export function PageTable<T extends object>(props: PageTableProps<T>) {
  const { t } = useRuntime();
  const rows = useMemo(() => (props.dataSource ?? []) as T[], [props.dataSource]);
  const { rowKey } = props;
  const on = shouldVirtualize(rows.length) && !rows.some((r) => Array.isArray((r as { children?: unknown }).children));
  const topRef = useRef<HTMLTableRowElement | null>(null);
  const [margin, setMargin] = useState(0);

  const getItemKey = useCallback((i: number) => (rows[i] ? rowKey(rows[i]) : i), [rows, rowKey]);
  // the virtualiser's window and row measurer, once its chunk has loaded and it has placed the rows
  const WindowRows = useOnDemand(loadWindowRows, on)?.default;
  const [placed, setPlaced] = useState<{ win: RowWindow; measure: (el: Element | null) => void } | null>(null);
  const onWindow = useCallback(
    (win: RowWindow, measure: (el: Element | null) => void) => setPlaced((old) => (old && old.measure === measure && sameWindow(old.win, win) ? old : { win, measure })),
    [],
  );
  const driver = on && WindowRows ? <WindowRows count={rows.length} scrollMargin={margin} getItemKey={getItemKey} onWindow={onWindow} /> : null;

  // The scroll margin is where the first row starts in the document (the top spacer's top): things above the
  // table (search form expanded, a summary) move it; measured after each render, on scroll/resize, and when
  // the list's own box changes size.
  const measureMargin = useCallback(() => {
    const el = topRef.current;
    if (!el) return;
    const y = Math.round(el.getBoundingClientRect().top + window.scrollY);
    setMargin((m) => (Math.abs(m - y) >= 1 ? y : m));
  }, []);
  useLayoutEffect(() => {
    if (on) measureMargin();
  });
  useLayoutEffect(() => {
    if (!on) return;
    window.addEventListener('resize', measureMargin);
    window.addEventListener('scroll', measureMargin, { passive: true });
    const box = topRef.current?.closest('.runtime-list') ?? topRef.current?.closest('table')?.parentElement;
    const ro = typeof ResizeObserver === 'undefined' || !box ? undefined : new ResizeObserver(measureMargin);
    if (box) ro?.observe(box);
    return () => {
      window.removeEventListener('resize', measureMargin);
      window.removeEventListener('scroll', measureMargin);
      ro?.disconnect();
    };
  }, [on, measureMargin]);

  const win = placed && WindowRows ? placed.win : initialWindow(on ? rows.length : 0, typeof window === 'undefined' ? 0 : window.innerHeight);
  const position = useMemo(() => new Map(rows.map((r, i) => [rowKey(r), i])), [rows, rowKey]);
  const colSpan = (props.columns?.length ?? 1) + (props.rowSelection ? 1 : 0);
  const spacers = useMemo<SpacerState>(() => ({ top: win.top, bottom: win.bottom, colSpan, topRef }), [win.top, win.bottom, colSpan]);

  const sel = props.rowSelection;
  const selected = useMemo(() => (sel?.selectedRowKeys ?? []).map(String), [sel?.selectedRowKeys]);
  const pageKeys = useMemo(() => rows.map(rowKey), [rows, rowKey]);
  const selectedSet = useMemo(() => new Set(selected), [selected]);

  // The same element tree whether on or off (providers with null values when off, the virtualiser's slot after
  // the table, the same body components, which draw a plain tbody and tr when off), so that a page growing past
  // the threshold (the 10 → 200 size switch) updates the mounted Table instead of mounting a new one: another
  // body component would make antd mount a new body, measure its columns again and redraw every row twice.
  const components = { ...COMPONENTS, ...(props.components ?? {}) } as TableProps<T>['components'];
  if (!on)
    return (
      <MeasureContext.Provider value={null}>
        <SpacerContext.Provider value={null}>
          <Table<T> {...props} components={components} />
          {driver}
        </SpacerContext.Provider>
      </MeasureContext.Provider>
    );

  const outerOnRow = props.onRow;
  const tableProps: TableProps<T> = {
    ...props,
    dataSource: win.first < 0 ? [] : rows.slice(win.first, win.last + 1),
    components,
    onHeaderRow: (cols, i) => ({ ...(props.onHeaderRow?.(cols, i) ?? {}), 'aria-rowindex': 1 }) as HTMLAttributes<HTMLElement>,
    onRow: (r, i) => {
      const at = position.get(rowKey(r)) ?? i ?? 0;
      return { ...(outerOnRow?.(r, i) ?? {}), 'data-index': at, 'aria-rowindex': ariaRowIndex(at) } as HTMLAttributes<HTMLElement>;
    },
    rowSelection: sel && {
      ...sel,
      // antd keeps the keys of the rows it is not given (the rows off screen) when one row is (un)checked
      preserveSelectedRowKeys: true,
      // the whole page, not the drawn slice; row labels number the rows of the page, not of the slice
      columnTitle: (
        <div className="ant-table-selection">
          <Checkbox
            aria-label={t('runtime.table.selectAll')}
            {...pageSelectState(pageKeys, selected)}
            disabled={!pageKeys.length}
            onChange={(e) => sel.onChange?.(toggledPageSelection(pageKeys, selected, e.target.checked), [], { type: 'all' })}
          />
        </div>
      ),
      getCheckboxProps: (r) => {
        const n = (position.get(rowKey(r)) ?? 0) + 1;
        return { ...(sel.getCheckboxProps?.(r) ?? {}), 'aria-label': t(selectedSet.has(rowKey(r)) ? 'runtime.table.rowSelected' : 'runtime.table.selectRow', { n }) } as ReturnType<NonNullable<typeof sel.getCheckboxProps>>;
      },
    },
  };
  return (
    <MeasureContext.Provider value={(WindowRows && placed?.measure) || null}>
      <SpacerContext.Provider value={spacers}>
        <Table<T> {...tableProps} aria-rowcount={ariaRowCount(rows.length)} />
        {driver}
      </SpacerContext.Provider>
    </MeasureContext.Provider>
  );
}

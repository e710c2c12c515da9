/**
 * The table of a screen's records, shared by the list and tree views: TanStack Table owns the column state
 * (visibility, sorting, selection, sizing), antd draws it. Sub-rows (`children`) make it a tree table.
 */
import { useMemo, useRef, useState } from 'react';
import { Button, Dropdown, Grid, Space } from 'antd';
import type { TableColumnsType, TableProps } from 'antd';
import { DownOutlined } from '@ant-design/icons';
import {
  columnVisibilityFeature,
  columnSizingFeature,
  createColumnHelper,
  rowSelectionFeature,
  rowSortingFeature,
  tableFeatures,
  useTable,
  type ColumnDef,
  type Row,
} from '@tanstack/react-table';
import type { ScreenDocument } from '../../shared/document.js';
import { actionShownFor, columnsModel, initialSorting, initialVisibility, splitRowItems, wireKey, type DictMap } from '../model/index.js';
import { useRuntime } from './context.js';
import { Cell } from './Cell.js';
import { rowItemDanger, rowItemKey, type ScreenRowItem } from './useScreenActions.js';
import type { ListController, Rec } from './useListController.js';

const features = tableFeatures({ rowSelectionFeature, columnVisibilityFeature, rowSortingFeature, columnSizingFeature });
const helper = createColumnHelper<typeof features, Rec>();
export type TRow = Row<typeof features, Rec>;

/** Wide enough for every row button on one line (CJK ≈ 14px a character, Latin ≈ 8px, plus padding). */
function rowItemsWidth(items: ScreenRowItem[], t: (key: string) => string): number {
  const textWidth = (text: string) => 18 + [...text].reduce((a, ch) => a + (ch.charCodeAt(0) > 255 ? 14 : 8), 0);
  const split = splitRowItems(items);
  return split.inline.reduce((w, i) => w + textWidth(t(i.labelKey)), 34) + (split.more.length ? textWidth(t('common.action.more')) + 14 : 0);
}

/** The row buttons one record shows (row rules of named actions hide some). */
export function rowItemsFor(items: ScreenRowItem[], row: Rec): ScreenRowItem[] {
  return items.filter((i) => i.kind !== 'action' || actionShownFor(i.action, row));
}

export interface RecordTableOptions {
  dicts: DictMap;
  rowItems: ScreenRowItem[];
  onRowItem: (item: ScreenRowItem, row: Rec) => void;
  /** Tree tables: the child records of a record. */
  getSubRows?: (r: Rec) => Rec[] | undefined;
  /** Row number column counts from this page's offset (false for trees). */
  paged?: boolean;
  rowKey?: (r: Rec) => string;
}

export function useRecordTable(doc: ScreenDocument, ctl: ListController, opts: RecordTableOptions) {
  const { t, lang } = useRuntime();
  const listModel = useMemo(() => columnsModel(doc), [doc]);
  const [columnVisibility, setColumnVisibility] = useState<Record<string, boolean>>(() => initialVisibility(listModel));
  const { dicts, rowItems, onRowItem } = opts;
  const { current, size } = ctl.state;
  // Rows (and so the selection that remove sends) are named by the wire key (regions: code).
  const rowKey = opts.rowKey ?? ((r: Rec) => wireKey(doc, r));

  // The row number's offset is read, not a dependency of the columns: TanStack draws each column's `cell` as a
  // component, so new columns on every page would draw every cell of the page anew instead of updating it.
  const offset = useRef(0);
  offset.current = (current - 1) * size;
  const columns = useMemo(() => {
    const cols: Array<ColumnDef<typeof features, Rec, unknown>> = [];
    if (listModel.index && opts.paged !== false) {
      cols.push(
        helper.display({
          id: '_index',
          header: () => t('common.column.index'),
          size: 60,
          enableHiding: false,
          cell: ({ row }) => offset.current + row.index + 1,
        }),
      );
    }
    for (const c of listModel.columns) {
      cols.push(
        helper.accessor((r: Rec): unknown => r[c.field], {
          id: c.field,
          header: () => t(c.titleKey),
          size: c.width ?? 150,
          enableSorting: c.sortable,
          cell: (info) => <Cell col={c} value={info.getValue()} row={info.row.original} dicts={dicts} lang={lang} />,
        }),
      );
    }
    if (rowItems.length) {
      cols.push(
        helper.display({
          id: '_actions',
          header: () => t('common.column.operation'),
          enableHiding: false,
          cell: ({ row }) => {
            if (row.original.__placeholder) return null;
            const { inline, more } = splitRowItems(rowItemsFor(rowItems, row.original));
            return (
              <Space size={0} wrap>
                {inline.map((item) => (
                  <Button key={rowItemKey(item)} type="link" size="small" danger={rowItemDanger(item)} onClick={() => onRowItem(item, row.original)}>
                    {t(item.labelKey)}
                  </Button>
                ))}
                {more.length > 0 && (
                  <Dropdown
                    trigger={['click']}
                    menu={{
                      items: more.map((item) => ({ key: rowItemKey(item), label: t(item.labelKey), danger: rowItemDanger(item) })),
                      onClick: ({ key: k }) => {
                        const item = more.find((i) => rowItemKey(i) === k);
                        if (item) onRowItem(item, row.original);
                      },
                    }}
                  >
                    <Button type="link" size="small">
                      {t('common.action.more')} <DownOutlined />
                    </Button>
                  </Dropdown>
                )}
              </Space>
            );
          },
        }),
      );
    }
    return cols;
  }, [listModel, rowItems, dicts, lang, t, onRowItem, opts.paged]);

  const rowSelection = useMemo(() => Object.fromEntries(ctl.selectedIds.map((k) => [k, true as const])), [ctl.selectedIds]);
  const table = useTable({
    features,
    columns,
    data: ctl.records,
    getRowId: (r: Rec, i: number) => rowKey(r) || `row-${i}`,
    getSubRows: opts.getSubRows,
    manualSorting: true,
    enableMultiSort: false,
    enableRowSelection: listModel.selection,
    state: { sorting: ctl.state.sorting, rowSelection, columnVisibility },
    onSortingChange: (u) => ctl.setSorting(typeof u === 'function' ? u(ctl.state.sorting) : u),
    onRowSelectionChange: (u) => {
      const next = typeof u === 'function' ? u(rowSelection) : u;
      ctl.setSelectedIds(Object.keys(next).filter((k) => next[k]));
    },
    onColumnVisibilityChange: setColumnVisibility,
  });

  // As wide as the widest row of this page needs (row rules hide some actions per row): measured once per distinct
  // set of buttons, not per row (a 200-row page has a handful of sets), and again only when the page changes.
  const records = ctl.records;
  const actionsWidth = useMemo(() => {
    const widths = new Map<string, number>();
    const widthOf = (items: ScreenRowItem[]) => {
      const key = items.map(rowItemKey).join('\n');
      let w = widths.get(key);
      if (w === undefined) widths.set(key, (w = rowItemsWidth(items, t)));
      return w;
    };
    return Math.max(80, ...(records.length ? records.map((r) => widthOf(rowItemsFor(rowItems, r))) : [widthOf(rowItems)]));
  }, [records, rowItems, t]);
  // Under 768 px the operation column scrolls with the others instead of covering a phone's screen.
  const narrow = !Grid.useBreakpoint().md;
  const sortOf = (id: string) => {
    const s = ctl.state.sorting.find((x) => x.id === id);
    return s ? (s.desc ? 'descend' : 'ascend') : null;
  };
  const antColumns: TableColumnsType<TRow> = table.getVisibleLeafColumns().map((col) => {
    const model = listModel.columns.find((c) => c.field === col.id);
    return {
      key: col.id,
      dataIndex: col.id,
      title: typeof col.columnDef.header === 'function' ? (col.columnDef.header as () => string)() : col.id,
      width: col.id === '_actions' ? actionsWidth : col.getSize(),
      fixed: narrow ? undefined : col.id === '_actions' ? 'right' : model?.fixed,
      align: col.id === '_index' ? 'center' : undefined,
      sorter: col.getCanSort(),
      sortOrder: col.getCanSort() ? sortOf(col.id) : undefined,
      render: (_: unknown, row: TRow) => {
        const cell = row.getAllCellsByColumnId()[col.id]; // a column drawn here is a visible one
        return cell ? <table.FlexRender cell={cell} /> : null;
      },
    };
  });

  /** Props of antd's Table for these rows (the view adds expandable/pagination). */
  const tableProps: TableProps<TRow> = {
    size: 'middle',
    bordered: true,
    rowKey: (r) => r.id,
    columns: antColumns,
    dataSource: table.getRowModel().rows,
    loading: ctl.loading,
    pagination: false,
    // The fixed operation column casts antd's shadow over the columns scrolled under it: a visible cue.
    scroll: { x: 'max-content' },
    rowSelection: listModel.selection
      ? {
          selectedRowKeys: ctl.selectedIds,
          checkStrictly: true,
          onChange: (keys) => ctl.setSelectedIds(keys.map(String)),
        }
      : undefined,
    onChange: (_p, _f, sorter, extra) => {
      if (extra.action !== 'sort') return;
      const s = Array.isArray(sorter) ? sorter[0] : sorter;
      const id = s?.columnKey ? String(s.columnKey) : undefined;
      ctl.setSorting(id && s.order ? [{ id, desc: s.order === 'descend' }] : initialSorting(doc));
    },
  };

  const visibleFields = () =>
    table
      .getVisibleLeafColumns()
      .map((c) => c.id)
      .filter((id) => !id.startsWith('_'));

  const hideable = table.getAllLeafColumns().filter((c) => c.getCanHide());
  return { table, listModel, tableProps, visibleFields, hideable };
}

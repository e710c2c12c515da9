/**
 * The generic list screen of a document: search form, toolbar, table and pagination, row actions and
 * the add/edit/view dialog (loaded lazily). TanStack Table v9 owns the table state (columns, selection,
 * visibility, sorting); antd draws it.
 */
import { lazy, Suspense, useCallback, useMemo, useState } from 'react';
import { Button, Checkbox, Dropdown, Grid, Modal, Pagination, Popover, Space, Table, Tooltip, message } from 'antd';
import type { TableColumnsType } from 'antd';
import { DeleteOutlined, DownOutlined, DownloadOutlined, PlusOutlined, ReloadOutlined, SettingOutlined } from '@ant-design/icons';
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
  type RowSelectionState,
} from '@tanstack/react-table';
import useSWR from 'swr';
import type { ActionDef, Mode, ScreenDocument } from '../../shared/document.js';
import {
  actionRequest,
  actionsModel,
  checkSelection,
  columnsModel,
  dictCodes,
  exportParams,
  initialSorting,
  initialVisibility,
  listParams,
  listUrl,
  rowActions,
  searchDefaults,
  splitRowItems,
  searchModel,
  validateSearch,
  totalText,
  type ListPage,
  type RowItem,
} from '../model/index.js';
import { useRuntime } from './context.js';
import { useDictionaries } from './useDictionaries.js';
import { SearchBar } from './SearchBar.js';
import { Cell } from './Cell.js';
import { Summary, type PageSummary } from './Summary.js';

const FormDialog = lazy(() => import('./FormDialog.js'));
const ActionDialog = lazy(() => import('./ActionDialog.js'));
const ShowDialog = lazy(() => import('./ShowDialog.js'));

type Rec = Record<string, unknown>;
interface Page extends ListPage<Rec> {
  /** Totals/series for the searched range, when the screen's list carries them (statistics). */
  summary?: PageSummary;
}

const features = tableFeatures({ rowSelectionFeature, columnVisibilityFeature, rowSortingFeature, columnSizingFeature });
const helper = createColumnHelper<typeof features, Rec>();
const NO_RECORDS: Rec[] = [];

type SortingState = Array<{ id: string; desc: boolean }>;

function downloadBlob(blob: Blob, name: string) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** An action's reply as the success message's parameters (e.g. 已生成 {{count}} 张结算单). */
function replyParams(res: unknown): Record<string, unknown> | undefined {
  return res && typeof res === 'object' && !Array.isArray(res) ? (res as Record<string, unknown>) : undefined;
}

export function ListScreen({ doc }: { doc: ScreenDocument }) {
  const { request, permissions, t, lang } = useRuntime();
  const [toast, toastHolder] = message.useMessage();
  const [modal, modalHolder] = Modal.useModal();

  const listModel = useMemo(() => columnsModel(doc), [doc]);
  const search = useMemo(() => searchModel(doc), [doc]);
  const actions = useMemo(() => actionsModel(doc, permissions), [doc, permissions]);
  const codes = useMemo(() => dictCodes(doc), [doc]);
  const { dicts } = useDictionaries(codes);
  const defaults = useMemo(() => searchDefaults(search), [search]);

  const [applied, setApplied] = useState<Rec>(defaults);
  const [page, setPage] = useState({ current: 1, size: listModel.defaultPageSize });
  const [sorting, setSorting] = useState<SortingState>(() => initialSorting(doc));
  const [rowSelection, setRowSelection] = useState<RowSelectionState>({});
  const [columnVisibility, setColumnVisibility] = useState<Record<string, boolean>>(() => initialVisibility(listModel));
  const [dialog, setDialog] = useState<{ mode: Mode; id?: string } | null>(null);
  const [actionDialog, setActionDialog] = useState<{ action: ActionDef; row?: Rec; ids?: string[] } | null>(null);
  const [showDialog, setShowDialog] = useState<{ action: ActionDef; row: Rec } | null>(null);

  const missing = validateSearch(search, applied);
  const params = listParams(doc, { current: page.current, size: page.size, search: applied, sorting });
  const url = listUrl(doc, 'list');
  const { data, isLoading, isValidating, mutate } = useSWR<Page>(
    missing.length ? null : ['runtime:list', url, JSON.stringify(params)],
    () => request<Page>('GET', url, { params }),
    { keepPreviousData: true, revalidateOnFocus: false },
  );
  const records = data?.records ?? NO_RECORDS;
  const total = Number(data?.total ?? 0);

  const refresh = useCallback(() => {
    setRowSelection({});
    void mutate();
  }, [mutate]);

  const selectedIds = Object.keys(rowSelection).filter((k) => rowSelection[k]);

  const runAction = useCallback(
    (action: ActionDef, target: { row?: Rec; ids?: string[] }) => {
      if (action.selection && target.ids) {
        const warn = checkSelection(target.ids);
        if (warn) return void toast.warning(t(warn));
      }
      // `show`: the records of this row in a read-only table (changes nothing: no confirm, no toast).
      if (action.show && target.row) return setShowDialog({ action, row: target.row });
      if (action.form) return setActionDialog({ action, ...target });
      const go = async () => {
        const r = actionRequest(doc, action, target);
        const res = await request(r.method, r.url, { params: r.params, data: r.data });
        void toast.success(t(action.success ?? 'common.msg.success', replyParams(res)));
        refresh();
      };
      if (action.confirm) {
        modal.confirm({ title: t('common.msg.confirmTitle'), content: t(action.confirm), okText: t('common.action.ok'), cancelText: t('common.action.cancel'), onOk: () => go().catch(() => undefined) });
      } else void go().catch(() => undefined);
    },
    [doc, request, t, toast, modal, refresh],
  );

  const remove = useCallback(
    (ids: string[]) => {
      const warn = checkSelection(ids);
      if (warn) return void toast.warning(t(warn));
      modal.confirm({
        title: t('common.msg.confirmTitle'),
        content: t('common.msg.deleteConfirm'),
        okText: t('common.action.ok'),
        cancelText: t('common.action.cancel'),
        onOk: async () => {
          try {
            await request('POST', listUrl(doc, 'remove'), { params: { ids: ids.join(',') } });
            void toast.success(t('common.msg.deleteSuccess'));
            refresh();
          } catch {
            /* the web client has shown the error */
          }
        },
      });
    },
    [doc, request, t, toast, modal, refresh],
  );

  const onRowItem = useCallback(
    (item: RowItem, row: Rec) => {
      const id = String(row.id);
      if (item.kind === 'view' || item.kind === 'edit') setDialog({ mode: item.kind, id });
      else if (item.kind === 'delete') remove([id]);
      else if (item.kind === 'action') runAction(item.action, { row });
    },
    [remove, runAction],
  );

  const columns = useMemo(() => {
    const cols: Array<ColumnDef<typeof features, Rec, unknown>> = [];
    if (listModel.index) {
      cols.push(
        helper.display({
          id: '_index',
          header: () => t('common.column.index'),
          size: 60,
          enableHiding: false,
          cell: ({ row }) => (page.current - 1) * page.size + row.index + 1,
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
          cell: (info) => <Cell col={c} value={info.getValue()} dicts={dicts} lang={lang} />,
        }),
      );
    }
    if (actions.row.length) {
      cols.push(
        helper.display({
          id: '_actions',
          header: () => t('common.column.operation'),
          enableHiding: false,
          cell: ({ row }) => {
            const { inline, more } = splitRowItems(rowActions(actions, row.original));
            const key = (item: RowItem) => (item.kind === 'action' ? item.action.name : item.kind);
            const danger = (item: RowItem) => item.kind === 'delete' || (item.kind === 'action' && !!item.action.danger);
            return (
              <Space size={0} wrap>
                {inline.map((item) => (
                  <Button key={key(item)} type="link" size="small" danger={danger(item)} onClick={() => onRowItem(item, row.original)}>
                    {t(item.labelKey)}
                  </Button>
                ))}
                {more.length > 0 && (
                  <Dropdown
                    trigger={['click']}
                    menu={{
                      items: more.map((item) => ({ key: key(item), label: t(item.labelKey), danger: danger(item) })),
                      onClick: ({ key: k }) => {
                        const item = more.find((i) => key(i) === k);
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
  }, [listModel, actions, dicts, lang, t, page, onRowItem]);

  const table = useTable({
    features,
    columns,
    data: records,
    getRowId: (r: Rec, i: number) => (r.id !== undefined && r.id !== null ? String(r.id) : `row-${i}`),
    manualSorting: true,
    enableMultiSort: false,
    enableRowSelection: listModel.selection,
    state: { sorting, rowSelection, columnVisibility },
    onSortingChange: setSorting,
    onRowSelectionChange: setRowSelection,
    onColumnVisibilityChange: setColumnVisibility,
  });

  const sortOf = (id: string) => {
    const s = table.state.sorting.find((x) => x.id === id);
    return s ? (s.desc ? 'descend' : 'ascend') : null;
  };

  type TRow = Row<typeof features, Rec>;
  // Wide enough for every row button on one line (CJK ≈ 14px a character, Latin ≈ 8px, plus padding).
  const textWidth = (text: string) => 18 + [...text].reduce((a, ch) => a + (ch.charCodeAt(0) > 255 ? 14 : 8), 0);
  const itemsWidth = (items: RowItem[]) => {
    const split = splitRowItems(items);
    return split.inline.reduce((w, i) => w + textWidth(t(i.labelKey)), 34) + (split.more.length ? textWidth(t('common.action.more')) + 14 : 0);
  };
  // As wide as the widest row of this page needs (row rules hide some actions per row).
  const actionsWidth = Math.max(80, ...(records.length ? records.map((r) => itemsWidth(rowActions(actions, r))) : [itemsWidth(actions.row)]));
  // Under 768 px the operation column scrolls with the others instead of covering a phone's screen.
  const narrow = !Grid.useBreakpoint().md;
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
        const cell = row.getVisibleCells().find((c) => c.column.id === col.id);
        return cell ? <table.FlexRender cell={cell} /> : null;
      },
    };
  });

  const onExport = async () => {
    const visible = table
      .getVisibleLeafColumns()
      .map((c) => c.id)
      .filter((id) => !id.startsWith('_'));
    const blob = await request<Blob>('GET', listUrl(doc, 'export'), {
      params: exportParams(doc, { search: applied, sorting }, visible, lang),
      responseType: 'blob',
    });
    downloadBlob(blob, `${t(doc.title)}.xlsx`);
  };

  const hideable = table.getAllLeafColumns().filter((c) => c.getCanHide());

  return (
    <div className="runtime-list" data-screen={doc.id}>
      {toastHolder}
      {modalHolder}
      <SearchBar
        model={search}
        dicts={dicts}
        defaults={defaults}
        onSearch={(v) => {
          setApplied(v);
          setPage((p) => ({ ...p, current: 1 }));
          setRowSelection({});
        }}
      />
      {data?.summary && !missing.length && <Summary summary={data.summary} section={doc.title.split('.')[0]} />}
      <div style={{ display: 'flex', justifyContent: 'space-between', marginBottom: 12 }}>
        <Space wrap>
          {actions.toolbar.map((item) => {
            switch (item.kind) {
              case 'add':
                return (
                  <Button key="add" type="primary" icon={<PlusOutlined />} onClick={() => setDialog({ mode: 'add' })}>
                    {t(item.labelKey)}
                  </Button>
                );
              case 'delete':
                return (
                  <Button key="delete" danger icon={<DeleteOutlined />} onClick={() => remove(selectedIds)}>
                    {t(item.labelKey)}
                  </Button>
                );
              case 'export':
                return (
                  <Button key="export" icon={<DownloadOutlined />} onClick={() => void onExport().catch(() => undefined)}>
                    {t(item.labelKey)}
                  </Button>
                );
              default:
                return (
                  <Button
                    key={item.action.name}
                    danger={item.action.danger}
                    onClick={() => runAction(item.action, item.action.selection ? { ids: selectedIds } : {})}
                  >
                    {t(item.labelKey)}
                  </Button>
                );
            }
          })}
        </Space>
        <Space>
          <Tooltip title={t('common.action.refresh')}>
            <Button shape="circle" icon={<ReloadOutlined />} aria-label={t('common.action.refresh')} onClick={refresh} />
          </Tooltip>
          <Popover
            trigger="click"
            placement="bottomRight"
            content={
              <Space orientation="vertical">
                {hideable.map((c) => {
                  const m = listModel.columns.find((x) => x.field === c.id);
                  return (
                    <Checkbox key={c.id} checked={c.getIsVisible()} onChange={(e) => c.toggleVisibility(e.target.checked)}>
                      {m ? t(m.titleKey) : c.id}
                    </Checkbox>
                  );
                })}
              </Space>
            }
          >
            <Tooltip title={t('common.action.columns')}>
              <Button shape="circle" icon={<SettingOutlined />} aria-label={t('common.action.columns')} />
            </Tooltip>
          </Popover>
        </Space>
      </div>
      <Table<TRow>
        size="middle"
        bordered
        rowKey={(r) => r.id}
        columns={antColumns}
        dataSource={table.getRowModel().rows}
        loading={isLoading || isValidating}
        pagination={false}
        scroll={{ x: 'max-content' }}
        rowSelection={
          listModel.selection
            ? {
                selectedRowKeys: selectedIds,
                onChange: (keys) => table.setRowSelection(Object.fromEntries(keys.map((k) => [String(k), true as const]))),
              }
            : undefined
        }
        onChange={(_p, _f, sorter, extra) => {
          if (extra.action !== 'sort') return;
          const s = Array.isArray(sorter) ? sorter[0] : sorter;
          const id = s?.columnKey ? String(s.columnKey) : undefined;
          table.setSorting(id && s.order ? [{ id, desc: s.order === 'descend' }] : initialSorting(doc));
        }}
      />
      <div style={{ display: 'flex', justifyContent: 'flex-end', marginTop: 16 }}>
        <Pagination
          current={page.current}
          pageSize={page.size}
          total={total}
          showSizeChanger
          showQuickJumper
          pageSizeOptions={listModel.pageSizes}
          showTotal={(n) => t(...totalText(data, n))}
          onChange={(current, size) => {
            setPage((p) => ({ current: size !== p.size ? 1 : current, size }));
            setRowSelection({});
          }}
        />
      </div>
      <Suspense fallback={null}>
        {dialog && (
          <FormDialog
            doc={doc}
            mode={dialog.mode}
            id={dialog.id}
            dicts={dicts}
            onClose={() => setDialog(null)}
            onSaved={(mode) => {
              void toast.success(t(mode === 'add' ? 'common.msg.addSuccess' : 'common.msg.editSuccess'));
              setDialog(null);
              refresh();
            }}
          />
        )}
        {showDialog && <ShowDialog doc={doc} action={showDialog.action} row={showDialog.row} onClose={() => setShowDialog(null)} />}
        {actionDialog && (
          <ActionDialog
            doc={doc}
            action={actionDialog.action}
            row={actionDialog.row}
            ids={actionDialog.ids}
            dicts={dicts}
            onClose={() => setActionDialog(null)}
            onDone={(res) => {
              void toast.success(t(actionDialog.action.success ?? 'common.msg.success', replyParams(res)));
              setActionDialog(null);
              refresh();
            }}
          />
        )}
      </Suspense>
    </div>
  );
}

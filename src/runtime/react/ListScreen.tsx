/**
 * The `list` view: search form, toolbar, table and pagination over the headless list controller
 * (useListController: params in the URL, fetch, selection, page clamp), with the screen's buttons
 * (useScreenActions) and the shared record table (useRecordTable), drawn by PageTable (virtualRows.tsx), which
 * virtualises the body of long pages.
 */
import { lazy, Suspense, useMemo } from 'react';
import { Pagination } from 'antd';
import type { ScreenDocument } from '../../shared/document.js';
import { dictCodes, searchDefaults, searchModel, totalText } from '../model/index.js';
import { useRuntime } from './context.js';
import { useDictionaries } from './useDictionaries.js';
import { SearchBar } from './SearchBar.js';
import { Toolbar } from './Toolbar.js';
import { useListController, type ListControllerOptions, type Rec } from './useListController.js';
import { useScreenActions } from './useScreenActions.js';
import { useRecordTable, type TRow } from './useRecordTable.js';
import { PageTable } from './virtualRows.js';

export interface ListScreenProps {
  doc: ScreenDocument;
  /** Controller options (a master-detail pane: its endpoint, the link param, its URL prefix). */
  list?: ListControllerOptions;
  /** Fields the add dialog starts with (a detail pane: the link to the master). */
  addInitial?: Rec;
  /** Row click (a master pane selects the row). */
  onRowClick?: (row: Rec) => void;
  /** Key of the highlighted row (the selected master). */
  activeKey?: string;
  rowKey?: (r: Rec) => string;
}

// Totals and a chart for the few lists whose reply carries a summary: their code loads with the first such reply.
const Summary = lazy(() => import('./Summary.js').then((m) => ({ default: m.Summary })));

/** A table row's key: TanStack's row id (the record's wire key); one function, so the virtualiser's keys stay stable. */
const rowId = (r: TRow) => r.id;

export function ListScreen({ doc, list, addInitial, onRowClick, activeKey, rowKey }: ListScreenProps) {
  const { t } = useRuntime();
  const ctl = useListController(doc, list);
  const search = useMemo(() => searchModel(doc), [doc]);
  const defaults = useMemo(() => searchDefaults(search), [search]);
  const { dicts } = useDictionaries(useMemo(() => dictCodes(doc), [doc]));
  const actions = useScreenActions(doc, ctl, dicts, { addInitial });
  const rt = useRecordTable(doc, ctl, { dicts, rowItems: actions.rowItems, onRowItem: actions.onRowItem, rowKey });

  return (
    <div className="runtime-list" data-screen={doc.id}>
      {actions.dialogs}
      <SearchBar model={search} dicts={dicts} defaults={defaults} values={ctl.state.search} onSearch={ctl.setSearch} />
      {ctl.reply?.summary && !ctl.missing.length && (
        <Suspense fallback={null}>
          <Summary summary={ctl.reply.summary} section={doc.title.split('.')[0]} />
        </Suspense>
      )}
      <Toolbar items={actions.toolbar} onItem={(i) => actions.onToolbarItem(i, rt.visibleFields())} onRefresh={ctl.refresh} hideable={rt.hideable} listModel={rt.listModel} />
      {/* long pages (over 50 rows) get a virtualised body: only the rows near the screen are drawn */}
      <PageTable<TRow>
        {...rt.tableProps}
        rowKey={rowId}
        onRow={onRowClick ? (r) => ({ onClick: () => onRowClick(r.original), style: { cursor: 'pointer' } }) : undefined}
        rowClassName={activeKey ? (r) => (rowKey ? rowKey(r.original) : String(r.original.id)) === activeKey ? 'runtime-row-active ant-table-row-selected' : '' : undefined}
      />
      <div style={{ display: 'flex', justifyContent: 'flex-end', marginTop: 16 }}>
        <Pagination
          current={ctl.state.current}
          pageSize={ctl.state.size}
          total={ctl.total}
          showSizeChanger
          showQuickJumper
          pageSizeOptions={rt.listModel.pageSizes}
          showTotal={(n) => t(...totalText(ctl.reply, n))}
          onChange={ctl.setPage}
        />
      </div>
    </div>
  );
}

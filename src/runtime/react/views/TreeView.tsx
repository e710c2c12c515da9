/**
 * The `tree` view: the records of a tree document (resource.tree) as an expandable tree table. The whole tree
 * comes from `{api}/list` (records with `children`), or with `view.lazy` the roots from `lazy-list` and each
 * node's children when it is first expanded. The expand state survives refreshes and searches; `addChild` rows
 * open the add dialog with the parent filled; a search lists the matches (the server's list, as a tree).
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Button, Table } from 'antd';
import { DownOutlined, RightOutlined } from '@ant-design/icons';
import type { ScreenDocument } from '../../../shared/document.js';
import { wireKey, childRows, dictCodes, hasSearch, lazyTreeRows, listUrl, parentIds, PLACEHOLDER, recordKey, searchDefaults, searchModel, toggleKey } from '../../model/index.js';
import { useRuntime } from '../context.js';
import { useDictionaries } from '../useDictionaries.js';
import { SearchBar } from '../SearchBar.js';
import { Toolbar } from '../Toolbar.js';
import { useListController, type ListController, type Rec } from '../useListController.js';
import { useScreenActions } from '../useScreenActions.js';
import { useRecordTable, type TRow } from '../useRecordTable.js';
import type { ViewProps } from '../registry.js';

export interface TreeScreenProps {
  doc: ScreenDocument;
  /** URL prefix of this tree's state (false: in memory). */
  urlPrefix?: string | false;
}

export function TreeScreen({ doc, urlPrefix }: TreeScreenProps) {
  const { t, request } = useRuntime();
  const tree = doc.resource.tree;
  const view = doc.view?.type === 'tree' ? doc.view : { type: 'tree' as const };
  const search = useMemo(() => searchModel(doc), [doc]);
  const defaults = useMemo(() => searchDefaults(search), [search]);
  const { dicts } = useDictionaries(useMemo(() => dictCodes(doc), [doc]));
  // A lazy tree lists its roots (lazy-list), but the matches (list, as a tree) while a search is applied.
  const lazy = !!view.lazy && !!tree;
  const ctl = useListController(doc, {
    urlPrefix,
    paged: !!tree?.pagedList && !view.lazy,
    target: (state) => (lazy && tree && !hasSearch(state.search) ? { endpoint: 'lazy-list', fixed: { [tree.parentField]: tree.rootValue ?? '0' } } : { endpoint: 'list' }),
  });
  const lazyRoots = lazy && !hasSearch(ctl.state.search);

  // Children fetched on expand (lazy trees), by parent key; reloaded after a change.
  const [loaded, setLoaded] = useState<Record<string, Rec[]>>({});
  const loadedRef = useRef(loaded);
  loadedRef.current = loaded;
  const loadChildren = useCallback(
    async (key: string) => {
      if (!tree) return;
      const reply = await request<Rec[] | { records: Rec[] }>('GET', listUrl(doc, 'lazy-list'), { params: { [tree.parentField]: key } });
      const rows = Array.isArray(reply) ? reply : (reply?.records ?? []);
      setLoaded((l) => ({ ...l, [key]: rows }));
    },
    [doc, tree, request],
  );
  const refresh = ctl.refresh;
  const treeCtl: ListController = useMemo(() => {
    const records = lazyRoots ? lazyTreeRows(doc, ctl.records, loaded) : ctl.records;
    return {
      ...ctl,
      records,
      refresh: () => {
        refresh();
        for (const k of Object.keys(loadedRef.current)) void loadChildren(k).catch(() => undefined);
      },
    };
  }, [ctl, lazyRoots, doc, loaded, refresh, loadChildren]);

  const rowId = useCallback((r: Rec) => wireKey(doc, r), [doc]);
  const [expanded, setExpanded] = useState<string[]>([]);
  const didExpandAll = useRef(false);
  useEffect(() => {
    if (view.expandAll && !didExpandAll.current && treeCtl.records.length) {
      didExpandAll.current = true;
      setExpanded(parentIds(treeCtl.records, rowId));
    }
  }, [view.expandAll, treeCtl.records]);

  const actions = useScreenActions(doc, treeCtl, dicts);
  const rt = useRecordTable(doc, treeCtl, { dicts, rowItems: actions.rowItems, onRowItem: actions.onRowItem, getSubRows: childRows, paged: !!tree?.pagedList && !view.lazy });

  const onExpand = (open: boolean, row: TRow) => {
    setExpanded((keys) => toggleKey(keys, row.id, open));
    const kids = row.original.children as Rec[] | undefined;
    if (open && lazyRoots && kids?.length === 1 && kids[0][PLACEHOLDER]) void loadChildren(recordKey(doc, row.original)).catch(() => undefined);
  };

  return (
    <div className="runtime-list runtime-tree" data-screen={doc.id}>
      {actions.dialogs}
      <SearchBar model={search} dicts={dicts} defaults={defaults} values={ctl.state.search} onSearch={ctl.setSearch} />
      <Toolbar
        items={actions.toolbar}
        onItem={(i) => actions.onToolbarItem(i, rt.visibleFields())}
        onRefresh={treeCtl.refresh}
        hideable={rt.hideable}
        listModel={rt.listModel}
        extra={
          <>
            <Button onClick={() => setExpanded(parentIds(treeCtl.records, rowId))}>{t('runtime.tree.expandAll')}</Button>
            <Button onClick={() => setExpanded([])}>{t('runtime.tree.collapseAll')}</Button>
          </>
        }
      />
      <Table<TRow>
        {...rt.tableProps}
        data-testid="runtime-tree"
        rowSelection={rt.tableProps.rowSelection && { ...rt.tableProps.rowSelection, getCheckboxProps: (r) => ({ disabled: !!r.original[PLACEHOLDER] }) }}
        expandable={{
          childrenColumnName: 'subRows',
          expandedRowKeys: expanded,
          onExpand,
          expandIcon: ({ expanded: open, onExpand: toggle, record }) =>
            record.subRows?.length ? (
              <Button
                type="text"
                size="small"
                className="runtime-tree-toggle"
                aria-label={t(open ? 'runtime.tree.collapse' : 'runtime.tree.expand')}
                aria-expanded={open}
                icon={open ? <DownOutlined /> : <RightOutlined />}
                onClick={(e) => toggle(record, e)}
                style={{ marginInlineEnd: 4 }}
              />
            ) : (
              <span style={{ display: 'inline-block', width: 28 }} />
            ),
        }}
      />
    </div>
  );
}

export default function TreeView({ doc }: ViewProps) {
  return <TreeScreen doc={doc as ScreenDocument} />;
}

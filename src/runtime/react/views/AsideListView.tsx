/**
 * A list with a tree beside it (`list.aside`: users beside the department tree). Choosing a node lists the
 * records whose `aside.field` is that node (or under it, with an `under` search), and the add dialog starts with
 * it filled; choosing it again shows every record. The chosen node is kept in the URL (`node`).
 */
import { useEffect, useMemo, useState } from 'react';
import { Card, Input, Spin, Tree } from 'antd';
import type { ScreenDocument } from '../../../shared/document.js';
import { listableProperties } from '../../../shared/fields.js';
import { browserQuery, useRuntime } from '../context.js';
import { ListScreen } from '../ListScreen.js';
import type { ViewProps } from '../registry.js';
import { useTreeSource } from '../useTreeSource.js';

const NODE = 'node';

type Option = { title: string; value: string; key: string; children?: Option[] };

/** The options whose title holds `text`, with the branches that lead to them. */
function filterOptions(nodes: Option[], text: string): Option[] {
  if (!text) return nodes;
  return nodes.flatMap((n) => {
    const kids = filterOptions(n.children ?? [], text);
    return n.title.toLowerCase().includes(text.toLowerCase()) || kids.length ? [{ ...n, children: kids }] : [];
  });
}

export default function AsideListView({ doc: layoutDoc }: ViewProps) {
  const doc = layoutDoc as ScreenDocument;
  const aside = doc.list.aside!;
  const { t, query, request } = useRuntime();
  const store = query ?? browserQuery;
  const [node, setNode] = useState<string | undefined>(() => new URLSearchParams(store.get()).get(NODE) ?? undefined);
  const [filter, setFilter] = useState('');
  const { options, loading } = useTreeSource(request, aside.tree);
  const shown = useMemo(() => filterOptions(options as Option[], filter.trim()), [options, filter]);
  useEffect(() => {
    const q = new URLSearchParams(store.get());
    if ((q.get(NODE) ?? undefined) === node) return;
    if (node) q.set(NODE, node);
    else q.delete(NODE);
    const s = q.toString();
    store.replace(s ? `?${s}` : '');
  }, [node, store]);

  const choose = (key: string | undefined) => {
    // another node: the list starts again at its first page
    const q = new URLSearchParams(store.get());
    q.delete('current');
    const s = q.toString();
    store.replace(s ? `?${s}` : '');
    setNode(key);
  };
  const title = aside.title ?? listableProperties(doc)[aside.field]?.title ?? aside.field;
  return (
    <div className="runtime-aside-list" data-screen={doc.id}>
      <Card size="small" title={t(title)} className="runtime-aside" data-testid="aside-tree">
        <Input.Search allowClear size="small" placeholder={t('runtime.aside.filter')} onChange={(e) => setFilter(e.target.value)} style={{ marginBottom: 8 }} />
        {loading ? (
          <Spin style={{ display: 'block', margin: '24px auto' }} />
        ) : (
          <Tree
            blockNode
            defaultExpandAll
            treeData={shown}
            fieldNames={{ title: 'title', key: 'value', children: 'children' }}
            selectedKeys={node ? [node] : []}
            onSelect={(keys) => choose(keys.length ? String(keys[0]) : undefined)}
          />
        )}
      </Card>
      <div className="runtime-aside-main">
        <ListScreen key={node ?? ''} doc={doc} list={node ? { fixed: { [aside.field]: node } } : undefined} addInitial={node ? { [aside.field]: node } : undefined} />
      </div>
    </div>
  );
}

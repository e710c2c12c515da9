/**
 * The `master-detail` view of a layout document: the master's list beside (`horizontal`) or above (`vertical`)
 * the detail's; choosing a master row lists the detail records whose `link` field holds its key, and the
 * detail's add dialog starts with the link filled. Master and detail may be the same tree document
 * (dictionaries: `parent-list` roots, `child-list` children). The chosen master is kept in the URL (`sel`).
 */
import { useEffect, useMemo, useState } from 'react';
import { Card, Empty, Result, Spin } from 'antd';
import type { LayoutDocument, MasterDetailView as MD, ScreenDocument } from '../../../shared/document.js';
import { detailPane, masterKeyOf, masterPane, withDialogWidth } from '../../model/index.js';
import { browserQuery, useRuntime } from '../context.js';
import { ListScreen } from '../ListScreen.js';
import { useScreenDocument } from '../ScreenPage.js';
import type { ViewProps } from '../registry.js';

const SEL = 'sel';

export default function MasterDetailView({ doc }: ViewProps) {
  const { t, query } = useRuntime();
  const store = query ?? browserQuery;
  const view = (doc as LayoutDocument).view as MD;
  const m = useScreenDocument<ScreenDocument>(view.master);
  const d = useScreenDocument<ScreenDocument>(view.detail);
  const master = useMemo(() => (m.data ? withDialogWidth(m.data, view.dialogWidth) : undefined), [m.data, view.dialogWidth]);
  const detail = useMemo(() => (d.data ? withDialogWidth(d.data, view.dialogWidth) : undefined), [d.data, view.dialogWidth]);
  const [selected, setSelected] = useState<string | undefined>(() => new URLSearchParams(store.get()).get(SEL) ?? undefined);
  useEffect(() => {
    const q = new URLSearchParams(store.get());
    if ((q.get(SEL) ?? undefined) === selected) return;
    if (selected) q.set(SEL, selected);
    else q.delete(SEL);
    const s = q.toString();
    store.replace(s ? `?${s}` : '');
  }, [selected, store]);

  const choose = (key: string) => {
    if (key === selected) return;
    // Another master: the detail starts at its first page, unfiltered.
    const q = new URLSearchParams(store.get());
    for (const k of [...q.keys()]) if (k.startsWith('d.')) q.delete(k);
    const s = q.toString();
    store.replace(s ? `?${s}` : '');
    setSelected(key);
  };

  if (m.error || d.error) return <Result status="warning" title={t('common.msg.loadFailed')} />;
  if (!master || !detail) return <Spin style={{ display: 'block', margin: '80px auto' }} />;
  const mp = masterPane(view);
  const dp = detailPane(view, selected);
  const horizontal = view.layout === 'horizontal';
  return (
    <div className={`runtime-master-detail runtime-md-${view.layout}`} data-screen={doc.id}>
      <Card size="small" title={t(master.title)} className="runtime-md-master" data-testid="md-master">
        <ListScreen
          doc={master}
          list={{ endpoint: mp.endpoint, urlPrefix: 'm.' }}
          onRowClick={(row) => choose(masterKeyOf(master, row))}
          activeKey={selected}
          rowKey={(r) => masterKeyOf(master, r)}
        />
      </Card>
      <Card size="small" title={t(detail.title)} className="runtime-md-detail" data-testid="md-detail">
        {dp ? (
          <ListScreen key={selected} doc={detail} list={{ endpoint: dp.endpoint, fixed: dp.fixed, urlPrefix: 'd.' }} addInitial={dp.addInitial} />
        ) : (
          <Empty description={t(horizontal ? 'runtime.detail.pickLeft' : 'runtime.detail.pickAbove')} />
        )}
      </Card>
    </div>
  );
}

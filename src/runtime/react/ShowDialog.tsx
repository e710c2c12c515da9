/**
 * A row action with `show`: the records the action's endpoint returns for this row (e.g. the orders of a
 * settlement), read-only, drawn with the list columns of the screen document the action names — same
 * titles, dictionary labels and cell rendering as that screen's own list.
 */
import { useMemo, useState } from 'react';
import { Button, Modal, Result, Table } from 'antd';
import type { TableColumnsType } from 'antd';
import useSWR from 'swr';
import type { ActionDef, ScreenDocument } from '../../shared/document.js';
import { dictCodes, showModel, showRequest, totalText, type ListPage } from '../model/index.js';
import { useRuntime } from './context.js';
import { useDictionaries } from './useDictionaries.js';
import { useScreenDocument } from './ScreenPage.js';
import { Cell } from './Cell.js';

type Rec = Record<string, unknown>;
type Page = ListPage<Rec>;

const NO_CODES: string[] = [];

export interface ShowDialogProps {
  doc: ScreenDocument;
  action: ActionDef;
  row: Rec;
  onClose: () => void;
}

export default function ShowDialog({ doc, action, row, onClose }: ShowDialogProps) {
  const { request, t, lang } = useRuntime();
  const target = useScreenDocument<ScreenDocument>(action.show?.screen);
  const model = useMemo(() => (target.data ? showModel(action, target.data) : undefined), [action, target.data]);
  const codes = useMemo(() => (target.data ? dictCodes(target.data) : NO_CODES), [target.data]);
  const { dicts } = useDictionaries(codes);
  const [page, setPage] = useState<{ current: number; size?: number }>({ current: 1 });
  const size = page.size ?? model?.defaultPageSize ?? 10;

  const req = showRequest(doc, action, row, { current: page.current, size });
  const { data, isLoading, error } = useSWR<Page>(
    model ? ['runtime:show', req.url, JSON.stringify(req.params)] : null,
    () => request<Page>(req.method, req.url, { params: req.params }),
    { keepPreviousData: true, revalidateOnFocus: false },
  );

  const columns = useMemo<TableColumnsType<Rec>>(() => {
    if (!model) return [];
    const cols: TableColumnsType<Rec> = [];
    if (model.index) {
      cols.push({ key: '_index', title: t('common.column.index'), width: 60, align: 'center', render: (_v, _r, i) => (page.current - 1) * size + i + 1 });
    }
    for (const c of model.columns) {
      cols.push({
        key: c.field,
        dataIndex: c.field,
        title: t(c.titleKey),
        width: c.width ?? 150,
        render: (v: unknown, r: Rec) => <Cell col={c} value={v} row={r} dicts={dicts} lang={lang} />,
      });
    }
    return cols;
  }, [model, dicts, lang, t, page.current, size]);

  const failed = target.error || (!target.isLoading && !target.data);
  return (
    <Modal
      open
      title={t(action.label)}
      width={model?.width ?? 1000}
      onCancel={onClose}
      destroyOnHidden
      footer={[
        <Button key="close" onClick={onClose}>
          {t('common.action.close')}
        </Button>,
      ]}
    >
      <div data-testid="show-dialog" data-screen={action.show?.screen}>
        {failed ? (
          <Result status="warning" title={t(target.error ? 'common.msg.loadFailed' : 'common.msg.noScreen')} />
        ) : (
          <Table<Rec>
            size="small"
            bordered
            rowKey={(r) => String(r.id)}
            columns={columns}
            dataSource={error ? [] : (data?.records ?? [])}
            loading={target.isLoading || isLoading}
            scroll={{ x: 'max-content', y: 480 }}
            pagination={{
              current: page.current,
              pageSize: size,
              total: Number(data?.total ?? 0),
              showSizeChanger: true,
              pageSizeOptions: model?.pageSizes,
              showTotal: (n) => t(...totalText(data, n)),
              onChange: (current, s) => setPage((p) => ({ current: s !== (p.size ?? size) ? 1 : current, size: s })),
            }}
          />
        )}
      </div>
    </Modal>
  );
}

/**
 * A process's record (flowForm `detail/…` and `handle/…`): the document's fields read-only from
 * `{api}/detail?businessId=`, the approval history (history-flow-list), the diagram with the path taken, and —
 * handling a task — a comment and 同意 / 驳回 (complete-task); then the user's 待办事务.
 */
import { useMemo, useState } from 'react';
import { Button, Card, Input, Space, Spin, Tag, Timeline, message } from 'antd';
import useSWR from 'swr';
import type { ScreenDocument } from '../../../../shared/document.js';
import { dialogModel, dictCodes, dictLabel, listUrl, prepareFormData, type JsonObject } from '../../../model/index.js';
import { useRuntime } from '../../context.js';
import { SchemaForm } from '../../SchemaForm.js';
import { useDictionaries } from '../../useDictionaries.js';
import { DiagramCard } from './DiagramCard.js';

const HISTORY_URL = '/api/blade-flow/process/history-flow-list';
const COMPLETE_URL = '/api/blade-flow/work/complete-task';
/** Where a handled task leaves the user (the rest of their tasks). */
export const TODO_LIST = '/work/todo';

interface HistoryEntry {
  historyActivityId: string;
  historyActivityName: string;
  assigneeName?: string | null;
  createTime?: string;
  endTime?: string | null;
  outcome?: string | null;
  comment?: string | null;
}

const OUTCOME_COLOR: Record<string, string> = { approve: 'success', reject: 'error', cancelled: 'default' };

function History({ entries }: { entries: HistoryEntry[] }) {
  const { t, lang } = useRuntime();
  // the outcome's tag waits for its dictionary: never the raw key ("reject") before the label
  const { dicts, isLoading } = useDictionaries(['flow_outcome']);
  return (
    <Timeline
      data-testid="flow-history"
      items={entries.map((e) => ({
        color: e.endTime ? (e.outcome === 'reject' ? 'red' : 'green') : 'blue',
        title: e.endTime ?? e.createTime,
        content: (
          <div className="flow-history-entry">
            <strong>{e.historyActivityName}</strong> {e.assigneeName ? <span>· {e.assigneeName}</span> : null}{' '}
            {e.outcome ? (
              isLoading ? null : <Tag color={OUTCOME_COLOR[e.outcome] ?? 'default'}>{dictLabel(dicts.flow_outcome, e.outcome, lang)}</Tag>
            ) : !e.endTime ? (
              <Tag color="processing">{t('runtime.flow.pending')}</Tag>
            ) : null}
            {e.comment ? <div className="flow-history-comment">{e.comment}</div> : null}
          </div>
        ),
      }))}
    />
  );
}

function Decision({ taskId, processInstanceId, onDone }: { taskId: string; processInstanceId: string; onDone: () => void }) {
  const { t, request } = useRuntime();
  const [comment, setComment] = useState('');
  const [busy, setBusy] = useState<'ok' | 'reject' | null>(null);
  const [missing, setMissing] = useState(false);
  const send = async (flag: 'ok' | 'reject') => {
    // a rejection says why
    if (flag === 'reject' && !comment.trim()) return setMissing(true);
    setBusy(flag);
    try {
      await request('POST', COMPLETE_URL, { data: { taskId, processInstanceId, flag, comment: comment.trim() } });
      onDone();
    } catch {
      /* the web client has shown the refusal */
    } finally {
      setBusy(null);
    }
  };
  return (
    <Card size="small" title={t('runtime.flow.decision')} className="flow-form-card" data-testid="flow-decision">
      <Input.TextArea
        value={comment}
        rows={3}
        maxLength={1000}
        showCount
        status={missing ? 'error' : undefined}
        placeholder={t('runtime.flow.commentPlaceholder')}
        onChange={(e) => {
          setComment(e.target.value);
          setMissing(false);
        }}
        data-testid="flow-comment"
      />
      {missing && <div className="ant-form-item-explain-error">{t('runtime.flow.commentRequired')}</div>}
      <Space style={{ marginTop: 12 }}>
        <Button type="primary" loading={busy === 'ok'} disabled={!!busy} onClick={() => void send('ok')}>{t('runtime.flow.approve')}</Button>
        <Button danger loading={busy === 'reject'} disabled={!!busy} onClick={() => void send('reject')}>{t('runtime.flow.reject')}</Button>
        <Button onClick={() => window.history.back()}>{t('runtime.flow.back')}</Button>
      </Space>
    </Card>
  );
}

export function FlowRecord({ doc, processInstanceId, businessId, taskId }: { doc: ScreenDocument; processInstanceId: string; businessId: string; taskId?: string }) {
  const { t, request, navigate } = useRuntime();
  const model = useMemo(() => dialogModel(doc, 'view', t), [doc, t]);
  const { dicts } = useDictionaries(useMemo(() => dictCodes(doc), [doc]));
  const [toast, toastHolder] = message.useMessage();
  const record = useSWR(['runtime:flow-record', listUrl(doc, 'detail'), businessId], ([, url, id]: [string, string, string]) => request<JsonObject>('GET', url, { params: { businessId: id } }), { revalidateOnFocus: false });
  const history = useSWR(['runtime:flow-history', processInstanceId], ([, id]: [string, string]) => request<HistoryEntry[]>('GET', HISTORY_URL, { params: { processInstanceId: id } }), { revalidateOnFocus: false });
  const initial = useMemo(() => prepareFormData(doc, record.data), [doc, record.data]);
  const done = () => {
    void toast.success(t('runtime.flow.handled'));
    navigate?.(TODO_LIST);
  };
  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }}>
      {toastHolder}
      <Card title={t(doc.title)} className="flow-form-card" data-testid="flow-record">
        {record.data ? (
          <div style={{ maxWidth: model.width }}>
            <SchemaForm doc={doc} model={model} initial={initial} dicts={dicts} readonly />
          </div>
        ) : record.error ? null : (
          <Spin style={{ display: 'block', margin: '40px auto' }} />
        )}
      </Card>
      <Card size="small" title={t('runtime.flow.history')} className="flow-form-card">
        {history.data ? <History entries={history.data} /> : history.error ? null : <Spin />}
      </Card>
      {taskId && <Decision taskId={taskId} processInstanceId={processInstanceId} onDone={done} />}
      <DiagramCard params={{ processInstanceId }} />
    </Space>
  );
}

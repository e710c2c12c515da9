/**
 * Starting a process (flowForm `form/:processDefinitionId`): the document's editable fields in its own form,
 * checked as the server checks them, sent to `{api}/start-process`; then the user's 已发事务.
 */
import { useMemo, useRef, useState } from 'react';
import { Button, Card, Space, message } from 'antd';
import type { ScreenDocument } from '../../../../shared/document.js';
import { dialogModel, dictCodes, listUrl, prepareFormData, serverFieldErrors, submitPayload } from '../../../model/index.js';
import { errorData, useRuntime } from '../../context.js';
import { SchemaForm, type SchemaFormHandle } from '../../SchemaForm.js';
import { useDictionaries } from '../../useDictionaries.js';
import { DiagramCard } from './DiagramCard.js';

/** Where a started process is found (the work list of processes one started). */
export const SENT_LIST = '/work/send';

export function FlowStart({ doc, processDefinitionId }: { doc: ScreenDocument; processDefinitionId: string }) {
  const { t, request, navigate } = useRuntime();
  const model = useMemo(() => dialogModel(doc, 'add', t), [doc, t]);
  const initial = useMemo(() => prepareFormData(doc, {}), [doc]);
  const { dicts } = useDictionaries(useMemo(() => dictCodes(doc), [doc]));
  const form = useRef<SchemaFormHandle>(null);
  const [busy, setBusy] = useState(false);
  const [serverErrors, setServerErrors] = useState<Record<string, { __errors: string[] }>>();
  const [toast, toastHolder] = message.useMessage();

  const submit = async () => {
    const data = form.current?.submit();
    if (!data) return;
    setBusy(true);
    try {
      await request('POST', listUrl(doc, 'start-process'), { data: { ...submitPayload(doc, 'add', data), processDefinitionId } });
      void toast.success(t('runtime.flow.started'));
      navigate?.(SENT_LIST);
    } catch (e) {
      setServerErrors(serverFieldErrors(errorData(e), t));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }}>
      {toastHolder}
      <Card title={t(doc.title)} className="flow-form-card" data-testid="flow-start-form">
        <div style={{ maxWidth: model.width }}>
          <SchemaForm ref={form} doc={doc} model={model} initial={initial} dicts={dicts} serverErrors={serverErrors} onChange={() => serverErrors && setServerErrors(undefined)} />
          <Space>
            <Button type="primary" loading={busy} onClick={() => void submit()}>{t('common.action.submit')}</Button>
            <Button onClick={() => window.history.back()}>{t('runtime.flow.back')}</Button>
          </Space>
        </div>
      </Card>
      <DiagramCard params={{ processDefinitionId }} />
    </Space>
  );
}

/** A named action that asks for input first (its `form`): the same form machinery, then the action call. */
import { useMemo, useRef, useState } from 'react';
import { Button, Modal } from 'antd';
import type { ActionDef, ScreenDocument } from '../../shared/document.js';
import { actionFormDoc, actionRequest, dialogModel, serverFieldErrors, submitPayload, type DictMap } from '../model/index.js';
import { errorData, useRuntime } from './context.js';
import { SchemaForm, type SchemaFormHandle } from './SchemaForm.js';

export interface ActionDialogProps {
  doc: ScreenDocument;
  action: ActionDef;
  row?: Record<string, unknown>;
  ids?: string[];
  dicts: DictMap;
  onClose: () => void;
  onDone: () => void;
}

export default function ActionDialog({ doc, action, row, ids, dicts, onClose, onDone }: ActionDialogProps) {
  const { request, t } = useRuntime();
  const formDoc = useMemo(() => actionFormDoc(doc, action.name, action.form!), [doc, action]);
  const model = useMemo(() => dialogModel(formDoc, 'add', t), [formDoc, t]);
  const form = useRef<SchemaFormHandle>(null);
  const [saving, setSaving] = useState(false);
  const [serverErrors, setServerErrors] = useState<Record<string, { __errors: string[] }>>();

  const go = async () => {
    const data = form.current?.submit();
    if (!data) return;
    const body = submitPayload(formDoc, 'add', data);
    const files = form.current?.files() ?? {};
    setSaving(true);
    try {
      const r = actionRequest(doc, action, { row, ids }, body);
      if (Object.keys(files).length) {
        const fd = new FormData();
        for (const [k, v] of Object.entries({ ...r.params, ...body })) if (v !== undefined && v !== null && !(k in files)) fd.append(k, String(v));
        for (const [k, f] of Object.entries(files)) fd.append(k, f);
        await request('POST', r.url, { params: r.params, data: fd });
      } else {
        await request(r.method, r.url, { params: r.params, data: r.data });
      }
      onDone();
    } catch (e) {
      setServerErrors(serverFieldErrors(errorData(e), t));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open
      title={t(action.label)}
      width={model.width}
      onCancel={onClose}
      destroyOnHidden
      maskClosable={false}
      footer={[
        <Button key="cancel" onClick={onClose}>
          {t('common.action.cancel')}
        </Button>,
        <Button key="ok" type="primary" loading={saving} onClick={() => void go()}>
          {t('common.action.ok')}
        </Button>,
      ]}
    >
      <SchemaForm ref={form} doc={formDoc} model={model} initial={{}} dicts={dicts} serverErrors={serverErrors} />
    </Modal>
  );
}

/** The add / edit / view dialog of a screen (lazy chunk: rjsf, ajv and the form widgets live here). */
import { useMemo, useRef, useState } from 'react';
import { Button, Modal, Spin } from 'antd';
import useSWR from 'swr';
import type { Mode, ScreenDocument } from '../../shared/document.js';
import { dialogModel, listUrl, wireKeyField, prepareFormData, serverFieldErrors, submitPayload, type DictMap, type JsonObject } from '../model/index.js';
import { errorData, useRuntime } from './context.js';
import { SchemaForm, type SchemaFormHandle } from './SchemaForm.js';

export interface FormDialogProps {
  doc: ScreenDocument;
  mode: Mode;
  id?: string;
  /** Add mode: fields the new record starts with (a child's parent, a detail's master). */
  initial?: JsonObject;
  dicts: DictMap;
  onClose: () => void;
  onSaved: (mode: Mode) => void;
}

export default function FormDialog({ doc, mode, id, initial: startWith, dicts, onClose, onSaved }: FormDialogProps) {
  const { request, t } = useRuntime();
  const model = useMemo(() => dialogModel(doc, mode, t), [doc, mode, t]);
  // A fresh key per opening, so the dialog always shows the record as it is now.
  const [opened] = useState(() => Date.now());
  const { data: record, error } = useSWR(
    mode !== 'add' && id ? ['runtime:detail', listUrl(doc, 'detail'), id, opened] : null,
    ([, url, rid]: [string, string, string, number]) => request<JsonObject>('GET', url, { params: { [wireKeyField(doc)]: rid } }),
    { revalidateOnFocus: false, revalidateIfStale: false, revalidateOnReconnect: false },
  );
  const ready = mode === 'add' || !!record;
  const initial = useMemo(() => (mode === 'add' ? prepareFormData(doc, startWith) : prepareFormData(doc, record)), [doc, mode, record, startWith]);
  const form = useRef<SchemaFormHandle>(null);
  const [saving, setSaving] = useState(false);
  const [serverErrors, setServerErrors] = useState<Record<string, { __errors: string[] }>>();

  const save = async () => {
    if (mode === 'view') return;
    const data = form.current?.submit();
    if (!data) return;
    setSaving(true);
    try {
      // A child's parent / a detail's master is sent even when the dialog does not show that field.
      const payload = { ...(mode === 'add' ? (startWith ?? {}) : {}), ...submitPayload(doc, mode, data) };
      await request('POST', listUrl(doc, 'submit'), { data: payload });
      onSaved(mode);
    } catch (e) {
      setServerErrors(serverFieldErrors(errorData(e), t));
    } finally {
      setSaving(false);
    }
  };

  const footer =
    mode === 'view'
      ? [<Button key="close" onClick={onClose}>{t('common.action.close')}</Button>]
      : [
          <Button key="cancel" onClick={onClose}>
            {t('common.action.cancel')}
          </Button>,
          <Button key="ok" type="primary" loading={saving} disabled={!ready} onClick={() => void save()}>
            {t('common.action.ok')}
          </Button>,
        ];

  return (
    <Modal open title={t(model.titleKey)} width={model.width} onCancel={onClose} footer={footer} destroyOnHidden maskClosable={false} data-testid="runtime-dialog">
      {error ? null : !ready ? (
        <Spin style={{ display: 'block', margin: '40px auto' }} />
      ) : (
        <SchemaForm
          ref={form}
          doc={doc}
          model={model}
          initial={initial}
          dicts={dicts}
          readonly={mode === 'view'}
          serverErrors={serverErrors}
          onChange={() => serverErrors && setServerErrors(undefined)}
        />
      )}
    </Modal>
  );
}

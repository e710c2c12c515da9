/** A named action that asks for input first (its `form`): the same form machinery, then the action call. */
import { useEffect, useMemo, useRef, useState } from 'react';
import { Alert, Button, Modal, Spin } from 'antd';
import useSWR from 'swr';
import type { ActionDef, ScreenDocument } from '../../shared/document.js';
import { allProperties } from '../../shared/fields.js';
import { actionFormDoc, actionRequest, dialogModel, listUrl, serverFieldErrors, submitPayload, type DictMap, type JsonObject } from '../model/index.js';
import { errorData, useRuntime } from './context.js';
import { SchemaForm, validator, type SchemaFormHandle } from './SchemaForm.js';

export interface ActionDialogProps {
  doc: ScreenDocument;
  action: ActionDef;
  row?: Record<string, unknown>;
  ids?: string[];
  dicts: DictMap;
  onClose: () => void;
  /** Called with the action's reply (the R envelope's data). */
  onDone: (reply?: unknown) => void;
}

export default function ActionDialog({ doc, action, row, ids, dicts, onClose, onDone }: ActionDialogProps) {
  const { request, t } = useRuntime();
  const formDoc = useMemo(() => actionFormDoc(doc, action.name, action.form!), [doc, action]);
  const model = useMemo(() => dialogModel(formDoc, 'add', t), [formDoc, t]);
  const form = useRef<SchemaFormHandle>(null);
  const [saving, setSaving] = useState(false);
  const [serverErrors, setServerErrors] = useState<Record<string, { __errors: string[] }>>();
  // Errors that name a row of an uploaded file (import): shown as a report, since they are not form fields.
  const [rowErrors, setRowErrors] = useState<RowError[]>();

  // A field with `ui:options.preview` (endpoint under resource.api): while the form is valid, the dialog asks
  // the server what the action would do and shows it with `<section>.msg.previewDone` (e.g. the batch
  // recharge: count, amount, total) before the user confirms.
  const previewEndpoint = useMemo(() => {
    for (const f of model.order) {
      const p = ((model.uiSchema[f] as JsonObject | undefined)?.['ui:options'] as JsonObject | undefined)?.preview;
      if (typeof p === 'string') return p;
    }
    return undefined;
  }, [model]);
  const [values, setValues] = useState<JsonObject>({});
  // `form.initial`: the values the form starts with, read from the server (a role's current grants)
  const initialSource = action.form?.initial;
  const subject = ids?.length ? ids.join(',') : row?.id !== undefined ? String(row.id) : '';
  const { data: initialReply, error: initialError } = useSWR(initialSource && subject ? ['runtime:action-initial', initialSource.endpoint, subject] : null, () =>
    request<Record<string, unknown>>('GET', initialSource!.endpoint, { params: { [initialSource!.param]: subject } }),
  );
  const initial = useMemo(() => (initialSource ? initialValues(initialSource.fields, initialReply) : {}), [initialSource, initialReply]);
  const initialReady = !initialSource || !subject || initialReply !== undefined || !!initialError;
  const [preview, setPreview] = useState<JsonObject>();
  useEffect(() => {
    setPreview(undefined);
    if (!previewEndpoint) return;
    if (validator.validateFormData(values, model.schema as never).errors.length) return;
    let live = true;
    const timer = setTimeout(() => {
      const body = submitPayload(formDoc, 'add', values);
      request<JsonObject>('POST', listUrl(doc, previewEndpoint), { data: { ...body, ...(ids ? { ids: ids.join(',') } : {}) } })
        .then((r) => live && setPreview(r))
        .catch(() => undefined);
    }, 300);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [previewEndpoint, values, model, formDoc, doc, ids, request]);

  const go = async () => {
    const data = form.current?.submit();
    if (!data) return;
    const body = submitPayload(formDoc, 'add', data);
    const files = form.current?.files() ?? {};
    setSaving(true);
    setRowErrors(undefined);
    let reply: unknown;
    try {
      const r = actionRequest(doc, action, { row, ids }, body);
      if (Object.keys(files).length) {
        const fd = new FormData();
        for (const [k, v] of Object.entries({ ...r.params, ...body })) if (v !== undefined && v !== null && !(k in files)) fd.append(k, String(v));
        for (const [k, f] of Object.entries(files)) fd.append(k, f);
        reply = await request('POST', r.url, { params: r.params, data: fd });
      } else {
        reply = await request(r.method, r.url, { params: r.params, data: r.data });
      }
      onDone(reply);
    } catch (e) {
      const rows = rowErrorsOf(errorData(e));
      if (rows.length) setRowErrors(rows);
      else setServerErrors(serverFieldErrors(errorData(e), t));
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
        <Button key="ok" type="primary" loading={saving} disabled={!initialReady} onClick={() => void go()}>
          {t('common.action.ok')}
        </Button>,
      ]}
    >
      {/* An action with both a form and a confirm: the dialog is the confirmation (its OK runs the action). */}
      {action.confirm && (
        <p data-testid="action-confirm" style={{ marginBottom: 16 }}>
          {t(action.confirm)}
        </p>
      )}
      {initialReady ? (
        <SchemaForm ref={form} doc={formDoc} model={model} initial={initial} dicts={dicts} serverErrors={serverErrors} onChange={previewEndpoint ? setValues : undefined} />
      ) : (
        <Spin data-testid="action-initial-loading" />
      )}
      {preview && (
        <Alert type="info" showIcon data-testid="action-preview" title={t(`${doc.title.split('.')[0]}.msg.previewDone`, preview)} />
      )}
      {rowErrors && (
        <Alert
          type="error"
          showIcon
          data-testid="action-row-errors"
          title={t('common.import.rowErrors', { count: new Set(rowErrors.map((r) => r.row)).size })}
          description={
            <ul style={{ margin: 0, paddingInlineStart: 18, maxHeight: 240, overflow: 'auto' }}>
              {rowErrors.map((r, i) => {
                const title = r.field ? allProperties(doc.schema)[r.field]?.title : undefined;
                return (
                  <li key={i}>
                    {t('common.import.row', { row: r.row })}
                    {title ? ` · ${t(title)}` : r.field ? ` · ${r.field}` : ''}：{r.message}
                  </li>
                );
              })}
            </ul>
          }
        />
      )}
    </Modal>
  );
}

/** Form values from the `initial` reply: each field from its property, an array joined with commas. */
export function initialValues(fields: Record<string, string>, reply: Record<string, unknown> | undefined): JsonObject {
  const out: JsonObject = {};
  if (!reply || typeof reply !== 'object') return out;
  for (const [field, prop] of Object.entries(fields)) {
    const v = reply[prop];
    if (Array.isArray(v)) {
      if (v.length) out[field] = v.map(String).join(',');
    } else if (v !== undefined && v !== null && v !== '') out[field] = v as JsonObject[string];
  }
  return out;
}

interface RowError {
  row: number;
  field?: string;
  message: string;
}

/** `{errors: [{row, field?, message}]}` from a file the server read row by row (already in the user's language). */
export function rowErrorsOf(data: unknown): RowError[] {
  const list = data && typeof data === 'object' && Array.isArray((data as { errors?: unknown }).errors) ? ((data as { errors: unknown[] }).errors) : [];
  return list.filter((e): e is RowError => !!e && typeof e === 'object' && typeof (e as RowError).row === 'number' && typeof (e as RowError).message === 'string');
}

/**
 * Our rjsf widget registry (names match `WIDGETS` of the dialog model). Widgets read dictionaries, the
 * language, `t` and `request` from the form context, so they share the screen's single dictionary load.
 */
import { lazy, Suspense, useEffect, useRef, useState, type ComponentType } from 'react';
import { isLazy, registerWidget, widgetRegistry } from './registry.js';
import { Button, DatePicker, Image, Input, InputNumber, Select, Typography, Upload, message } from 'antd';
import type { UploadFile } from 'antd';
import { UploadOutlined, PlusOutlined } from '@ant-design/icons';
import dayjs from 'dayjs';
import useSWR from 'swr';
import type { ObjectFieldTemplateProps, RegistryWidgetsType, WidgetProps } from '@rjsf/utils';
import { Col, Grid, Row } from 'antd';
import { isNarrow } from './responsive.js';
import type { ScreenDocument } from '../../shared/document.js';
import { dictLabel, dictOptions, listUrl, type DictMap, type Translate } from '../model/index.js';
import type { RequestFn } from './context.js';
// The BPMN designer field: a thin wrapper that lazy-loads the designer (bpmn-js stays in the workflow chunks).
import BpmnWidget from './bpmn/BpmnWidget.js';

/** What the dialog puts in rjsf's formContext. */
export interface RuntimeFormContext {
  dicts: DictMap;
  lang: string;
  t: Translate;
  request: RequestFn;
  /** Files chosen in `file` widgets, by field (sent as multipart by action dialogs). */
  files: Record<string, File>;
  readonlyAsDisabled: boolean;
  labelCol: object;
  wrapperCol: object;
  /** The form's current values (choices that depend on another field, e.g. `sources[].when`). */
  formData?: Record<string, unknown>;
  /** The document's resource.api (endpoints a widget names relative to it: the cron widget's preview). */
  api?: string;
}

const FULL = { width: '100%' };

function ctx(props: WidgetProps): RuntimeFormContext {
  return props.registry.formContext as RuntimeFormContext;
}

function ReadonlyText({ id, text }: { id: string; text: string }) {
  return <Input id={id} readOnly value={text} variant="filled" />;
}

function DictWidget(props: WidgetProps) {
  const { id, value, onChange, onBlur, onFocus, disabled, readonly, options, placeholder, schema } = props;
  const { dicts, lang } = ctx(props);
  const items = dicts[String(options.dictCode)];
  const multiple = schema.type === 'array';
  if (readonly) return <ReadonlyText id={id} text={dictLabel(items, value, lang)} />;
  return (
    <Select
      id={id}
      style={FULL}
      allowClear
      mode={multiple ? 'multiple' : undefined}
      disabled={disabled}
      placeholder={placeholder}
      value={value ?? undefined}
      options={dictOptions(items, lang, !!options.numeric)}
      onChange={(v) => onChange(v === null || (Array.isArray(v) && !v.length) ? undefined : v)}
      onBlur={() => onBlur(id, value)}
      onFocus={() => onFocus(id, value)}
    />
  );
}

function PasswordWidget({ id, value, onChange, onBlur, onFocus, disabled, readonly, placeholder }: WidgetProps) {
  return (
    <Input.Password
      id={id}
      variant={readonly ? 'filled' : undefined}
      autoComplete="new-password"
      disabled={disabled}
      readOnly={readonly}
      placeholder={placeholder}
      value={value ?? ''}
      onChange={(e) => onChange(e.target.value === '' ? undefined : e.target.value)}
      onBlur={() => onBlur(id, value)}
      onFocus={() => onFocus(id, value)}
    />
  );
}

function NumberWidget({ id, value, onChange, onBlur, onFocus, disabled, readonly, placeholder, options, schema }: WidgetProps) {
  const precision = typeof options.precision === 'number' ? options.precision : schema.type === 'integer' ? 0 : undefined;
  return (
    <InputNumber
      id={id}
      style={FULL}
      variant={readonly ? 'filled' : undefined}
      disabled={disabled}
      readOnly={readonly}
      placeholder={placeholder}
      precision={precision}
      suffix={typeof options.suffix === 'string' ? options.suffix : undefined}
      value={value ?? null}
      onChange={(v) => onChange(v === null || v === undefined || v === '' ? undefined : Number(v))}
      onBlur={() => onBlur(id, value)}
      onFocus={() => onFocus(id, value)}
    />
  );
}

function TextareaWidget({ id, value, onChange, onBlur, onFocus, disabled, readonly, placeholder, options }: WidgetProps) {
  const max = typeof options.maxLength === 'number' ? options.maxLength : undefined;
  return (
    <Input.TextArea
      id={id}
      variant={readonly ? 'filled' : undefined}
      rows={typeof options.rows === 'number' ? options.rows : 3}
      disabled={disabled}
      readOnly={readonly}
      placeholder={placeholder}
      value={value ?? ''}
      // A counter that shows the limit but does not cut the text, so the length message can show.
      count={options.counter && !readonly ? { show: true, max } : undefined}
      onChange={(e) => onChange(e.target.value === '' ? undefined : e.target.value)}
      onBlur={() => onBlur(id, value)}
      onFocus={() => onFocus(id, value)}
    />
  );
}

function TextWidget({ id, value, onChange, onBlur, onFocus, disabled, readonly, placeholder, schema }: WidgetProps) {
  return (
    <Input
      id={id}
      disabled={disabled}
      readOnly={readonly}
      variant={readonly ? 'filled' : undefined}
      placeholder={placeholder}
      value={value ?? ''}
      onChange={(e) => {
        const v = e.target.value;
        if (v === '') return onChange(undefined);
        onChange(schema.type === 'number' || schema.type === 'integer' ? (Number.isFinite(Number(v)) ? Number(v) : v) : v);
      }}
      onBlur={() => onBlur(id, value)}
      onFocus={() => onFocus(id, value)}
    />
  );
}

function pickerWidget(format: string, extra: { showTime?: boolean; picker?: 'month' }) {
  return function PickerWidget({ id, value, onChange, onBlur, onFocus, disabled, readonly, placeholder }: WidgetProps) {
    if (readonly) return <ReadonlyText id={id} text={value ?? ''} />;
    const v = value ? dayjs(String(value), format) : null;
    return (
      <DatePicker
        id={id}
        style={FULL}
        format={format}
        showTime={extra.showTime}
        picker={extra.picker}
        disabled={disabled}
        placeholder={placeholder}
        value={v && v.isValid() ? v : null}
        onChange={(d) => onChange(d ? d.format(format) : undefined)}
        onBlur={() => onBlur(id, value)}
        onFocus={() => onFocus(id, value)}
        onOpenChange={(open) => {
          if (!open) onBlur(id, value);
        }}
      />
    );
  };
}

/** A pair of dates (or date-times) stored as a two-item array, e.g. a contract period or a banner's online period. */
function rangeWidget(f: string, showTime: boolean) {
  return function RangeWidget(props: WidgetProps) {
    const { id, value, onChange, onBlur, disabled, readonly } = props;
    const { t } = ctx(props);
    const pair = Array.isArray(value) ? value : [];
    if (readonly) return <ReadonlyText id={id} text={pair.filter(Boolean).join(' ~ ')} />;
    return (
      <DatePicker.RangePicker
        id={id}
        style={FULL}
        format={f}
        showTime={showTime}
        disabled={disabled}
        placeholder={[t('common.placeholder.start'), t('common.placeholder.end')]}
        value={pair[0] && pair[1] ? [dayjs(pair[0], f), dayjs(pair[1], f)] : null}
        onChange={(d) => onChange(d && d[0] && d[1] ? [d[0].format(f), d[1].format(f)] : undefined)}
        onOpenChange={(open) => {
          if (!open) onBlur(id, value);
        }}
        onBlur={() => onBlur(id, value)}
      />
    );
  };
}

/** A value the form carries but never shows (e.g. the target status of an action form). */
function HiddenWidget({ id, value }: WidgetProps) {
  return <input type="hidden" id={id} value={value === undefined || value === null ? '' : String(value)} />;
}

/** Accept list check: MIME type, or extension when the browser gives no type. */
export function acceptable(file: { type?: string; name?: string }, accept: unknown): boolean {
  if (!Array.isArray(accept) || !accept.length) return true;
  const type = (file.type ?? '').toLowerCase();
  const name = (file.name ?? '').toLowerCase();
  const ext = name.includes('.') ? name.slice(name.lastIndexOf('.') + 1) : '';
  const byExt: Record<string, string> = { pdf: 'application/pdf', png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' };
  // a MIME type (image/png), a family (image/*) or a file extension (.bpmn: files browsers give no type)
  return accept.some((a) => a === type || a === byExt[ext] || (typeof a === 'string' && ((a.endsWith('/*') && type.startsWith(a.slice(0, -1))) || (a.startsWith('.') && a.toLowerCase() === `.${ext}`))));
}

/** Why a picked file is refused before sending (i18n key), or null: the document's accept list and max size. */
export function uploadRefusal(file: { type?: string; name?: string; size: number }, options: WidgetProps['options']): string | null {
  if (!acceptable(file, options.accept)) return 'common.upload.type';
  if (typeof options.maxSize === 'number' && file.size > options.maxSize) return 'common.upload.size';
  return null;
}

function isImageField(options: WidgetProps['options']): boolean {
  return options.listType === 'picture-card' || (Array.isArray(options.accept) && options.accept.every((a) => String(a).startsWith('image/')));
}

function UploadWidget(props: WidgetProps) {
  const { id, value, onChange, onBlur, disabled, readonly, options } = props;
  const { t, request } = ctx(props);
  const [toast, holder] = message.useMessage();
  const [busy, setBusy] = useState(false);
  const image = isImageField(options);
  const link = typeof value === 'string' && value ? value : undefined;
  if (readonly) {
    if (!link) return <ReadonlyText id={id} text="" />;
    return image ? (
      <Image id={id} src={link} width={96} alt="" />
    ) : (
      <Typography.Link id={id} href={link} target="_blank">
        {decodeURIComponent(link.split('/').pop() ?? link)}
      </Typography.Link>
    );
  }
  const fileList: UploadFile[] = link ? [{ uid: link, name: decodeURIComponent(link.split('/').pop() ?? link), url: link, status: 'done' }] : [];
  const endpoint = String(options.endpoint ?? 'put-file-attach');
  const url = `/api/blade-resource/oss/endpoint/${endpoint}?screen=${encodeURIComponent(String(options.screen ?? ''))}&field=${encodeURIComponent(String(options.field ?? ''))}`;
  return (
    <div id={id}>
      {holder}
      <Upload
        accept={Array.isArray(options.accept) ? options.accept.join(',') : undefined}
        listType={image ? 'picture-card' : 'text'}
        maxCount={1}
        disabled={disabled || busy}
        fileList={fileList}
        beforeUpload={(file) => {
          const refused = uploadRefusal(file, options);
          if (refused) {
            void toast.error(t(refused));
            return Upload.LIST_IGNORE;
          }
          return true;
        }}
        customRequest={async ({ file, onSuccess, onError }) => {
          setBusy(true);
          try {
            const fd = new FormData();
            fd.append('file', file as Blob);
            const r = await request<{ link?: string; url?: string; name?: string }>('POST', url, { data: fd });
            const l = r?.link ?? r?.url;
            onChange(l || undefined);
            onBlur(id, l);
            onSuccess?.(r);
          } catch (e) {
            onError?.(e as Error);
          } finally {
            setBusy(false);
          }
        }}
        onRemove={() => {
          onChange(undefined);
          onBlur(id, undefined);
        }}
      >
        {fileList.length ? null : image ? (
          <div>
            <PlusOutlined />
            <div style={{ marginTop: 4 }}>{t('common.upload.button')}</div>
          </div>
        ) : (
          <Button icon={<UploadOutlined />}>{t('common.upload.button')}</Button>
        )}
      </Upload>
      {typeof options.tip === 'string' && <Typography.Text type="secondary">{options.tip}</Typography.Text>}
    </div>
  );
}

/** A file chosen for an action (import): the name is the value, the File waits in the form context. */
function FileWidget(props: WidgetProps) {
  const { id, value, onChange, onBlur, disabled, options } = props;
  const { t, files } = ctx(props);
  const [toast, holder] = message.useMessage();
  const field = String(options.field ?? 'file');
  const fileList: UploadFile[] = value ? [{ uid: String(value), name: String(value), status: 'done' }] : [];
  return (
    <div id={id}>
      {holder}
      <Upload
        accept={Array.isArray(options.accept) ? options.accept.join(',') : undefined}
        maxCount={1}
        disabled={disabled}
        fileList={fileList}
        beforeUpload={(file) => {
          const refused = uploadRefusal(file, options);
          if (refused) {
            void toast.error(t(refused));
            return Upload.LIST_IGNORE;
          }
          files[field] = file;
          onChange(file.name);
          onBlur(id, file.name);
          return false;
        }}
        onRemove={() => {
          delete files[field];
          onChange(undefined);
        }}
      >
        {fileList.length ? null : <Button icon={<UploadOutlined />}>{t('common.upload.button')}</Button>}
      </Upload>
      {typeof options.tip === 'string' && <Typography.Text type="secondary">{options.tip}</Typography.Text>}
    </div>
  );
}

function JsonWidget({ id, value, onChange, onBlur, readonly, schema }: WidgetProps) {
  let text = '';
  if (typeof value === 'string') {
    try {
      text = JSON.stringify(JSON.parse(value), null, 2);
    } catch {
      text = value;
    }
  } else if (value !== undefined && value !== null) text = JSON.stringify(value, null, 2);
  if (readonly) {
    return (
      <pre id={id} style={{ maxHeight: 280, overflow: 'auto', margin: 0, padding: 8, background: 'rgba(0,0,0,0.03)', borderRadius: 6 }}>
        {text}
      </pre>
    );
  }
  return (
    <Input.TextArea
      id={id}
      rows={6}
      defaultValue={text}
      onBlur={(e) => {
        const raw = e.target.value;
        let v: unknown = raw === '' ? undefined : raw;
        if (schema.type === 'object' && raw) {
          try {
            v = JSON.parse(raw);
          } catch {
            /* left as text: validation reports the type */
          }
        }
        onChange(v);
        onBlur(id, v);
      }}
    />
  );
}

/** The server caps a page at 200 records: ask for what it gives. */
export const SOURCE_PAGE_SIZE = 200;

type Source = { screen?: string; url?: string; value: string; label: string; when?: Record<string, unknown> };

/** The source that applies to these form values: `source`, or the first of `sources` whose `when` holds. */
export function pickSource(options: Record<string, unknown>, data: Record<string, unknown>): Source | undefined {
  const all = Array.isArray(options.sources) ? (options.sources as Source[]) : options.source ? [options.source as Source] : [];
  return all.find((s) => !s.when || Object.entries(s.when).every(([k, v]) => data[k] !== undefined && data[k] !== null && String(data[k]) === String(v)));
}

/**
 * Select whose options come from another screen's list (`ui:options.source.screen`, or `sources` chosen by `when`),
 * or from an endpoint answering an array (`source.url`: the job handlers).
 */
function SourceSelectWidget(props: WidgetProps) {
  const { id, value, onChange, onBlur, disabled, readonly, placeholder, options, schema } = props;
  const { request, formData } = ctx(props);
  const source = pickSource(options, formData ?? {});
  const sourceKey = source?.screen ?? source?.url;
  // When another field switches the source (msgType merchant ↔ employee), the old choice no longer applies.
  const shown = useRef(sourceKey);
  useEffect(() => {
    if (shown.current === sourceKey) return;
    shown.current = sourceKey;
    if (value !== undefined && value !== null) onChange(undefined);
  }, [sourceKey, value, onChange]);
  const { data: doc } = useSWR(source?.screen ? ['runtime:screen', source.screen] : null, ([, sid]: [string, string]) =>
    request<ScreenDocument>('GET', '/api/blade-system/screen/detail', { params: { id: sid } }),
  );
  const { data: page } = useSWR(doc ? ['runtime:source', listUrl(doc, 'list')] : null, ([, u]: [string, string]) =>
    request<{ records: Array<Record<string, unknown>> }>('GET', u, { params: { current: 1, size: SOURCE_PAGE_SIZE } }),
  );
  const { data: listed } = useSWR(source?.url ? ['runtime:source-url', source.url] : null, ([, u]: [string, string]) => request<Array<Record<string, unknown>>>('GET', u));
  const opts = (source?.url ? (listed ?? []) : (page?.records ?? [])).map((r) => ({ value: String(r[source?.value ?? 'id']), label: String(r[source?.label ?? 'id'] ?? '') }));
  // several values in a comma-joined string field (x-joined: a user's posts "1,2")
  const joined = !!options.multiple && schema.type === 'string';
  const shownValue = joined ? String(value ?? '').split(',').filter(Boolean) : (value ?? undefined);
  return (
    <Select
      id={id}
      style={FULL}
      allowClear
      showSearch={{ optionFilterProp: 'label' }}
      mode={schema.type === 'array' || options.multiple ? 'multiple' : undefined}
      disabled={disabled || readonly}
      placeholder={placeholder}
      value={shownValue}
      options={opts}
      onChange={(v) => onChange(v === null || (Array.isArray(v) && !v.length) ? undefined : joined && Array.isArray(v) ? v.join(',') : v)}
      onBlur={() => onBlur(id, value)}
    />
  );
}

/**
 * A Quartz cron expression (seconds first) with its next five run times below it, asked of the server
 * (`ui:options.preview`, an endpoint under resource.api answering the times, or 400 with why the expression is wrong).
 */
function CronWidget(props: WidgetProps) {
  const { id, value, onChange, onBlur, disabled, readonly, placeholder, options } = props;
  const { request, api, t } = ctx(props);
  const [text, setText] = useState(String(value ?? ''));
  useEffect(() => setText(String(value ?? '')), [value]);
  const [asked, setAsked] = useState(String(value ?? ''));
  useEffect(() => {
    const timer = setTimeout(() => setAsked(text.trim()), 300);
    return () => clearTimeout(timer);
  }, [text]);
  const url = options.preview && api ? `${api}/${String(options.preview)}` : undefined;
  const { data, error } = useSWR(url && asked ? ['runtime:cron', url, asked] : null, ([, u, c]: [string, string, string]) =>
    request<string[]>('GET', u, { params: { cronExpression: c }, silent: true }),
  );
  return (
    <div className="runtime-cron">
      <Input
        id={id}
        value={text}
        disabled={disabled}
        readOnly={readonly}
        placeholder={placeholder || '0 0 2 * * ?'}
        onChange={(e) => {
          setText(e.target.value);
          onChange(e.target.value === '' ? undefined : e.target.value);
        }}
        onBlur={() => onBlur(id, value)}
      />
      {asked && url && (
        <div className="runtime-cron-times" data-testid="cron-times">
          {error ? (
            <Typography.Text type="danger">{(error as Error).message}</Typography.Text>
          ) : data ? (
            <Typography.Text type="secondary">{t('job.msg.nextTimes')}：{data.join('，')}</Typography.Text>
          ) : null}
        </div>
      )}
    </div>
  );
}

/** The built-in widgets (also in the widget registry: registry.ts `widgetRegistry()`). */
export const widgets: RegistryWidgetsType = {
  dict: DictWidget,
  password: PasswordWidget,
  number: NumberWidget,
  textarea: TextareaWidget,
  text: TextWidget,
  TextWidget,
  date: pickerWidget('YYYY-MM-DD', {}),
  datetime: pickerWidget('YYYY-MM-DD HH:mm:ss', { showTime: true }),
  month: pickerWidget('YYYYMM', { picker: 'month' }),
  daterange: rangeWidget('YYYY-MM-DD', false),
  datetimerange: rangeWidget('YYYY-MM-DD HH:mm:ss', true),
  hidden: HiddenWidget,
  upload: UploadWidget,
  file: FileWidget,
  json: JsonWidget,
  cron: CronWidget,
  select: SourceSelectWidget,
  // in their own chunks (registered lazy: formWidgets gives them a placeholder while they load)
  treeSelect: lazy(() => import('./TreeSelectWidget.js')),
  icon: lazy(() => import('./IconPicker.js')),
  bpmn: BpmnWidget,
};
for (const [name, c] of Object.entries(widgets)) if (name !== 'TextWidget') registerWidget(name, c as ComponentType<WidgetProps>);
registerWidget('TextWidget', TextWidget);

/** A widget in its own chunk (a `lazy()` one: trees, the icon picker): an input-sized placeholder while it loads. */
function placeholderWhileLoading(L: ComponentType<WidgetProps>): ComponentType<WidgetProps> {
  return function LazyWidget(props: WidgetProps) {
    return (
      <Suspense fallback={<Input disabled id={props.id} placeholder={props.placeholder} />}>
        <L {...props} />
      </Suspense>
    );
  };
}

/** rjsf's `widgets`: the registry's, each `lazy()` one behind its placeholder (same object while the registry is unchanged). */
let shown: { from: Record<string, ComponentType<WidgetProps>>; widgets: Record<string, ComponentType<WidgetProps>> } | undefined;
export function formWidgets(): Record<string, ComponentType<WidgetProps>> {
  const from = widgetRegistry();
  if (shown?.from !== from) shown = { from, widgets: Object.fromEntries(Object.entries(from).map(([k, w]) => [k, isLazy(w) ? placeholderWhileLoading(w) : w])) };
  return shown.widgets;
}

/** Grid layout: each field takes its `ui:options.span` of 24 columns. */
export function GridObjectFieldTemplate({ properties }: ObjectFieldTemplateProps) {
  // Below 768 px one full-width column: two half columns leave 50 px inputs on a phone.
  const narrow = isNarrow(Grid.useBreakpoint());
  return (
    <Row gutter={16}>
      {properties
        .filter((p) => !p.hidden)
        .map((p) => {
          const ui = (p.content.props as { uiSchema?: Record<string, any> }).uiSchema;
          const span = Number(ui?.['ui:options']?.span ?? 24);
          return (
            <Col key={p.name} span={narrow ? 24 : span}>
              {p.content}
            </Col>
          );
        })}
    </Row>
  );
}

import { Button, Form, Grid, Input, Select, Space } from 'antd';
import type { InputNumberProps } from 'antd';
import { ReloadOutlined, SearchOutlined } from '@ant-design/icons';
import dayjs, { type Dayjs } from 'dayjs';
import { lazy, memo, Suspense, useMemo, useState } from 'react';
import { dictOptions, type DictMap, type SearchModel } from '../model/index.js';
import { useRuntime } from './context.js';
import { isNarrow } from './responsive.js';
import { SearchDateRange } from './SearchDateRange.js';

// Number searches are rare: antd's InputNumber (and its decimal library) loads only on a screen that has one.
const LazyInputNumber = lazy(() => import('antd/es/input-number'));

const DAY = 'YYYY-MM-DD';

/** Search values (model form: [from, to] yyyy-MM-dd) → antd form values (dayjs pairs). */
function toFormValues(model: SearchModel, values: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of model.fields) {
    const v = values[f.field];
    if (f.widget === 'dateRange' && Array.isArray(v)) out[f.field] = v.map((d) => (d ? dayjs(String(d)) : null));
    else out[f.field] = v;
  }
  return out;
}

/** antd form values → search values. */
function fromFormValues(model: SearchModel, values: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of model.fields) {
    const v = values[f.field];
    if (v === undefined || v === null || v === '') continue;
    if (f.widget === 'dateRange' && Array.isArray(v)) {
      if (v[0] && v[1]) out[f.field] = [(v[0] as Dayjs).format(DAY), (v[1] as Dayjs).format(DAY)];
    } else if (typeof v === 'string') out[f.field] = v.trim();
    else out[f.field] = v;
  }
  return out;
}

export interface SearchBarProps {
  model: SearchModel;
  dicts: DictMap;
  defaults: Record<string, unknown>;
  /** The search applied now (restored from the URL), shown in the form; default `defaults`. */
  values?: Record<string, unknown>;
  onSearch: (values: Record<string, unknown>) => void;
}

/**
 * The inline search form: one control per declared search, search and clear buttons. Memoised: a list redraws
 * on every page it reads, and its form (a Form.Item per field) need not while its props are the same.
 */
export const SearchBar = memo(function SearchBar({ model, dicts, defaults, values, onSearch }: SearchBarProps) {
  const { t, lang } = useRuntime();
  const [form] = Form.useForm();
  // The form starts with the applied search (a restored link); Reset goes back to the document's defaults.
  const [start] = useState(() => values ?? defaults);
  const initial = useMemo(() => toFormValues(model, start), [model, start]);
  const reset = useMemo(() => toFormValues(model, defaults), [model, defaults]);
  // On a phone every control takes the row: a date range with its label is wider than 375 px.
  const narrow = isNarrow(Grid.useBreakpoint());
  const width = narrow ? '100%' : 180;
  if (!model.fields.length) return null;
  return (
    <Form
      form={form}
      layout="inline"
      initialValues={initial}
      onFinish={(v) => onSearch(fromFormValues(model, v))}
      style={{ marginBottom: 16, rowGap: 12 }}
      data-testid="runtime-search"
    >
      {model.fields.map((f) => {
        const label = t(f.labelKey);
        const rules = f.required ? [{ required: true, message: t(f.required) }] : undefined;
        let control;
        switch (f.widget) {
          case 'dict':
            control = (
              <Select allowClear style={{ width }} placeholder={t('common.placeholder.select', { field: label })} options={dictOptions(dicts[f.dictCode!], lang, f.numeric)} />
            );
            break;
          case 'dateRange':
            // a stand-in of the picker's size until the user reaches for it (the picker is a large chunk)
            control = <SearchDateRange style={narrow ? { width } : undefined} format={DAY} placeholder={[t('common.placeholder.start'), t('common.placeholder.end')]} />;
            break;
          case 'numberRange':
            control = <NumberRange />;
            break;
          case 'number':
            control = <InputNumber style={{ width }} placeholder={t('common.placeholder.input', { field: label })} />;
            break;
          default:
            control = <Input allowClear style={{ width }} placeholder={t('common.placeholder.input', { field: label })} />;
        }
        return (
          <Form.Item key={f.field} name={f.field} label={label} rules={rules} style={narrow ? { width: '100%', marginInlineEnd: 0 } : undefined}>
            {control}
          </Form.Item>
        );
      })}
      <Form.Item>
        <Space>
          <Button type="primary" htmlType="submit" icon={<SearchOutlined />}>
            {t('common.action.search')}
          </Button>
          <Button
            icon={<ReloadOutlined />}
            onClick={() => {
              form.setFieldsValue(Object.fromEntries(model.fields.map((f) => [f.field, reset[f.field]])));
              onSearch(fromFormValues(model, reset));
            }}
          >
            {t('common.action.reset')}
          </Button>
        </Space>
      </Form.Item>
    </Form>
  );
});

/** InputNumber from its own chunk; an input of the same box shows while it loads. */
function InputNumber(props: InputNumberProps) {
  const { style, placeholder } = props;
  return (
    <Suspense fallback={<Input readOnly style={{ width: 90, ...style }} placeholder={placeholder} />}>
      <LazyInputNumber {...props} />
    </Suspense>
  );
}

function NumberRange({ value, onChange }: { value?: [number | null, number | null]; onChange?: (v: [number | null, number | null]) => void }) {
  const { t } = useRuntime();
  const [a, b] = value ?? [null, null];
  return (
    <Space>
      <InputNumber value={a} placeholder={t('common.placeholder.min')} onChange={(v) => onChange?.([v as number | null, b])} />
      <span>-</span>
      <InputNumber value={b} placeholder={t('common.placeholder.max')} onChange={(v) => onChange?.([a, v as number | null])} />
    </Space>
  );
}

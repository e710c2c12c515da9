import { Button, Grid, Select, Space, theme } from 'antd';
import Input from 'antd/es/input/Input';
import type { InputNumberProps } from 'antd';
import { ReloadOutlined, SearchOutlined } from '@ant-design/icons';
import dayjs, { type Dayjs } from 'dayjs';
import { lazy, memo, Suspense, useId, useMemo, useState, type CSSProperties } from 'react';
import { dictOptions, type DictMap, type SearchModel } from '../model/index.js';
import { useRuntime } from './context.js';
import { isNarrow } from './responsive.js';
import { SearchDateRange, type DayPair } from './SearchDateRange.js';
import { controlProps, LightField, useRequiredRule } from './LightField.js';

// Number searches are rare: antd's InputNumber (and its decimal library) loads only on a screen that has one.
const LazyInputNumber = lazy(() => import('antd/es/input-number'));

const DAY = 'YYYY-MM-DD';

/** Search values (model form: [from, to] yyyy-MM-dd) → the controls' values (dayjs pairs). */
function toFormValues(model: SearchModel, values: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of model.fields) {
    const v = values[f.field];
    if (f.widget === 'dateRange' && Array.isArray(v)) out[f.field] = v.map((d) => (d ? dayjs(String(d)) : null));
    else out[f.field] = v;
  }
  return out;
}

/** The controls' values → search values. */
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
 * The inline search form: one control per declared search, search and clear buttons (a LightField per control,
 * not antd's Form: LightField.tsx says why). Enter in a text box searches, as the search button does; a required
 * search shows its message from the first search on, until it is filled. Memoised: a list redraws on every page
 * it reads, and its form need not while its props are the same.
 */
export const SearchBar = memo(function SearchBar({ model, dicts, defaults, values, onSearch }: SearchBarProps) {
  const { t, lang } = useRuntime();
  const { token } = theme.useToken();
  const formId = useId();
  // The form starts with the applied search (a restored link); Reset goes back to the document's defaults.
  const [form, setForm] = useState(() => toFormValues(model, values ?? defaults));
  const rules = useMemo(() => Object.fromEntries(model.fields.filter((f) => f.required).map((f) => [f.field, f.required!])), [model]);
  const required = useRequiredRule(form, rules);
  const reset = useMemo(() => toFormValues(model, defaults), [model, defaults]);
  // On a phone every control takes the row: a date range with its label is wider than 375 px.
  const narrow = isNarrow(Grid.useBreakpoint());
  const width = narrow ? '100%' : 180;
  if (!model.fields.length) return null;
  const errorOf = (f: SearchModel['fields'][number]) => {
    const key = required.errorOf(f.field);
    return key && t(key);
  };
  const set = (field: string) => (v: unknown) => setForm((old) => ({ ...old, [field]: v }));
  const search = () => {
    if (required.check()) onSearch(fromFormValues(model, form));
  };
  return (
    <form
      className={narrow ? 'light-form-inline light-form-narrow' : 'light-form-inline'}
      style={{ '--light-field-error': token.colorError } as CSSProperties}
      data-testid="runtime-search"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        search();
      }}
    >
      {model.fields.map((f) => {
        const label = t(f.labelKey);
        const error = errorOf(f);
        const id = `${formId}-${f.field}`;
        const value = form[f.field];
        let control;
        switch (f.widget) {
          case 'dict':
            control = (
              <Select
                {...controlProps(id, error)}
                allowClear
                style={{ width }}
                value={value ?? undefined}
                onChange={set(f.field)}
                placeholder={t('common.placeholder.select', { field: label })}
                options={dictOptions(dicts[f.dictCode!], lang, f.numeric)}
              />
            );
            break;
          case 'dateRange':
            // a stand-in of the picker's size until the user reaches for it (the picker is a large chunk)
            control = (
              <SearchDateRange
                {...controlProps(id, error)}
                value={(value as DayPair) ?? null}
                onChange={set(f.field)}
                style={narrow ? { width } : undefined}
                format={DAY}
                placeholder={[t('common.placeholder.start'), t('common.placeholder.end')]}
              />
            );
            break;
          case 'numberRange':
            control = <NumberRange value={value as [number | null, number | null] | undefined} onChange={set(f.field)} />;
            break;
          case 'number':
            control = <InputNumber {...controlProps(id, error)} style={{ width }} value={value as number | null | undefined} onChange={set(f.field)} placeholder={t('common.placeholder.input', { field: label })} />;
            break;
          default:
            control = (
              <Input
                {...controlProps(id, error)}
                allowClear
                style={{ width }}
                value={(value as string | undefined) ?? ''}
                onChange={(e) => set(f.field)(e.target.value)}
                placeholder={t('common.placeholder.input', { field: label })}
              />
            );
        }
        return (
          <LightField key={f.field} id={id} label={label} required={!!f.required} error={error}>
            {control}
          </LightField>
        );
      })}
      <Space>
        <Button type="primary" htmlType="submit" icon={<SearchOutlined />}>
          {t('common.action.search')}
        </Button>
        <Button
          icon={<ReloadOutlined />}
          onClick={() => {
            setForm(reset);
            required.clear();
            onSearch(fromFormValues(model, reset));
          }}
        >
          {t('common.action.reset')}
        </Button>
      </Space>
    </form>
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

/**
 * `treeSelect`: antd TreeSelect over a tree endpoint (`ui:options.tree`), one key or several (`multiple`),
 * checkbox trees whose parents and children are independent (`checkStrictly`), leaves only (`leafOnly`). An
 * `x-joined` string field is read and written as "1,2,3". Own chunk: loaded when a dialog shows one.
 */
import { useMemo } from 'react';
import { Input, TreeSelect } from 'antd';
import type { WidgetProps } from '@rjsf/utils';
import type { TreeSource } from '../../shared/document.js';
import { treeTitles, treeValueIn, treeValueOut } from '../model/index.js';
import type { RuntimeFormContext } from './widgets.js';
import { useTreeSource } from './useTreeSource.js';

export default function TreeSelectWidget(props: WidgetProps) {
  const { id, value, onChange, onBlur, disabled, readonly, placeholder, options, schema } = props;
  const { request, formData } = props.registry.formContext as RuntimeFormContext;
  const source = options.tree as TreeSource | undefined;
  const multiple = !!options.multiple || schema.type === 'array';
  const conv = { multiple, joined: !!options.joined, numeric: !!options.numeric };
  const { options: treeData } = useTreeSource(request, source, formData ?? {}, { leafOnly: !!options.leafOnly });
  const titles = useMemo(() => treeTitles(treeData), [treeData]);
  const keys = treeValueIn(value, conv);
  if (readonly) {
    const list = Array.isArray(keys) ? keys : keys ? [keys] : [];
    return <Input id={id} readOnly variant="filled" value={list.map((k) => titles.get(k) ?? k).join(', ')} />;
  }
  const strict = !!options.checkStrictly && multiple;
  return (
    <TreeSelect
      id={id}
      style={{ width: '100%' }}
      allowClear
      showSearch
      treeNodeFilterProp="title"
      disabled={disabled}
      placeholder={placeholder}
      treeData={treeData}
      multiple={multiple}
      treeCheckable={strict}
      treeCheckStrictly={strict}
      // checkStrictly hands labelled values in and out
      value={strict && Array.isArray(keys) ? keys.map((k) => ({ value: k, label: titles.get(k) ?? k })) : keys}
      treeDefaultExpandAll={treeData.length < 30}
      onChange={(v: unknown) => onChange(treeValueOut(v, conv))}
      onBlur={() => onBlur(id, value)}
    />
  );
}

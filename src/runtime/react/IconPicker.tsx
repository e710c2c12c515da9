/**
 * `icon`: picks one of the app's icons (icons.tsx, the side menu's set) by name, e.g. "ShopOutlined". Own chunk,
 * loaded when a dialog shows the field.
 */
import { useMemo, useState } from 'react';
import { Button, Input, Popover, Space, Tooltip } from 'antd';
import type { WidgetProps } from '@rjsf/utils';
import { ICON_NAMES, IconByName } from './icons.js';
import type { RuntimeFormContext } from './widgets.js';

/** Icon names containing the text (case-insensitive). */
export function filterIcons(text: string, names: string[] = ICON_NAMES): string[] {
  const q = text.trim().toLowerCase();
  return q ? names.filter((n) => n.toLowerCase().includes(q)) : names;
}

export default function IconPicker(props: WidgetProps) {
  const { id, value, onChange, onBlur, disabled, readonly, placeholder } = props;
  const { t } = props.registry.formContext as RuntimeFormContext;
  const [open, setOpen] = useState(false);
  const [q, setQ] = useState('');
  const shown = useMemo(() => filterIcons(q), [q]);
  const name = typeof value === 'string' ? value : '';
  const input = (
    <Input
      id={id}
      readOnly
      variant={readonly ? 'filled' : undefined}
      disabled={disabled}
      placeholder={placeholder}
      value={name}
      prefix={name ? <IconByName name={name} /> : undefined}
      allowClear={!readonly}
      onChange={(e) => {
        if (!e.target.value) onChange(undefined);
      }}
    />
  );
  if (readonly || disabled) return input;
  return (
    <Popover
      open={open}
      onOpenChange={(o) => {
        setOpen(o);
        if (!o) onBlur(id, value);
      }}
      trigger="click"
      placement="bottomLeft"
      content={
        <div style={{ width: 'min(360px, 80vw)' }} data-testid="icon-picker">
          <Input allowClear size="small" placeholder={t('runtime.icon.search')} value={q} onChange={(e) => setQ(e.target.value)} style={{ marginBottom: 8 }} />
          <Space wrap size={4} style={{ maxHeight: 240, overflow: 'auto' }}>
            {shown.map((n) => (
              <Tooltip key={n} title={n}>
                <Button
                  aria-label={n}
                  type={n === name ? 'primary' : 'text'}
                  icon={<IconByName name={n} />}
                  onClick={() => {
                    onChange(n);
                    setOpen(false);
                  }}
                />
              </Tooltip>
            ))}
          </Space>
        </div>
      }
    >
      <div>{input}</div>
    </Popover>
  );
}

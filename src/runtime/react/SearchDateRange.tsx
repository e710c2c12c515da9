/**
 * The search bar's date range (issue 13): the antd RangePicker and its panels are some 40 kB of code a list
 * does not need until someone picks a date. Until then a stand-in of the same size and look shows the range
 * (two read-only inputs, the arrow, the calendar icon); pointing at it, touching it or focusing it loads the
 * picker, which takes its place (and the focus, when the stand-in had it).
 */
import { useState, type CSSProperties } from 'react';
import { theme } from 'antd';
import Input from 'antd/es/input/Input';
import { CalendarOutlined, SwapRightOutlined } from '@ant-design/icons';
import type { Dayjs } from 'dayjs';
import { useOnDemand } from './onDemand.js';
import { loadOnce } from '../../shared/loadOnce.js';

export type DayPair = [Dayjs | null, Dayjs | null] | null;

export interface SearchDateRangeProps {
  /** The label's target, the value and its setter, the error state (LightField's controlProps). */
  id?: string;
  status?: 'error';
  'aria-invalid'?: true;
  'aria-describedby'?: string;
  value?: DayPair;
  onChange?: (v: DayPair) => void;
  format: string;
  placeholder: [string, string];
  style?: CSSProperties;
}

const loadPicker = loadOnce(() => import('./SearchDateRangePicker.js'));

export function SearchDateRange(props: SearchDateRangeProps) {
  const [wanted, setWanted] = useState(false);
  // the stand-in had the focus (keyboard, or a tap before the picker arrived): the picker takes it
  const [focused, setFocused] = useState(false);
  const Picker = useOnDemand(loadPicker, wanted)?.default;
  if (Picker) return <Picker {...props} focused={focused} />;
  return (
    <RangeStandIn
      {...props}
      onUse={(focus) => {
        setWanted(true);
        if (focus) setFocused(true);
      }}
    />
  );
}

/** The picker's look (antd's date-picker style: outlined, same paddings, inputs sized like its `size=12` ones). */
function RangeStandIn({ id, status, value, format, placeholder, style, onUse, 'aria-invalid': invalid, 'aria-describedby': describedBy }: SearchDateRangeProps & { onUse: (focus?: boolean) => void }) {
  const { token } = theme.useToken();
  const padBlock = Math.max(Math.round(((token.controlHeight - token.fontSize * token.lineHeight) / 2) * 10) / 10 - token.lineWidth, 0);
  const box: CSSProperties = {
    boxSizing: 'border-box',
    position: 'relative',
    display: 'inline-flex',
    alignItems: 'center',
    margin: 0,
    padding: `${padBlock}px ${token.paddingSM - token.lineWidth}px`,
    color: token.colorText,
    fontSize: token.fontSize,
    fontFamily: token.fontFamily,
    lineHeight: 1,
    background: token.colorBgContainer,
    border: `${token.lineWidth}px ${token.lineType} ${status === 'error' ? token.colorError : token.colorBorder}`,
    borderRadius: token.borderRadius,
    ...style,
  };
  const input = (at: 0 | 1) => (
    <div style={{ position: 'relative', display: 'inline-flex', alignItems: 'center', width: '100%' }}>
      <Input
        id={at === 0 ? id : undefined}
        aria-invalid={at === 0 ? invalid : undefined}
        aria-describedby={at === 0 ? describedBy : undefined}
        variant="borderless"
        htmlSize={12}
        readOnly
        autoComplete="off"
        value={value?.[at]?.format(format) ?? ''}
        placeholder={placeholder[at]}
        onFocus={() => onUse(true)}
        style={{ flex: 'auto', minWidth: 1, padding: 0, borderRadius: 0, fontSize: token.fontSize, lineHeight: token.lineHeight, color: 'inherit' }}
      />
    </div>
  );
  return (
    <div style={box} onPointerEnter={() => onUse()} data-testid="date-range-standin">
      {input(0)}
      <div style={{ alignItems: 'center', padding: `0 ${token.paddingXS}px`, lineHeight: 1 }}>
        <span aria-hidden style={{ position: 'relative', display: 'inline-block', width: '1em', height: token.fontSizeLG, color: token.colorTextQuaternary, fontSize: token.fontSizeLG, verticalAlign: 'top' }}>
          <SwapRightOutlined />
        </span>
      </div>
      {input(1)}
      <span style={{ display: 'flex', flex: 'none', alignSelf: 'center', marginInlineStart: token.paddingXS / 2, color: token.colorTextQuaternary, lineHeight: 1 }}>
        <CalendarOutlined />
      </span>
    </div>
  );
}

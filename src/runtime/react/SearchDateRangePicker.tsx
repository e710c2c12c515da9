/** The search bar's real date range picker, in its own chunk (SearchDateRange.tsx draws the stand-in until it loads). */
import { DatePicker } from 'antd';
import type { SearchDateRangeProps } from './SearchDateRange.js';

/** `focused`: the stand-in had the focus; the picker takes it (its start input, which opens the panel) as it appears. */
export default function SearchDateRangePicker({ focused, ...props }: SearchDateRangeProps & { focused: boolean }) {
  return <DatePicker.RangePicker {...props} autoFocus={focused} />;
}

/** A JSON value, cut to the column with the whole text in a tooltip (antd Typography: its own chunk, loaded by lists that have one). */
import { Typography } from 'antd';
import { formatCell } from '../../model/index.js';
import type { CellProps } from '../registry.js';

export default function JsonCell({ col, value, dicts, lang }: CellProps) {
  const text = formatCell(col, value, dicts, lang);
  return (
    <Typography.Text ellipsis={{ tooltip: text }} style={{ maxWidth: col.width ?? 200 }}>
      {text}
    </Typography.Text>
  );
}

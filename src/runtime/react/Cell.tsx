/**
 * Table cells by render kind through the cell registry (registry.ts): dictionary label, lookup label, image
 * thumbnail, link, byte size, icon, money, percent, date range, JSON, date. A module adds a cell with `registerCell`.
 */
import { Image, Tag, Typography } from 'antd';
import { formatBytes } from '../../shared/fields.js';
import { formatCell } from '../model/index.js';
import { cellFor, registerCell, type CellProps } from './registry.js';
import { IconByName } from './icons.js';

function TextCell({ col, value, dicts, lang }: CellProps) {
  return <>{formatCell(col, value, dicts, lang)}</>;
}

registerCell('text', TextCell);
for (const k of ['money', 'percent', 'date', 'date-time', 'daterange']) registerCell(k, TextCell);
registerCell('image', ({ value }) => <Image src={String(value)} width={40} height={40} style={{ objectFit: 'cover' }} alt="" />);
registerCell('link', ({ col, value, dicts, lang }) => (
  <a href={String(value)} target="_blank" rel="noreferrer">
    {formatCell(col, value, dicts, lang).split('/').pop()}
  </a>
));
registerCell('bytes', ({ value }) => <>{formatBytes(Number(value))}</>);
registerCell('dict', ({ col, value, dicts, lang }) => <Tag bordered={false}>{formatCell(col, value, dicts, lang)}</Tag>);
registerCell('tag', ({ col, value, dicts, lang }) => <Tag>{formatCell(col, value, dicts, lang)}</Tag>);
registerCell('json', ({ col, value, dicts, lang }) => {
  const text = formatCell(col, value, dicts, lang);
  return (
    <Typography.Text ellipsis={{ tooltip: text }} style={{ maxWidth: col.width ?? 200 }}>
      {text}
    </Typography.Text>
  );
});
// A lookup shows the label the server sent beside the id (parentId → parentName), the id when there is none.
registerCell('lookup', ({ col, value, row }) => {
  const label = col.labelField ? row[col.labelField] : undefined;
  return <>{label !== undefined && label !== null && label !== '' ? String(label) : String(value)}</>;
});
registerCell('icon', ({ value }) => (
  <span title={String(value)}>
    <IconByName name={String(value)} fallback={String(value)} />
  </span>
));

/** One table cell, drawn by the cell registered for its render kind (text when none is). */
export function Cell(props: CellProps) {
  const { value } = props;
  if (value === undefined || value === null || value === '') return null;
  const C = cellFor(props.col.render) ?? TextCell;
  return <C {...props} />;
}

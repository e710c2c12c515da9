/**
 * Table cells by render kind through the cell registry (registry.ts): dictionary label, lookup label, image
 * thumbnail, link, byte size, icon, money, percent, date range, JSON, date. A module adds a cell with `registerCell`
 * (a `lazy()` one too: it shows as plain text until its code has loaded).
 */
import { lazy, Suspense } from 'react';
import { Tag } from 'antd';
import { formatBytes } from '../../shared/fields.js';
import { formatCell } from '../model/index.js';
import { cellFor, isLazy, registerCell, type CellProps } from './registry.js';
import { IconByName } from './icons.js';
import ImageCell from './cells/ImageCell.js';

function TextCell({ col, value, dicts, lang }: CellProps) {
  return <>{formatCell(col, value, dicts, lang)}</>;
}

registerCell('text', TextCell);
for (const k of ['money', 'percent', 'date', 'date-time', 'daterange']) registerCell(k, TextCell);
// a plain thumbnail; antd's Image (the preview) loads when the user reaches for one
registerCell('image', ImageCell);
registerCell('link', ({ col, value, dicts, lang }) => (
  <a href={String(value)} target="_blank" rel="noreferrer">
    {formatCell(col, value, dicts, lang).split('/').pop()}
  </a>
));
registerCell('bytes', ({ value }) => <>{formatBytes(Number(value))}</>);
registerCell('dict', ({ col, value, dicts, lang }) => <Tag variant="filled">{formatCell(col, value, dicts, lang)}</Tag>);
registerCell('tag', ({ col, value, dicts, lang }) => <Tag>{formatCell(col, value, dicts, lang)}</Tag>);
registerCell('json', lazy(() => import('./cells/JsonCell.js')));
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
  if (!isLazy(C)) return <C {...props} />;
  return (
    <Suspense fallback={<TextCell {...props} />}>
      <C {...props} />
    </Suspense>
  );
}

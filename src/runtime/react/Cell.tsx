import { Image, Tag, Typography } from 'antd';
import { formatCell, type ColumnModel, type DictMap } from '../model/index.js';

/** One table cell by render kind: dictionary label, image thumbnail, link, money, percent, JSON, date. */
export function Cell({ col, value, dicts, lang }: { col: ColumnModel; value: unknown; dicts: DictMap; lang: string }) {
  if (value === undefined || value === null || value === '') return null;
  if (col.render === 'image') {
    return <Image src={String(value)} width={40} height={40} style={{ objectFit: 'cover' }} alt="" />;
  }
  const text = formatCell(col, value, dicts, lang);
  if (col.render === 'link') {
    return (
      <a href={String(value)} target="_blank" rel="noreferrer">
        {text.split('/').pop()}
      </a>
    );
  }
  if (col.render === 'dict') return <Tag bordered={false}>{text}</Tag>;
  if (col.render === 'json') {
    return (
      <Typography.Text ellipsis={{ tooltip: text }} style={{ maxWidth: col.width ?? 200 }}>
        {text}
      </Typography.Text>
    );
  }
  return <>{text}</>;
}

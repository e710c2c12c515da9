/** The buttons above a table: the screen's toolbar items on the left, refresh and the column chooser on the right. */
import type { ReactNode } from 'react';
import { Button, Checkbox, Popover, Space, Tooltip } from 'antd';
import { DeleteOutlined, DownloadOutlined, PlusOutlined, ReloadOutlined, SettingOutlined } from '@ant-design/icons';
import type { ListModel, ToolbarItem } from '../model/index.js';
import { useRuntime } from './context.js';

const ICONS: Partial<Record<ToolbarItem['kind'], ReactNode>> = { add: <PlusOutlined />, delete: <DeleteOutlined />, export: <DownloadOutlined /> };

export function Toolbar({
  items,
  onItem,
  onRefresh,
  hideable,
  listModel,
  extra,
}: {
  items: ToolbarItem[];
  onItem: (item: ToolbarItem) => void;
  onRefresh: () => void;
  hideable: Array<{ id: string; getIsVisible(): boolean; toggleVisibility(v: boolean): void }>;
  listModel: ListModel;
  /** View-specific buttons (a tree's expand/collapse all). */
  extra?: ReactNode;
}) {
  const { t } = useRuntime();
  return (
    <div style={{ display: 'flex', justifyContent: 'space-between', marginBottom: 12, gap: 8, flexWrap: 'wrap' }}>
      <Space wrap>
        {items.map((item) => (
          <Button
            key={item.kind === 'action' ? item.action.name : item.kind}
            type={item.kind === 'add' ? 'primary' : undefined}
            danger={item.kind === 'delete' || (item.kind === 'action' && item.action.danger)}
            icon={ICONS[item.kind]}
            onClick={() => onItem(item)}
          >
            {t(item.labelKey)}
          </Button>
        ))}
        {extra}
      </Space>
      <Space>
        <Tooltip title={t('common.action.refresh')}>
          <Button shape="circle" icon={<ReloadOutlined />} aria-label={t('common.action.refresh')} onClick={onRefresh} />
        </Tooltip>
        <Popover
          trigger="click"
          placement="bottomRight"
          content={
            <Space orientation="vertical">
              {hideable.map((c) => {
                const m = listModel.columns.find((x) => x.field === c.id);
                return (
                  <Checkbox key={c.id} checked={c.getIsVisible()} onChange={(e) => c.toggleVisibility(e.target.checked)}>
                    {m ? t(m.titleKey) : c.id}
                  </Checkbox>
                );
              })}
            </Space>
          }
        >
          <Tooltip title={t('common.action.columns')}>
            <Button shape="circle" icon={<SettingOutlined />} aria-label={t('common.action.columns')} />
          </Tooltip>
        </Popover>
      </Space>
    </div>
  );
}

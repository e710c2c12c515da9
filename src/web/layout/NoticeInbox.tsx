import { useState } from 'react';
import { Button, Empty, List, Pagination } from 'antd';
import { useTranslation } from 'react-i18next';
import { request } from '../api/client.js';
import { PAGE_SIZE, useNoticeInbox } from './noticeInboxData.js';

/** The notice tab of the top bar's popover: real notices, unread ones marked; opening one marks it read. */
export function NoticeInbox({ onChange }: { onChange: () => void }) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const [open, setOpen] = useState<string>();
  const { data, refresh } = useNoticeInbox(page);
  const markRead = async (params: Record<string, string>) => {
    await request({ url: '/api/blade-desk/notice/read', method: 'POST', params }).catch(() => undefined);
    refresh();
    onChange();
  };
  const rows = data?.records ?? [];
  return (
    <div data-testid="notice-inbox">
      <div className="notice-scroll" style={{ height: 300, overflowY: 'auto' }}>
        {rows.length ? (
          <List
            size="small"
            dataSource={rows}
            renderItem={(r) => (
              <List.Item
                key={r.id}
                className={r.read ? 'notice-item' : 'notice-item notice-unread'}
                onClick={() => {
                  setOpen(open === r.id ? undefined : r.id);
                  if (!r.read) void markRead({ ids: r.id });
                }}
              >
                <List.Item.Meta
                  title={r.title}
                  description={<><div className={open === r.id ? undefined : 'notice-clip'}>{r.content}</div><div className="notice-time">{r.releaseTime}</div></>}
                />
              </List.Item>
            )}
          />
        ) : (
          <Empty description={t('shell.notice.none')} />
        )}
      </div>
      <div className="notice-foot">
        <Pagination size="small" simple current={page} pageSize={PAGE_SIZE} total={data?.total ?? 0} onChange={setPage} />
        <Button type="link" size="small" disabled={!data?.unread} onClick={() => void markRead({ all: 'true' })} data-testid="notice-read-all">
          {t('shell.notice.readAll')}
        </Button>
      </div>
    </div>
  );
}

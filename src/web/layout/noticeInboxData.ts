/** The caller's notice inbox (one page and the unread count), kept apart from its list so the top bar's bell stays light. */
import useSWR from 'swr';
import { getData } from '../api/client.js';
import { session } from '../auth/session.js';

export interface InboxNotice {
  id: string;
  title: string;
  releaseTime: string;
  content: string;
  read: boolean;
}

interface InboxPage {
  records: InboxNotice[];
  total: number;
  unread: number;
}

/** Notices per page of the inbox. */
export const PAGE_SIZE = 5;
const inboxKey = (token: string | undefined, page: number) => (token ? ['notice-inbox', page] : null);

/** One page of the caller's notices (released, of its tenant) and the unread count; `refresh` after marking read. */
export function useNoticeInbox(page: number) {
  const token = session.use((s) => s.token);
  const { data, mutate } = useSWR(inboxKey(token, page), () => getData<InboxPage>('/api/blade-desk/notice/inbox', { current: page, size: PAGE_SIZE }), {
    revalidateOnFocus: true,
    refreshInterval: 60_000,
  });
  return { data, refresh: () => mutate() };
}

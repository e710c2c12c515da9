import { Result, Spin } from 'antd';
import useSWR from 'swr';
import type { ScreenDocument } from '../../shared/document.js';
import { useRuntime } from './context.js';
import { ListScreen } from './ListScreen.js';

export const SCREEN_DETAIL_URL = '/api/blade-system/screen/detail';

/** Loads a screen document (swr, cached) and hands it to a renderer. */
export function useScreenDocument(screenId: string | undefined) {
  const { request } = useRuntime();
  return useSWR<ScreenDocument>(
    screenId ? ['runtime:screen', screenId] : null,
    ([, id]: [string, string]) => request<ScreenDocument>('GET', SCREEN_DETAIL_URL, { params: { id } }),
    { revalidateOnFocus: false, revalidateIfStale: false },
  );
}

/** The page of a menu leaf that names a screen document. */
export function ScreenPage({ screenId }: { screenId: string }) {
  const { t } = useRuntime();
  const { data, error, isLoading } = useScreenDocument(screenId);
  if (isLoading) return <Spin style={{ display: 'block', margin: '80px auto' }} />;
  if (error || !data) return <Result status="warning" title={t(error ? 'common.msg.loadFailed' : 'common.msg.noScreen')} />;
  return <ListScreen key={data.id} doc={data} />;
}

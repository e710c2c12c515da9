import { Suspense } from 'react';
import { Spin } from 'antd';
import { Result } from './LazyResult.js';
import useSWR from 'swr';
import type { AnyDocument } from '../../shared/document.js';
import { useRuntime } from './context.js';
import { viewFor } from './registry.js';
import { SCREEN_DETAIL_URL } from './screenUrls.js';
import { useFirstAnswer } from './useFirstAnswer.js';
import './views.js';

export { SCREEN_DETAIL_URL };

/** Loads a screen (or layout) document (swr, cached) and hands it to a renderer. */
export function useScreenDocument<D extends AnyDocument = AnyDocument>(screenId: string | undefined) {
  const { request, takeAnswer } = useRuntime();
  const key = screenId ? ['runtime:screen', screenId] : null;
  const first = useFirstAnswer(key, () => takeAnswer?.<D>(SCREEN_DETAIL_URL, { id: screenId }));
  return useSWR<D>(key, ([, id]: [string, string]) => request<D>('GET', SCREEN_DETAIL_URL, { params: { id } }), {
    revalidateOnFocus: false,
    revalidateIfStale: false,
    ...first,
  });
}

const spin = <Spin style={{ display: 'block', margin: '80px auto' }} />;

/** A document drawn by the view its `view.type` names (default list), through the view registry. */
export function DocumentView({ doc }: { doc: AnyDocument }) {
  const { t } = useRuntime();
  const type = doc.view?.type ?? 'list';
  const View = viewFor(type);
  if (!View) return <Result status="warning" title={t('runtime.view.unknown', { type })} />;
  return (
    <Suspense fallback={spin}>
      <View key={doc.id} doc={doc} />
    </Suspense>
  );
}

/** The page of a menu leaf that names a screen document. */
export function ScreenPage({ screenId }: { screenId: string }) {
  const { t } = useRuntime();
  const { data, error, isLoading } = useScreenDocument(screenId);
  if (isLoading) return spin;
  if (error || !data) return <Result status="warning" title={t(error ? 'common.msg.loadFailed' : 'common.msg.noScreen')} />;
  return <DocumentView doc={data} />;
}

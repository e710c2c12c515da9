import useSWR from 'swr';
import { useFirstAnswer } from './useFirstAnswer.js';
import { dictKey, normalizeDictBatch, type DictMap } from '../model/index.js';
import { DICT_CACHE_KEY, useRuntime } from './context.js';
import { DICT_BATCH_URL } from './screenUrls.js';

export { DICT_BATCH_URL };

const EMPTY: DictMap = {};

/**
 * Dictionaries by code, in ONE batched request (`GET …/dict/batch?codes=a,b,c`, codes sorted), cached by
 * swr under that key for the whole session: list cells, search options and form options share it.
 */
export function useDictionaries(codes: string[]): { dicts: DictMap; isLoading: boolean; error: unknown } {
  const { request, takeAnswer } = useRuntime();
  const key = dictKey(codes);
  const first = useFirstAnswer(key ? [DICT_CACHE_KEY, key] : null, () => {
    const batch = takeAnswer?.(DICT_BATCH_URL, { codes: key });
    return batch === undefined ? undefined : normalizeDictBatch(batch, key.split(','));
  });
  const { data, isLoading, error } = useSWR(
    key ? [DICT_CACHE_KEY, key] : null,
    async ([, k]: [string, string]) => normalizeDictBatch(await request('GET', DICT_BATCH_URL, { params: { codes: k } }), k.split(',')),
    { revalidateOnFocus: false, revalidateIfStale: false, revalidateOnReconnect: false, dedupingInterval: 10 * 60_000, ...first },
  );
  return { dicts: data ?? EMPTY, isLoading, error };
}

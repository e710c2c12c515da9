/**
 * A read whose answer the app already holds (RuntimeEnv.takeAnswer: start-up's reads of a reloaded screen) goes
 * into swr's cache before the hook that reads it first renders, so that render draws with the data: one render and
 * one commit for document, rows and dictionary labels, instead of an empty screen and a render per answer
 * (issue 13: time to the first list on a 2-core machine is rendering, not waiting).
 */
import { useEffect } from 'react';
import { unstable_serialize, useSWRConfig, type Key } from 'swr';

/** Keys filled from an answer whose hook has not mounted yet: that mount need not read again. */
const filled = new Set<string>();

/**
 * Fills swr's cache for `key` (when empty) with `take()`'s answer, if it has one. Spread the result into the
 * useSWR options: when it filled the cache, the first mount does not read again (the answer is that read).
 */
export function useFirstAnswer(key: Key, take: () => unknown): { revalidateOnMount?: boolean } {
  const { cache } = useSWRConfig();
  const k = key ? unstable_serialize(key) : '';
  if (k && cache.get(k) === undefined) {
    const data = take();
    if (data !== undefined) {
      cache.set(k, { data });
      filled.add(k);
    }
  }
  const fresh = k !== '' && filled.has(k);
  useEffect(() => {
    if (fresh) filled.delete(k);
  }, [fresh, k]);
  return fresh ? { revalidateOnMount: false } : {};
}

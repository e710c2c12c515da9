/**
 * Code that loads when it is first used rather than with the page (issue 13). A light stand-in of the real
 * control's size is drawn at first paint; the real one's chunk loads when the user points at it, touches it or
 * focuses it, and then replaces it. No timers: nothing loads that nobody uses.
 */
import { useEffect, useState } from 'react';

/** What each loader resolved to, so controls drawn after the first load are the real ones at once. */
const loaded = new WeakMap<() => Promise<unknown>, unknown>();

/**
 * The value `load` resolves to, once `wanted` (undefined until then). `load` must be a module-level function
 * (it keys the cache). A failed load leaves the stand-in; the next mount tries again.
 */
export function useOnDemand<T>(load: () => Promise<T>, wanted: boolean): T | undefined {
  const [value, setValue] = useState<T | undefined>(() => loaded.get(load) as T | undefined);
  useEffect(() => {
    if (!wanted || value !== undefined) return;
    let live = true;
    load().then(
      (v) => {
        loaded.set(load, v);
        if (live) setValue(() => v);
      },
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [load, wanted, value]);
  return value;
}

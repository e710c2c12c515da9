/**
 * Code that loads when it is first used rather than with the page (issue 13). A light stand-in of the real
 * control's size is drawn at first paint; the real one's chunk loads when the user points at it, touches it or
 * focuses it, and then replaces it. No timers: nothing loads that nobody uses.
 */
import { useEffect, useState } from 'react';
import type { Loader } from '../../shared/loadOnce.js';

/**
 * The value `load` resolves to, once `wanted` (undefined until then). `load` is a module-level loadOnce(): a control
 * drawn after the first load is the real one at once. A failed load leaves the stand-in; the next mount tries again.
 */
export function useOnDemand<T>(load: Loader<T>, wanted: boolean): T | undefined {
  const [value, setValue] = useState<T | undefined>(() => load.loaded);
  useEffect(() => {
    if (!wanted || value !== undefined) return;
    let live = true;
    load().then(
      (v) => {
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

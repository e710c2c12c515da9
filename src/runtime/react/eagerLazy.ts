/**
 * React's `lazy()` suspends on its first draw even when its module has already arrived: the factory's import()
 * resolves a microtask later, so React commits the fallback and draws the component in a commit of its own, a task
 * later. Start-up loads the first screen's code while its data is on the way (web/lib/startup.ts), so by the time
 * the shell draws, the page, its route and the runtime are usually here: drawn through `eagerLazy`, they join
 * their parent's render instead of costing a fallback, a task and a commit each (issue 13, time to the first list).
 */
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import type { Loader } from '../../shared/loadOnce.js';

/**
 * `lazy()` over a Loader. When the module is in, React is handed a thenable that calls back at once: React's lazy
 * initializer then marks the component resolved before it would suspend, and draws it in the same render.
 */
export function eagerLazy<P extends object>(load: Loader<{ default: ComponentType<P> }>): LazyExoticComponent<ComponentType<P>> {
  return lazy(() => {
    const m = load.loaded;
    if (!m) return load();
    const now: PromiseLike<{ default: ComponentType<P> }> = {
      then: (ok) => {
        ok?.(m);
        return now as PromiseLike<never>;
      },
    };
    return now as Promise<{ default: ComponentType<P> }>;
  });
}

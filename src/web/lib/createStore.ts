import { useSyncExternalStore } from 'react';

/** A tiny external store: get/set/subscribe plus a React hook with a selector. */
export interface Store<S> {
  get(): S;
  set(patch: Partial<S> | ((s: S) => Partial<S>)): void;
  subscribe(fn: () => void): () => void;
  use<T>(sel: (s: S) => T): T;
}

export function createStore<S extends object>(initial: S): Store<S> {
  let state = initial;
  const subs = new Set<() => void>();
  const store: Store<S> = {
    get: () => state,
    set(patch) {
      const p = typeof patch === 'function' ? patch(state) : patch;
      state = { ...state, ...p };
      for (const fn of [...subs]) fn();
    },
    subscribe(fn) {
      subs.add(fn);
      return () => subs.delete(fn);
    },
    use: (sel) => useSyncExternalStore(store.subscribe, () => sel(state), () => sel(state)),
  };
  return store;
}

/**
 * A load (a dynamic import) run once and shared by every caller: the server's libraries loaded on first use
 * (server/lib/lazyImport.ts) and the web app's chunks that start-up and the routes share (web/lib/chunks.ts).
 * A failed load is tried again by the next call. Once done, `loaded` says what it loaded without waiting (the
 * runtime's eagerLazy draws a component whose chunk is in without suspending).
 */
export interface Loader<M> {
  (): Promise<M>;
  readonly loaded?: M;
}

export function loadOnce<M>(load: () => Promise<M>): Loader<M> {
  let pending: Promise<M> | undefined;
  const run = (() =>
    (pending ??= load().then(
      (m) => {
        (run as { loaded?: M }).loaded = m;
        return m;
      },
      (e: unknown) => {
        pending = undefined;
        throw e;
      },
    ))) as Loader<M>;
  return run;
}

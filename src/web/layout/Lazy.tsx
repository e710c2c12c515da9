import { Suspense, useEffect, type ComponentType, type LazyExoticComponent } from 'react';
import Spin from 'antd/es/spin';
import { progressDone, progressStart } from '../lib/progress.js';

/** Fallback that keeps the progress bar running while a route chunk loads. */
export function Loading() {
  useEffect(() => {
    progressStart();
    return () => progressDone();
  }, []);
  return (
    <div className="page-loading">
      <Spin />
    </div>
  );
}

export function Lazy<P extends object>({ c: C, props }: { c: LazyExoticComponent<ComponentType<P>> | ComponentType<P>; props?: P }) {
  return (
    <Suspense fallback={<Loading />}>
      <C {...((props ?? {}) as P)} />
    </Suspense>
  );
}

import NProgress from 'nprogress';
import 'nprogress/nprogress.css';

NProgress.configure({ showSpinner: false, trickleSpeed: 200 });

let pending = 0;

/** Reference-counted progress bar: every request and navigation calls start/done in pairs. */
export function progressStart(): void {
  pending++;
  if (pending === 1) NProgress.start();
}

export function progressDone(): void {
  pending = Math.max(0, pending - 1);
  if (pending === 0) NProgress.done();
}

export function progressPending(): number {
  return pending;
}

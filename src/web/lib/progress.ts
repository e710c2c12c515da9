/**
 * The thin bar at the top of the page while requests and navigations are pending (the look of nprogress, which the
 * spec's front end used: a 3 px bar in the primary colour that creeps towards the end while work is pending, then
 * fills and fades). Our own few lines instead of the library: it was start-up code on every page (issue 13).
 * Styles: `.top-progress` in styles/shell.css.
 */
let pending = 0;
let bar: HTMLDivElement | null = null;
let value = 0;
let trickle: ReturnType<typeof setInterval> | undefined;
let hide: ReturnType<typeof setTimeout> | undefined;

function draw(): void {
  if (!bar) {
    bar = document.createElement('div');
    bar.className = 'top-progress';
    bar.setAttribute('role', 'progressbar');
    bar.setAttribute('aria-hidden', 'true'); // the page's own loading states speak; this bar is decoration
    document.body.appendChild(bar);
  }
  bar.style.transform = `scaleX(${value})`;
}

function show(): void {
  clearTimeout(hide);
  if (bar) bar.style.opacity = '1';
  value = Math.max(value, 0.08);
  draw();
  clearInterval(trickle);
  // creep towards the end, slower as it gets there, never reaching it before `done`
  trickle = setInterval(() => {
    value = Math.min(0.994, value + (1 - value) * (value < 0.5 ? 0.1 : 0.04));
    draw();
  }, 200);
}

function finish(): void {
  clearInterval(trickle);
  if (!bar) return;
  value = 1;
  draw();
  bar.style.opacity = '0';
  hide = setTimeout(() => {
    value = 0;
    if (bar) bar.style.transform = 'scaleX(0)';
  }, 400);
}

/** Reference-counted progress bar: every request and navigation calls start/done in pairs. */
export function progressStart(): void {
  pending++;
  if (pending === 1) show();
}

export function progressDone(): void {
  pending = Math.max(0, pending - 1);
  if (pending === 0) finish();
}

export function progressPending(): number {
  return pending;
}

import { createStore } from './createStore.js';
import { getStore, setStore, removeStore } from './storage.js';

/** Error log entry of the spec: type, url, time, message, stack, info. */
export interface ErrorLogEntry {
  type: string;
  url: string;
  time: string;
  message: string;
  stack: string;
  info: string;
}

export const errorLogStore = createStore<{ logs: ErrorLogEntry[] }>({ logs: getStore<ErrorLogEntry[]>('logsList') ?? [] });

function now(): string {
  const d = new Date();
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
}

export function addErrorLog(err: unknown, info = ''): void {
  const e = err instanceof Error ? err : new Error(typeof err === 'string' ? err : JSON.stringify(err));
  const entry: ErrorLogEntry = {
    type: 'error',
    url: window.location.href,
    time: now(),
    message: e.message || String(err),
    stack: e.stack ?? '',
    info,
  };
  const logs = [entry, ...errorLogStore.get().logs].slice(0, 500);
  errorLogStore.set({ logs });
  setStore('logsList', logs);
}

export function clearErrorLogs(): void {
  errorLogStore.set({ logs: [] });
  removeStore('logsList');
}

let installed = false;
/** Records uncaught errors and unhandled rejections. */
export function installErrorCapture(): void {
  if (installed) return;
  installed = true;
  window.addEventListener('error', (ev) => {
    if (!ev.error && !ev.message) return; // resource load errors
    addErrorLog(ev.error ?? ev.message, 'window.onerror');
  });
  window.addEventListener('unhandledrejection', (ev) => {
    addErrorLog(ev.reason, 'unhandledrejection');
  });
}

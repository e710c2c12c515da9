/**
 * antd's toasts (message) and dialogs (Modal.confirm …) through hooks whose code loads on first use (issue 13):
 * a page shows neither at first paint, and together they are some 20 kB. A call made before the code arrived
 * waits for it (milliseconds) and then shows; the holder renders where the caller puts it, so toasts and
 * dialogs take the page's theme and locale as antd's own hooks do.
 */
import { useCallback, useMemo, useRef, useState, type ReactNode } from 'react';
import type { ModalFuncProps } from 'antd';
import { useOnDemand } from './onDemand.js';
import type { FeedbackApis } from './FeedbackHost.js';
import { loadOnce } from '../../shared/loadOnce.js';

type Level = 'success' | 'error' | 'warning' | 'info';

export interface Feedback {
  toast: Record<Level, (text: string) => void>;
  modal: Record<Level | 'confirm', (config: ModalFuncProps) => void>;
}

const loadHost = loadOnce(() => import('./FeedbackHost.js'));
const LEVELS: Level[] = ['success', 'error', 'warning', 'info'];

/** The feedback functions (stable) and the element to render for them (nothing until first used). */
export function useFeedback(): [Feedback, ReactNode] {
  const [wanted, setWanted] = useState(false);
  const apis = useRef<FeedbackApis | null>(null);
  const waiting = useRef<Array<(a: FeedbackApis) => void>>([]);
  const run = useCallback((call: (a: FeedbackApis) => void) => {
    if (apis.current) return call(apis.current);
    waiting.current.push(call);
    setWanted(true);
  }, []);
  const feedback = useMemo<Feedback>(
    () => ({
      toast: Object.fromEntries(LEVELS.map((l) => [l, (text: string) => run((a) => void a.message[l](text))])) as Feedback['toast'],
      modal: Object.fromEntries([...LEVELS, 'confirm' as const].map((l) => [l, (config: ModalFuncProps) => run((a) => void a.modal[l](config))])) as Feedback['modal'],
    }),
    [run],
  );
  const onReady = useCallback((a: FeedbackApis) => {
    apis.current = a;
    for (const call of waiting.current.splice(0)) call(a);
  }, []);
  const Host = useOnDemand(loadHost, wanted)?.default;
  return [feedback, Host ? <Host onReady={onReady} /> : null];
}

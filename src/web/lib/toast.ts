import type { Feedback } from '../../runtime/react/feedback.js';

/**
 * Toasts and confirm dialogs for the shell, through the App's feedback (runtime/react/feedback.tsx: antd's message
 * and modal hooks, themed and localised, their code loaded with the first one). Before the App has mounted, antd's
 * static ones (loaded then).
 */
let feedback: Feedback | undefined;

export function bindFeedback(f: Feedback): void {
  feedback = f;
}

type Level = 'success' | 'error' | 'warning' | 'info';
function show(level: Level, text: string): void {
  if (feedback) feedback.toast[level](text);
  else void import('antd/es/message').then((m) => m.default[level](text));
}

export const toast = {
  error: (text: string) => show('error', text),
  success: (text: string) => show('success', text),
  warning: (text: string) => show('warning', text),
  info: (text: string) => show('info', text),
};

type ModalConfig = Parameters<Feedback['modal']['confirm']>[0];
function openModal(kind: keyof Feedback['modal'], config: ModalConfig): void {
  if (feedback) feedback.modal[kind](config);
  else void import('antd/es/modal').then((m) => m.default[kind](config));
}

/** Confirm dialog; resolves true on OK. */
export function confirmDialog(opts: { title: string; content?: string; okText?: string; cancelText?: string; danger?: boolean }): Promise<boolean> {
  return new Promise((resolve) => {
    openModal('confirm', {
      title: opts.title,
      content: opts.content,
      okText: opts.okText,
      cancelText: opts.cancelText,
      okButtonProps: { danger: opts.danger, className: 'confirm-ok' },
      onOk: () => resolve(true),
      onCancel: () => resolve(false),
    });
  });
}

export function alertDialog(opts: { title: string; content?: string; type?: 'success' | 'info' | 'warning' }): Promise<void> {
  return new Promise((resolve) => {
    openModal(opts.type ?? 'info', { title: opts.title, content: opts.content, onOk: () => resolve() });
  });
}

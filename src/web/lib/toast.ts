import { message as staticMessage, Modal } from 'antd';
import type { MessageInstance } from 'antd/es/message/interface';
import type { HookAPI } from 'antd/es/modal/useModal';

/** antd message/modal bound to the App context (theme + locale); the static ones until the App mounts. */
let api: MessageInstance = staticMessage;
type ModalLike = { [K in 'confirm' | 'success' | 'error' | 'warning' | 'info']: (cfg: Parameters<HookAPI[K]>[0]) => unknown };
let modal: ModalLike = Modal;

export function bindFeedback(m: MessageInstance, md: HookAPI): void {
  api = m;
  modal = md;
}

export const toast = {
  error: (text: string) => void api.error(text),
  success: (text: string) => void api.success(text),
  warning: (text: string) => void api.warning(text),
  info: (text: string) => void api.info(text),
};

/** Confirm dialog; resolves true on OK. */
export function confirmDialog(opts: { title: string; content?: string; okText?: string; cancelText?: string; danger?: boolean }): Promise<boolean> {
  return new Promise((resolve) => {
    modal.confirm({
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
    modal[opts.type ?? 'info']({ title: opts.title, content: opts.content, onOk: () => resolve() });
  });
}

/** The holders of antd's message and modal hooks (feedback.tsx), in their own chunk: hands their APIs over once mounted. */
import { useEffect } from 'react';
import { Modal, message } from 'antd';
import type { MessageInstance } from 'antd/es/message/interface';
import type { HookAPI } from 'antd/es/modal/useModal';

export interface FeedbackApis {
  message: MessageInstance;
  modal: HookAPI;
}

export default function FeedbackHost({ onReady }: { onReady: (apis: FeedbackApis) => void }) {
  const [messageApi, messageHolder] = message.useMessage();
  const [modalApi, modalHolder] = Modal.useModal();
  // after the holders are in the page: a toast asked for before now shows at once
  useEffect(() => onReady({ message: messageApi, modal: modalApi }), [messageApi, modalApi, onReady]);
  return (
    <>
      {messageHolder}
      {modalHolder}
    </>
  );
}

/**
 * The process diagram of an instance in a dialog (流程图展示): the model with the steps taken marked
 * (BpmnViewer). `load` is asked each time the dialog opens.
 */
import { useEffect, useState } from 'react';
import { Alert, Modal, Spin } from 'antd';
import { BpmnViewer } from './BpmnViewer.js';
import type { FlowStep } from './properties.js';
import { addFlowLocale, useFlowT } from './locale.js';

addFlowLocale();

export interface FlowDiagram {
  xml: string;
  flow: FlowStep[];
}

export interface FlowDiagramDialogProps {
  open: boolean;
  onClose: () => void;
  /** The instance's model and history (e.g. the diagram endpoint of the workflow module). */
  load: () => Promise<FlowDiagram>;
  /** Dialog width in px (default 1000). */
  width?: number;
}

export function FlowDiagramDialog({ open, onClose, load, width = 1000 }: FlowDiagramDialogProps) {
  const { ft } = useFlowT();
  const [state, setState] = useState<{ data?: FlowDiagram; error?: string; busy: boolean }>({ busy: false });
  useEffect(() => {
    if (!open) return;
    let live = true;
    setState({ busy: true });
    load().then(
      (data) => live && setState({ data, busy: false }),
      (e: unknown) => live && setState({ error: String((e as Error)?.message ?? e), busy: false }),
    );
    return () => {
      live = false;
    };
    // `load` is read when the dialog opens (callers often pass a new arrow each render)
  }, [open]); // eslint-disable-line react-hooks/exhaustive-deps
  return (
    <Modal open={open} onCancel={onClose} footer={null} width={width} title={ft('diagramTitle')} destroyOnHidden data-testid="flow-diagram-dialog">
      {state.error ? (
        <Alert type="error" showIcon title={ft('loadError')} description={state.error} />
      ) : state.data ? (
        <BpmnViewer xml={state.data.xml} flow={state.data.flow} height={520} />
      ) : (
        <Spin spinning tip={ft('loading')}>
          <div style={{ height: 520 }} />
        </Spin>
      )}
    </Modal>
  );
}

export default FlowDiagramDialog;

/**
 * The `flowDiagram` action dialog (a work list's 流程图 button): GET the action's endpoint (process/model-view)
 * with the row's processInstanceId or processDefinitionId, and show the diagram with the path taken.
 */
import { useCallback } from 'react';
import { useRuntime } from '../context.js';
import type { ActionDialogProps } from '../registry.js';
import { FlowDiagramDialog, type FlowDiagram } from './FlowDiagramDialog.js';

export default function FlowDiagramAction({ url, params, onClose }: ActionDialogProps) {
  const { request } = useRuntime();
  const load = useCallback(() => request<FlowDiagram>('GET', url, { params, silent: true }), [request, url, params]);
  return <FlowDiagramDialog open onClose={onClose} load={load} />;
}

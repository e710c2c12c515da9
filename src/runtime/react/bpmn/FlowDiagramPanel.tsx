/**
 * The process diagram inline (a process form's 流程图 card): the model of an instance with the path taken, or of a
 * definition before it starts. bpmn-js comes with this chunk, so it loads only on workflow pages.
 */
import useSWR from 'swr';
import { Alert, Spin } from 'antd';
import { useRuntime } from '../context.js';
import { BpmnViewer } from './BpmnViewer.js';
import type { FlowDiagram } from './FlowDiagramDialog.js';
import { addFlowLocale, useFlowT } from './locale.js';

addFlowLocale();

export const MODEL_VIEW_URL = '/api/blade-flow/process/model-view';

export interface FlowDiagramPanelProps {
  /** processInstanceId (the path is marked) or processDefinitionId (the model only). */
  params: { processInstanceId?: string; processDefinitionId?: string };
  /** Changes when the instance moved on (the panel loads it again). */
  version?: number;
  height?: number;
}

export default function FlowDiagramPanel({ params, version = 0, height = 420 }: FlowDiagramPanelProps) {
  const { request } = useRuntime();
  const { ft } = useFlowT();
  const { data, error } = useSWR(['runtime:flow-diagram', JSON.stringify(params), version], () => request<FlowDiagram>('GET', MODEL_VIEW_URL, { params, silent: true }), {
    revalidateOnFocus: false,
  });
  if (error) return <Alert type="error" showIcon title={ft('loadError')} description={String((error as Error)?.message ?? error)} />;
  if (!data) return <Spin spinning tip={ft('loading')}><div style={{ height }} /></Spin>;
  return (
    <div data-testid="flow-diagram-inline">
      <BpmnViewer xml={data.xml} flow={data.flow} height={height} />
    </div>
  );
}

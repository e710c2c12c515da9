/** The process diagram in a card of a process form (bpmn-js in its own chunk, loaded with the card). */
import { lazy, Suspense } from 'react';
import { Card, Spin } from 'antd';
import { useRuntime } from '../../context.js';

const FlowDiagramPanel = lazy(() => import('../../bpmn/FlowDiagramPanel.js'));

/** The process diagram card; `version` changes when the instance moved on. */
export function DiagramCard({ params, version }: { params: { processInstanceId?: string; processDefinitionId?: string }; version?: number }) {
  const { t } = useRuntime();
  return (
    <Card size="small" title={t('runtime.flow.diagram')} className="flow-form-card">
      <Suspense fallback={<Spin style={{ display: 'block', margin: '40px auto' }} />}>
        <FlowDiagramPanel params={params} version={version} />
      </Suspense>
    </Card>
  );
}


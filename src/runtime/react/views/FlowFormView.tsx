/**
 * The `flowForm` view: a workflow process's form at the routes the work lists open (BladeX's
 * /work/process/<route>/…) — `form/:processDefinitionId` starts the process with the document's editable fields,
 * `handle/:taskId/:processInstanceId/:businessId` shows the record and its history and approves or rejects,
 * `detail/:processInstanceId/:businessId` shows them. Each with the process diagram (bpmn-js, its own chunk).
 */
import { Result } from 'antd';
import type { ScreenDocument } from '../../../shared/document.js';
import { useRuntime } from '../context.js';
import type { ViewProps } from '../registry.js';
import { FlowStart } from './flow/FlowStart.js';
import { FlowRecord } from './flow/FlowRecord.js';

/** Which page of the process form the address names, with its ids; null for an address it does not know. */
export function flowFormPage(subPath: readonly string[] | undefined):
  | { mode: 'form'; processDefinitionId: string }
  | { mode: 'handle'; taskId: string; processInstanceId: string; businessId: string }
  | { mode: 'detail'; processInstanceId: string; businessId: string }
  | null {
  const [mode, ...ids] = subPath ?? [];
  if (ids.some((p) => !p)) return null;
  if (mode === 'form' && ids.length === 1) return { mode, processDefinitionId: ids[0] };
  if (mode === 'handle' && ids.length === 3 && ids.every((p) => /^\d{1,19}$/.test(p))) return { mode, taskId: ids[0], processInstanceId: ids[1], businessId: ids[2] };
  if (mode === 'detail' && ids.length === 2 && ids.every((p) => /^\d{1,19}$/.test(p))) return { mode, processInstanceId: ids[0], businessId: ids[1] };
  return null;
}

export default function FlowFormView({ doc }: ViewProps) {
  const { t, subPath } = useRuntime();
  const page = flowFormPage(subPath);
  const screen = doc as ScreenDocument;
  if (!page) return <Result status="404" data-testid="flow-form-unknown" title={t('runtime.flow.unknownPage')} />;
  return (
    <div className="flow-form" data-testid={`flow-form-${page.mode}`}>
      {page.mode === 'form' ? (
        <FlowStart doc={screen} processDefinitionId={page.processDefinitionId} />
      ) : (
        <FlowRecord doc={screen} processInstanceId={page.processInstanceId} businessId={page.businessId} taskId={page.mode === 'handle' ? page.taskId : undefined} />
      )}
    </div>
  );
}

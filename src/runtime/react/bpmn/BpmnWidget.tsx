/**
 * The `bpmn` widget of screen documents (`"ui:widget": "bpmn"`, ui:options `height`): a BPMN XML field edited with
 * the workflow designer, or shown in the viewer when read-only. widgets.tsx registers it as a lazy widget, and the
 * designer itself is lazy again here, so bpmn-js is only fetched when such a field is shown.
 */
import { lazy, Suspense, useMemo } from 'react';
import { Spin } from 'antd';
import type { WidgetProps } from '@rjsf/utils';
import type { RequestFn } from '../context.js';
import type { RoleOption } from './BpmnModeler.js';

const BpmnModeler = lazy(() => import('./BpmnModeler.js'));

type Roles = { records?: Array<Record<string, unknown>> } | Array<Record<string, unknown>>;

/** The roles of the candidate groups select, through the runtime's request. */
export function roleLoader(request: RequestFn): () => Promise<RoleOption[]> {
  return async () => {
    const reply = await request<Roles>('GET', '/api/blade-system/role/list', { params: { current: 1, size: 200 }, silent: true });
    const rows = Array.isArray(reply) ? reply : (reply?.records ?? []);
    return rows.filter((r) => r.roleAlias).map((r) => ({ value: String(r.roleAlias), label: `${String(r.roleName ?? r.roleAlias)} (${String(r.roleAlias)})` }));
  };
}

export default function BpmnWidget(props: WidgetProps) {
  const { id, value, onChange, disabled, readonly, options, registry } = props;
  const request = (registry.formContext as { request?: RequestFn } | undefined)?.request;
  const height = typeof options.height === 'number' ? options.height : 520;
  const loadRoles = useMemo(() => (request ? roleLoader(request) : undefined), [request]);
  return (
    <div id={id} style={{ width: '100%' }}>
      <Suspense fallback={<Spin spinning><div style={{ height }} /></Spin>}>
        <BpmnModeler value={typeof value === 'string' ? value : undefined} onChange={(xml) => onChange(xml)} height={height} readonly={readonly || disabled} loadRoles={loadRoles} />
      </Suspense>
    </div>
  );
}

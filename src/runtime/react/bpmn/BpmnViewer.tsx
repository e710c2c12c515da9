/**
 * A BPMN diagram in view mode (bpmn-js NavigatedViewer: pan and zoom, no editing), fitted to its box, with an
 * instance's history marked: done activities green, current ones blue, the sequence flows taken orange.
 * bpmn-js is imported when the viewer mounts, so it stays in the workflow chunks.
 */
import { useEffect, useRef, useState } from 'react';
import { Alert, Spin } from 'antd';
import 'bpmn-js/dist/assets/diagram-js.css';
import 'bpmn-js/dist/assets/bpmn-js.css';
import 'bpmn-js/dist/assets/bpmn-font/css/bpmn.css';
import './flow.css';
import flowable from '../../../shared/flowable-moddle.json';
import { flowMarkers, type FlowStep } from './properties.js';
import { addFlowLocale, useFlowT } from './locale.js';

addFlowLocale();

export interface BpmnViewerProps {
  /** The BPMN 2.0 XML. */
  xml: string;
  /** The instance's history (the diagram endpoint's `flow`): what to mark. */
  flow?: FlowStep[];
  /** Height of the canvas in px (default 480). */
  height?: number;
  /** Shows the colour legend under the canvas when there is a history (default true). */
  legend?: boolean;
}

/** Fits the diagram to its box, unless the box has no size (hidden, not laid out yet: the zoom would be NaN). */
export function fitViewport(canvas: { zoom(level: 'fit-viewport', center?: 'auto'): number; resized(): void }, el: HTMLElement | null | undefined): void {
  if (!el || el.clientWidth <= 0 || el.clientHeight <= 0) return;
  // the canvas keeps the size it measured last (0 × 0 while it was hidden)
  canvas.resized();
  canvas.zoom('fit-viewport', 'auto');
}

interface Canvas {
  zoom(level: 'fit-viewport', center?: 'auto'): number;
  resized(): void;
  addMarker(id: string, marker: string): void;
}
interface ElementRegistry {
  get(id: string): unknown;
}

export function BpmnViewer({ xml, flow, height = 480, legend = true }: BpmnViewerProps) {
  const { ft } = useFlowT();
  const box = useRef<HTMLDivElement>(null);
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(true);
  const flowKey = JSON.stringify(flow ?? []);

  useEffect(() => {
    let cancelled = false;
    let viewer: { destroy(): void } | undefined;
    setBusy(true);
    setError(undefined);
    void (async () => {
      try {
        const { default: NavigatedViewer } = await import('bpmn-js/lib/NavigatedViewer');
        if (cancelled || !box.current) return;
        const v = new NavigatedViewer({ container: box.current, moddleExtensions: { flowable } });
        viewer = v;
        await v.importXML(xml);
        if (cancelled) return;
        const canvas = v.get<Canvas>('canvas');
        const registry = v.get<ElementRegistry>('elementRegistry');
        for (const [id, marker] of flowMarkers(JSON.parse(flowKey) as FlowStep[])) if (registry.get(id)) canvas.addMarker(id, marker);
        fitViewport(canvas, box.current);
        // the box may get its size only after a dialog's opening animation
        requestAnimationFrame(() => !cancelled && fitViewport(canvas, box.current));
      } catch (e) {
        if (!cancelled) setError(String((e as Error)?.message ?? e).split('\n')[0]);
      } finally {
        if (!cancelled) setBusy(false);
      }
    })();
    return () => {
      cancelled = true;
      viewer?.destroy();
    };
  }, [xml, flowKey]);

  return (
    <div data-testid="bpmn-viewer">
      {error && <Alert type="error" showIcon title={ft('importError')} description={error} style={{ marginBottom: 8 }} />}
      <Spin spinning={busy}>
        <div ref={box} className="flow-canvas" style={{ height, display: error ? 'none' : undefined }} />
      </Spin>
      {legend && !error && (flow?.length ?? 0) > 0 && (
        <div className="flow-legend">
          <span>
            <i className="done" />
            {ft('legendDone')}
          </span>
          <span>
            <i className="current" />
            {ft('legendCurrent')}
          </span>
          <span>
            <i className="path" />
            {ft('legendPath')}
          </span>
        </div>
      )}
    </div>
  );
}

export default BpmnViewer;

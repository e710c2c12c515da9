/**
 * The workflow designer: the bpmn-js Modeler (imported when it mounts, so bpmn-js stays in the workflow chunks)
 * with our `flowable:` attributes, and beside it a small properties panel (properties.ts) for the selected element,
 * or the process when nothing is selected. Every change of the diagram is given back as formatted XML.
 *
 * Differences from plain bpmn-js, for what the engine runs: the palette and the context pad create user tasks (not
 * plain tasks) and offer no pools, sub-processes, data objects or message/signal events; bpmn-js's own texts follow
 * the app's language.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Alert, Button, Form, Input, Select, Spin, Tag, Typography } from 'antd';
import 'bpmn-js/dist/assets/diagram-js.css';
import 'bpmn-js/dist/assets/bpmn-js.css';
import 'bpmn-js/dist/assets/bpmn-font/css/bpmn.css';
import './flow.css';
import flowable from '../../../shared/flowable-moddle.json';
import { elementWarnings, emptyDiagram, fieldsFor, joinList, newProcessId, splitList, type ElementDescription, type FieldKey, type PropField } from './properties.js';
import { addFlowLocale, translateBpmn, useFlowT } from './locale.js';
import { BpmnViewer, fitViewport } from './BpmnViewer.js';

addFlowLocale();

export interface RoleOption {
  value: string;
  label: string;
}

export interface BpmnModelerProps {
  /** The BPMN 2.0 XML; empty or undefined starts from a new process (start → end). */
  value: string | undefined;
  /** Called with the formatted XML after every change of the diagram. */
  onChange(xml: string): void;
  /** Height of the canvas in px (default 520). */
  height?: number;
  /** Shows the diagram in the viewer (no editing). */
  readonly?: boolean;
  /** The roles candidate groups are chosen from (value: role alias); without it the roles are typed freely. */
  loadRoles?: () => Promise<RoleOption[]>;
}

// The parts of bpmn-js we call (its own types are loose on services got by name).
/* eslint-disable @typescript-eslint/no-explicit-any */
type Bo = Record<string, any> & { $type: string; get(name: string): unknown };
interface Shape {
  id: string;
  type: string;
  businessObject: Bo;
  labelTarget?: Shape;
}
interface ModelerLike {
  importXML(xml: string): Promise<{ warnings: unknown[] }>;
  saveXML(o: { format: boolean }): Promise<{ xml?: string }>;
  get<T>(name: string): T;
  on(event: string, cb: (e: any) => void): void;
  destroy(): void;
}
interface Modeling {
  updateProperties(element: Shape, props: Record<string, unknown>): void;
  updateModdleProperties(element: Shape, bo: unknown, props: Record<string, unknown>): void;
}
interface Moddle {
  create(type: string, attrs: Record<string, unknown>): unknown;
}
interface Canvas {
  getRootElement(): Shape;
  zoom(level: 'fit-viewport', center?: 'auto'): number;
  resized(): void;
}

const FLOWABLE_ATTRS = ['assignee', 'candidateUsers', 'candidateGroups', 'formKey', 'candidateStarterUsers', 'candidateStarterGroups'];

/** The plain description properties.ts reads, of a diagram element. */
export function describeElement(element: Shape): ElementDescription {
  const bo = element.businessObject;
  const attrs: Record<string, unknown> = { id: bo.id, name: bo.name };
  if (bo.$type === 'bpmn:UserTask' || bo.$type === 'bpmn:Process') {
    for (const k of FLOWABLE_ATTRS) {
      const v = bo.get(`flowable:${k}`);
      if (v !== undefined && v !== null) attrs[`flowable:${k}`] = v;
    }
  }
  const defs: Bo[] = bo.eventDefinitions ?? [];
  const timer = defs.find((d) => d.$type === 'bpmn:TimerEventDefinition');
  if (timer) attrs.timeDuration = timer.timeDuration?.body ?? '';
  if (bo.$type === 'bpmn:SequenceFlow') {
    attrs.conditionExpression = bo.conditionExpression?.body ?? '';
    if (bo.conditionExpression?.language) attrs.conditionLanguage = bo.conditionExpression.language;
  }
  return { type: bo.$type, attrs, sourceType: bo.sourceRef?.$type, eventDefinitions: defs.map((d) => d.$type) };
}

/** Palette and context pad for what the engine runs; bpmn-js's texts through our locale. */
function FlowPadAndPalette(this: unknown, palette: any, contextPad: any, elementFactory: any, create: any, injector: any, translate: (s: string) => string) {
  const autoPlace = injector.get('autoPlace', false);
  const userTask = () => elementFactory.createShape({ type: 'bpmn:UserTask' });
  const NOT_RUN = ['create.data-object', 'create.data-store', 'create.subprocess-expanded', 'create.participant-expanded', 'create.group'];
  palette.registerProvider(500, {
    getPaletteEntries: () => (entries: Record<string, any>) => {
      for (const k of NOT_RUN) delete entries[k];
      if (entries['create.task']) {
        const start = (event: Event) => create.start(event, userTask());
        entries['create.task'] = { ...entries['create.task'], className: 'bpmn-icon-user-task', title: translate('Create user task'), action: { dragstart: start, click: start } };
      }
      return entries;
    },
  });
  const NOT_APPENDED = ['append.receive-task', 'append.message-intermediate-event', 'append.condition-intermediate-event', 'append.signal-intermediate-event', 'append.compensation-activity'];
  contextPad.registerProvider(500, {
    getContextPadEntries: () => (entries: Record<string, any>) => {
      for (const k of NOT_APPENDED) delete entries[k];
      if (entries['append.append-task']) {
        const start = (event: Event, element: Shape) => create.start(event, userTask(), { source: element });
        const append = autoPlace ? (_: Event, element: Shape) => autoPlace.append(element, userTask()) : start;
        entries['append.append-task'] = {
          group: 'model',
          className: 'bpmn-icon-user-task',
          title: translate('Append user task'),
          action: { dragstart: start, click: append },
        };
      }
      return entries;
    },
  });
}
FlowPadAndPalette.$inject = ['palette', 'contextPad', 'elementFactory', 'create', 'injector', 'translate'];

const flowModule = {
  __init__: ['flowPadAndPalette'],
  flowPadAndPalette: ['type', FlowPadAndPalette],
  translate: ['value', translateBpmn],
};

export function BpmnModeler(props: BpmnModelerProps) {
  if (props.readonly) return <BpmnViewer xml={props.value || emptyDiagram('Process_1', '')} height={props.height ?? 520} />;
  return <Designer {...props} />;
}

function Designer({ value, onChange, height = 520, loadRoles }: BpmnModelerProps) {
  const { ft } = useFlowT();
  const box = useRef<HTMLDivElement>(null);
  const modelerRef = useRef<ModelerLike>(undefined);
  const [ready, setReady] = useState(false);
  const [error, setError] = useState<string>();
  const [selected, setSelected] = useState<Shape | null>(null);
  const [root, setRoot] = useState<Shape | null>(null);
  const [rev, setRev] = useState(0);
  /** XML we gave back since the last import: when it comes back as `value`, there is nothing to import. */
  const emitted = useRef(new Set<string>());
  const changeRef = useRef(onChange);
  changeRef.current = onChange;

  // the modeler, once
  useEffect(() => {
    let cancelled = false;
    let modeler: ModelerLike | undefined;
    void (async () => {
      try {
        const { default: Modeler } = await import('bpmn-js/lib/Modeler');
        if (cancelled || !box.current) return;
        modeler = new Modeler({ container: box.current, moddleExtensions: { flowable }, additionalModules: [flowModule] }) as unknown as ModelerLike;
        modelerRef.current = modeler;
        modeler.on('selection.changed', (e: { newSelection: Shape[] }) => {
          const s = e.newSelection.length === 1 ? e.newSelection[0] : null;
          setSelected(s?.labelTarget ?? s);
        });
        modeler.on('commandStack.changed', () => {
          setRev((r) => r + 1);
          const m = modeler;
          if (!m) return;
          void m.saveXML({ format: true }).then(({ xml }) => {
            if (cancelled || !xml) return;
            emitted.current.add(xml);
            changeRef.current(xml);
          });
        });
        modeler.on('import.done', (e: { error?: unknown }) => {
          setSelected(null);
          // after a failed import the canvas has only an implicit root (no process behind it)
          const r = e.error ? undefined : modeler!.get<Canvas>('canvas').getRootElement();
          setRoot(r?.businessObject ? r : null);
        });
        setReady(true);
      } catch (e) {
        if (!cancelled) setError(String((e as Error)?.message ?? e));
      }
    })();
    return () => {
      cancelled = true;
      modeler?.destroy();
      modelerRef.current = undefined;
    };
  }, []);

  const load = useCallback(async (xml: string) => {
    const m = modelerRef.current;
    if (!m) return;
    emitted.current.clear();
    try {
      await m.importXML(xml);
      setError(undefined);
      const canvas = m.get<Canvas>('canvas');
      // after the box is shown again (it is hidden while an import error shows)
      requestAnimationFrame(() => modelerRef.current === m && fitViewport(canvas, box.current));
    } catch (e) {
      setError(String((e as Error)?.message ?? e).split('\n')[0]);
    }
  }, []);

  // the value, when it is not what we gave back
  useEffect(() => {
    if (!ready) return;
    if (value && emitted.current.has(value)) return;
    void load(value || emptyDiagram(newProcessId(), ''));
  }, [ready, value, load]);

  const startOver = async () => {
    await load(emptyDiagram(newProcessId(), ''));
    const xml = (await modelerRef.current?.saveXML({ format: true }))?.xml;
    if (xml) {
      emitted.current.add(xml);
      onChange(xml);
    }
  };

  const element = selected?.businessObject ? selected : root;
  return (
    <div data-testid="bpmn-modeler">
      {error && (
        <Alert
          type="error"
          showIcon
          title={ft('importError')}
          description={error}
          style={{ marginBottom: 8 }}
          action={
            <Button size="small" onClick={() => void startOver()}>
              {ft('newDiagram')}
            </Button>
          }
        />
      )}
      <div className="flow-designer" style={{ display: error ? 'none' : undefined }}>
        <div className="flow-designer-canvas">
          <Spin spinning={!ready}>
            <div ref={box} className="flow-canvas" style={{ height }} />
          </Spin>
        </div>
        <div className="flow-designer-panel" style={{ maxHeight: height }}>
          {ready && element && modelerRef.current && (
            <PropertiesPanel key={elementKey(element)} element={element} isRoot={!selected} modeler={modelerRef.current} rev={rev} loadRoles={loadRoles} />
          )}
        </div>
      </div>
    </div>
  );
}

// A stable key per element object (its id may change while the panel is being typed in).
const keys = new WeakMap<object, number>();
let nextKey = 1;
function elementKey(el: object): number {
  let k = keys.get(el);
  if (!k) keys.set(el, (k = nextKey++));
  return k;
}

function PropertiesPanel({ element, isRoot, modeler, rev, loadRoles }: { element: Shape; isRoot: boolean; modeler: ModelerLike; rev: number; loadRoles?: () => Promise<RoleOption[]> }) {
  const { t, ft } = useFlowT();
  // rev: re-read the element after every change of the diagram (undo included)
  const desc = useMemo(() => describeElement(element), [element, rev]); // eslint-disable-line react-hooks/exhaustive-deps
  const fields = fieldsFor(desc);
  const warnings = elementWarnings(desc);
  const roles = useRoles(loadRoles);

  const apply = (key: FieldKey, raw: string) => {
    const value = raw === '' ? undefined : raw;
    const modeling = modeler.get<Modeling>('modeling');
    const moddle = modeler.get<Moddle>('moddle');
    if (key === 'conditionExpression') {
      modeling.updateProperties(element, { conditionExpression: value ? moddle.create('bpmn:FormalExpression', { body: value }) : undefined });
    } else if (key === 'timeDuration') {
      const timer = (element.businessObject.eventDefinitions ?? []).find((d: Bo) => d.$type === 'bpmn:TimerEventDefinition');
      if (timer) modeling.updateModdleProperties(element, timer, { timeDuration: value ? moddle.create('bpmn:FormalExpression', { body: value }) : undefined });
    } else {
      modeling.updateProperties(element, { [key]: value });
    }
  };

  const typeName = desc.type.replace(/^bpmn:/, '');
  const typeLabel = t(`flowDesigner.type.${typeName}`, { defaultValue: typeName });
  return (
    <div data-testid="bpmn-properties">
      <div className="flow-designer-panel-title">
        <span>{ft(isRoot ? 'process' : 'properties')}</span>
        <Tag>{typeLabel}</Tag>
      </div>
      {warnings.map((w) => (
        <Alert key={w} type="warning" showIcon title={t(w)} style={{ marginBottom: 8 }} />
      ))}
      <Form layout="vertical" size="small" component="div">
        {fields.map((f) => (
          <FieldInput key={f.key} field={f} roles={roles} onCommit={(v) => apply(f.key, v)} />
        ))}
      </Form>
      {!isRoot && (
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          ID: {desc.attrs.id as string}
        </Typography.Text>
      )}
    </div>
  );
}

/** The role list, loaded once per panel set (undefined: free typing). */
let rolesCache: { load: () => Promise<RoleOption[]>; roles: Promise<RoleOption[]> } | undefined;
function useRoles(loadRoles?: () => Promise<RoleOption[]>): RoleOption[] | undefined {
  const [roles, setRoles] = useState<RoleOption[]>();
  useEffect(() => {
    if (!loadRoles) return;
    if (rolesCache?.load !== loadRoles) rolesCache = { load: loadRoles, roles: loadRoles().catch(() => []) };
    let live = true;
    void rolesCache.roles.then((r) => live && setRoles(r));
    return () => {
      live = false;
    };
  }, [loadRoles]);
  return loadRoles ? (roles ?? []) : undefined;
}

function FieldInput({ field, roles, onCommit }: { field: PropField; roles?: RoleOption[]; onCommit: (v: string) => void }) {
  const { t } = useFlowT();
  const [text, setText] = useState(field.value);
  // what we last wrote: a model value that differs came from elsewhere (undo, a label edited on the canvas)
  const written = useRef(field.value);
  useEffect(() => {
    if (field.value !== written.current) {
      written.current = field.value;
      setText(field.value);
    }
  }, [field.value]);
  const problem = field.check ? field.check(text) : null;
  const commit = (v: string) => {
    setText(v);
    // a process key that is not an NCName would make the XML unreadable: kept here until it is right
    if (field.kind === 'id' && field.check?.(v)) return;
    written.current = v.trim() === '' ? '' : v;
    onCommit(v.trim() === '' ? '' : v);
  };
  const label = t(field.label);
  const placeholder = field.placeholder ? t(field.placeholder) : undefined;
  let input;
  if (field.kind === 'users' || field.kind === 'groups') {
    const list = splitList(text);
    const choose = field.kind === 'groups' && roles;
    input = (
      <Select
        mode={choose ? 'multiple' : 'tags'}
        allowClear
        style={{ width: '100%' }}
        placeholder={placeholder}
        value={list}
        tokenSeparators={[',', '，', ' ']}
        options={choose ? roles : []}
        showSearch={choose ? { optionFilterProp: 'label' } : undefined}
        open={choose ? undefined : false}
        suffixIcon={choose ? undefined : null}
        onChange={(v: string[]) => commit(joinList(v) ?? '')}
        data-testid={`flow-field-${field.key}`}
      />
    );
  } else {
    input = (
      <Input
        value={text}
        placeholder={placeholder}
        allowClear={field.kind !== 'id'}
        onChange={(e) => commit(e.target.value)}
        data-testid={`flow-field-${field.key}`}
        style={field.kind === 'condition' || field.kind === 'duration' ? { fontFamily: 'monospace' } : undefined}
      />
    );
  }
  return (
    <Form.Item label={label} validateStatus={problem ? 'error' : undefined} help={problem ? t(problem) : undefined}>
      {input}
    </Form.Item>
  );
}

export default BpmnModeler;

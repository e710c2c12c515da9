/**
 * The workflow designer's properties panel as plain data (no React, no bpmn-js): which fields an element of the
 * diagram shows, their current values, and the checks the engine (src/server/modules/flow/bpmn.ts) would make
 * when the model is deployed, so the designer says what is wrong while it is drawn. Messages are i18n keys under
 * `flowDesigner.` (./locale.ts).
 */
import { expressionError } from '../../../shared/flow-expression.js';

/** What the panel knows of the selected element (or of the process when nothing is selected). */
export interface ElementDescription {
  /** The businessObject's type, e.g. `bpmn:UserTask`. */
  type: string;
  /**
   * The businessObject's attributes: `id`, `name`, `flowable:assignee` (the bare name `assignee` is read too), …;
   * for a sequence flow `conditionExpression` (its body), for a timer event `timeDuration` (its body).
   */
  attrs: Record<string, unknown>;
  /** A sequence flow's source type (`bpmn:ExclusiveGateway`: the flow takes a condition). */
  sourceType?: string;
  /** An event's eventDefinitions types (`bpmn:TimerEventDefinition`). */
  eventDefinitions?: string[];
}

/** How a field is edited: a line of text, a list of user ids or role aliases (comma-joined in the XML). */
export type FieldKind = 'text' | 'users' | 'groups' | 'condition' | 'duration' | 'id';

/** The attribute a field edits: a businessObject property, or `conditionExpression` / `timeDuration` (their body). */
export type FieldKey =
  | 'id'
  | 'name'
  | 'flowable:assignee'
  | 'flowable:candidateUsers'
  | 'flowable:candidateGroups'
  | 'flowable:formKey'
  | 'flowable:candidateStarterGroups'
  | 'conditionExpression'
  | 'timeDuration';

export interface PropField {
  key: FieldKey;
  kind: FieldKind;
  /** i18n key of the label. */
  label: string;
  /** i18n key of the placeholder. */
  placeholder?: string;
  /** The current value ('' when unset). */
  value: string;
  /** The check of this field's text: null, or the i18n key of what is wrong. */
  check?: (text: string) => string | null;
}

const P = 'flowDesigner.';

/** Element types the engine runs (others are refused when the model is deployed). */
export const SUPPORTED_TYPES = new Set([
  'bpmn:Process',
  'bpmn:StartEvent',
  'bpmn:EndEvent',
  'bpmn:UserTask',
  'bpmn:ExclusiveGateway',
  'bpmn:ParallelGateway',
  'bpmn:SequenceFlow',
  'bpmn:BoundaryEvent',
  'bpmn:IntermediateCatchEvent',
  'bpmn:TextAnnotation',
  'bpmn:Association',
]);

function text(v: unknown): string {
  if (v === undefined || v === null) return '';
  if (typeof v === 'object' && 'body' in (v as object)) return text((v as { body?: unknown }).body);
  return String(v);
}

function attr(el: ElementDescription, key: FieldKey): string {
  const bare = key.startsWith('flowable:') ? key.slice('flowable:'.length) : undefined;
  return text(el.attrs[key] ?? (bare ? el.attrs[bare] : undefined));
}

const isTimer = (el: ElementDescription) => (el.eventDefinitions ?? []).includes('bpmn:TimerEventDefinition');

/** The editable fields of an element, in panel order. */
export function fieldsFor(el: ElementDescription): PropField[] {
  const f = (key: FieldKey, kind: FieldKind, label: string, extra: Partial<PropField> = {}): PropField => ({ key, kind, label: P + label, value: attr(el, key), ...extra });
  const name = f('name', 'text', 'field.name');
  switch (el.type) {
    case 'bpmn:Process':
      return [
        f('id', 'id', 'field.processKey', { check: checkProcessId }),
        f('name', 'text', 'field.processName'),
        f('flowable:candidateStarterGroups', 'groups', 'field.starterGroups', { placeholder: P + 'placeholder.starterGroups' }),
      ];
    case 'bpmn:UserTask':
      return [
        name,
        f('flowable:assignee', 'text', 'field.assignee', { placeholder: P + 'placeholder.assignee', check: checkUserExpression }),
        f('flowable:candidateUsers', 'users', 'field.candidateUsers', { placeholder: P + 'placeholder.candidateUsers' }),
        f('flowable:candidateGroups', 'groups', 'field.candidateGroups', { placeholder: P + 'placeholder.candidateGroups' }),
        f('flowable:formKey', 'text', 'field.formKey'),
      ];
    case 'bpmn:SequenceFlow':
      return el.sourceType === 'bpmn:ExclusiveGateway'
        ? [name, f('conditionExpression', 'condition', 'field.condition', { placeholder: P + 'placeholder.condition', check: checkCondition })]
        : [name];
    case 'bpmn:BoundaryEvent':
    case 'bpmn:IntermediateCatchEvent':
      return isTimer(el) ? [name, f('timeDuration', 'duration', 'field.timeDuration', { placeholder: P + 'placeholder.timeDuration', check: checkDuration })] : [name];
    default:
      return [name];
  }
}

/**
 * What the engine would refuse about the element as a whole (not one field), as i18n keys: a type it does not run,
 * a user task nobody can take, a catch event that is not a timer.
 */
export function elementWarnings(el: ElementDescription): string[] {
  const out: string[] = [];
  if (!SUPPORTED_TYPES.has(el.type)) out.push(el.type === 'bpmn:Task' ? P + 'warn.plainTask' : P + 'warn.unsupported');
  if (el.type === 'bpmn:UserTask' && !attr(el, 'flowable:assignee').trim() && !attr(el, 'flowable:candidateUsers').trim() && !attr(el, 'flowable:candidateGroups').trim()) {
    out.push(P + 'warn.nobody');
  }
  if ((el.type === 'bpmn:BoundaryEvent' || el.type === 'bpmn:IntermediateCatchEvent') && !isTimer(el)) out.push(P + 'warn.timerOnly');
  if ((el.type === 'bpmn:StartEvent' || el.type === 'bpmn:EndEvent') && (el.eventDefinitions ?? []).some((d) => d !== 'bpmn:TerminateEventDefinition' || el.type === 'bpmn:StartEvent')) {
    out.push(P + 'warn.unsupported');
  }
  if (el.type === 'bpmn:SequenceFlow' && el.attrs.conditionLanguage) out.push(P + 'warn.scriptCondition');
  return out;
}

/** Why the inside of `${ … }` is not an expression of the language (the engine's own grammar), or null. */
export function checkExpression(inner: string): string | null {
  const error = expressionError(inner);
  return error ? `${P}error.condition${error.code.charAt(0).toUpperCase()}${error.code.slice(1)}` : null;
}

const WHOLE = /^\s*\$\{([^{}]*)\}\s*$/;

/**
 * A sequence flow's condition: empty (the flow is always taken), or one `${ … }` of the expression language
 * (`${days > 3}`, `${pass}`, `${type == 'sick' && days >= 1}`). Returns null, or the i18n key of what is wrong.
 */
export function checkCondition(value: string | null | undefined): string | null {
  const s = (value ?? '').trim();
  if (!s) return null;
  const m = WHOLE.exec(s);
  if (!m) return P + 'error.conditionWrap';
  return checkExpression(m[1]);
}

/** An assignee: a user id, or one `${variable}` expression (`${applyUser}`). */
export function checkUserExpression(value: string | null | undefined): string | null {
  const s = (value ?? '').trim();
  if (!s.includes('$') && !s.includes('{') && !s.includes('}')) return null;
  const m = WHOLE.exec(s);
  if (!m) return P + 'error.conditionWrap';
  return checkExpression(m[1]);
}

const DURATION = /^P(?!$)(\d+D)?(T(?=\d)(\d+H)?(\d+M)?(\d+S)?)?$/;
const VARIABLE = /^\$\{\s*[A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*)*\s*\}$/;

/** A timer's duration: ISO-8601 days/hours/minutes/seconds (P2D, PT48H, PT30M, P1DT12H) or `${variable}`. */
export function checkDuration(value: string | null | undefined): string | null {
  const s = (value ?? '').trim();
  if (!s) return P + 'error.durationRequired';
  if (DURATION.test(s) || VARIABLE.test(s)) return null;
  return P + 'error.duration';
}

/** The process key (the process id): an XML NCName, as the engine takes it (a letter or _, then letters, digits, _ . -; 64 at most). */
export function checkProcessId(value: string | null | undefined): string | null {
  const s = value ?? '';
  if (!s) return P + 'error.processIdRequired';
  return /^[A-Za-z_][\w.-]{0,63}$/.test(s) ? null : P + 'error.processId';
}

/** The comma-joined list of a users/groups field as an array (trimmed, no empties, no duplicates). */
export function splitList(value: string | null | undefined): string[] {
  return [...new Set((value ?? '').split(',').map((s) => s.trim()).filter(Boolean))];
}

/** An array of ids as the XML keeps it (undefined for none, so the attribute goes away). */
export function joinList(values: readonly string[]): string | undefined {
  const v = splitList(values.join(','));
  return v.length ? v.join(',') : undefined;
}

const escapeXml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** A new model: one executable process, a start event joined to an end event, with its diagram. */
export function emptyDiagram(processId: string, name: string): string {
  const id = escapeXml(processId);
  const nameAttr = name ? ` name="${escapeXml(name)}"` : '';
  return `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:bpmndi="http://www.omg.org/spec/BPMN/20100524/DI" xmlns:dc="http://www.omg.org/spec/DD/20100524/DC" xmlns:di="http://www.omg.org/spec/DD/20100524/DI" xmlns:flowable="http://flowable.org/bpmn" id="Definitions_${id}" targetNamespace="http://flowable.org/bpmn">
  <bpmn:process id="${id}"${nameAttr} isExecutable="true">
    <bpmn:startEvent id="StartEvent_1">
      <bpmn:outgoing>Flow_1</bpmn:outgoing>
    </bpmn:startEvent>
    <bpmn:endEvent id="EndEvent_1">
      <bpmn:incoming>Flow_1</bpmn:incoming>
    </bpmn:endEvent>
    <bpmn:sequenceFlow id="Flow_1" sourceRef="StartEvent_1" targetRef="EndEvent_1" />
  </bpmn:process>
  <bpmndi:BPMNDiagram id="BPMNDiagram_1">
    <bpmndi:BPMNPlane id="BPMNPlane_1" bpmnElement="${id}">
      <bpmndi:BPMNShape id="StartEvent_1_di" bpmnElement="StartEvent_1">
        <dc:Bounds x="180" y="160" width="36" height="36" />
      </bpmndi:BPMNShape>
      <bpmndi:BPMNShape id="EndEvent_1_di" bpmnElement="EndEvent_1">
        <dc:Bounds x="412" y="160" width="36" height="36" />
      </bpmndi:BPMNShape>
      <bpmndi:BPMNEdge id="Flow_1_di" bpmnElement="Flow_1">
        <di:waypoint x="216" y="178" />
        <di:waypoint x="412" y="178" />
      </bpmndi:BPMNEdge>
    </bpmndi:BPMNPlane>
  </bpmndi:BPMNDiagram>
</bpmn:definitions>
`;
}

/** A fresh process key for a new model (`Process_` and 7 letters/digits). */
export function newProcessId(random: () => number = Math.random): string {
  let s = '';
  for (let i = 0; i < 7; i++) s += 'abcdefghijklmnopqrstuvwxyz0123456789'[Math.floor(random() * 36)];
  return `Process_${s}`;
}

/** One step of an instance's history as the diagram endpoint lists it. */
export interface FlowStep {
  historyActivityId: string;
  historyActivityType?: string;
  endTime?: string | null;
}

export type FlowMarker = 'flow-success' | 'flow-primary' | 'flow-warning';

/**
 * The viewer's marker of each element of an instance's history: a sequence flow taken → `flow-warning`, an
 * activity with an end time → `flow-success`, one without (current; also when it is current again after a loop)
 * → `flow-primary`.
 */
export function flowMarkers(flow: readonly FlowStep[] | undefined): Map<string, FlowMarker> {
  const out = new Map<string, FlowMarker>();
  for (const s of flow ?? []) {
    const id = s.historyActivityId;
    if (!id) continue;
    if (s.historyActivityType === 'sequenceFlow') out.set(id, 'flow-warning');
    else if (!s.endTime) out.set(id, 'flow-primary');
    else if (out.get(id) !== 'flow-primary') out.set(id, 'flow-success');
  }
  return out;
}

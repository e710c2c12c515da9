/**
 * Reading a BPMN 2.0 model as the engine will run it, and refusing what it would not run right. Parsed with
 * bpmn-moddle (the same model bpmn-js writes) and our `flowable:` attributes (src/shared/flowable-moddle.json).
 *
 * Supported: one executable process of start events (none), end events (none or terminate), user tasks (assignee,
 * candidate users, candidate roles, form key), exclusive and parallel gateways, sequence flows with conditions in
 * the expression language (expression.ts), timer boundary events and intermediate timer events with a duration.
 * Refused with a message naming the element: script, service, send, receive, business-rule and manual tasks, call
 * activities, sub-processes, message/signal/error events, conditions with a script `language`, a user task nobody
 * can take, and anything bpmn-moddle cannot read.
 */
import BpmnModdle from 'bpmn-moddle';
import flowableDescriptor from '../../../shared/flowable-moddle.json' with { type: 'json' };
import { checkExpression } from '../../../shared/flow-expression.js';

export class BpmnRefused extends Error {
  constructor(
    readonly key: string,
    readonly params: Record<string, unknown> = {},
  ) {
    super(key);
  }
}

export interface UserTaskInfo {
  id: string;
  name: string;
  assignee?: string;
  candidateUsers: string[];
  candidateGroups: string[];
  formKey?: string;
}

export interface ProcessInfo {
  key: string;
  name: string;
  starterUsers: string[];
  starterGroups: string[];
  userTasks: Map<string, UserTaskInfo>;
}

const MAX_XML = 1024 * 1024;
const NCNAME = /^[A-Za-z_][\w.-]{0,63}$/;
const ALLOWED = new Set([
  'bpmn:StartEvent', 'bpmn:EndEvent', 'bpmn:UserTask', 'bpmn:ExclusiveGateway', 'bpmn:ParallelGateway', 'bpmn:SequenceFlow',
  'bpmn:BoundaryEvent', 'bpmn:IntermediateCatchEvent', 'bpmn:TextAnnotation', 'bpmn:Association',
]);
const list = (v: unknown) => (typeof v === 'string' ? v.split(',').map((s) => s.trim()).filter(Boolean) : []);

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type El = Record<string, any>;

function refuseExpression(el: El, what: string, text: string | undefined) {
  if (!text) return;
  const why = checkExpression(text);
  if (why) throw new BpmnRefused('flow.msg.badExpression', { id: el.id, what, reason: why });
}

function checkEvent(el: El) {
  const defs: El[] = el.eventDefinitions ?? [];
  if (el.$type === 'bpmn:StartEvent' && defs.length) throw new BpmnRefused('flow.msg.unsupported', { id: el.id, type: 'bpmn:StartEvent (with an event definition)' });
  if (el.$type === 'bpmn:EndEvent') {
    if (defs.some((d) => d.$type !== 'bpmn:TerminateEventDefinition')) throw new BpmnRefused('flow.msg.unsupported', { id: el.id, type: `${el.$type} (${defs[0].$type})` });
    return;
  }
  if (el.$type === 'bpmn:BoundaryEvent' || el.$type === 'bpmn:IntermediateCatchEvent') {
    const timer = defs.length === 1 && defs[0].$type === 'bpmn:TimerEventDefinition' ? defs[0] : undefined;
    if (!timer) throw new BpmnRefused('flow.msg.unsupported', { id: el.id, type: `${el.$type} (${defs[0]?.$type ?? 'none'})` });
    const duration: string | undefined = timer.timeDuration?.body;
    if (!duration) throw new BpmnRefused('flow.msg.timerDuration', { id: el.id });
    if (!/^\$\{[^}]+\}$/.test(duration.trim()) && !/^P(?!$)(\d+D)?(T(?=\d)(\d+H)?(\d+M)?(\d+S)?)?$/.test(duration.trim())) throw new BpmnRefused('flow.msg.timerDuration', { id: el.id });
    refuseExpression(el, 'timeDuration', duration);
  }
}

/** The model's process, or a BpmnRefused naming what is wrong. */
export async function readProcess(xml: string): Promise<ProcessInfo> {
  if (typeof xml !== 'string' || !xml.trim()) throw new BpmnRefused('flow.msg.xmlEmpty');
  if (xml.length > MAX_XML) throw new BpmnRefused('flow.msg.xmlTooLarge');
  if (/<!DOCTYPE|<!ENTITY/i.test(xml)) throw new BpmnRefused('flow.msg.badXml', { reason: 'DOCTYPE' });
  const moddle = new BpmnModdle({ flowable: flowableDescriptor });
  let root: El;
  try {
    const r = await moddle.fromXML(xml, 'bpmn:Definitions');
    const warning = r.warnings?.find((w: { message?: string }) => !/unknown attribute|unparsable content <(documentation|extensionElements)>/i.test(w.message ?? ''));
    if (warning) throw new Error(String(warning.message).split('\n')[0]);
    root = r.rootElement as El;
  } catch (e) {
    throw new BpmnRefused('flow.msg.badXml', { reason: String((e as Error).message).split('\n')[0].slice(0, 200) });
  }
  const processes: El[] = (root.rootElements ?? []).filter((e: El) => e.$type === 'bpmn:Process');
  if (processes.length !== 1) throw new BpmnRefused('flow.msg.oneProcess');
  const p = processes[0];
  if (p.isExecutable === false) throw new BpmnRefused('flow.msg.notExecutable');
  if (!NCNAME.test(p.id ?? '')) throw new BpmnRefused('flow.msg.processId');
  const elements: El[] = p.flowElements ?? [];
  if (!elements.some((e) => e.$type === 'bpmn:StartEvent')) throw new BpmnRefused('flow.msg.noStart');
  if (!elements.some((e) => e.$type === 'bpmn:EndEvent')) throw new BpmnRefused('flow.msg.noEnd');
  const userTasks = new Map<string, UserTaskInfo>();
  for (const el of [...elements, ...(p.artifacts ?? [])]) {
    if (!ALLOWED.has(el.$type)) throw new BpmnRefused('flow.msg.unsupported', { id: el.id, type: el.$type });
    if (el.$type.endsWith('Event')) checkEvent(el);
    if (el.$type === 'bpmn:SequenceFlow' && el.conditionExpression) {
      if (el.conditionExpression.language) throw new BpmnRefused('flow.msg.scriptCondition', { id: el.id });
      refuseExpression(el, 'condition', el.conditionExpression.body);
    }
    if (el.$type === 'bpmn:UserTask') {
      const info: UserTaskInfo = {
        id: el.id, name: el.name || el.id, assignee: el.assignee || undefined,
        candidateUsers: list(el.candidateUsers), candidateGroups: list(el.candidateGroups), formKey: el.formKey || undefined,
      };
      for (const [what, text] of [['assignee', info.assignee], ['candidateUsers', el.candidateUsers], ['candidateGroups', el.candidateGroups]] as const) refuseExpression(el, what, text);
      if (!info.assignee && !info.candidateUsers.length && !info.candidateGroups.length) throw new BpmnRefused('flow.msg.nobody', { id: el.id, name: info.name });
      userTasks.set(el.id, info);
    }
  }
  return { key: p.id, name: p.name || p.id, starterUsers: list(p.candidateStarterUsers), starterGroups: list(p.candidateStarterGroups), userTasks };
}

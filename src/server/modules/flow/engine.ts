/**
 * One step of a process instance on bpmn-engine, in memory: start it, or recover it from its saved state and
 * resume it (timers that fell due while nobody ran it fire now), optionally complete one waiting user task with
 * new variables, let it run until it waits again or ends, and hand back what the database must keep — the
 * engine state, the variables, what waits now (user tasks, timers and when they fall due) and what happened
 * (activities started and ended, sequence flows taken). The engine is stopped after every step: no instance
 * lives in memory between requests, so a restart loses nothing and several servers can share the database
 * (service.ts locks the instance row around a step).
 */
import { EventEmitter } from 'node:events';
import { loadOnce } from '../../../shared/loadOnce.js';

const loadEngine = loadOnce(async () => (await import('bpmn-engine')).Engine);
import flowableDescriptor from '../../../shared/flowable-moddle.json' with { type: 'json' };
import { engineExpressions } from '../../../shared/flow-expression.js';

export interface HistoryEvent {
  kind: 'start' | 'end' | 'take';
  elementId: string;
  elementType: string;
  at: Date;
}

export interface Waiting {
  id: string;
  type: string;
  /** For a timer: when it falls due. */
  expireAt?: Date;
}

export interface StepResult {
  engineState: string;
  variables: Record<string, unknown>;
  waiting: Waiting[];
  finished: boolean;
  events: HistoryEvent[];
}

export type StepAction =
  | { kind: 'start'; variables: Record<string, unknown> }
  | { kind: 'complete'; elementId: string; variables: Record<string, unknown> }
  | { kind: 'resume' };

/** The waiting task is not waiting in the engine any more (it moved on under us). */
export class TaskNotWaiting extends Error {}

/** `bpmn:UserTask` → `userTask` (Flowable's historyActivityType spelling). */
export const activityType = (t: string) => {
  const s = t.replace(/^bpmn:/, '');
  return s.charAt(0).toLowerCase() + s.slice(1);
};

const OPTIONS = { moddleOptions: { flowable: flowableDescriptor }, expressions: engineExpressions };

interface ApiLike {
  id: string;
  type: string;
  content?: { expireAt?: string | Date };
  owner?: { type?: string; environment: { variables: Record<string, unknown> } };
  signal(message?: unknown): void;
}

export async function runStep(instanceId: string, xml: string, saved: string | null, action: StepAction): Promise<StepResult> {
  const events: HistoryEvent[] = [];
  const timers = new Map<string, Date>();
  const listener = new EventEmitter();
  let failure: Error | undefined;
  // an event that fired may report as its event definition (bpmn:TimerEventDefinition): its element is the owner
  const typeOf = (api: ApiLike) => activityType(api.type.endsWith('EventDefinition') && api.owner?.type ? api.owner.type : api.type);
  listener.on('activity.start', (api: ApiLike) => events.push({ kind: 'start', elementId: api.id, elementType: typeOf(api), at: new Date() }));
  listener.on('activity.end', (api: ApiLike) => events.push({ kind: 'end', elementId: api.id, elementType: typeOf(api), at: new Date() }));
  listener.on('flow.take', (api: ApiLike) => events.push({ kind: 'take', elementId: api.id, elementType: 'sequenceFlow', at: new Date() }));
  listener.on('activity.timer', (api: ApiLike) => {
    if (api.content?.expireAt) timers.set(api.id, new Date(api.content.expireAt));
  });
  listener.on('activity.error', (api: { content?: { error?: Error } }) => (failure = api.content?.error ?? new Error('activity error')));

  const Engine = await loadEngine();
  const engine = action.kind === 'start' ? new Engine({ name: instanceId, source: xml, ...OPTIONS }) : new Engine({ name: instanceId, ...OPTIONS }).recover(JSON.parse(saved ?? '{}'));
  engine.once('error', (e: Error) => (failure = e));
  try {
    const execution = action.kind === 'start' ? await engine.execute({ listener, variables: action.variables }) : await engine.resume({ listener });
    const definition = execution.definitions[0];
    // a process runs on its own copy of the variables: the completed task's values go there (gateways read them)
    const processVariables = (): Record<string, unknown> => definition.getProcesses()[0]?.environment.variables ?? definition.environment.variables;
    if (action.kind === 'complete') {
      const task = (execution.getPostponed() as ApiLike[]).find((a) => a.id === action.elementId && a.type === 'bpmn:UserTask');
      if (!task) throw new TaskNotWaiting(action.elementId);
      Object.assign(task.owner?.environment.variables ?? processVariables(), action.variables);
      task.signal({ ...action.variables });
    }
    await settle(() => `${engine.state}|${(execution.getPostponed() as ApiLike[]).map((a) => a.id).join(',')}`);
    if (failure) throw failure;
    const waiting = (execution.getPostponed() as ApiLike[]).filter((a) => a.type !== 'bpmn:SequenceFlow').map((a) => ({ id: a.id, type: a.type, expireAt: timers.get(a.id) }));
    const engineState = JSON.stringify(await engine.getState());
    // bpmn-elements keeps the last message's parts (fields, content, properties) among them: not the process's
    const { fields: _f, content: _c, properties: _p, ...variables } = processVariables();
    return { engineState, variables, waiting, finished: waiting.length === 0, events };
  } finally {
    // a finished engine has nothing to stop (stop() would wait for a 'stop' event that never comes)
    if (engine.state === 'running') await engine.stop();
  }
}

/** Lets the engine run what it queued (timers that fell due fire on resume) until nothing changes for two turns. */
async function settle(signature: () => string): Promise<void> {
  let last = signature();
  let quiet = 0;
  for (let i = 0; i < 100 && quiet < 2; i++) {
    await new Promise((r) => setImmediate(r));
    const now = signature();
    quiet = now === last ? quiet + 1 : 0;
    last = now;
  }
}

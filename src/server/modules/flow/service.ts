/**
 * The workflow's persistence and rules around engine.ts. Tables (this module's own):
 *   flow_deployment   a deployment (name, category, time) of one or more definitions
 *   flow_definition   a deployed process: id `key:version:deploymentId` (Flowable's form), key, version, the XML,
 *                     suspended or not; a new deployment of the same key is the next version
 *   flow_instance     a running or finished instance: its definition, business key, starter, the engine state
 *                     after its last step, its variables, when its next timer falls due
 *   flow_task         user tasks: candidates (user ids, role aliases), assignee, claim and completion, outcome
 *   flow_activity     what happened: activities started/ended and sequence flows taken (the diagram's path)
 *   flow_model        the designer's models (the screen document schemas/flow/model.json lists and edits them)
 * Every step of an instance (start, complete, due timers) runs in one transaction holding the instance row
 * (`for update`): recover the engine from the saved state, run the step, save the new state, tasks and history.
 * Nothing of an instance stays in memory, so a restart between two steps loses nothing.
 */
import { sql } from 'kysely';
import type { AuthUser } from '../../context.js';
import type { DB } from '../../db/index.js';
import { AUDIT_COLUMNS_SQL } from '../../db/migrate.js';
import { HttpError } from '../../lib/http.js';
import { newId } from '../../lib/ids.js';
import { localDateTime } from '../../lib/time.js';
import { readProcess, type ProcessInfo } from './bpmn.js';
import { runStep, TaskNotWaiting, type StepResult } from './engine.js';
import { resolveExpression } from '../../../shared/flow-expression.js';

export const FLOW_MIGRATION_SQL = [
  `create table flow_deployment (id bigint primary key, tenant_id varchar(12) not null, name varchar(255) not null, category integer,
    deploy_time timestamp(0) not null, create_user bigint)`,
  `create table flow_definition (id varchar(120) primary key, tenant_id varchar(12) not null, key varchar(64) not null, name varchar(255) not null,
    version integer not null, category integer, deployment_id bigint not null, xml text not null, suspended integer not null default 0,
    deploy_time timestamp(0) not null, unique (tenant_id, key, version))`,
  `create table flow_instance (id bigint primary key, tenant_id varchar(12) not null, definition_id varchar(120) not null, business_key varchar(64),
    start_user bigint, start_user_name varchar(100), state varchar(12) not null, engine_state text not null, variables text not null,
    start_time timestamp(0) not null, end_time timestamp(0), next_timer timestamptz)`,
  `create index flow_instance_timer on flow_instance (next_timer) where state = 'running' and next_timer is not null`,
  `create index flow_instance_starter on flow_instance (tenant_id, start_user)`,
  `create table flow_task (id bigint primary key, tenant_id varchar(12) not null, instance_id bigint not null, definition_id varchar(120) not null,
    element_id varchar(64) not null, name varchar(255) not null, assignee bigint, candidate_users text, candidate_groups text, form_key varchar(255),
    assignee_name varchar(100), create_time timestamp(0) not null, claim_time timestamp(0), end_time timestamp(0), outcome varchar(12), comment varchar(1000),
    completed_by bigint)`,
  `create index flow_task_open on flow_task (tenant_id, assignee) where end_time is null`,
  `create index flow_task_instance on flow_task (instance_id)`,
  `create index flow_task_done on flow_task (tenant_id, completed_by) where end_time is not null`,
  `create table flow_activity (id bigint primary key, instance_id bigint not null, element_id varchar(64) not null, element_type varchar(64) not null,
    start_time timestamp(3) not null, end_time timestamp(3))`,
  `create index flow_activity_instance on flow_activity (instance_id, start_time)`,
  `create table flow_model (id bigint primary key, ${AUDIT_COLUMNS_SQL}, model_key varchar(64), name varchar(255) not null, category integer,
    description varchar(500), xml text)`,
];

export const RUNNING = 'running';
export const FINISHED = 'finished';

export interface DefinitionRow {
  id: string;
  tenant_id: string;
  key: string;
  name: string;
  version: number;
  category: number | null;
  deployment_id: string;
  xml: string;
  suspended: number;
}

const csv = (v: unknown) => (typeof v === 'string' && v ? v.split(',').map((s) => s.trim()).filter(Boolean) : []);

/** Deploy one process (already read by readProcess): the next version of its key in this tenant. */
export async function deployDefinition(db: DB, tz: string, a: { tenantId: string; deploymentId: string; xml: string; info: ProcessInfo; category: number | null }): Promise<DefinitionRow> {
  const last = await db.selectFrom('flow_definition').select(sql<number>`max(version)`.as('v')).where('tenant_id', '=', a.tenantId).where('key', '=', a.info.key).executeTakeFirst();
  const version = Number(last?.v ?? 0) + 1;
  const row = {
    id: `${a.info.key}:${version}:${a.deploymentId}`, tenant_id: a.tenantId, key: a.info.key, name: a.info.name, version, category: a.category,
    deployment_id: a.deploymentId, xml: a.xml, suspended: 0, deploy_time: localDateTime(tz),
  };
  await db.insertInto('flow_definition').values(row).execute();
  return row;
}

export async function createDeployment(db: DB, tz: string, user: AuthUser, tenantId: string, name: string, category: number | null): Promise<string> {
  const id = newId();
  await db.insertInto('flow_deployment').values({ id, tenant_id: tenantId, name: name.slice(0, 255), category, deploy_time: localDateTime(tz), create_user: user.userId }).execute();
  return id;
}

/** The definition of the caller's tenant (404 otherwise). */
export async function definitionOf(db: DB, tenantId: string, id: string): Promise<DefinitionRow> {
  const row = await db.selectFrom('flow_definition').selectAll().where('id', '=', id).where('tenant_id', '=', tenantId).executeTakeFirst();
  if (!row) throw new HttpError(404, 'flow.msg.definitionNotFound');
  return row as unknown as DefinitionRow;
}

/** The newest version of a key in the tenant (what a start-list offers). */
export async function latestDefinition(db: DB, tenantId: string, key: string): Promise<DefinitionRow | undefined> {
  return (await db.selectFrom('flow_definition').selectAll().where('tenant_id', '=', tenantId).where('key', '=', key).orderBy('version', 'desc').executeTakeFirst()) as unknown as DefinitionRow | undefined;
}

/** May this user start the process (no starters named: everyone of the tenant)? */
export function mayStart(info: ProcessInfo, user: AuthUser): boolean {
  if (!info.starterUsers.length && !info.starterGroups.length) return true;
  return info.starterUsers.includes(user.userId) || info.starterGroups.some((g) => user.roleNames.includes(g));
}

/** Is the user a candidate of this open task (named, or holding a named role)? */
export function isCandidate(task: { candidate_users?: unknown; candidate_groups?: unknown }, user: AuthUser): boolean {
  return csv(task.candidate_users).includes(user.userId) || csv(task.candidate_groups).some((g) => user.roleNames.includes(g));
}

interface InstanceRow {
  id: string;
  tenant_id: string;
  definition_id: string;
  business_key: string | null;
  state: string;
  engine_state: string;
  variables: string;
}

/** Writes what a step did: the instance, its tasks (new ones opened, ones no longer waiting closed), its history. */
async function saveStep(db: DB, tz: string, inst: { id: string; tenantId: string; definition: DefinitionRow }, info: ProcessInfo, r: StepResult, isNew: boolean, extra: Record<string, unknown>) {
  const now = localDateTime(tz);
  const timers = r.waiting.map((w) => w.expireAt).filter((d): d is Date => !!d);
  const nextTimer = timers.length ? new Date(Math.min(...timers.map((d) => d.getTime()))).toISOString() : null;
  const values = { engine_state: r.engineState, variables: JSON.stringify(r.variables), state: r.finished ? FINISHED : RUNNING, end_time: r.finished ? now : null, next_timer: nextTimer };
  if (isNew) await db.insertInto('flow_instance').values({ id: inst.id, tenant_id: inst.tenantId, definition_id: inst.definition.id, start_time: now, ...extra, ...values }).execute();
  else await db.updateTable('flow_instance').set(values).where('id', '=', inst.id).execute();

  const waitingTasks = new Set(r.waiting.filter((w) => w.type === 'bpmn:UserTask').map((w) => w.id));
  const open = await db.selectFrom('flow_task').select(['id', 'element_id']).where('instance_id', '=', inst.id).where('end_time', 'is', null).execute();
  // a task that stopped waiting without being completed (a timer boundary took over, the process ended): closed
  const stale = open.filter((t) => !waitingTasks.has(String(t.element_id))).map((t) => String(t.id));
  if (stale.length) await db.updateTable('flow_task').set({ end_time: now, outcome: 'cancelled' }).where('id', 'in', stale).execute();
  const have = new Set(open.filter((t) => waitingTasks.has(String(t.element_id))).map((t) => String(t.element_id)));
  for (const elementId of waitingTasks) {
    if (have.has(elementId)) continue;
    const def = info.userTasks.get(elementId);
    if (!def) continue;
    const text = (v: string | undefined) => (v ? String(resolveExpression(v, r.variables) ?? '') : '');
    const assignee = text(def.assignee);
    await db.insertInto('flow_task').values({
      id: newId(), tenant_id: inst.tenantId, instance_id: inst.id, definition_id: inst.definition.id, element_id: elementId, name: def.name,
      assignee: /^\d{1,19}$/.test(assignee) ? assignee : null, candidate_users: def.candidateUsers.map(text).join(',') || null,
      candidate_groups: def.candidateGroups.map(text).join(',') || null, form_key: def.formKey ?? null, create_time: now,
    }).execute();
  }

  const stamp = (d: Date) => localDateTime(tz, d) + `.${String(d.getMilliseconds()).padStart(3, '0')}`;
  for (const e of r.events) {
    // a boundary event is part of the path only when it fires (its end); while it merely waits beside its task it is not
    if (e.elementType === 'boundaryEvent') {
      if (e.kind === 'end') await db.insertInto('flow_activity').values({ id: newId(), instance_id: inst.id, element_id: e.elementId, element_type: e.elementType, start_time: stamp(e.at), end_time: stamp(e.at) }).execute();
      continue;
    }
    if (e.kind === 'end') {
      await sql`update flow_activity set end_time = ${stamp(e.at)} where id = (select id from flow_activity where instance_id = ${inst.id} and element_id = ${e.elementId} and end_time is null order by start_time desc limit 1)`.execute(db);
    } else {
      await db.insertInto('flow_activity').values({ id: newId(), instance_id: inst.id, element_id: e.elementId, element_type: e.elementType, start_time: stamp(e.at), end_time: e.kind === 'take' ? stamp(e.at) : null }).execute();
    }
  }
  // what no longer waits and did not end (interrupted by a boundary timer) ends now
  const waitingAll = [...r.waiting.map((w) => w.id), ''];
  await db.updateTable('flow_activity').set({ end_time: stamp(new Date()) }).where('instance_id', '=', inst.id).where('end_time', 'is', null).where('element_id', 'not in', waitingAll).execute();
}

async function stepOrRefuse(instanceId: string, xml: string, saved: string | null, action: Parameters<typeof runStep>[3]): Promise<StepResult> {
  try {
    return await runStep(instanceId, xml, saved, action);
  } catch (e) {
    if (e instanceof TaskNotWaiting) throw new HttpError(409, 'flow.msg.taskDone');
    throw new HttpError(400, 'flow.msg.engineFailed', { reason: String((e as Error).message).slice(0, 200) });
  }
}

/** Start an instance of a definition with these variables; the caller checked the right to start. */
export async function startInstance(db: DB, tz: string, user: AuthUser, definition: DefinitionRow, businessKey: string | null, variables: Record<string, unknown>): Promise<string> {
  if (definition.suspended) throw new HttpError(400, 'flow.msg.suspended');
  const info = await readProcess(definition.xml);
  const id = newId();
  const vars = { ...variables, applyUser: user.userId, initiator: user.userId };
  const r = await stepOrRefuse(id, definition.xml, null, { kind: 'start', variables: vars });
  await saveStep(db, tz, { id, tenantId: definition.tenant_id, definition }, info, r, true, { business_key: businessKey, start_user: user.userId, start_user_name: user.realName || user.account });
  return id;
}

async function lockedInstance(db: DB, id: string): Promise<InstanceRow> {
  const row = await db.selectFrom('flow_instance').select(['id', 'tenant_id', 'definition_id', 'business_key', 'state', 'engine_state', 'variables']).where('id', '=', id).forUpdate().executeTakeFirst();
  if (!row) throw new HttpError(404, 'flow.msg.instanceNotFound');
  return row as unknown as InstanceRow;
}

export interface TaskRow {
  id: string;
  tenant_id: string;
  instance_id: string;
  definition_id: string;
  element_id: string;
  name: string;
  assignee: string | null;
  candidate_users: string | null;
  candidate_groups: string | null;
  end_time: string | null;
}

async function taskOf(db: DB, tenantId: string, taskId: string, lock = false): Promise<TaskRow> {
  let q = db.selectFrom('flow_task').selectAll().where('id', '=', taskId).where('tenant_id', '=', tenantId);
  if (lock) q = q.forUpdate();
  const row = await q.executeTakeFirst();
  if (!row) throw new HttpError(404, 'flow.msg.taskNotFound');
  return row as unknown as TaskRow;
}

/** Claim: an open task without assignee, by one of its candidates. */
export async function claimTask(db: DB, tz: string, user: AuthUser, taskId: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const task = await taskOf(trx, user.tenantId, taskId, true);
    if (task.end_time) throw new HttpError(409, 'flow.msg.taskDone');
    if (task.assignee) throw new HttpError(409, task.assignee === user.userId ? 'flow.msg.alreadyYours' : 'flow.msg.claimedByOther');
    if (!isCandidate(task, user)) throw new HttpError(403, 'flow.msg.notCandidate');
    await trx.updateTable('flow_task').set({ assignee: user.userId, assignee_name: user.realName || user.account, claim_time: localDateTime(tz) }).where('id', '=', taskId).execute();
  });
}

/**
 * Complete a task assigned to the user: `pass` (approve / reject) and the comment become process variables with
 * the caller's own (`variables`, names only of letters and digits), then the instance runs on.
 */
export async function completeTask(db: DB, tz: string, user: AuthUser, a: { taskId: string; processInstanceId?: string; pass: boolean; comment: string; variables: Record<string, unknown> }): Promise<{ instanceId: string; finished: boolean }> {
  return db.transaction().execute(async (trx) => {
    const first = await taskOf(trx, user.tenantId, a.taskId);
    if (a.processInstanceId && a.processInstanceId !== first.instance_id) throw new HttpError(400, 'flow.msg.taskNotInInstance');
    const inst = await lockedInstance(trx, first.instance_id);
    const task = await taskOf(trx, user.tenantId, a.taskId, true);
    if (task.end_time) throw new HttpError(409, 'flow.msg.taskDone');
    if (task.assignee !== user.userId) throw new HttpError(403, task.assignee ? 'flow.msg.notYourTask' : 'flow.msg.claimFirst');
    if (inst.state !== RUNNING) throw new HttpError(409, 'flow.msg.instanceEnded');
    const definition = await definitionOf(trx, inst.tenant_id, inst.definition_id);
    if (definition.suspended) throw new HttpError(400, 'flow.msg.suspended');
    const info = await readProcess(definition.xml);
    const variables = { ...a.variables, pass: a.pass, comment: a.comment, [`${task.element_id}Pass`]: a.pass };
    const r = await stepOrRefuse(inst.id, definition.xml, inst.engine_state, { kind: 'complete', elementId: task.element_id, variables });
    const now = localDateTime(tz);
    await trx.updateTable('flow_task').set({ end_time: now, outcome: a.pass ? 'approve' : 'reject', comment: a.comment.slice(0, 1000) || null, completed_by: user.userId, assignee_name: user.realName || user.account }).where('id', '=', task.id).execute();
    await saveStep(trx, tz, { id: inst.id, tenantId: inst.tenant_id, definition }, info, r, false, {});
    return { instanceId: inst.id, finished: r.finished };
  });
}

/** Instances whose timer fell due run on (a timer boundary escalates); each in its own transaction. */
export async function fireDueTimers(db: DB, tz: string, limit = 50): Promise<number> {
  const due = await db.selectFrom('flow_instance').select('id').where('state', '=', RUNNING).where('next_timer', 'is not', null)
    .where(sql<boolean>`next_timer <= now()`).orderBy('next_timer').limit(limit).execute();
  let fired = 0;
  for (const { id } of due) {
    await db.transaction().execute(async (trx) => {
      const inst = await lockedInstance(trx, String(id));
      const still = await trx.selectFrom('flow_instance').select('id').where('id', '=', inst.id).where('state', '=', RUNNING).where(sql<boolean>`next_timer <= now()`).executeTakeFirst();
      if (!still) return; // another server fired it first
      const definition = await definitionOf(trx, inst.tenant_id, inst.definition_id);
      if (definition.suspended) return;
      const info = await readProcess(definition.xml);
      const r = await runStep(inst.id, definition.xml, inst.engine_state, { kind: 'resume' });
      await saveStep(trx, tz, { id: inst.id, tenantId: inst.tenant_id, definition }, info, r, false, {});
      fired++;
    });
  }
  return fired;
}

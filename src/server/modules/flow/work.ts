/**
 * 我的事务 (blade-flow work): the lists of one user — processes they may start, tasks they may claim, tasks of
 * theirs, processes they started, tasks they completed — and claim / complete. Each list answers at BladeX's URL
 * (`work/todo-list`) and under its screen's API (`work/todo/list`, schemas/flow/work-*.json, served by this module
 * only: resource.routes module, so no generic route could list or read any task of the tenant).
 *
 *   GET  /api/blade-flow/work/start-list | start/list     work_start   definitions the user may start (newest versions)
 *   GET  /api/blade-flow/work/claim-list | claim/list     work_sign    open unclaimed tasks the user is a candidate of
 *   GET  /api/blade-flow/work/todo-list  | todo/list      work_todo    open tasks assigned to the user
 *   GET  /api/blade-flow/work/send-list  | send/list      work_send    instances the user started
 *   GET  /api/blade-flow/work/done-list  | done/list      work_done    tasks the user completed
 *   GET  /api/blade-flow/work/approvers?[name]            work_start_flow   users of the tenant a start form may name
 *   POST /api/blade-flow/work/claim-task?taskId (or id)   work_claim
 *   POST /api/blade-flow/work/complete-task {taskId, processInstanceId, flag, comment, variables}  work_handle
 * Rows carry `formRoute`, the route of their process's form (the `flow` dictionary's remark of their category,
 * BladeX's flowRoute), so a list's buttons open /work/process/<formRoute>/handle|detail/….
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql, type RawBuilder } from 'kysely';
import { requirePermission, type AuthUser } from '../../context.js';
import { pageParams } from '../../crud/index.js';
import type { DB } from '../../db/index.js';
import { HttpError, ok, okStatus } from '../../lib/http.js';
import { isId } from '../../lib/ids.js';
import { requestParams } from '../../lib/params.js';
import { dictionaryRemarks } from '../dict/index.js';
import { tenantUserChoices } from '../user/index.js';
import { readProcess } from './bpmn.js';
import { FINISHED, claimTask, completeTask, mayStart } from './service.js';

const PAGE = { pageSizes: [10, 20, 50, 100] };

export function page(req: FastifyRequest) {
  const { current, size } = pageParams({ list: PAGE } as never, (req.query ?? {}) as Record<string, unknown>);
  return { current, size, offset: (current - 1) * size };
}

export function envelope<T>(records: T[], total: number, current: number, size: number) {
  return { records, total, size, current, pages: Math.ceil(total / size) };
}

export const text = (v: unknown, max = 100) => (typeof v === 'string' ? v.trim().slice(0, max) : '');

/** The list filters every work list and 流程跟踪 take: processDefinitionKey and category (plain or `_equal`). */
function filters(req: FastifyRequest): RawBuilder<unknown> {
  const q = (req.query ?? {}) as Record<string, unknown>;
  const key = text(q.processDefinitionKey ?? q.processDefinitionKey_equal, 64);
  const category = text(q.category ?? q.category_equal, 12);
  const parts = [sql`true`];
  if (key) parts.push(sql`d.key = ${key}`);
  if (category) {
    if (!/^\d{1,9}$/.test(category)) throw new HttpError(400, 'error.search', { detail: 'category' });
    parts.push(sql`d.category = ${Number(category)}`);
  }
  return sql.join(parts, sql` and `);
}

/** Each row's formRoute from its category (the `flow` dictionary's remark). */
async function withFormRoutes(db: DB, rows: Array<Record<string, unknown>>): Promise<Array<Record<string, unknown>>> {
  const routes = await dictionaryRemarks(db, 'flow');
  return rows.map((r) => ({ ...r, formRoute: routes.get(String(r.category ?? '')) ?? null }));
}

/** Task rows as BladeX's BladeFlow records (`id` is the task's, as the screens' row buttons send it). */
const TASK_SELECT = sql`t.id::text as "id", t.id::text as "taskId", t.name as "taskName", t.element_id as "taskDefinitionKey", t.assignee::text as "assignee",
  t.assignee_name as "assigneeName", t.candidate_users as "candidateUsers", t.candidate_groups as "candidateGroups", t.form_key as "formKey",
  t.create_time as "createTime", t.claim_time as "claimTime", t.end_time as "endTime", t.outcome as "outcome", t.comment as "comment",
  i.id::text as "processInstanceId", i.business_key as "businessId", i.start_user_name as "startUserName", i.state = ${FINISHED} as "processIsFinished",
  d.id as "processDefinitionId", d.key as "processDefinitionKey", d.name as "processDefinitionName", d.version as "processDefinitionVersion", d.category as "category"`;

async function taskPage(db: DB, req: FastifyRequest, where: RawBuilder<unknown>, order: RawBuilder<unknown>) {
  const { current, size, offset } = page(req);
  const from = sql`from flow_task t join flow_instance i on i.id = t.instance_id join flow_definition d on d.id = t.definition_id where ${where} and ${filters(req)}`;
  const rows = await sql<Record<string, unknown>>`select ${TASK_SELECT} ${from} order by ${order} limit ${size} offset ${offset}`.execute(db);
  const count = await sql<{ n: string }>`select count(*) as n ${from}`.execute(db);
  return envelope(await withFormRoutes(db, rows.rows), Number(count.rows[0].n), current, size);
}

/** Instances as BladeX's records (流程跟踪, 已发事务): newest first, with their open tasks' names. */
export async function instancePage(db: DB, req: FastifyRequest, where: RawBuilder<unknown>) {
  const { current, size, offset } = page(req);
  const from = sql`from flow_instance i join flow_definition d on d.id = i.definition_id where ${where} and ${filters(req)}`;
  const rows = await sql<Record<string, unknown>>`select i.id::text as "id", i.id::text as "processInstanceId", i.business_key as "businessId",
      i.start_user_name as "startUser", i.state as "state", i.state = ${FINISHED} as "processIsFinished", i.start_time as "startTime",
      i.start_time as "createTime", i.end_time as "endTime", d.id as "processDefinitionId", d.key as "processDefinitionKey",
      d.name as "processDefinitionName", d.version as "processDefinitionVersion", d.category as "category",
      (select string_agg(t.name, ',') from flow_task t where t.instance_id = i.id and t.end_time is null) as "currentTasks"
    ${from} order by i.start_time desc, i.id desc limit ${size} offset ${offset}`.execute(db);
  const count = await sql<{ n: string }>`select count(*) as n ${from}`.execute(db);
  const records = rows.rows.map((r) => ({ ...r, taskName: r.currentTasks }));
  return envelope(await withFormRoutes(db, records), Number(count.rows[0].n), current, size);
}

/** complete-task's body: taskId, processInstanceId, flag (ok / approve / pass / true → approve), comment, variables. */
async function completeFromRequest(app: FastifyInstance, req: FastifyRequest, user: AuthUser) {
  const p = requestParams(req);
  const taskId = String(p.taskId ?? '').trim();
  if (!isId(taskId)) throw new HttpError(400, 'error.paramMissing', { name: 'taskId' });
  const flag = String(p.flag ?? p.pass ?? '').toLowerCase();
  if (!['ok', 'approve', 'pass', 'true', '1', 'reject', 'no', 'false', '0'].includes(flag)) throw new HttpError(400, 'flow.msg.badFlag');
  let variables: Record<string, unknown> = {};
  if (p.variables !== undefined && p.variables !== null && p.variables !== '') {
    try {
      variables = typeof p.variables === 'string' ? JSON.parse(p.variables) : (p.variables as Record<string, unknown>);
    } catch {
      throw new HttpError(400, 'flow.msg.badVariables');
    }
    if (!variables || typeof variables !== 'object' || Array.isArray(variables) || Object.keys(variables).some((k) => !/^[A-Za-z][A-Za-z0-9_]{0,63}$/.test(k))) throw new HttpError(400, 'flow.msg.badVariables');
    // the process's own facts are not the caller's to change
    for (const k of ['applyUser', 'initiator', 'pass', 'comment']) delete variables[k];
  }
  const comment = typeof p.comment === 'string' ? p.comment.trim() : '';
  if (comment.length > 1000) throw new HttpError(400, 'flow.msg.commentTooLong');
  return completeTask(app.ctx.db(), app.ctx.config.appTimezone, user, {
    taskId, processInstanceId: p.processInstanceId ? String(p.processInstanceId) : undefined, pass: ['ok', 'approve', 'pass', 'true', '1'].includes(flag),
    comment, variables,
  });
}

export function mountWorkRoutes(app: FastifyInstance): void {
  const db = () => app.ctx.db();

  const startList = async (req: FastifyRequest) => {
    const user = await requirePermission(app, req, 'work_start');
    const { current, size } = page(req);
    const defs = await sql<Record<string, unknown>>`select distinct on (d.key) d.id, d.key, d.name, d.version, d.category, d.xml, d.suspended, d.deploy_time
      from flow_definition d where d.tenant_id = ${user.tenantId} and ${filters(req)} order by d.key, d.version desc`.execute(db());
    const startable = [];
    for (const d of defs.rows) {
      if (Number(d.suspended)) continue;
      const info = await readProcess(String(d.xml)).catch(() => undefined);
      if (info && mayStart(info, user)) {
        startable.push({ id: d.id, processDefinitionId: d.id, key: d.key, name: d.name, version: d.version, category: d.category, deploymentTime: d.deploy_time, suspensionState: 1 });
      }
    }
    return ok(envelope(await withFormRoutes(db(), startable.slice((current - 1) * size, current * size)), startable.length, current, size));
  };
  app.get('/api/blade-flow/work/start-list', startList);
  app.get('/api/blade-flow/work/start/list', startList);

  const claimList = async (req: FastifyRequest) => {
    const user = await requirePermission(app, req, 'work_sign');
    const roles = user.roleNames.length ? user.roleNames : [''];
    const mine = sql`(${user.userId} = any(string_to_array(coalesce(t.candidate_users, ''), ',')) or string_to_array(coalesce(t.candidate_groups, ''), ',') && ${sql.val(roles)}::text[])`;
    return ok(await taskPage(db(), req, sql`t.tenant_id = ${user.tenantId} and t.end_time is null and t.assignee is null and ${mine}`, sql`t.create_time desc, t.id desc`));
  };
  app.get('/api/blade-flow/work/claim-list', claimList);
  app.get('/api/blade-flow/work/claim/list', claimList);

  const todoList = async (req: FastifyRequest) => {
    const user = await requirePermission(app, req, 'work_todo');
    return ok(await taskPage(db(), req, sql`t.tenant_id = ${user.tenantId} and t.end_time is null and t.assignee = ${user.userId}`, sql`t.create_time desc, t.id desc`));
  };
  app.get('/api/blade-flow/work/todo-list', todoList);
  app.get('/api/blade-flow/work/todo/list', todoList);

  const doneList = async (req: FastifyRequest) => {
    const user = await requirePermission(app, req, 'work_done');
    return ok(await taskPage(db(), req, sql`t.tenant_id = ${user.tenantId} and t.end_time is not null and t.completed_by = ${user.userId}`, sql`t.end_time desc, t.id desc`));
  };
  app.get('/api/blade-flow/work/done-list', doneList);
  app.get('/api/blade-flow/work/done/list', doneList);

  const sendList = async (req: FastifyRequest) => {
    const user = await requirePermission(app, req, 'work_send');
    return ok(await instancePage(db(), req, sql`i.tenant_id = ${user.tenantId} and i.start_user = ${user.userId}`));
  };
  app.get('/api/blade-flow/work/send-list', sendList);
  app.get('/api/blade-flow/work/send/list', sendList);

  // the approvers a start form offers: the tenant's active users but the applicant
  app.get('/api/blade-flow/work/approvers', async (req) => {
    const user = await requirePermission(app, req, 'work_start_flow');
    const search = text((req.query as Record<string, unknown>)?.name, 50);
    return ok(await tenantUserChoices(db(), user.tenantId, { except: user.userId, search, limit: 200 }));
  });

  app.post('/api/blade-flow/work/claim-task', async (req) => {
    const user = await requirePermission(app, req, 'work_claim');
    // taskId (BladeX), or the 待签事务 screen's row button: id
    const p = requestParams(req);
    const taskId = String(p.taskId ?? p.id ?? '').trim();
    if (!isId(taskId)) throw new HttpError(400, 'error.paramMissing', { name: 'taskId' });
    await claimTask(db(), app.ctx.config.appTimezone, user, taskId);
    return okStatus();
  });

  app.post('/api/blade-flow/work/complete-task', async (req) => {
    const user = await requirePermission(app, req, 'work_handle');
    return ok(await completeFromRequest(app, req, user));
  });
}

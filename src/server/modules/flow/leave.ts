/**
 * The leave process (BladeX's blade-desk example), shipped as a model and deployed for the platform tenant at the
 * first start:
 *   start → 审批 (candidate: the approver the applicant chose, `${taskUser}`; claim then complete)
 *     ├ not approved → 调整申请 (the applicant) → resubmit → 审批, or withdraw → 已撤销
 *     ├ approved and more than 3 days → 总经理审批 (candidate role administrator) → approved → 已批准, else 调整申请
 *     └ approved (≤ 3 days) → 已批准
 *   审批 not handled within `${escalateAfter}` (param flow.leave.escalateAfter, ISO-8601, default P2D) → 超时审批
 *   (candidate role administrator), which decides like 审批.
 *
 *   POST /api/blade-desk/process/leave/start-process {processDefinitionId, startTime, endTime, reason, taskUser}  work_start_flow
 *   GET  /api/blade-desk/process/leave/detail?businessId    the applicant, a participant of its process, or flow_follow
 */
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { PLATFORM_TENANT, requirePermission, requireUser } from '../../context.js';
import type { Migration } from '../../db/migrate.js';
import { HttpError, ok } from '../../lib/http.js';
import { isId, newId } from '../../lib/ids.js';
import { requestParams } from '../../lib/params.js';
import { localDateTime } from '../../lib/time.js';
import { validateValues } from '../../crud/validate.js';
import { readParam } from '../param/index.js';
import { activeTenantUsers } from '../user/index.js';
import { readProcess } from './bpmn.js';
import { LEAVE_XML } from './leave-model.js';
import { createDeployment, definitionOf, deployDefinition, isCandidate, latestDefinition, mayStart, startInstance } from './service.js';

export const LEAVE_KEY = 'Leave';
const DURATION = /^P(?!$)(\d+D)?(T(?=\d)(\d+H)?(\d+M)?(\d+S)?)?$/;

export const leaveMigration: Migration = {
  name: 'flow_0002_leave',
  up: async (db) => {
    await sql`create table blade_process_leave (id bigint primary key, tenant_id varchar(12) not null, process_definition_id varchar(120) not null,
      process_instance_id bigint, start_time timestamp(0) not null, end_time timestamp(0) not null, days integer not null, reason varchar(500) not null,
      task_user bigint not null, task_user_name varchar(100), apply_user bigint not null, apply_user_name varchar(100), apply_time timestamp(0) not null)`.execute(db);
    await sql`create index blade_process_leave_instance on blade_process_leave (process_instance_id)`.execute(db);
  },
};

/** The shipped model and its first deployment for the platform tenant (once: an existing model or definition is kept). */
export async function seedLeaveProcess(app: FastifyInstance): Promise<void> {
  const db = app.ctx.db();
  const tz = app.ctx.config.appTimezone;
  const haveModel = await db.selectFrom('flow_model').select('id').where('tenant_id', '=', PLATFORM_TENANT).where('model_key', '=', LEAVE_KEY).executeTakeFirst();
  const now = localDateTime(tz);
  if (!haveModel) {
    await db.insertInto('flow_model').values({ id: newId(), tenant_id: PLATFORM_TENANT, model_key: LEAVE_KEY, name: '请假流程', category: 1, description: '请假申请：审批人审批，超过 3 天再由总经理审批，驳回回到申请人', xml: LEAVE_XML, create_time: now, update_time: now, status: 1, is_deleted: 0 }).execute();
  }
  if (await latestDefinition(db, PLATFORM_TENANT, LEAVE_KEY)) return;
  const info = await readProcess(LEAVE_XML);
  await db.transaction().execute(async (trx) => {
    const system = { userId: '0', realName: 'system', account: 'system' } as never;
    const deploymentId = await createDeployment(trx, tz, system, PLATFORM_TENANT, '请假流程', 1);
    await deployDefinition(trx, tz, { tenantId: PLATFORM_TENANT, deploymentId, xml: LEAVE_XML, info, category: 1 });
  });
}

function field(message: string, f: string): HttpError {
  return new HttpError(400, 'error.validation', {}, [{ field: f, message }], message);
}

export function mountLeaveRoutes(app: FastifyInstance): void {
  const tz = () => app.ctx.config.appTimezone;

  app.post('/api/blade-desk/process/leave/start-process', async (req) => {
    const user = await requirePermission(app, req, 'work_start_flow');
    const p = requestParams(req);
    const t = (k: string) => app.ctx.i18n.t(req.lang, k);
    const definitionId = String(p.processDefinitionId ?? '').trim();
    if (!definitionId) throw new HttpError(400, 'error.paramMissing', { name: 'processDefinitionId' });
    const definition = await definitionOf(app.ctx.db(), user.tenantId, definitionId);
    if (definition.suspended) throw new HttpError(400, 'flow.msg.suspended');
    const info = await readProcess(definition.xml);
    if (!mayStart(info, user)) throw new HttpError(403, 'flow.msg.mayNotStart');
    // the start form's fields, checked against the same document the form is drawn from (schemas/flow/leave.json)
    const doc = app.ctx.docs.get('leave');
    if (!doc) throw new Error('schemas/flow/leave.json is not loaded');
    const values: Record<string, unknown> = {};
    for (const f of ['startTime', 'endTime', 'reason', 'taskUser']) if (p[f] !== undefined && p[f] !== null && p[f] !== '') values[f] = typeof p[f] === 'string' ? (p[f] as string).trim() : p[f];
    const errors = validateValues(doc, 'add', values, app.ctx.i18n, req.lang);
    if (errors.length) throw new HttpError(400, 'error.validation', {}, errors.map(({ field: f, message }) => ({ field: f, message })), errors[0].message);
    const startTime = values.startTime as string;
    const endTime = values.endTime as string;
    const from = new Date(startTime.replace(' ', 'T'));
    const to = new Date(endTime.replace(' ', 'T'));
    if (to <= from) throw field(t('leave.msg.endAfterStart'), 'endTime');
    const days = Math.ceil((to.getTime() - from.getTime()) / 86_400_000);
    if (days > 366) throw field(t('leave.msg.tooLong'), 'endTime');
    const reason = values.reason as string;
    const approver = (await activeTenantUsers(app.ctx.db(), user.tenantId, [values.taskUser as string]))[0];
    if (!approver) throw field(t('leave.msg.taskUser'), 'taskUser');
    if (approver.id === user.userId) throw field(t('leave.msg.notSelf'), 'taskUser');
    const configured = (await readParam(app.ctx.db(), 'flow.leave.escalateAfter'))?.trim();
    const escalateAfter = configured && DURATION.test(configured) ? configured : 'P2D';
    const id = newId();
    const instanceId = await app.ctx.db().transaction().execute(async (trx) => {
      const instance = await startInstance(trx, tz(), user, definition, id, { days, taskUser: approver.id, reason, escalateAfter });
      await trx.insertInto('blade_process_leave').values({
        id, tenant_id: user.tenantId, process_definition_id: definition.id, process_instance_id: instance, start_time: startTime, end_time: endTime, days, reason, task_user: approver.id, task_user_name: approver.name, apply_user: user.userId,
        apply_user_name: user.realName || user.account, apply_time: localDateTime(tz()),
      }).execute();
      return instance;
    });
    return ok({ businessId: id, processInstanceId: instanceId, days });
  });

  app.get('/api/blade-desk/process/leave/detail', async (req) => {
    const user = requireUser(req);
    const id = String(requestParams(req).businessId ?? '').trim();
    if (!isId(id)) throw new HttpError(400, 'error.paramMissing', { name: 'businessId' });
    const db = app.ctx.db();
    const leave = await db.selectFrom('blade_process_leave').selectAll().where('id', '=', id).where('tenant_id', '=', user.tenantId).executeTakeFirst();
    if (!leave) throw new HttpError(404, 'error.recordNotFound');
    const instance = await db.selectFrom('flow_instance').select(['state', 'end_time']).where('id', '=', String(leave.process_instance_id)).executeTakeFirst();
    const tasks = await db.selectFrom('flow_task').select(['assignee', 'completed_by', 'candidate_users', 'candidate_groups']).where('instance_id', '=', String(leave.process_instance_id)).execute();
    const participant = String(leave.apply_user) === user.userId || tasks.some((t) => String(t.assignee) === user.userId || String(t.completed_by) === user.userId || isCandidate(t, user));
    if (!participant) await requirePermission(app, req, 'flow_follow');
    return ok({
      id, processDefinitionId: leave.process_definition_id, processInstanceId: String(leave.process_instance_id), startTime: leave.start_time, endTime: leave.end_time,
      days: leave.days, reason: leave.reason, taskUser: String(leave.task_user), taskUserName: leave.task_user_name, applyUser: String(leave.apply_user),
      applyUserName: leave.apply_user_name, applyTime: leave.apply_time, processState: instance?.state, processEndTime: instance?.end_time,
    });
  });
}

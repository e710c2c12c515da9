/**
 * Workflow (BladeX blade-flow): deployments and definitions, instances and their diagrams, the work lists, and the
 * leave process (leave.ts). The engine and its persistence are engine.ts and service.ts; which BPMN is run is bpmn.ts.
 *
 *   POST /api/blade-flow/model/deploy?modelId[&category]                     flow_deploy
 *   POST /api/blade-flow/manager/deploy-upload (multipart: category, tenantIds, files)   flow_deploy_upload
 *   GET  /api/blade-flow/manager/list?current&size[&processDefinitionKey&name&category]  flow_manager
 *   POST /api/blade-flow/manager/change-state?processId&state=active|suspend            flow_state
 *        (and suspend?id / activate?id: the 流程管理 screen's row buttons)
 *   POST /api/blade-flow/manager/delete-deployment?deploymentIds               flow_manager_delete
 *   GET  /api/blade-flow/deployment/list?current&size[&name]                   flow_deployment (部署管理)
 *   POST /api/blade-flow/deployment/remove?ids                                 flow_deployment_delete
 *   GET  /api/blade-flow/follow/list?current&size[&processDefinitionKey&category]  flow_follow
 *   POST /api/blade-flow/follow/delete-process-instance?processInstanceId[&deleteReason]  flow_follow_delete
 *   the work lists, claim and complete: work.ts
 *   GET  /api/blade-flow/process/model-view?processInstanceId|processDefinitionId  (a participant, or flow_follow)
 *   GET  /api/blade-flow/process/history-flow-list?processInstanceId               (the same)
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import { PLATFORM_TENANT, requireAnyPermission, requirePermission, requireUser, type AuthUser, type ScreenHooks, type ServerModule } from '../../context.js';
import { escapeLike } from '../../crud/query.js';
import type { DB } from '../../db/index.js';
import { HttpError, fail, ok, okStatus } from '../../lib/http.js';
import { isId } from '../../lib/ids.js';
import { requestParams } from '../../lib/params.js';
import { localDateTime } from '../../lib/time.js';
import { BpmnRefused, readProcess, type ProcessInfo } from './bpmn.js';
import { leaveMigration, mountLeaveRoutes, seedLeaveProcess } from './leave.js';
import { envelope, instancePage, mountWorkRoutes, page, text } from './work.js';
import { FLOW_MIGRATION_SQL, RUNNING, createDeployment, definitionOf, deployDefinition, fireDueTimers, isCandidate } from './service.js';

/** A BPMN refusal as a 400 with its message (naming the file of an upload). */
export function bpmnError(e: unknown, req: FastifyRequest, file?: string): never {
  if (!(e instanceof BpmnRefused)) throw e;
  if (!file) throw new HttpError(400, e.key, e.params);
  throw new HttpError(400, 'flow.msg.inFile', { file, reason: req.server.ctx.i18n.t(req.lang, e.key, e.params) });
}

/** Who may see an instance's diagram and history: its starter, whoever has or had one of its tasks, or flow_follow. */
async function requireInstanceViewer(app: FastifyInstance, req: FastifyRequest, instanceId: string): Promise<{ user: AuthUser; definitionId: string }> {
  const user = requireUser(req);
  const db = app.ctx.db();
  const inst = await db.selectFrom('flow_instance').select(['definition_id', 'start_user']).where('id', '=', instanceId).where('tenant_id', '=', user.tenantId).executeTakeFirst();
  if (!inst) throw new HttpError(404, 'flow.msg.instanceNotFound');
  if (String(inst.start_user) === user.userId) return { user, definitionId: String(inst.definition_id) };
  const tasks = await db.selectFrom('flow_task').select(['assignee', 'completed_by', 'candidate_users', 'candidate_groups']).where('instance_id', '=', instanceId).execute();
  if (tasks.some((t) => String(t.assignee) === user.userId || String(t.completed_by) === user.userId || isCandidate(t, user))) return { user, definitionId: String(inst.definition_id) };
  await requirePermission(app, req, 'flow_follow');
  return { user, definitionId: String(inst.definition_id) };
}

/** The diagram's path: every activity and sequence flow of the instance, in order (Flowable's field names). */
export async function historyFlow(db: DB, instanceId: string) {
  const rows = await db.selectFrom('flow_activity').select(['element_id', 'element_type', 'start_time', 'end_time']).where('instance_id', '=', instanceId).orderBy('start_time').orderBy('id').execute();
  return rows.map((r) => ({ historyActivityId: r.element_id, historyActivityType: r.element_type, startTime: r.start_time, endTime: r.end_time }));
}

function idParam(req: FastifyRequest, name: string): string {
  const v = String(requestParams(req)[name] ?? '').trim();
  if (!v) throw new HttpError(400, 'error.paramMissing', { name });
  return v;
}

/** A model is saved only when the engine could run it (the same reading as deploy); its key is its process id. */
const modelHooks: ScreenHooks = {
  async beforeSave({ values, existing, req }) {
    const xml = typeof values.xml === 'string' ? values.xml : String(existing?.xml ?? '');
    try {
      const info = await readProcess(xml);
      values.modelKey = info.key;
    } catch (e) {
      if (!(e instanceof BpmnRefused)) throw e;
      const message = req.server.ctx.i18n.t(req.lang, e.key, e.params);
      throw new HttpError(400, 'error.validation', {}, [{ field: 'xml', message }], message);
    }
  },
};

const flowModule: ServerModule = {
  name: 'flow',
  screenHooks: { flowModel: modelHooks },
  migrations: [
    {
      name: 'flow_0001_engine_tables',
      up: async (db) => {
        for (const ddl of FLOW_MIGRATION_SQL) await sql.raw(ddl).execute(db);
      },
    },
    leaveMigration,
  ],
  async plugin(app) {
    const tz = () => app.ctx.config.appTimezone;

    app.post('/api/blade-flow/model/deploy', async (req) => {
      const user = await requirePermission(app, req, 'flow_deploy');
      const modelId = String(requestParams(req).modelId ?? requestParams(req).id ?? '').trim();
      if (!isId(modelId)) throw new HttpError(400, 'error.paramMissing', { name: 'modelId' });
      const db = app.ctx.db();
      const model = await db.selectFrom('flow_model').select(['name', 'category', 'xml']).where('id', '=', modelId).where('tenant_id', '=', user.tenantId).where('is_deleted', '=', 0).executeTakeFirst();
      if (!model) throw new HttpError(404, 'flow.msg.modelNotFound');
      const info = await readProcess(String(model.xml ?? '')).catch((e) => bpmnError(e, req));
      const p = requestParams(req);
      const category = p.category !== undefined && p.category !== '' ? Number(p.category) : model.category === null ? null : Number(model.category);
      const def = await db.transaction().execute(async (trx) => {
        const deploymentId = await createDeployment(trx, tz(), user, user.tenantId, String(model.name), category);
        return deployDefinition(trx, tz(), { tenantId: user.tenantId, deploymentId, xml: String(model.xml), info, category });
      });
      return ok({ processDefinitionId: def.id, key: def.key, version: def.version });
    });

    app.post('/api/blade-flow/manager/deploy-upload', async (req) => {
      const user = await requirePermission(app, req, 'flow_deploy_upload');
      if (!req.isMultipart()) throw fail('error.uploadMissing');
      const files: Array<{ name: string; xml: string }> = [];
      const fields: Record<string, string> = {};
      try {
        for await (const part of req.parts({ limits: { fileSize: 1024 * 1024, files: 10 } })) {
          if (part.type === 'file') {
            const buf = await part.toBuffer();
            if (part.file.truncated) throw new HttpError(400, 'flow.msg.xmlTooLarge');
            if (!/\.(bpmn|xml|bpmn20\.xml)$/i.test(part.filename ?? '')) throw new HttpError(400, 'flow.msg.fileType', { file: text(part.filename, 100) });
            files.push({ name: text(part.filename, 100), xml: buf.toString('utf8') });
          } else fields[part.fieldname] = String(part.value ?? '');
        }
      } catch (e) {
        if (e instanceof HttpError) throw e;
        throw fail('error.uploadBroken');
      }
      if (!files.length) throw fail('error.uploadMissing');
      const infos: ProcessInfo[] = [];
      for (const f of files) infos.push(await readProcess(f.xml).catch((e) => bpmnError(e, req, f.name)));
      // another tenant only for the platform's administrators (tenantIds empty: the caller's own)
      const tenants = (fields.tenantIds ?? '').split(',').map((s) => s.trim()).filter(Boolean);
      if (tenants.some((id) => id !== user.tenantId) && user.tenantId !== PLATFORM_TENANT) throw new HttpError(403, 'flow.msg.otherTenant');
      const category = fields.category ? Number(fields.category) : null;
      if (category !== null && !Number.isInteger(category)) throw new HttpError(400, 'error.paramMissing', { name: 'category' });
      const deployed = await app.ctx.db().transaction().execute(async (trx) => {
        const out = [];
        for (const tenantId of tenants.length ? [...new Set(tenants)] : [user.tenantId]) {
          const deploymentId = await createDeployment(trx, tz(), user, tenantId, files.map((f) => f.name).join(','), category);
          for (const [i, f] of files.entries()) out.push((await deployDefinition(trx, tz(), { tenantId, deploymentId, xml: f.xml, info: infos[i], category })).id);
        }
        return out;
      });
      return ok({ processDefinitionIds: deployed });
    });

    app.get('/api/blade-flow/manager/list', async (req) => {
      const user = await requirePermission(app, req, 'flow_manager');
      const { current, size, offset } = page(req);
      const q = (req.query ?? {}) as Record<string, unknown>;
      let base = app.ctx.db().selectFrom('flow_definition').where('tenant_id', '=', user.tenantId);
      const key = text(q.processDefinitionKey ?? q.key ?? q.key_equal, 64);
      if (key) base = base.where('key', '=', key);
      const name = text(q.name, 100);
      if (name) base = base.where('name', 'like', `%${escapeLike(name)}%`);
      if (q.category !== undefined && q.category !== '' && Number.isInteger(Number(q.category))) base = base.where('category', '=', Number(q.category));
      const rows = await base.select(['id', 'key', 'name', 'version', 'category', 'deployment_id', 'suspended', 'deploy_time']).orderBy('deploy_time', 'desc').orderBy('version', 'desc').limit(size).offset(offset).execute();
      const total = await base.select(sql<string>`count(*)`.as('n')).executeTakeFirstOrThrow();
      return ok(envelope(rows.map((r) => ({
        id: r.id, key: r.key, name: r.name, version: r.version, category: r.category, deploymentId: String(r.deployment_id), deploymentTime: r.deploy_time,
        suspensionState: Number(r.suspended) ? 2 : 1, tenantId: user.tenantId,
      })), Number(total.n), current, size));
    });

    /** Suspend (no start, no completion) or activate a definition of the caller's tenant. */
    const changeState = async (req: FastifyRequest, state: unknown) => {
      const user = await requirePermission(app, req, 'flow_state');
      const p = requestParams(req);
      const id = String(p.processId ?? p.id ?? '').trim();
      if (!id) throw new HttpError(400, 'error.paramMissing', { name: 'processId' });
      if (state !== 'active' && state !== 'suspend') throw new HttpError(400, 'flow.msg.badState');
      const def = await definitionOf(app.ctx.db(), user.tenantId, id);
      await app.ctx.db().updateTable('flow_definition').set({ suspended: state === 'suspend' ? 1 : 0 }).where('id', '=', def.id).execute();
      return okStatus();
    };
    app.post('/api/blade-flow/manager/change-state', (req) => changeState(req, requestParams(req).state));
    // the screen's row buttons (flowManager document)
    app.post('/api/blade-flow/manager/suspend', (req) => changeState(req, 'suspend'));
    app.post('/api/blade-flow/manager/activate', (req) => changeState(req, 'active'));

    /** Deletes deployments of the caller's tenant with their definitions, refused while an instance of one runs. */
    const removeDeployments = (tenantId: string, ids: string[]) =>
      app.ctx.db().transaction().execute(async (trx) => {
        const defs = (await trx.selectFrom('flow_definition').select('id').where('tenant_id', '=', tenantId).where('deployment_id', 'in', ids).execute()).map((d) => String(d.id));
        const owned = await trx.selectFrom('flow_deployment').select('id').where('tenant_id', '=', tenantId).where('id', 'in', ids).execute();
        // all or nothing: an id of another tenant (or none) refuses the whole call
        if (owned.length < new Set(ids).size) throw new HttpError(404, 'flow.msg.definitionNotFound');
        if (defs.length) {
          const running = await trx.selectFrom('flow_instance').select(sql<string>`count(*)`.as('n')).where('definition_id', 'in', defs).where('state', '=', RUNNING).executeTakeFirstOrThrow();
          if (Number(running.n)) throw new HttpError(400, 'flow.msg.deploymentRunning', { count: Number(running.n) });
          await trx.deleteFrom('flow_definition').where('id', 'in', defs).execute();
        }
        await trx.deleteFrom('flow_deployment').where('id', 'in', ids).where('tenant_id', '=', tenantId).execute();
        return defs.length;
      });

    app.post('/api/blade-flow/manager/delete-deployment', async (req) => {
      const user = await requirePermission(app, req, 'flow_manager_delete');
      const p = requestParams(req);
      // deploymentIds (BladeX), or the 流程管理 screen's row: the id of one of the deployment's definitions
      let ids = String(p.deploymentIds ?? '').split(',').map((s) => s.trim()).filter(isId);
      if (!ids.length && typeof p.id === 'string' && p.id) ids = [(await definitionOf(app.ctx.db(), user.tenantId, p.id)).deployment_id];
      if (!ids.length) throw fail('error.invalidIds');
      return ok({ removed: await removeDeployments(user.tenantId, ids) });
    });

    // 部署管理 (schemas/flow/deployment.json): the tenant's deployments, newest first, with what each deployed
    app.get('/api/blade-flow/deployment/list', async (req) => {
      const user = await requirePermission(app, req, 'flow_deployment');
      const { current, size, offset } = page(req);
      const q = (req.query ?? {}) as Record<string, unknown>;
      const name = text(q.name ?? q.name_like, 100);
      const where = sql.join([sql`p.tenant_id = ${user.tenantId}`, ...(name ? [sql`p.name like ${`%${escapeLike(name)}%`}`] : [])], sql` and `);
      const rows = await sql<Record<string, unknown>>`select p.id::text as "id", p.name as "name", p.category as "category", p.deploy_time as "deploymentTime",
          (select string_agg(d.name || ' (' || d.key || ' v' || d.version || ')', ', ' order by d.key) from flow_definition d where d.deployment_id = p.id) as "definitions"
        from flow_deployment p where ${where} order by p.deploy_time desc, p.id desc limit ${size} offset ${offset}`.execute(app.ctx.db());
      const count = await sql<{ n: string }>`select count(*) as n from flow_deployment p where ${where}`.execute(app.ctx.db());
      return ok(envelope(rows.rows, Number(count.rows[0].n), current, size));
    });
    app.post('/api/blade-flow/deployment/remove', async (req) => {
      const user = await requirePermission(app, req, 'flow_deployment_delete');
      const ids = String(requestParams(req).ids ?? '').split(',').map((s) => s.trim()).filter(Boolean);
      if (!ids.length || !ids.every(isId)) throw fail('error.invalidIds');
      return ok({ removed: await removeDeployments(user.tenantId, ids) });
    });

    app.get('/api/blade-flow/follow/list', async (req) => {
      const user = await requirePermission(app, req, 'flow_follow');
      return ok(await instancePage(app.ctx.db(), req, sql`i.tenant_id = ${user.tenantId}`));
    });

    app.post('/api/blade-flow/follow/delete-process-instance', async (req) => {
      const user = await requirePermission(app, req, 'flow_follow_delete');
      const id = String(requestParams(req).processInstanceId ?? requestParams(req).id ?? '').trim();
      if (!isId(id)) throw new HttpError(400, 'error.paramMissing', { name: 'processInstanceId' });
      const reason = text(requestParams(req).deleteReason, 500);
      await app.ctx.db().transaction().execute(async (trx) => {
        const inst = await trx.selectFrom('flow_instance').select('state').where('id', '=', id).where('tenant_id', '=', user.tenantId).forUpdate().executeTakeFirst();
        if (!inst) throw new HttpError(404, 'flow.msg.instanceNotFound');
        if (inst.state !== RUNNING) throw new HttpError(409, 'flow.msg.instanceEnded');
        const now = localDateTime(tz());
        await trx.updateTable('flow_instance').set({ state: 'terminated', end_time: now, next_timer: null }).where('id', '=', id).execute();
        await trx.updateTable('flow_task').set({ end_time: now, outcome: 'cancelled', comment: reason || null }).where('instance_id', '=', id).where('end_time', 'is', null).execute();
      });
      return okStatus();
    });

    mountWorkRoutes(app);

    app.get('/api/blade-flow/process/model-view', async (req) => {
      const user = requireUser(req);
      const q = (req.query ?? {}) as Record<string, unknown>;
      const instanceId = text(q.processInstanceId, 20);
      if (instanceId) {
        if (!isId(instanceId)) throw new HttpError(400, 'error.paramMissing', { name: 'processInstanceId' });
        const { definitionId } = await requireInstanceViewer(app, req, instanceId);
        const def = await definitionOf(app.ctx.db(), user.tenantId, definitionId);
        return ok({ xml: def.xml, flow: await historyFlow(app.ctx.db(), instanceId) });
      }
      const definitionId = text(q.processDefinitionId, 120);
      if (!definitionId) throw new HttpError(400, 'error.paramMissing', { name: 'processInstanceId' });
      // a definition's model: for whoever may start processes or manage them
      await requireAnyPermission(app, req, ['work_start', 'flow_manager']);
      const def = await definitionOf(app.ctx.db(), user.tenantId, definitionId);
      return ok({ xml: def.xml, flow: [] });
    });

    app.get('/api/blade-flow/process/history-flow-list', async (req) => {
      const instanceId = idParam(req, 'processInstanceId');
      if (!isId(instanceId)) throw new HttpError(400, 'error.paramMissing', { name: 'processInstanceId' });
      await requireInstanceViewer(app, req, instanceId);
      const rows = await sql<Record<string, unknown>>`select t.element_id as "historyActivityId", t.name as "historyActivityName", 'userTask' as "historyActivityType",
          t.assignee::text as "assignee", t.assignee_name as "assigneeName", t.create_time as "createTime", t.end_time as "endTime", t.outcome as "outcome", t.comment as "comment"
        from flow_task t where t.instance_id = ${instanceId} order by t.create_time, t.id`.execute(app.ctx.db());
      return ok(rows.rows);
    });

    mountLeaveRoutes(app);

    // Timers (escalations) that fell due: every 5 s, each instance under its row lock (several servers fire it once).
    if (app.ctx.database) {
      app.addHook('onReady', async () => {
        await seedLeaveProcess(app);
      });
      let busy = false;
      const timer = setInterval(() => {
        if (busy) return;
        busy = true;
        fireDueTimers(app.ctx.db(), tz())
          .catch((err) => app.log.error({ err }, 'workflow timers failed'))
          .finally(() => (busy = false));
      }, 5000);
      timer.unref();
      app.addHook('onClose', async () => clearInterval(timer));
    }
  },
};

export default flowModule;

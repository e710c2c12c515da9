/**
 * Workflow (issue 12): the shipped leave process on bpmn-engine with every step saved — a 4-day leave goes
 * through the chosen approver (claim, approve) and on to a second approver (more than 3 days), a rejection
 * returns it to the applicant, an unhandled approval escalates after its timer, a server restart between two
 * steps loses nothing; models are refused when the engine could not run them right; every refusal of the work
 * lists (foreign task, completed task, suspended definition, another tenant).
 */
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app.js';
import { fireDueTimers } from '../../src/server/modules/flow/service.js';
import { LEAVE_XML } from '../../src/server/modules/flow/leave-model.js';
import { startTestServer, type TestServer } from './helpers.js';
import { data, operator } from './system-helpers.js';

const WORK = '/api/blade-flow/work';
const LEAVE = '/api/blade-desk/process/leave';
const APPLICANT_CODES = ['work_start', 'work_start_flow', 'work_send', 'work_todo', 'work_handle', 'work_done'];
const APPROVER_CODES = ['work_sign', 'work_claim', 'work_todo', 'work_handle', 'work_done'];

let t: TestServer;
let app: FastifyInstance;
let admin: string;
let applicant: { userId: string; token: string };
let approver: { userId: string; token: string };
let definitionId: string;
let other: { userId: string; token: string };
let nobody: { userId: string; token: string };

async function call(token: string, o: InjectOptions) {
  const res = await app.inject({ ...o, headers: { ...((o.headers as Record<string, string>) ?? {}), 'blade-auth': `bearer ${token}` } });
  return { status: res.statusCode, body: JSON.parse(res.body) };
}
const get = (url: string, token: string) => call(token, { method: 'GET', url });
const post = (url: string, payload: unknown, token: string) => call(token, { method: 'POST', url, payload: payload as never });
const list = async (kind: string, token: string) => data(await get(`${WORK}/${kind}-list?size=50`, token)).records as Array<Record<string, any>>;
const complete = (task: Record<string, any>, flag: string, token: string, extra: Record<string, unknown> = {}) =>
  post(`${WORK}/complete-task`, { taskId: task.taskId, processInstanceId: task.processInstanceId, flag, comment: `${flag} by test`, ...extra }, token);
const leave = (days: number, token = applicant.token, over: Record<string, unknown> = {}) =>
  post(`${LEAVE}/start-process`, { processDefinitionId: definitionId, startTime: '2026-12-01 09:00:00', endTime: `2026-12-${String(1 + days).padStart(2, '0')} 09:00:00`, reason: '回家', taskUser: approver.userId, ...over }, token);

beforeAll(async () => {
  t = await startTestServer();
  app = t.app;
  admin = await t.login();
  applicant = await operator(t, 'applicant', APPLICANT_CODES);
  approver = await operator(t, 'approver', APPROVER_CODES);
  // signed in before the restart test replaces the server (the tokens stay valid: they are checked against the database)
  await t.database.db.insertInto('blade_tenant').values({ id: '900000000000012666', tenant_id: '666666', tenant_name: '别家', is_deleted: 0, status: 1 }).execute();
  other = await operator(t, 'flowother', [...APPROVER_CODES, 'work_start', 'work_start_flow', 'flow_manager', 'flow_state', 'flow_follow'], '666666');
  nobody = await operator(t, 'flownone', ['work_send']);
});
afterAll(async () => {
  if (app !== t.app) await app.close();
  await t?.close();
});

describe('the leave process', () => {
  it('is shipped as a model and deployed at the first start', async () => {
    const defs = data(await get('/api/blade-flow/manager/list', admin)).records;
    expect(defs).toEqual([expect.objectContaining({ key: 'Leave', name: '请假流程', version: 1, suspensionState: 1 })]);
    definitionId = defs[0].id;
    expect(definitionId).toMatch(/^Leave:1:\d+$/);
    const models = data(await get('/api/blade-flow/model/list', admin)).records;
    expect(models).toEqual([expect.objectContaining({ name: '请假流程', modelKey: 'Leave' })]);
    expect((await list('start', applicant.token)).map((d) => d.key)).toEqual(['Leave']);
  });

  it('a 4-day leave: the approver claims and approves, the second approver too; the applicant sees it sent and finished', async () => {
    const started = data(await leave(4));
    expect(started.days).toBe(4);
    // the chosen approver is a candidate (claim first); nobody else is
    const claimable = await list('claim', approver.token);
    expect(claimable.map((x) => [x.taskName, x.businessId])).toEqual([['审批', started.businessId]]);
    expect(await list('claim', admin)).toEqual([]);
    const task = claimable[0];
    expect((await complete(task, 'ok', approver.token)).body.msg).toBe('请先签收该任务');
    data(await post(`${WORK}/claim-task?taskId=${task.taskId}`, {}, approver.token));
    expect((await post(`${WORK}/claim-task?taskId=${task.taskId}`, {}, approver.token)).body.msg).toBe('该任务已由您签收');
    expect((await list('todo', approver.token)).map((x) => x.taskId)).toEqual([task.taskId]);
    data(await complete(task, 'ok', approver.token));
    // more than 3 days: the administrators' approval
    const second = (await list('claim', admin)).find((x) => x.processInstanceId === started.processInstanceId)!;
    expect(second.taskName).toBe('总经理审批');
    data(await post(`${WORK}/claim-task?taskId=${second.taskId}`, {}, admin));
    expect((await list('todo', admin)).map((x) => x.taskName)).toContain('总经理审批');
    expect(data(await complete(second, 'ok', admin))).toEqual({ instanceId: started.processInstanceId, finished: true });

    const sent = (await list('send', applicant.token)).find((x) => x.processInstanceId === started.processInstanceId)!;
    expect(sent).toMatchObject({ processDefinitionKey: 'Leave', processIsFinished: true, businessId: started.businessId });
    expect((await list('done', approver.token)).map((x) => [x.taskName, x.outcome])).toEqual([['审批', 'approve']]);
    const detail = data(await get(`${LEAVE}/detail?businessId=${started.businessId}`, applicant.token));
    expect(detail).toMatchObject({ days: 4, reason: '回家', taskUser: approver.userId, processState: 'finished' });
    // the diagram's path: start → 审批 → gateway → 总经理审批 → gateway → 已批准, every one ended, flows taken
    const view = data(await get(`/api/blade-flow/process/model-view?processInstanceId=${started.processInstanceId}`, applicant.token));
    expect(view.xml).toContain('id="Leave"');
    const ids = view.flow.map((f: any) => f.historyActivityId);
    expect(ids).toEqual(['start', 'toApprove', 'approve', 'toDecided', 'decided', 'toBoss', 'bossApprove', 'toBossDecided', 'bossDecided', 'bossToApproved', 'approved']);
    expect(view.flow.every((f: any) => f.endTime)).toBe(true);
    expect(view.flow.find((f: any) => f.historyActivityId === 'toBoss').historyActivityType).toBe('sequenceFlow');
    const history = data(await get(`/api/blade-flow/process/history-flow-list?processInstanceId=${started.processInstanceId}`, applicant.token));
    expect(history.map((h: any) => [h.historyActivityName, h.outcome, h.comment])).toEqual([['审批', 'approve', 'ok by test'], ['总经理审批', 'approve', 'ok by test']]);
  });

  it('a 2-day leave ends after the first approval; a rejection returns it to the applicant, who withdraws or resubmits', async () => {
    const short = data(await leave(2));
    const task = (await list('claim', approver.token)).find((x) => x.processInstanceId === short.processInstanceId)!;
    data(await post(`${WORK}/claim-task?taskId=${task.taskId}`, {}, approver.token));
    expect(data(await complete(task, 'ok', approver.token)).finished).toBe(true);

    const rejected = data(await leave(5));
    let t1 = (await list('claim', approver.token)).find((x) => x.processInstanceId === rejected.processInstanceId)!;
    data(await post(`${WORK}/claim-task?taskId=${t1.taskId}`, {}, approver.token));
    data(await complete(t1, 'reject', approver.token));
    const adjust = (await list('todo', applicant.token)).find((x) => x.processInstanceId === rejected.processInstanceId)!;
    expect(adjust.taskName).toBe('调整申请');
    data(await complete(adjust, 'ok', applicant.token)); // resubmit: back to the approver
    t1 = (await list('claim', approver.token)).find((x) => x.processInstanceId === rejected.processInstanceId)!;
    expect(t1.taskName).toBe('审批');
    data(await post(`${WORK}/claim-task?taskId=${t1.taskId}`, {}, approver.token));
    data(await complete(t1, 'reject', approver.token));
    const again = (await list('todo', applicant.token)).find((x) => x.processInstanceId === rejected.processInstanceId)!;
    expect(data(await complete(again, 'no', applicant.token)).finished).toBe(true); // withdrawn
    const view = data(await get(`/api/blade-flow/process/model-view?processInstanceId=${rejected.processInstanceId}`, applicant.token));
    expect(view.flow.at(-1).historyActivityId).toBe('cancelled');
  });

  it('an approval nobody handles escalates when its timer falls due', async () => {
    await t.database.db.insertInto('blade_param').values({ id: '900000000000012001', tenant_id: '000000', param_name: '请假审批超时', param_key: 'flow.leave.escalateAfter', param_value: 'PT1S', is_deleted: 0, status: 1 }).execute();
    const late = data(await leave(1));
    await t.database.db.deleteFrom('blade_param').where('id', '=', '900000000000012001').execute();
    await expect.poll(async () => (await t.database.db.selectFrom('flow_instance').select('next_timer').where('id', '=', late.processInstanceId).executeTakeFirstOrThrow()).next_timer).not.toBeNull();
    // fire what is due (the server does this every few seconds; the test does not wait for it)
    await expect.poll(() => fireDueTimers(t.database.db, t.config.appTimezone), { timeout: 15_000, interval: 200 }).toBeGreaterThan(0);
    expect((await list('claim', approver.token)).some((x) => x.processInstanceId === late.processInstanceId)).toBe(false);
    const escalated = (await list('claim', admin)).find((x) => x.processInstanceId === late.processInstanceId)!;
    expect(escalated.taskName).toBe('超时审批');
    const path = data(await get(`/api/blade-flow/process/model-view?processInstanceId=${late.processInstanceId}`, applicant.token)).flow.map((f: any) => f.historyActivityId);
    expect(path).toEqual(['start', 'toApprove', 'approve', 'escalate', 'toEscalated', 'escalated']);
    data(await post(`${WORK}/claim-task?taskId=${escalated.taskId}`, {}, admin));
    expect(data(await complete(escalated, 'ok', admin)).finished).toBe(true);
  });

  it('a server restart between two steps loses nothing: the task is still to do and completes', async () => {
    const started = data(await leave(4));
    const task = (await list('claim', approver.token)).find((x) => x.processInstanceId === started.processInstanceId)!;
    data(await post(`${WORK}/claim-task?taskId=${task.taskId}`, {}, approver.token));
    // stop this server (nothing of the instance is kept in memory) and start another on the same database
    await app.close();
    app = buildApp({ db: t.database.db, config: t.config, docs: t.app.ctx.docs });
    await app.ready();
    expect((await list('todo', approver.token)).map((x) => x.taskId)).toContain(task.taskId);
    data(await complete(task, 'ok', approver.token));
    const second = (await list('claim', admin)).find((x) => x.processInstanceId === started.processInstanceId)!;
    expect(second.taskName).toBe('总经理审批');
    data(await post(`${WORK}/claim-task?taskId=${second.taskId}`, {}, admin));
    expect(data(await complete(second, 'ok', admin)).finished).toBe(true);
  });
});

describe('refusals', () => {
  it('a foreign task, a completed task, a claimed task, a bad flag or variables', async () => {
    const started = data(await leave(1));
    const task = (await list('claim', approver.token)).find((x) => x.processInstanceId === started.processInstanceId)!;
    expect((await post(`${WORK}/claim-task?taskId=${task.taskId}`, {}, admin)).body.msg).toBe('您不是该任务的候选人');
    data(await post(`${WORK}/claim-task?taskId=${task.taskId}`, {}, approver.token));
    expect((await complete(task, 'ok', admin)).status).toBe(403);
    expect((await complete(task, 'ok', admin)).body.msg).toBe('该任务不是您的待办');
    expect((await complete(task, 'maybe', approver.token)).body.msg).toBe('请选择同意或驳回');
    expect((await complete(task, 'ok', approver.token, { variables: { 'bad name': 1 } })).body.msg).toMatch(/^流程变量须为 JSON 对象/);
    expect((await complete(task, 'ok', approver.token, { processInstanceId: '1' })).body.msg).toBe('任务不属于该流程实例');
    data(await complete(task, 'ok', approver.token));
    const again = await complete(task, 'ok', approver.token);
    expect([again.status, again.body.msg]).toEqual([409, '该任务已办结']);
    expect((await post(`${WORK}/claim-task?taskId=${task.taskId}`, {}, approver.token)).body.msg).toBe('该任务已办结');
    expect((await post(`${WORK}/claim-task?taskId=99999`, {}, approver.token)).status).toBe(404);
  });

  it('leave input is checked: dates, reason, the approver (of this tenant, not oneself)', async () => {
    const bad = async (over: Record<string, unknown>) => (await leave(2, applicant.token, over)).body;
    expect((await bad({ endTime: '2026-11-30 09:00:00' })).data).toEqual([{ field: 'endTime', message: '结束时间须晚于开始时间' }]);
    expect((await bad({ startTime: 'tomorrow' })).data[0].field).toBe('startTime');
    expect((await bad({ reason: ' ' })).data[0].field).toBe('reason');
    expect((await bad({ taskUser: applicant.userId })).msg).toBe('审批人不能是自己');
    expect((await bad({ taskUser: '123' })).msg).toBe('请选择审批人');
    expect((await bad({ processDefinitionId: 'Leave:9:1' })).msg).toBe('流程定义不存在');
  });

  it('a suspended definition starts nothing and completes nothing until activated', async () => {
    const started = data(await leave(1));
    const task = (await list('claim', approver.token)).find((x) => x.processInstanceId === started.processInstanceId)!;
    data(await post(`${WORK}/claim-task?taskId=${task.taskId}`, {}, approver.token));
    data(await post(`/api/blade-flow/manager/change-state?processId=${definitionId}&state=suspend`, {}, admin));
    expect(data(await get('/api/blade-flow/manager/list', admin)).records[0].suspensionState).toBe(2);
    expect((await leave(1)).body.msg).toBe('流程已挂起，请先激活');
    expect(await list('start', applicant.token)).toEqual([]);
    expect((await complete(task, 'ok', approver.token)).body.msg).toBe('流程已挂起，请先激活');
    data(await post(`/api/blade-flow/manager/change-state?processId=${definitionId}&state=active`, {}, admin));
    data(await complete(task, 'ok', approver.token));
    expect((await post(`/api/blade-flow/manager/change-state?processId=${definitionId}&state=off`, {}, admin)).body.msg).toBe('状态须为 active 或 suspend');
  });

  it('another tenant sees, claims, completes and views nothing of this tenant', async () => {
    const started = data(await leave(1));
    expect(await list('start', other.token)).toEqual([]);
    expect(data(await get('/api/blade-flow/manager/list', other.token)).total).toBe(0);
    expect(data(await get('/api/blade-flow/follow/list', other.token)).total).toBe(0);
    const task = (await list('claim', approver.token)).find((x) => x.processInstanceId === started.processInstanceId)!;
    expect((await post(`${WORK}/claim-task?taskId=${task.taskId}`, {}, other.token)).status).toBe(404);
    expect((await complete(task, 'ok', other.token)).status).toBe(404);
    expect((await get(`/api/blade-flow/process/model-view?processInstanceId=${started.processInstanceId}`, other.token)).status).toBe(404);
    expect((await get(`${LEAVE}/detail?businessId=${started.businessId}`, other.token)).status).toBe(404);
    expect((await post(`/api/blade-flow/manager/change-state?processId=${definitionId}&state=suspend`, {}, other.token)).status).toBe(404);
    expect((await leave(1, other.token)).body.msg).toBe('流程定义不存在');
  });

  it('a user without the codes is refused; an outsider cannot read a process diagram', async () => {
    expect((await get(`${WORK}/todo-list`, nobody.token)).status).toBe(403);
    expect((await post(`${WORK}/claim-task?taskId=1`, {}, nobody.token)).status).toBe(403);
    expect((await leave(1, nobody.token)).status).toBe(403);
    const started = data(await leave(1));
    expect((await get(`/api/blade-flow/process/model-view?processInstanceId=${started.processInstanceId}`, nobody.token)).status).toBe(403);
  });
});

describe('the 流程管理 and 流程跟踪 screens', () => {
  it('suspend and activate a definition by its row, terminate a running instance (its tasks are cancelled)', async () => {
    data(await post(`/api/blade-flow/manager/suspend?id=${definitionId}`, {}, admin));
    expect(data(await get('/api/blade-flow/manager/list?key_equal=Leave', admin)).records.find((d: any) => d.id === definitionId).suspensionState).toBe(2);
    data(await post(`/api/blade-flow/manager/activate?id=${definitionId}`, {}, admin));
    const started = data(await leave(1));
    const row = data(await get('/api/blade-flow/follow/list?size=100', admin)).records.find((r: any) => r.id === started.processInstanceId);
    expect(row).toMatchObject({ state: 'running', currentTasks: '审批', startUser: 'applicant', processDefinitionKey: 'Leave' });
    data(await post(`/api/blade-flow/follow/delete-process-instance?id=${started.processInstanceId}`, {}, admin));
    expect(data(await get('/api/blade-flow/follow/list?size=100', admin)).records.find((r: any) => r.id === started.processInstanceId).state).toBe('terminated');
    expect((await list('claim', approver.token)).some((x) => x.processInstanceId === started.processInstanceId)).toBe(false);
    expect((await post(`/api/blade-flow/follow/delete-process-instance?id=${started.processInstanceId}`, {}, admin)).body.msg).toBe('流程已结束');
  });
});

describe('models and deployments', () => {
  const multipart = (files: Array<[string, string]>, fields: Record<string, string> = {}) => {
    const boundary = '----flow' + Math.random().toString(16).slice(2);
    const parts = [
      ...Object.entries(fields).map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`),
      ...files.map(([name, xml]) => `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${name}"\r\nContent-Type: text/xml\r\n\r\n${xml}\r\n`),
    ];
    return { payload: Buffer.from(parts.join('') + `--${boundary}--\r\n`), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
  };
  const upload = (files: Array<[string, string]>, fields?: Record<string, string>) => call(admin, { method: 'POST', url: '/api/blade-flow/manager/deploy-upload', ...multipart(files, fields) });
  const withTask = (body: string) => LEAVE_XML.replace('<bpmn:exclusiveGateway id="decided"', `${body}\n    <bpmn:exclusiveGateway id="decided"`);

  it('a broken or unsupported file is refused with what is wrong, and nothing is deployed', async () => {
    const before = data(await get('/api/blade-flow/manager/list', admin)).total;
    expect((await upload([['broken.bpmn', '<bpmn:definitions><oops']])).body.msg).toMatch(/^broken\.bpmn：BPMN 文件无法解析/);
    expect((await upload([['script.bpmn', withTask('<bpmn:scriptTask id="s1" scriptFormat="js"><bpmn:script>process.exit()</bpmn:script></bpmn:scriptTask>')]])).body.msg)
      .toBe('script.bpmn：暂不支持的流程元素 bpmn:ScriptTask（s1）');
    const jsCondition = LEAVE_XML.replace('<bpmn:conditionExpression xsi:type="bpmn:tFormalExpression">${!pass}', '<bpmn:conditionExpression xsi:type="bpmn:tFormalExpression" language="js">next(null, true)');
    expect((await upload([['js.bpmn', jsCondition]])).body.msg).toBe('js.bpmn：条件 toAdjust 不能使用脚本，请使用 ${...} 表达式');
    const call = LEAVE_XML.replace('${pass &amp;&amp; days &gt; 3}', '${require(&quot;fs&quot;)}');
    expect((await upload([['call.bpmn', call]])).body.msg).toMatch(/^call\.bpmn：toBoss 的 condition 表达式有误/);
    const nobody = withTask('<bpmn:userTask id="orphan" name="无人任务" />');
    expect((await upload([['nobody.bpmn', nobody]])).body.msg).toBe('nobody.bpmn：用户任务「无人任务」未设置处理人或候选人');
    expect((await upload([['notes.txt', LEAVE_XML]])).body.msg).toBe('notes.txt 不是 .bpmn 或 .xml 文件');
    expect((await upload([['a.bpmn', LEAVE_XML]], { tenantIds: '666666' })).status).toBe(200); // the platform may deploy to a tenant
    expect(data(await get('/api/blade-flow/manager/list', admin)).total).toBe(before);
  });

  it('an upload deploys the next version; a model is saved only when valid and deploys too', async () => {
    data(await upload([['leave.bpmn20.xml', LEAVE_XML]], { category: '1' }));
    const versions = data(await get('/api/blade-flow/manager/list?processDefinitionKey=Leave', admin)).records.map((d: any) => d.version);
    expect(versions).toEqual([2, 1]);
    const bad = await post('/api/blade-flow/model/submit', { name: '坏模型', xml: '<x' }, admin);
    expect(bad.body.data[0].field).toBe('xml');
    const model = data(await post('/api/blade-flow/model/submit', { name: '请假（复制）', category: 1, xml: LEAVE_XML.replaceAll('"Leave"', '"LeaveCopy"') }, admin));
    expect(data(await get(`/api/blade-flow/model/detail?id=${model.id}`, admin)).modelKey).toBe('LeaveCopy');
    const deployed = data(await post(`/api/blade-flow/model/deploy?id=${model.id}`, {}, admin));
    expect(deployed).toMatchObject({ key: 'LeaveCopy', version: 1 });
    // a deployment with running instances stays; one without goes
    const leaveDefs = data(await get('/api/blade-flow/manager/list?processDefinitionKey=Leave', admin)).records;
    const v1 = leaveDefs.find((d: any) => d.version === 1);
    expect((await post(`/api/blade-flow/manager/delete-deployment?deploymentIds=${v1.deploymentId}`, {}, admin)).body.msg).toMatch(/个运行中的流程实例，不能删除该部署$/);
    const copy = data(await get('/api/blade-flow/manager/list?processDefinitionKey=LeaveCopy', admin)).records[0];
    // the screen's row button names the definition; its deployment goes
    expect(data(await post(`/api/blade-flow/manager/delete-deployment?id=${encodeURIComponent(copy.id)}`, {}, admin))).toEqual({ removed: 1 });
  });
});

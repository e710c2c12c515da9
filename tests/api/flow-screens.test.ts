/**
 * Workflow screens (我的事务, 部署管理, the leave form): the work lists at their screen URLs (`work/claim/list`) and
 * BladeX's (`work/claim-list`) answer the same rows, each with its task id as `id` and its form's route
 * (`formRoute`, from the `flow` dictionary) and filtered by category; claiming by the row's `id`; no generic
 * route for a module-served screen; the start form's approver choices (its own tenant, never the caller); the
 * leave document served to whoever works with the process; start-process checked against that document and
 * writing nothing when refused; 部署管理 listing, uploading and removing deployments (not one with a running
 * instance, not another tenant's).
 */
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LEAVE_XML } from '../../src/server/modules/flow/leave-model.js';
import { startTestServer, type TestServer } from './helpers.js';
import { data, operator } from './system-helpers.js';

const WORK = '/api/blade-flow/work';
const LEAVE = '/api/blade-desk/process/leave';
const DEPLOYMENT = '/api/blade-flow/deployment';
const APPLICANT_CODES = ['work_start', 'work_start_flow', 'work_send', 'work_todo', 'work_handle', 'work_done'];
const APPROVER_CODES = ['work_sign', 'work_claim', 'work_todo', 'work_handle', 'work_done'];
const OTHER_TENANT = '777777';

type Row = Record<string, any>;
type User = { userId: string; token: string };

let t: TestServer;
let admin: string;
let applicant: User;
let approver: User;
let outsider: User; // another tenant, may start processes and see its deployments
let definitionId: string;
let running: { businessId: string; processInstanceId: string }; // the 4-day leave of the first test, still running

const call = (token: string, o: InjectOptions) => t.call(token, o);
const get = (url: string, token: string) => call(token, { method: 'GET', url });
const post = (url: string, payload: unknown, token: string) => call(token, { method: 'POST', url, payload: payload as never });
/** A work list's rows (`path`: `todo/list` or `todo-list`, with an optional query). */
const rows = async (path: string, token: string): Promise<Row[]> => data(await get(`${WORK}/${path}${path.includes('?') ? '&' : '?'}size=100`, token)).records;
const leave = (over: Record<string, unknown> = {}, token = applicant.token) =>
  post(`${LEAVE}/start-process`, { processDefinitionId: definitionId, startTime: '2026-12-01 09:00:00', endTime: '2026-12-05 09:00:00', reason: '回家', taskUser: approver.userId, ...over }, token);
/** The field errors of a refused start (400), as [field, ...]. */
const refusedFields = async (over: Record<string, unknown>) => {
  const res = await leave(over);
  expect(res.status, JSON.stringify(res.body)).toBe(400);
  expect(Array.isArray(res.body.data), JSON.stringify(res.body)).toBe(true);
  return (res.body.data as Array<{ field: string; message: string }>).map((e) => e.field);
};
/** A multipart deploy-upload by the platform administrator. */
const upload = (name: string, xml: string, fields: Record<string, string> = {}) => {
  const boundary = '----screens' + Math.random().toString(16).slice(2);
  const parts = [
    ...Object.entries(fields).map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`),
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: text/xml\r\n\r\n${xml}\r\n`,
  ];
  return call(admin, {
    method: 'POST', url: '/api/blade-flow/manager/deploy-upload',
    payload: Buffer.from(parts.join('') + `--${boundary}--\r\n`), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  });
};
const deployments = async (token = admin): Promise<Row[]> => data(await get(`${DEPLOYMENT}/list?size=100`, token)).records;
const definitions = async (): Promise<Row[]> => data(await get('/api/blade-flow/manager/list?size=100', admin)).records;

beforeAll(async () => {
  t = await startTestServer();
  admin = await t.login();
  applicant = await operator(t, 'applicant', APPLICANT_CODES);
  approver = await operator(t, 'approver', APPROVER_CODES);
  await t.database.db.insertInto('blade_tenant').values({ id: '900000000000012777', tenant_id: OTHER_TENANT, tenant_name: '别家', is_deleted: 0, status: 1 }).execute();
  outsider = await operator(t, 'outsider', [...APPLICANT_CODES, 'flow_deployment', 'flow_deployment_delete'], OTHER_TENANT);
  definitionId = (await definitions()).find((d) => d.key === 'Leave')!.id;
});
afterAll(async () => {
  await t?.close();
});

describe('the work lists at the screens’ URLs', () => {
  it('a 4-day leave: claim list (both URLs), claim by id, todo with category filters, done, send, start', async () => {
    running = data(await leave());
    // 待签事务: the same record at the screen's URL and at BladeX's
    const screen = await rows('claim/list', approver.token);
    expect(await rows('claim-list', approver.token)).toEqual(screen);
    expect(screen).toHaveLength(1);
    const task = screen[0];
    expect(task).toMatchObject({ id: task.taskId, formRoute: 'leave', businessId: running.businessId, processInstanceId: running.processInstanceId, taskName: '审批', category: 1 });
    expect(task.taskId).toMatch(/^\d+$/);
    // the row button sends `id`, not taskId
    data(await post(`${WORK}/claim-task`, { id: task.id }, approver.token));
    expect(await rows('claim/list', approver.token)).toEqual([]);
    // 待办事务, by its category
    expect((await rows('todo/list', approver.token)).map((r) => r.id)).toEqual([task.id]);
    expect((await rows('todo-list', approver.token)).map((r) => r.id)).toEqual([task.id]);
    expect((await rows('todo/list?category_equal=1', approver.token)).map((r) => r.id)).toEqual([task.id]);
    expect((await rows('todo/list?category=1', approver.token)).map((r) => r.id)).toEqual([task.id]);
    expect(await rows('todo/list?category_equal=2', approver.token)).toEqual([]);
    for (const bad of ['abc', '1;drop', '-1', '1.5']) {
      const res = await get(`${WORK}/todo/list?category_equal=${encodeURIComponent(bad)}`, approver.token);
      expect(res.status, `category_equal=${bad}: ${JSON.stringify(res.body)}`).toBe(400);
    }
    // 办结事务
    data(await post(`${WORK}/complete-task`, { taskId: task.taskId, processInstanceId: task.processInstanceId, flag: 'ok', comment: '同意' }, approver.token));
    expect(await rows('todo/list', approver.token)).toEqual([]);
    const done = await rows('done/list', approver.token);
    expect(done).toEqual([expect.objectContaining({ id: task.id, taskId: task.taskId, outcome: 'approve', comment: '同意', formRoute: 'leave', businessId: running.businessId })]);
    expect(await rows('done-list', approver.token)).toEqual(done);
    // 已发事务 (still running: more than 3 days goes on to 总经理审批)
    const sent = (await rows('send/list', applicant.token)).find((r) => r.processInstanceId === running.processInstanceId);
    expect(sent).toMatchObject({ formRoute: 'leave', businessId: running.businessId, processIsFinished: false, currentTasks: '总经理审批' });
    expect(await rows('send-list', applicant.token)).toEqual(await rows('send/list', applicant.token));
    // 发起事务
    const start = await rows('start/list', applicant.token);
    expect(start).toEqual([expect.objectContaining({ id: definitionId, processDefinitionId: definitionId, key: 'Leave', formRoute: 'leave', category: 1 })]);
    expect(await rows('start-list', applicant.token)).toEqual(start);
    expect(await rows('start/list?category_equal=2', applicant.token)).toEqual([]);
  });

  it('module-served screens have no generic routes (no record read, written or removed through them)', async () => {
    const task = (await rows('done/list', approver.token))[0];
    expect(task).toBeDefined();
    for (const kind of ['todo', 'claim', 'done']) {
      const res = await get(`${WORK}/${kind}/detail?id=${task.id}`, approver.token);
      expect(res.status, `${kind}/detail: ${JSON.stringify(res.body)}`).toBe(404);
      expect(res.body.data ?? null).toBeNull();
    }
    expect((await post(`${WORK}/todo/submit`, { id: task.id, name: 'x' }, approver.token)).status).toBe(404);
    expect((await post(`${WORK}/todo/remove?ids=${task.id}`, {}, approver.token)).status).toBe(404);
    expect((await get(`${LEAVE}/list`, applicant.token)).status).toBe(404);
    expect((await get(`${DEPLOYMENT}/detail?id=1`, admin)).status).toBe(404);
    expect((await post(`${DEPLOYMENT}/submit`, { name: 'x' }, admin)).status).toBe(404);
    // the task is untouched
    expect((await rows('done/list', approver.token))[0]).toEqual(task);
  });
});

describe('the start form’s approvers', () => {
  it('need work_start_flow; the tenant’s active users but the caller, searchable by name; never another tenant’s', async () => {
    expect((await get(`${WORK}/approvers`, approver.token)).status).toBe(403);
    const all: Row[] = data(await get(`${WORK}/approvers`, applicant.token));
    const ids = all.map((u) => u.id);
    expect(ids).not.toContain(applicant.userId);
    expect(all).toContainEqual({ id: approver.userId, name: 'approver', account: 'approver' });
    expect(ids).not.toContain(outsider.userId);
    expect(data(await get(`${WORK}/approvers?name=approv`, applicant.token))).toEqual([{ id: approver.userId, name: 'approver', account: 'approver' }]);
    expect(data(await get(`${WORK}/approvers?name=outsider`, applicant.token))).toEqual([]);
    expect(data(await get(`${WORK}/approvers?name=${encodeURIComponent('%')}`, applicant.token))).toEqual([]);
    // the other tenant's applicant sees none of this tenant's users (only itself there, which is left out)
    const theirs: Row[] = data(await get(`${WORK}/approvers`, outsider.token));
    expect(theirs.map((u) => u.id)).not.toContain(approver.userId);
    expect(theirs.map((u) => u.id)).not.toContain(applicant.userId);
    expect(theirs.map((u) => u.id)).not.toContain(outsider.userId);
    expect(data(await get(`${WORK}/approvers?name=approver`, outsider.token))).toEqual([]);
  });
});

describe('the leave screen document', () => {
  it('is served to whoever works with the process (grantedBy), not to others', async () => {
    const listed = (data(await get('/api/blade-system/screen/list', approver.token)) as Row[]).map((s) => s.id);
    expect(listed).toEqual(expect.arrayContaining(['leave', 'workTodo', 'workClaim']));
    expect(listed).not.toContain('flowDeployment');
    const doc = data(await get('/api/blade-system/screen/detail?id=leave', approver.token));
    expect(doc).toMatchObject({ id: 'leave', route: '/work/process/leave', resource: { api: LEAVE, routes: 'module' } });
    expect(doc.schema.required).toEqual(expect.arrayContaining(['startTime', 'endTime', 'reason', 'taskUser']));
    expect(data(await get('/api/blade-system/screen/detail?id=leave', applicant.token)).id).toBe('leave');

    const merchantOnly = await operator(t, 'merchops', ['merchant', 'merchant_view', 'merchant_add']);
    expect((data(await get('/api/blade-system/screen/list', merchantOnly.token)) as Row[]).map((s) => s.id)).not.toContain('leave');
    const refused = await get('/api/blade-system/screen/detail?id=leave', merchantOnly.token);
    expect(refused.status).toBe(404);
    expect(refused.body.data ?? null).toBeNull();
    expect((await get('/api/blade-system/screen/detail?id=workTodo', merchantOnly.token)).status).toBe(404);
  });
});

describe('start-process checked against the leave document', () => {
  it('refuses bad dates, reasons and approvers with field errors, and writes nothing', async () => {
    const sentBefore = data(await get(`${WORK}/send/list`, applicant.token)).total;
    const leavesBefore = (await t.database.db.selectFrom('blade_process_leave').select('id').execute()).length;
    const instancesBefore = (await t.database.db.selectFrom('flow_instance').select('id').execute()).length;

    expect(await refusedFields({ startTime: '2026-12-01' })).toEqual(['startTime']);
    expect(await refusedFields({ startTime: '2026-13-01 09:00:00' })).toEqual(['startTime']);
    expect(await refusedFields({ reason: '' })).toEqual(['reason']);
    expect(await refusedFields({ reason: '   ' })).toEqual(['reason']);
    expect(await refusedFields({ reason: undefined })).toEqual(['reason']);
    expect(await refusedFields({ reason: '假'.repeat(501) })).toEqual(['reason']);
    expect(await refusedFields({ endTime: '2026-11-30 09:00:00' })).toEqual(['endTime']);
    expect(await refusedFields({ taskUser: 'abc' })).toEqual(['taskUser']);
    const self = await leave({ taskUser: applicant.userId });
    expect([self.status, self.body.data]).toEqual([400, [{ field: 'taskUser', message: '审批人不能是自己' }]]);
    // another tenant's user is no approver here
    expect(await refusedFields({ taskUser: outsider.userId })).toEqual(['taskUser']);

    expect(data(await get(`${WORK}/send/list`, applicant.token)).total).toBe(sentBefore);
    expect((await t.database.db.selectFrom('blade_process_leave').select('id').execute()).length).toBe(leavesBefore);
    expect((await t.database.db.selectFrom('flow_instance').select('id').execute()).length).toBe(instancesBefore);
    expect(await rows('claim/list', approver.token)).toEqual([]);

    // the longest reason the document allows is taken
    const longest = data(await leave({ reason: '假'.repeat(500), endTime: '2026-12-02 09:00:00' }));
    expect(data(await get(`${LEAVE}/detail?businessId=${longest.businessId}`, applicant.token)).reason).toHaveLength(500);
  });
});

describe('部署管理', () => {
  const SCREEN_XML = LEAVE_XML.replaceAll('"Leave"', '"ScreenTest"').replace('name="请假流程"', 'name="界面测试"');

  it('an uploaded deployment is listed with what it deployed and removed with its definitions', async () => {
    expect(SCREEN_XML).toContain('<bpmn:process id="ScreenTest" name="界面测试"');
    const uploaded = data(await upload('screen-test.bpmn', SCREEN_XML, { category: '1' }));
    expect(uploaded.processDefinitionIds).toEqual([expect.stringMatching(/^ScreenTest:1:\d+$/)]);
    const def = (await definitions()).find((d) => d.key === 'ScreenTest')!;
    expect(def).toMatchObject({ id: uploaded.processDefinitionIds[0], version: 1 });

    const row = (await deployments()).find((d) => d.id === def.deploymentId)!;
    expect(row).toMatchObject({ name: 'screen-test.bpmn', category: 1, definitions: '界面测试 (ScreenTest v1)' });
    expect(row.deploymentTime).toBeTruthy();
    expect((await deployments()).map((d) => d.definitions)).toContain('请假流程 (Leave v1)');
    expect(data(await get(`${DEPLOYMENT}/list?name=screen-test`, admin)).records.map((d: Row) => d.id)).toEqual([row.id]);
    // the other tenant lists none of this tenant's deployments
    expect((await deployments(outsider.token)).map((d) => d.id)).not.toContain(row.id);
    // a second version is its own deployment, listed as such
    const second = data(await upload('screen-test-2.bpmn', SCREEN_XML, { category: '1' }));
    expect(second.processDefinitionIds).toEqual([expect.stringMatching(/^ScreenTest:2:\d+$/)]);
    const secondRow = (await deployments()).find((d) => d.name === 'screen-test-2.bpmn')!;
    expect(secondRow.definitions).toBe('界面测试 (ScreenTest v2)');

    expect(data(await post(`${DEPLOYMENT}/remove?ids=${row.id},${secondRow.id}`, {}, admin))).toEqual({ removed: 2 });
    expect((await deployments()).map((d) => d.id)).not.toContain(row.id);
    expect((await deployments()).map((d) => d.id)).not.toContain(secondRow.id);
    expect((await definitions()).map((d) => d.key)).not.toContain('ScreenTest');
    expect((await rows('start/list', applicant.token)).map((d) => d.key)).toEqual(['Leave']);
  });

  it('refuses a deployment with a running instance, bad ids, another tenant’s deployment, and a caller without the code', async () => {
    const leaveDeployment = (await definitions()).find((d) => d.id === definitionId)!.deploymentId;
    // the 4-day leave of the first test is still running (at 总经理审批)
    const inst = await t.database.db.selectFrom('flow_instance').select('state').where('id', '=', running.processInstanceId).executeTakeFirstOrThrow();
    expect(inst.state).toBe('running');
    const refused = await post(`${DEPLOYMENT}/remove?ids=${leaveDeployment}`, {}, admin);
    expect(refused.status).toBe(400);
    expect(refused.body.msg).toMatch(/个运行中的流程实例，不能删除该部署$/);
    expect((await deployments()).map((d) => d.id)).toContain(leaveDeployment);
    expect((await definitions()).map((d) => d.id)).toContain(definitionId);

    for (const ids of ['', 'abc', '1,abc', '1;drop table flow_deployment', ',']) {
      const res = await post(`${DEPLOYMENT}/remove?ids=${encodeURIComponent(ids)}`, {}, admin);
      expect(res.status, `ids=${ids}: ${JSON.stringify(res.body)}`).toBe(400);
    }
    expect((await post(`${DEPLOYMENT}/remove?ids=12345`, {}, admin)).status).toBe(404);

    // the platform deploys to the other tenant; that deployment is not this tenant's to remove
    data(await upload('theirs.bpmn', SCREEN_XML.replaceAll('"ScreenTest"', '"Theirs"'), { category: '1', tenantIds: OTHER_TENANT }));
    const theirs = (await deployments(outsider.token)).find((d) => d.name === 'theirs.bpmn')!;
    expect(theirs.definitions).toBe('界面测试 (Theirs v1)');
    expect((await deployments()).map((d) => d.id)).not.toContain(theirs.id);
    expect((await post(`${DEPLOYMENT}/remove?ids=${theirs.id}`, {}, admin)).status).toBe(404);
    expect((await deployments(outsider.token)).map((d) => d.id)).toContain(theirs.id);
    // nor the other tenant's to remove this tenant's
    expect((await post(`${DEPLOYMENT}/remove?ids=${leaveDeployment}`, {}, outsider.token)).status).toBe(404);
    // all or nothing: its own id beside a foreign one removes neither
    expect((await post(`${DEPLOYMENT}/remove?ids=${theirs.id},${leaveDeployment}`, {}, outsider.token)).status).toBe(404);
    expect((await deployments(outsider.token)).map((d) => d.id)).toContain(theirs.id);

    // the list needs flow_deployment, removal flow_deployment_delete
    const viewer = await operator(t, 'deplview', ['flow_deployment']);
    expect((await deployments(viewer.token)).map((d) => d.id)).toContain(leaveDeployment);
    expect((await post(`${DEPLOYMENT}/remove?ids=${leaveDeployment}`, {}, viewer.token)).status).toBe(403);
    expect((await get(`${DEPLOYMENT}/list`, applicant.token)).status).toBe(403);

    // the other tenant removes its own (nothing runs there)
    expect(data(await post(`${DEPLOYMENT}/remove?ids=${theirs.id}`, {}, outsider.token))).toEqual({ removed: 1 });
    expect(await deployments(outsider.token)).toEqual([]);
  });
});

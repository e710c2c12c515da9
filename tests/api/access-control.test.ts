/**
 * Access control (issue 10), driven through the real endpoints as an administrator would: a role granted only the
 * merchant screen with view and add, a user holding it, data scopes (own department, custom rules), API scopes,
 * the user rules (never yourself, never the last administrator, sessions ended on re-grant/reset/disable), guest
 * registration waiting for approval, and tenants that never see each other.
 */
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { md5, merchantBody, startTestServer, type TestServer } from './helpers.js';
import { data, operator } from './system-helpers.js';

let t: TestServer;
let admin: string;
beforeAll(async () => {
  t = await startTestServer();
  admin = await t.login();
});
afterAll(async () => t?.close());

const get = (url: string, token = admin) => t.call(token, { method: 'GET', url });
const post = (url: string, payload?: unknown, token = admin) => t.call(token, { method: 'POST', url, payload: payload as any });
const flat = (tree: any[]): any[] => tree.flatMap((n) => [n, ...flat(n.children ?? [])]);
const ROOT_DEPT = '1123598813738675201';

async function menuIds(codes: string[]): Promise<string[]> {
  const rows = await t.database.db.selectFrom('blade_menu').select(['id', 'code']).where('code', 'in', codes).where('is_deleted', '=', 0).execute();
  expect(rows.map((r) => r.code).sort()).toEqual([...codes].sort());
  return rows.map((r) => String(r.id));
}

async function signIn(account: string, password: string, tenantId = '000000') {
  return t.loginReply(account, password, tenantId);
}

async function newDept(name: string, parentId = ROOT_DEPT): Promise<string> {
  data(await post('/api/blade-system/dept/submit', { deptName: name, fullName: name, parentId, deptCategory: 2, sort: 5 }));
  const tree = flat(data(await get('/api/blade-system/dept/tree')));
  return tree.find((n) => n.title === name).id;
}

async function newRole(name: string, alias: string): Promise<string> {
  data(await post('/api/blade-system/role/submit', { roleName: name, roleAlias: alias, sort: 3 }));
  return flat(data(await get('/api/blade-system/role/tree'))).find((n) => n.title === name).id;
}

async function newUser(account: string, roleId: string, deptId: string, token = admin): Promise<string> {
  const r = await post('/api/blade-system/user/submit', { account, password: `${account}-pw`, password2: `${account}-pw`, realName: account.slice(0, 10), roleId, deptId }, token);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.data.id;
}

let clerkRole: string;
let salesDept: string;
let otherDept: string;
let clerk: string;

describe('a role granted only the merchant screen with view and add', () => {
  it('is built through the screens: department, role, grant, user', async () => {
    salesDept = await newDept('销售部');
    otherDept = await newDept('后勤部');
    clerkRole = await newRole('商家录入员', 'merchant_clerk');
    const grant = { roleIds: [clerkRole], menuIds: await menuIds(['canteen', 'merchant', 'merchant_view', 'merchant_add']), dataScopeIds: [], apiScopeIds: [] };
    expect(data(await post('/api/blade-system/role/grant', grant))).toMatchObject({ roles: 1, menus: 4 });
    const keys = data(await get(`/api/blade-system/menu/role-tree-keys?roleIds=${clerkRole}`));
    expect(keys.menu.sort()).toEqual([...grant.menuIds].sort());
    await newUser('clerk1', clerkRole, salesDept);
    // a password and its confirmation must agree; the account is unique in the tenant
    const mismatch = await post('/api/blade-system/user/submit', { account: 'clerk9', password: md5('a'), password2: md5('b'), realName: 'x', roleId: clerkRole, deptId: salesDept });
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.data.map((e: any) => e.field)).toContain('password2');
    const dup = await post('/api/blade-system/user/submit', { account: 'clerk1', password: md5('a'), password2: md5('a'), realName: 'x', roleId: clerkRole, deptId: salesDept });
    expect(dup.status).toBe(409);
    const noPassword = await post('/api/blade-system/user/submit', { account: 'clerk8', realName: 'x', roleId: clerkRole, deptId: salesDept });
    expect(noPassword.status).toBe(400);
    const short = await post('/api/blade-system/user/submit', { account: 'clerk7', password: '12345', password2: '12345', realName: 'x', roleId: clerkRole, deptId: salesDept });
    expect(short.body.data.map((e: any) => e.message)).toContain('密码长度为 6 到 32 个字符');
    const list = data(await get('/api/blade-system/user/list?account=clerk1'));
    expect(list.records).toHaveLength(1);
    expect(list.records[0]).toMatchObject({ account: 'clerk1', roleName: '商家录入员', deptName: '销售部' });
    expect(list.records[0].password).toBeUndefined();
    // the department tree beside the users: a department lists its users and those of the departments below it
    const accounts = async (dept: string) => data(await get(`/api/blade-system/user/list?size=100&deptId=${dept}`)).records.map((r: any) => r.account);
    expect(await accounts(salesDept)).toEqual(['clerk1']);
    expect(await accounts(ROOT_DEPT)).toEqual(expect.arrayContaining(['admin', 'clerk1']));
    expect(await accounts(otherDept)).toEqual([]);
    expect((await get('/api/blade-system/user/list?deptId=1%20or%201=1')).status).toBe(400);
  });

  it('the user signs in, sees only that screen, may list and add but not edit or delete', async () => {
    const reply = await signIn('clerk1', 'clerk1-pw');
    expect(reply.access_token, JSON.stringify(reply)).toBeTruthy();
    clerk = reply.access_token;
    const routes = flat(data(await get('/api/blade-system/menu/routes', clerk)));
    expect(routes.map((r) => r.path).filter((p: string) => p !== '/canteen')).toEqual(['/merchant/merchant']);
    const buttons = flat(data(await get('/api/blade-system/menu/buttons', clerk))).map((b) => b.code);
    expect(buttons).toEqual(expect.arrayContaining(['merchant_view', 'merchant_add']));
    expect(buttons).not.toContain('merchant_edit');
    // only the top menus that lead to a screen the user holds
    expect(data(await get('/api/blade-system/menu/top-menu', clerk)).map((m: any) => m.name)).toEqual(['食堂管理']);
    expect(data(await get('/api/blade-system/menu/top-menu')).map((m: any) => m.name)).toEqual(['食堂管理', '平台管理']);
    data(await get('/api/merchant/list', clerk));
    const added = data(await post('/api/merchant/submit', merchantBody({ merchantName: '录入员的商家', loginPhone: '13900000001' }), clerk));
    expect((await post('/api/merchant/submit', { id: added.id, merchantName: '改名' }, clerk)).status).toBe(403);
    expect((await post(`/api/merchant/remove?ids=${added.id}`, undefined, clerk)).status).toBe(403);
    for (const url of ['/api/blade-system/user/list', '/api/blade-system/role/list', '/api/order/list', '/api/blade-system/tenant/list']) {
      const r = await get(url, clerk);
      expect(r.status, url).toBe(403);
      expect(r.body.code).toBe(403);
    }
  });

  it('the home summary gives that user the merchant count, never the takings; a role with no summarised screen gets 403', async () => {
    const summary = data(await get('/api/blade-desk/dashboard/summary', clerk));
    expect(Object.keys(summary)).toEqual(['merchants']);
    expect(summary.merchants).toBeGreaterThan(0);
    const all = data(await get('/api/blade-desk/dashboard/summary'));
    expect(Object.keys(all).sort()).toEqual(['cardHolders', 'merchants', 'pendingSettlements', 'todayAmount', 'todayOrders', 'trend']);
    const nobody = await operator(t, 'nosum', ['notice']);
    expect((await get('/api/blade-desk/dashboard/summary', nobody.token)).status).toBe(403);
  });

  it('uploads: a screen\'s field takes files from who may add or edit that screen, an attachment needs attach_upload', async () => {
    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 1)]);
    const boundary = '----acl';
    const payload = Buffer.concat([Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`), png, Buffer.from(`\r\n--${boundary}--\r\n`)]);
    const up = (query: string) => t.call(clerk, { method: 'POST', url: `/api/blade-resource/oss/endpoint/put-file-attach${query}`, payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } });
    expect((await up('?screen=merchant&field=logoUrl')).status).toBe(200); // merchant_add
    expect((await up('?screen=banner&field=banner')).status).toBe(403);
    expect((await up('')).status).toBe(403);
  });
});

describe('data scope', () => {
  let scopeId: string;
  let merchantInSales: string;
  let merchantInOther: string;

  it('"own department": the role sees, opens and changes only its department\'s rows', async () => {
    const [merchantMenu] = await menuIds(['merchant']);
    data(await post('/api/blade-system/data-scope/submit', { menuId: merchantMenu, scopeName: '本部门商家', scopeType: 3 }));
    scopeId = data(await get('/api/blade-system/data-scope/list?scopeName=本部门商家')).records[0].id;
    const tree = flat(data(await get('/api/blade-system/menu/grant-tree')).dataScope);
    expect(tree.find((n) => n.id === scopeId)).toMatchObject({ parentId: merchantMenu, title: '本部门商家' });
    // the sales clerk writes one merchant; an operator of the other department writes another
    merchantInSales = (data(await get('/api/merchant/list?merchantName=录入员的商家', clerk)).records[0]).id;
    const otherUser = await newUser('logistics1', clerkRole, otherDept);
    expect(otherUser).toBeTruthy();
    const other = (await signIn('logistics1', 'logistics1-pw')).access_token;
    merchantInOther = data(await post('/api/merchant/submit', merchantBody({ merchantName: '后勤的商家', loginPhone: '13900000002' }), other)).id;

    const menus = await menuIds(['canteen', 'merchant', 'merchant_view', 'merchant_add', 'merchant_edit', 'merchant_delete']);
    data(await post('/api/blade-system/role/grant', { roleIds: [clerkRole], menuIds: menus, dataScopeIds: [scopeId], apiScopeIds: [] }));
    const names = (await get('/api/merchant/list?size=200', clerk)).body.data.records.map((r: any) => r.merchantName);
    expect(names).toContain('录入员的商家');
    expect(names).not.toContain('后勤的商家');
    expect((await get(`/api/merchant/detail?id=${merchantInOther}`, clerk)).status).toBe(404);
    expect((await post('/api/merchant/submit', { id: merchantInOther, merchantName: '越权改名' }, clerk)).status).toBe(404);
    expect((await post(`/api/merchant/remove?ids=${merchantInOther}`, undefined, clerk)).status).toBe(404);
    // nothing was changed, and the administrator is never narrowed
    const row = data(await get(`/api/merchant/detail?id=${merchantInOther}`));
    expect(row.merchantName).toBe('后勤的商家');
    data(await get(`/api/merchant/detail?id=${merchantInSales}`, clerk));
  });

  it('a custom rule is structured: a column of the screen, an operator, placeholders from the token', async () => {
    const [merchantMenu] = await menuIds(['merchant']);
    const bad = await post('/api/blade-system/data-scope/submit', { menuId: merchantMenu, scopeName: '坏规则', scopeType: 5, scopeColumn: 'password; drop table x', scopeOperator: 'eq', scopeValue: '1' });
    expect(bad.status).toBe(400);
    const unknownColumn = await post('/api/blade-system/data-scope/submit', { menuId: merchantMenu, scopeName: '坏规则', scopeType: 5, scopeColumn: 'noSuchField', scopeOperator: 'eq', scopeValue: '1' });
    expect(unknownColumn.status).toBe(400);
    expect(unknownColumn.body.msg).toContain('noSuchField');
    const unknownPlaceholder = await post('/api/blade-system/data-scope/submit', { menuId: merchantMenu, scopeName: '坏规则', scopeType: 5, scopeColumn: 'createUser', scopeOperator: 'eq', scopeValue: '${password}' });
    expect(unknownPlaceholder.status).toBe(400);
    data(await post('/api/blade-system/data-scope/submit', { menuId: merchantMenu, scopeName: '本人创建', scopeType: 5, scopeColumn: 'createUser', scopeOperator: 'eq', scopeValue: '${userId}' }));
    const own = data(await get('/api/blade-system/data-scope/list?scopeName=本人创建')).records[0].id;
    data(await post('/api/blade-system/role/grant', { roleIds: [clerkRole], menuIds: await menuIds(['canteen', 'merchant', 'merchant_view']), dataScopeIds: [own] }));
    const names = data(await get('/api/merchant/list?size=200', clerk)).records.map((r: any) => r.merchantName);
    expect(names).toEqual(['录入员的商家']);
    // both rules granted: they widen each other (OR)
    data(await post('/api/blade-system/role/grant', { roleIds: [clerkRole], menuIds: await menuIds(['canteen', 'merchant', 'merchant_view']), dataScopeIds: [own, scopeId] }));
    expect(data(await get('/api/merchant/list?size=200', clerk)).records.map((r: any) => r.merchantName)).toEqual(['录入员的商家']);
  });
});

describe('API scope', () => {
  it('a path an API scope names is open only to roles granted that scope', async () => {
    const [merchantMenu] = await menuIds(['merchant']);
    data(await post('/api/blade-system/api-scope/submit', { menuId: merchantMenu, scopeName: '商家接口', scopePath: '/api/merchant/**', scopeType: 2 }));
    const scope = data(await get('/api/blade-system/api-scope/list?scopeName=商家接口')).records[0].id;
    const menus = await menuIds(['canteen', 'merchant', 'merchant_view']);
    const denied = await get('/api/merchant/list', clerk);
    expect(denied.status).toBe(403);
    expect(denied.body.code).toBe(403);
    // the administrator is never narrowed
    data(await get('/api/merchant/list'));
    data(await post('/api/blade-system/role/grant', { roleIds: [clerkRole], menuIds: menus, apiScopeIds: [scope] }));
    data(await get('/api/merchant/list', clerk));
    expect(data(await get(`/api/blade-system/menu/role-tree-keys?roleIds=${clerkRole}`)).apiScope).toEqual([scope]);
    data(await post(`/api/blade-system/api-scope/remove?ids=${scope}`));
  });

  it('a caller who is not an administrator grants only what it holds', async () => {
    const granter = await newRole('授权员', 'granter');
    data(await post('/api/blade-system/role/grant', { roleIds: [granter], menuIds: await menuIds(['authority', 'role', 'role_grant', 'canteen', 'merchant']) }));
    await newUser('granter1', granter, salesDept);
    const g = (await signIn('granter1', 'granter1-pw')).access_token;
    const tooMuch = await post('/api/blade-system/role/grant', { roleIds: [clerkRole], menuIds: await menuIds(['order']) }, g);
    expect(tooMuch.status).toBe(403);
    data(await post('/api/blade-system/role/grant', { roleIds: [clerkRole], menuIds: await menuIds(['canteen', 'merchant']) }, g));
    // its grant tree shows only what it holds
    const tree = flat(data(await get('/api/blade-system/menu/grant-tree', g)).menu).map((n) => n.id).sort();
    expect(tree).toEqual((await menuIds(['authority', 'role', 'role_grant', 'canteen', 'merchant'])).sort());
    // and it assigns only roles it holds
    const assign = await post(`/api/blade-system/user/grant?userIds=${(data(await get('/api/blade-system/user/list?account=clerk1'))).records[0].id}&roleIds=${clerkRole}`, undefined, g);
    expect(assign.status).toBe(403);
  });
});

describe('users', () => {
  it('nobody removes or disables themselves, and the last administrator stays', async () => {
    const me = data(await get('/api/blade-system/user/list?account=admin')).records[0].id;
    expect((await post(`/api/blade-system/user/remove?ids=${me}`)).status).toBe(400);
    expect((await post('/api/blade-system/user/submit', { id: me, status: 0 })).status).toBe(400);
    const second = await newUser('admin2', data(await get('/api/blade-system/role/list')).find((r: any) => r.roleAlias === 'administrator').id, ROOT_DEPT);
    const a2 = (await signIn('admin2', 'admin2-pw')).access_token;
    // admin2 may not take the first administrator's role away when that leaves... it leaves admin2 itself: allowed
    expect((await post(`/api/blade-system/user/grant?userIds=${me}&roleIds=${clerkRole}`, undefined, a2)).status).toBe(200);
    // now admin2 is the last administrator: it cannot be removed by anyone left, nor lose the role
    const back = await post(`/api/blade-system/user/grant?userIds=${second}&roleIds=${clerkRole}`, undefined, a2);
    expect(back.status).toBe(400);
    // the first admin's token ended with its re-grant
    expect((await get('/api/blade-system/user/list', admin)).status).toBe(401);
    data(await post(`/api/blade-system/user/grant?userIds=${me}&roleIds=${data(await get('/api/blade-system/role/list', a2)).find((r: any) => r.roleAlias === 'administrator').id}`, undefined, a2));
    admin = await t.login();
  });

  it('a password reset ends the user\'s sessions and the initial password works; a disabled user cannot sign in', async () => {
    const id = data(await get('/api/blade-system/user/list?account=clerk1')).records[0].id;
    const before = (await signIn('clerk1', 'clerk1-pw')).access_token;
    data(await get('/api/merchant/list', before));
    data(await post(`/api/blade-system/user/reset-password?userIds=${id}`));
    expect((await get('/api/merchant/list', before)).status).toBe(401);
    expect((await signIn('clerk1', 'clerk1-pw')).access_token).toBeUndefined();
    const after = (await signIn('clerk1', '123456')).access_token;
    expect(after).toBeTruthy();
    data(await post('/api/blade-system/user/submit', { id, status: 0 }));
    expect((await get('/api/merchant/list', after)).status).toBe(401);
    const refused = await signIn('clerk1', '123456');
    expect(refused.access_token).toBeUndefined();
    expect(refused.error_description).toBe('账号已停用,请联系管理员');
    data(await post('/api/blade-system/user/submit', { id, status: 1 }));
  });

  it('exports the users of the tenant as .xlsx, never a password; without user_export: 403', async () => {
    const r = await t.app.inject({ method: 'GET', url: '/api/blade-system/user/export?columns=account,realName,deptId,status', headers: { 'blade-auth': `bearer ${admin}` } });
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-type']).toContain('spreadsheetml');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(r.rawPayload as any);
    const rows = wb.worksheets[0].getSheetValues().slice(1).map((v: any) => v.slice(1));
    expect(rows[0]).toEqual(['登录账号', '用户姓名', '所属部门', '账号状态']);
    expect(rows.map((x: any[]) => x[0])).toEqual(expect.arrayContaining(['admin', 'clerk1']));
    expect(rows.find((x: any[]) => x[0] === 'clerk1')).toEqual(['clerk1', 'clerk1', '销售部', '正常']);
    expect((await get('/api/blade-system/user/export?columns=account,password')).status).toBe(400);
    const viewer = await operator(t, 'uexport', ['user']);
    expect((await get('/api/blade-system/user/export', viewer.token)).status).toBe(403);
  });

  it('platform settings: a user\'s platform and its extension, a JSON object, inside the tenant', async () => {
    const id = data(await get('/api/blade-system/user/list?account=clerk1')).records[0].id;
    expect(data(await get(`/api/blade-system/user/platform-detail?id=${id}`))).toMatchObject({ userType: 1, userExt: '' });
    const bad = await post('/api/blade-system/user/update-platform', { userId: id, userType: 2, userExt: '[1]' });
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toBe('用户拓展须为 JSON 对象');
    expect((await post('/api/blade-system/user/update-platform', { userId: id, userType: 7 })).status).toBe(400);
    data(await post('/api/blade-system/user/update-platform', { userId: id, userType: 2, userExt: '{"wechat":"zhang"}' }));
    expect(data(await get(`/api/blade-system/user/platform-detail?id=${id}`))).toMatchObject({ userType: 2, userExt: '{"wechat":"zhang"}' });
    const viewer = await operator(t, 'uviewer', ['user', 'user_view']);
    expect((await get(`/api/blade-system/user/platform-detail?id=${id}`, viewer.token)).status).toBe(403);
  });

  it('changing one\'s own password ends the other sessions and keeps this one', async () => {
    const one = (await signIn('logistics1', 'logistics1-pw')).access_token;
    const two = (await signIn('logistics1', 'logistics1-pw')).access_token;
    data(await post('/api/blade-system/user/update-password', { oldPassword: md5('logistics1-pw'), newPassword: md5('new-pw'), newPassword1: md5('new-pw') }, one));
    expect((await get('/api/blade-system/user/info', two)).status).toBe(401);
    data(await get('/api/blade-system/user/info', one));
  });

  it('a guest registration waits, without roles, until an administrator grants it', async () => {
    data(await post('/api/blade-system/user/register-guest', { tenantId: '000000', account: 'guest1', password: md5('guest-pw'), name: 'guest1' }));
    const waiting = await signIn('guest1', 'guest-pw');
    expect(waiting.access_token).toBeUndefined();
    expect(waiting.error_description).toBe('账号待审核,请等待管理员分配角色');
    // the users screen lists the pending accounts (status 2, 待审核)
    const pending = data(await get('/api/blade-system/user/list?status=2')).records;
    expect(pending.map((u: any) => u.account)).toEqual(['guest1']);
    const row = pending[0];
    expect(row.roleId ?? '').toBe('');
    data(await post(`/api/blade-system/user/grant?userIds=${row.id}&roleIds=${clerkRole}`));
    expect((await signIn('guest1', 'guest-pw')).access_token).toBeTruthy();
    expect(data(await get('/api/blade-system/user/list?status=2')).records).toEqual([]);
  });
});

describe('tenants', () => {
  let tenantId: string;
  let tenantAdmin: string;

  it('the platform administrator creates a tenant that can sign in at once, with its own administrator', async () => {
    data(await post('/api/blade-system/tenant/submit', { tenantName: '第二食堂公司', linkman: '李四', contactNumber: '13900001111', accountNumber: 3 }));
    const row = data(await get('/api/blade-system/tenant/list?tenantName=第二食堂')).records[0];
    tenantId = row.tenantId;
    expect(tenantId).toMatch(/^\d{6}$/);
    const reply = await signIn('admin', '123456', tenantId);
    expect(reply.access_token, JSON.stringify(reply)).toBeTruthy();
    expect(reply.tenant_id).toBe(tenantId);
    tenantAdmin = reply.access_token;
  });

  it('its administrator sees none of tenant 000000\'s data, by list or by id', async () => {
    const mine = data(await get('/api/merchant/list?size=200'));
    expect(mine.total).toBeGreaterThan(0);
    const theirs = data(await get('/api/merchant/list?size=200', tenantAdmin));
    expect(theirs.total).toBe(0);
    expect((await get(`/api/merchant/detail?id=${mine.records[0].id}`, tenantAdmin)).status).toBe(404);
    expect((await post('/api/merchant/submit', { id: mine.records[0].id, merchantName: '跨租户改名' }, tenantAdmin)).status).toBe(404);
    const users = data(await get('/api/blade-system/user/list', tenantAdmin));
    expect(users.records.map((u: any) => u.account)).toEqual(['admin']);
    const roles = flat(data(await get('/api/blade-system/role/tree', tenantAdmin)));
    expect(roles.map((r) => r.title)).toEqual(['管理员']);
    // tree?tenantId= reads another tenant's tree for the platform only; tree-by-id likewise
    expect(flat(data(await get(`/api/blade-system/role/tree?tenantId=${tenantId}`))).map((r) => r.title)).toEqual(['管理员']);
    expect(flat(data(await get(`/api/blade-system/dept/tree?tenantId=${tenantId}`))).map((r) => r.title)).toEqual(['第二食堂公司']);
    expect(flat(data(await get('/api/blade-system/role/tree?tenantId=000000', tenantAdmin))).map((r) => r.title)).toEqual(['管理员']);
    const ownRole = roles[0].id;
    expect(flat(data(await get(`/api/blade-system/role/tree-by-id?roleId=${ownRole}`, tenantAdmin))).map((r) => r.title)).toEqual(['管理员']);
    expect(flat(data(await get(`/api/blade-system/role/tree-by-id?roleId=${ownRole}`))).map((r) => r.title)).toEqual(['管理员']);
    expect((await get(`/api/blade-system/role/tree-by-id?roleId=${clerkRole}`, tenantAdmin)).status).toBe(404);
    // another tenant's role cannot be granted or assigned
    expect((await post('/api/blade-system/role/grant', { roleIds: [clerkRole], menuIds: [] }, tenantAdmin)).status).toBe(404);
  });

  it('only the platform manages tenants and shared records; the account limit and expiry hold', async () => {
    expect((await get('/api/blade-system/tenant/list', tenantAdmin)).status).toBe(403);
    const menu = flat(data(await get('/api/blade-system/menu/tree')))[0];
    const shared = await post('/api/blade-system/menu/submit', { id: menu.id, name: '被租户改名' }, tenantAdmin);
    expect(shared.status).toBe(403);
    const roleId = flat(data(await get('/api/blade-system/role/tree', tenantAdmin)))[0].id;
    const deptId = flat(data(await get('/api/blade-system/dept/tree', tenantAdmin)))[0].id;
    await newUser('t2user1', roleId, deptId, tenantAdmin);
    await newUser('t2user2', roleId, deptId, tenantAdmin);
    const over = await post('/api/blade-system/user/submit', { account: 't2user3', password: md5('x'), password2: md5('x'), realName: 'x', roleId, deptId }, tenantAdmin);
    expect(over.status).toBe(400);
    expect(over.body.msg).toContain('3');
    const row = data(await get(`/api/blade-system/tenant/list?tenantId=${tenantId}`)).records[0];
    data(await post('/api/blade-system/tenant/submit', { id: row.id, expireTime: '2020-01-01 00:00:00' }));
    const expired = await signIn('admin', '123456', tenantId);
    expect(expired.access_token).toBeUndefined();
    expect(expired.error_description).toBe('租户授权已过期,请联系管理员');
  });

  it('a package limits what the tenant\'s roles hold: the grant tree, role/grant, and a narrowed package prunes grants', async () => {
    const ids = await menuIds(['canteen', 'merchant', 'merchant_view', 'order', 'authority', 'role', 'role_grant']);
    // required fields with the spec's messages
    const empty = await post('/api/blade-system/tenant-package/submit', {});
    expect(empty.status).toBe(400);
    expect(empty.body.data.map((e: any) => e.message)).toEqual(expect.arrayContaining(['请输入产品包名称', '请选择菜单']));
    data(await post('/api/blade-system/tenant-package/submit', { packageName: '基础包', menuId: ids.join(','), remark: '商家与订单' }));
    const pkg = data(await get('/api/blade-system/tenant-package/list?packageName=基础')).records[0];
    expect(pkg.menuId.split(',').sort()).toEqual([...ids].sort());
    // a tenant other than the platform cannot read or write packages
    expect((await get('/api/blade-system/tenant-package/list', tenantAdmin)).status).toBe(403);
    data(await post('/api/blade-system/tenant/submit', { tenantName: '包内公司', linkman: '周七', contactNumber: '13900003333', packageId: pkg.id }));
    const packed = data(await get('/api/blade-system/tenant/list?tenantName=包内公司')).records[0];
    expect(packed.packageName).toBe('基础包');
    const detail = data(await get(`/api/blade-system/tenant/package-detail?tenantId=${packed.tenantId}`));
    expect(detail.packageName).toBe('基础包');
    const token = (await signIn('admin', '123456', packed.tenantId)).access_token as string;
    expect(token).toBeTruthy();
    // its administrator holds just the package, and its grant tree offers nothing else
    const routes = flat(data(await get('/api/blade-system/menu/routes', token))).map((r) => r.path).sort();
    expect(routes).toEqual(['/authority', '/authority/role', '/canteen', '/merchant/merchant', '/order/order']);
    const tree = flat(data(await get('/api/blade-system/menu/grant-tree', token)).menu).map((n) => n.id).sort();
    expect(tree).toEqual([...ids].sort());
    const role = flat(data(await get('/api/blade-system/role/tree', token)))[0].id;
    const beyond = await post('/api/blade-system/role/grant', { roleIds: [role], menuIds: await menuIds(['canteen', 'employee']) }, token);
    expect(beyond.status).toBe(403);
    expect(beyond.body.msg).toBe('只能授予租户产品包内的菜单');
    // narrowing the package takes the order screen away from the tenant's roles at once
    const order = (await menuIds(['order']))[0];
    data(await post('/api/blade-system/tenant-package/submit', { id: pkg.id, menuId: ids.filter((m) => m !== order).join(',') }));
    const after = flat(data(await get('/api/blade-system/menu/routes', token))).map((r) => r.path).sort();
    expect(after).toEqual(['/authority', '/authority/role', '/canteen', '/merchant/merchant']);
    expect((await get('/api/order/list', token)).status).toBe(403);
    // a package in use is not removed; package-setting takes it off the tenant
    expect((await post(`/api/blade-system/tenant-package/remove?ids=${pkg.id}`)).status).toBe(400);
    data(await post(`/api/blade-system/tenant/package-setting?tenantId=${packed.tenantId}&packageId=`));
    expect(data(await get(`/api/blade-system/tenant/package-detail?tenantId=${packed.tenantId}`))).toBeNull();
    data(await post(`/api/blade-system/tenant-package/remove?ids=${pkg.id}`));
    expect((await post('/api/blade-system/tenant/package-setting?tenantId=000000&packageId=1')).status).toBe(400);
  });
});

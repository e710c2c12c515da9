/**
 * Users import (the document's `import` built-in, issue 10): the template lists the importable fields and never a
 * password; rows go through the add dialog's validation and the user module's rules (roles the caller holds, the
 * tenant's account limit); roles and departments are written by name; any bad row → every error by row and
 * column, nothing imported; imported users sign in with the parameter account.initPassword.
 */
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers.js';
import { data, operator } from './system-helpers.js';

let t: TestServer;
let admin: string;
beforeAll(async () => {
  t = await startTestServer();
  admin = await t.login();
});
afterAll(async () => t?.close());

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const URL = '/api/blade-system/user/import';

async function xlsx(rows: unknown[][]): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('users');
  for (const r of rows) ws.addRow(r);
  return Buffer.from(await wb.xlsx.writeBuffer());
}
const upload = async (file: Buffer, token = admin, lang = 'zh') =>
  t.call(token, { method: 'POST', url: URL, payload: file, headers: { 'content-type': XLSX, 'accept-language': lang } });
const users = async () => Number((await t.database.db.selectFrom('blade_user').select((eb) => eb.fn.countAll().as('n')).where('is_deleted', '=', 0).executeTakeFirstOrThrow()).n);

describe('users import', () => {
  it('offers a template of the importable fields by their titles, without passwords', async () => {
    const r = await t.app.inject({ method: 'GET', url: `${URL}/template?lang=en`, headers: { 'blade-auth': `bearer ${admin}` } });
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-type']).toBe(XLSX);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(r.rawPayload as any);
    const headers = (wb.worksheets[0].getRow(1).values as unknown[]).filter(Boolean);
    expect(headers).toContain('Account');
    expect(headers).toContain('Roles');
    expect(headers.join('|')).not.toMatch(/password/i);
  });

  it('imports rows with roles and departments by name; they sign in with the initial password', async () => {
    const before = await users();
    const r = await upload(await xlsx([
      ['登录账号', '用户姓名', '所属角色', '所属部门', '手机号码', '用户性别', '账号状态'],
      ['imp1', '导入一', '用户', '运营部', '13800000101', '男', '正常'],
      ['imp2', '导入二', '用户, 超级管理员', '财务部，运营部', null, 'Female', null],
    ]));
    expect(data(r)).toEqual({ imported: 2 });
    expect(await users()).toBe(before + 2);
    const [row] = data(await t.call(admin, { method: 'GET', url: '/api/blade-system/user/list?account=imp2' })).records;
    expect(row).toMatchObject({ account: 'imp2', realName: '导入二', sex: 2, status: 1 });
    expect(row.roleName.split(',').sort()).toEqual(['用户', '超级管理员'].sort());
    expect(row.deptName.split(',').sort()).toEqual(['财务部', '运营部'].sort());
    expect((await t.loginReply('imp1', '123456')).access_token).toBeTruthy();
  });

  it('reports every bad row by row and column and imports nothing', async () => {
    const before = await users();
    const r = await upload(await xlsx([
      ['Account', 'Name', 'Roles', 'Departments', 'Phone'],
      ['imp3', 'OK row', 'User', 'Operations', '13800000103'],
      ['imp1', 'Taken', '用户', '运营部', null],
      ['imp4', 'No such role', 'Chef', '运营部', null],
      ['imp5', 'Bad phone', '用户', '运营部', '1380'],
      ['imp6', null, '用户', '运营部', null],
      ['imp7', 'Repeat', '用户', '运营部', null],
      ['imp7', 'Repeat', '用户', '运营部', null],
    ]), admin, 'en');
    expect(r.status).toBe(400);
    expect(r.body.msg).toBe('Import failed: 6 rows have errors; nothing was imported');
    const errors = r.body.data.errors as Array<{ row: number; column?: string; field?: string; message: string }>;
    expect(errors.map((e) => `${e.row}${e.column}:${e.field}`)).toEqual(['2C:roleId', '2D:deptId', '3A:account', '4C:roleId', '5E:phone', '6B:realName', '8A:account']);
    // 'User' / 'Operations' are not the names (用户, 运营部): names are matched as written in the tenant
    expect(errors[3].message).toBe('“Chef” is no existing Roles');
    expect(await users()).toBe(before);
  });

  it('refuses a file that is no .xlsx, an unknown header and a password column', async () => {
    expect((await upload(Buffer.from('not a workbook'))).body.msg).toBe('请上传 .xlsx 文件');
    expect((await upload(await xlsx([['登录账号', '鞋码'], ['x1', '42']]))).body.msg).toBe('无法识别的表头：鞋码');
    expect((await upload(await xlsx([['登录账号', '密码'], ['x1', 'secret1']]))).body.msg).toBe('无法识别的表头：密码');
    expect((await upload(await xlsx([['登录账号']]))).body.msg).toBe('导入文件没有数据');
  });

  it('holds the tenant account limit over the whole file', async () => {
    const before = await users();
    await t.database.db.updateTable('blade_tenant').set({ account_number: before + 1 }).where('tenant_id', '=', '000000').execute();
    try {
      const r = await upload(await xlsx([
        ['登录账号', '用户姓名', '所属角色', '所属部门'],
        ['lim1', '限额一', '用户', '运营部'],
        ['lim2', '限额二', '用户', '运营部'],
      ]));
      expect(r.status).toBe(400);
      expect(r.body.data.errors).toEqual([expect.objectContaining({ row: 3 })]);
      expect(await users()).toBe(before);
    } finally {
      await t.database.db.updateTable('blade_tenant').set({ account_number: -1 }).where('tenant_id', '=', '000000').execute();
    }
  });

  it('needs user_import, and hands out only roles the importer holds', async () => {
    const noCode = await operator(t, 'impnocode', ['user', 'user_view', 'user_add']);
    expect((await upload(await xlsx([['登录账号'], ['x']]), noCode.token)).status).toBe(403);
    const ops = await operator(t, 'impops', ['user', 'user_view', 'user_add', 'user_import']);
    const r = await upload(await xlsx([['登录账号', '用户姓名', '所属角色', '所属部门'], ['esc1', '越权', '超级管理员', '运营部']]), ops.token);
    expect(r.status).toBe(400);
    expect(r.body.data.errors).toEqual([expect.objectContaining({ row: 2 })]);
    const tpl = await t.call(noCode.token, { method: 'GET', url: `${URL}/template` });
    expect(tpl.status).toBe(403);
  });

  it('reads another tenant\'s role names as unknown', async () => {
    const db = t.database.db;
    await db.insertInto('blade_role').values({ id: '990000000000000001', tenant_id: '123456', parent_id: 0, role_name: '外租户角色', sort: 1, role_alias: 'foreign', is_deleted: 0 }).execute();
    const r = await upload(await xlsx([['登录账号', '用户姓名', '所属角色', '所属部门'], ['fx1', '外', '外租户角色', '运营部']]));
    expect(r.status).toBe(400);
    expect(r.body.data.errors[0]).toMatchObject({ row: 2, field: 'roleId', message: '「外租户角色」不是已有的所属角色' });
  });
});

describe('user-list', () => {
  it('lists the tenant\'s users by the screen\'s searches, never a password; needs the users screen', async () => {
    const all = data(await t.call(admin, { method: 'GET', url: '/api/blade-system/user/user-list' }));
    expect(all.map((u: any) => u.account)).toContain('admin');
    expect(all.every((u: any) => u.password === undefined && Object.keys(u).sort().join() === 'account,deptId,id,name,realName,roleId,status')).toBe(true);
    const found = data(await t.call(admin, { method: 'GET', url: '/api/blade-system/user/user-list?account=imp' }));
    expect(found.map((u: any) => u.account)).toEqual(['imp1', 'imp2', 'impnocode', 'impops']);
    expect(found[1].realName).toBe('导入二');
    const noScreen = await operator(t, 'ulnone', ['merchant', 'merchant_view']);
    expect((await t.call(noScreen.token, { method: 'GET', url: '/api/blade-system/user/user-list' })).status).toBe(403);
    // only the document's searches apply: a password is no search key (ignored, as the list ignores it)
    const byPassword = data(await t.call(admin, { method: 'GET', url: '/api/blade-system/user/user-list?password=x' }));
    expect(byPassword.length).toBe(all.length + 1); // + ulnone
  });
});

describe('BladeX paths of the users screen', () => {
  it('import-user (multipart file), export-template and export-user answer like import, import/template and export', async () => {
    const boundary = '----canteen';
    const file = await xlsx([['登录账号', '用户姓名', '所属角色', '所属部门'], ['alias1', '别名一', '用户', '运营部']]);
    const body = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="users.xlsx"\r\nContent-Type: ${XLSX}\r\n\r\n`),
      file,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const r = await t.call(admin, { method: 'POST', url: '/api/blade-system/user/import-user?isCovered=0', payload: body, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } });
    expect(data(r)).toEqual({ imported: 1 });
    for (const url of ['/api/blade-system/user/export-template', '/api/blade-system/user/export-user?account=alias1']) {
      const x = await t.app.inject({ method: 'GET', url, headers: { 'blade-auth': `bearer ${admin}` } });
      expect(x.statusCode, url).toBe(200);
      expect(x.headers['content-type']).toBe(XLSX);
    }
    const noCode = await operator(t, 'aliasnone', ['user', 'user_view']);
    expect((await t.call(noCode.token, { method: 'GET', url: '/api/blade-system/user/export-user' })).status).toBe(403);
  });
});

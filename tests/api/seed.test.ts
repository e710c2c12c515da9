/**
 * The seeds against the spec: every screen and button of spec §2/§7 is in the menu tree, the `flow`
 * dictionary (process categories, spec flow routes) is seeded, and a database seeded before an entry was
 * added to the seed gets it at the next start — while what an administrator deleted stays deleted.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEED_IDS } from '../../src/server/seed/index.js';
import { readSeedData } from '../../src/server/seed/data.js';
import { seedMenuCodes } from '../../src/server/seed/menus.js';
import { prepareDatabase } from '../../src/server/setup.js';
import { startTestServer, type TestServer } from './helpers.js';

let t: TestServer;
let admin: string;
beforeAll(async () => {
  t = await startTestServer();
  admin = await t.login();
});
afterAll(async () => t?.close());

/** Flattened menu/routes (menus) or menu/buttons (buttons with their menu) of the caller. */
async function menuCodes(token: string): Promise<{ menus: Map<string, any>; buttons: Map<string, string> }> {
  const menus = new Map<string, any>();
  const walkMenus = (n: any) => {
    menus.set(n.code, n);
    n.children?.forEach(walkMenus);
  };
  (await t.call(token, { method: 'GET', url: '/api/blade-system/menu/routes' })).body.data.forEach(walkMenus);
  const buttons = new Map<string, string>();
  const walkButtons = (n: any, parent: string) => {
    if (n.category === 2) buttons.set(n.code, parent);
    n.children?.forEach((c: any) => walkButtons(c, n.code));
  };
  (await t.call(token, { method: 'GET', url: '/api/blade-system/menu/buttons' })).body.data.forEach((n: any) => walkButtons(n, ''));
  return { menus, buttons };
}

// Spec §7 calls of the platform screens → the button (permission code) that makes each call, by screen.
const SPEC_BUTTONS: Record<string, string[]> = {
  user: ['user_add', 'user_edit', 'user_delete', 'user_view', 'user_reset', 'user_role', 'user_unlock', 'user_platform'],
  region: ['region_add', 'region_edit', 'region_delete', 'region_view'],
  dict_horizontal: ['dict_horizontal_add', 'dict_horizontal_edit', 'dict_horizontal_delete', 'dict_horizontal_view'],
  dict_vertical: ['dict_vertical_add', 'dict_vertical_edit', 'dict_vertical_delete', 'dict_vertical_view'],
  tenant: ['tenant_setting', 'tenant_datasource', 'tenant_package_setting'],
  tenant_package: ['tenant_package_add', 'tenant_package_edit', 'tenant_package_delete'],
  topmenu: ['menu_grant_top'],
  role: ['role_grant'],
  sms: ['sms_enable', 'sms_send'],
  oss: ['oss_enable'],
  attach: ['attach_delete', 'attach_view', 'attach_upload', 'attach_download'],
  code: ['code_gen', 'code_copy'],
  model: ['model_prototype'],
  report_list: ['report_list_delete', 'report_list_view'],
  job: ['job_add', 'job_edit', 'job_delete', 'job_view', 'job_run', 'job_status'],
  job_log: ['job_log_view', 'job_log_delete', 'job_log_clean'],
  flow_model: ['flow_model_add', 'flow_model_edit', 'flow_model_delete', 'flow_model_view', 'flow_deploy'],
  flow_deployment: ['flow_deployment_delete', 'flow_deployment_view', 'flow_deploy_upload'],
  flow_manager: ['flow_manager_delete', 'flow_state'],
  flow_follow: ['flow_follow_delete'],
  work_start: ['work_start_flow', 'work_start_image'],
  work_sign: ['work_claim'],
  work_todo: ['work_handle'],
};

describe('menu seed against the spec', () => {
  it('has every platform screen of spec §1/§2/§7, Regions included, with the buttons of their calls', async () => {
    const { menus, buttons } = await menuCodes(admin);
    const region = menus.get('region');
    expect(region).toMatchObject({ path: '/system/region', name: '行政区划', nameEn: 'Regions', category: 1 });
    expect(region.parentId).toBe(menus.get('system').id);
    for (const c of ['dict_horizontal', 'dict_vertical']) expect(menus.get(c)?.path).toBe(`/${c.replace('_', '-')}/index`);
    for (const c of ['user', 'dept', 'post', 'dict', 'dictbiz', 'menu', 'topmenu', 'param', 'tenant', 'tenant_package', 'client', 'region', 'role', 'data_scope', 'api_scope', 'oss', 'sms', 'attach', 'log_usual', 'log_api', 'log_error', 'code', 'datasource', 'model', 'report_list', 'flow_model', 'flow_deployment', 'flow_manager', 'flow_follow', 'work_start', 'work_sign', 'work_todo', 'work_send', 'work_done', 'job', 'job_log', 'notice']) {
      expect(menus.has(c), c).toBe(true);
    }
    for (const [screen, codes] of Object.entries(SPEC_BUTTONS)) {
      for (const c of codes) expect(buttons.get(c), c).toBe(screen);
    }
  });

  it('every seed code is unique and reaches the administrator', async () => {
    const SEED_MENUS = readSeedData().menus;
    const codes = seedMenuCodes(SEED_MENUS);
    expect(new Set(codes).size).toBe(codes.length);
    const { menus, buttons } = await menuCodes(admin);
    for (const c of codes) expect(menus.has(c) || buttons.has(c), c).toBe(true);
    expect(SEED_MENUS.length).toBeGreaterThan(0);
  });

  it('a database seeded before new entries gets them at the next start; what an administrator deleted stays deleted', async () => {
    const db = t.database.db;
    // An "older" database: no Regions screen, no sms_send button; code_copy deleted by an administrator.
    const region = await db.selectFrom('blade_menu').select('id').where('code', '=', 'region').executeTakeFirstOrThrow();
    const gone = await db.selectFrom('blade_menu').select('id').where((eb) => eb.or([eb('id', '=', region.id), eb('parent_id', '=', region.id), eb('code', '=', 'sms_send')])).execute();
    const goneIds = gone.map((r) => String(r.id));
    expect(goneIds.length).toBe(6);
    await db.deleteFrom('blade_role_menu').where('menu_id', 'in', goneIds).execute();
    await db.deleteFrom('blade_menu').where('id', 'in', goneIds).execute();
    await db.updateTable('blade_menu').set({ is_deleted: 1 }).where('code', '=', 'code_copy').execute();
    t.app.ctx.permissions.clear();
    let now = await menuCodes(admin);
    expect(now.menus.has('region')).toBe(false);
    expect(now.buttons.has('sms_send')).toBe(false);

    const again = await prepareDatabase(db, t.app.ctx.docs, t.config);
    expect(again.firstStart).toBe(false);
    expect(again.menusAdded).toBe(6);
    t.app.ctx.permissions.clear();
    now = await menuCodes(admin);
    expect(now.menus.get('region')).toMatchObject({ path: '/system/region', parentId: now.menus.get('system').id });
    for (const c of ['region_add', 'region_edit', 'region_delete', 'region_view']) expect(now.buttons.get(c)).toBe('region');
    expect(now.buttons.get('sms_send')).toBe('sms');
    expect(now.buttons.has('code_copy')).toBe(false);
    // granted to administrator only (the user role keeps the canteen section)
    const grants = await db.selectFrom('blade_role_menu').innerJoin('blade_menu', 'blade_menu.id', 'blade_role_menu.menu_id').select(['role_id']).where('blade_menu.code', '=', 'region').execute();
    expect(grants.map((g) => String(g.role_id))).toEqual([SEED_IDS.roleAdministrator]);
    // and a third start adds nothing
    expect((await prepareDatabase(db, t.app.ctx.docs, t.config)).menusAdded).toBe(0);
  });
});

describe('dictionary seed', () => {
  it('serves `flow` (process categories) with the remark the flow routes are built from', async () => {
    const r = await t.call(admin, { method: 'GET', url: '/api/blade-system/dict/dictionary?code=flow' });
    expect(r.body.data).toEqual([{ code: 'flow', dictKey: '1', dictValue: '请假流程', dictValueEn: 'Leave', sort: 1, remark: 'leave' }]);
  });

  it('a database seeded before a dictionary was added gets it at the next start; existing ones are left as they are', async () => {
    const db = t.database.db;
    await db.deleteFrom('blade_dict').where('code', '=', 'flow').execute();
    await db.updateTable('blade_dict').set({ dict_value: '男性' }).where('code', '=', 'sex').where('dict_key', '=', '1').execute();
    await db.updateTable('blade_dict').set({ is_deleted: 1 }).where('code', '=', 'oss').execute();
    const dict = async (code: string) => (await t.call(admin, { method: 'GET', url: `/api/blade-system/dict/dictionary?code=${code}` })).body.data;
    expect(await dict('flow')).toEqual([]);
    await prepareDatabase(db, t.app.ctx.docs, t.config);
    expect((await dict('flow')).map((i: any) => [i.dictKey, i.remark])).toEqual([['1', 'leave']]);
    expect((await dict('sex'))[0].dictValue).toBe('男性');
    expect(await dict('oss')).toEqual([]);
  });
});

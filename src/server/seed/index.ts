/**
 * Seed: first start (no tenant 000000 yet) inserts tenant, dept, posts, roles, admin user, client, params
 * and demo merchants. Seeds are not versioned: what is keyed by a code is synced at every start instead.
 * Menus: codes of schemas/data/menus.json that are missing are inserted and granted (administrator: all; user: the canteen
 * section read-only), then documents with a `menu` key whose code is not in the menu table are auto-registered
 * with their buttons. Dictionaries: codes of schemas/data/dictionaries/*.json that are missing are inserted with their items.
 * A code that is present, even deleted by an administrator, is left alone.
 */
import { sql } from 'kysely';
import type { ScreenDocument } from '../../shared/document.js';
import { builtins, storedFields, toSnake } from '../../shared/fields.js';
import type { DB } from '../db/index.js';
import type { I18n } from '../lib/i18n.js';
import { newId } from '../lib/ids.js';
import { hashPassword, md5Hex } from '../lib/password.js';
import { localDateTime } from '../lib/time.js';
import { hashClientSecret } from '../modules/client/index.js';
import { seedRegions } from '../modules/region/data.js';
import { readSeedData, type SeedData } from './data.js';
import { STANDARD_BUTTONS, userRoleCodes, type SeedMenu } from './menus.js';

export const ADMIN_TENANT = '000000';
export const SEED_IDS = {
  tenant: '1123598820738675201',
  dept: '1123598813738675201',
  roleAdministrator: '1123598816738675201',
  roleUser: '1123598816738675202',
  admin: '1123598821738675201',
  post: '1123598817738675201',
  client: '1123598811738675202',
} as const;

export interface SeedResult {
  firstStart: boolean;
  menusAdded: number;
}

export async function seed(db: DB, opts: { docs: ScreenDocument[]; i18n: I18n; tz: string; demo?: boolean }): Promise<SeedResult> {
  const first = !(await db.selectFrom('blade_tenant').select('id').where('tenant_id', '=', ADMIN_TENANT).executeTakeFirst());
  if (first) await seedFirstStart(db, opts);
  await syncDictionaries(db);
  await seedRegions(db);
  const menusAdded = await syncMenus(db, opts.docs, opts.i18n);
  if (first && opts.demo !== false) await seedDemoMerchants(db, opts.docs, opts.tz);
  return { firstStart: first, menusAdded };
}

async function seedFirstStart(db: DB, opts: { tz: string }): Promise<void> {
  const now = localDateTime(opts.tz);
  const audit = { create_user: SEED_IDS.admin, create_dept: SEED_IDS.dept, create_time: now, update_user: SEED_IDS.admin, update_time: now, status: 1, is_deleted: 0 };
  await db.transaction().execute(async (trx) => {
    await trx.insertInto('blade_tenant').values({ id: SEED_IDS.tenant, tenant_id: ADMIN_TENANT, tenant_name: '管理组', linkman: 'admin', contact_number: '666666', address: '管理组', ...audit }).execute();
    await trx.insertInto('blade_dept').values([
      { id: SEED_IDS.dept, tenant_id: ADMIN_TENANT, parent_id: 0, ancestors: '0', dept_category: 1, dept_name: '食堂饭卡', full_name: '食堂饭卡管理中心', sort: 1, is_deleted: 0 },
      { id: '1123598813738675202', tenant_id: ADMIN_TENANT, parent_id: SEED_IDS.dept, ancestors: `0,${SEED_IDS.dept}`, dept_category: 2, dept_name: '运营部', full_name: '运营部', sort: 1, is_deleted: 0 },
      { id: '1123598813738675203', tenant_id: ADMIN_TENANT, parent_id: SEED_IDS.dept, ancestors: `0,${SEED_IDS.dept}`, dept_category: 2, dept_name: '财务部', full_name: '财务部', sort: 2, is_deleted: 0 },
    ]).execute();
    const posts: Array<[string, string, number]> = [['ceo', '首席执行官', 1], ['coo', '首席运营官', 1], ['cfo', '首席财务官', 1], ['cto', '首席技术官', 1], ['pm', '产品经理', 2], ['hrm', '人力资源经理', 2], ['staff', '普通员工', 3]];
    await trx.insertInto('blade_post').values(posts.map(([code, name, category], i) => ({ id: i === 0 ? SEED_IDS.post : newId(), tenant_id: ADMIN_TENANT, category, post_code: code, post_name: name, sort: i + 1, ...audit }))).execute();
    await trx.insertInto('blade_role').values([
      { id: SEED_IDS.roleAdministrator, tenant_id: ADMIN_TENANT, parent_id: 0, role_name: '超级管理员', sort: 1, role_alias: 'administrator', is_deleted: 0 },
      { id: SEED_IDS.roleUser, tenant_id: ADMIN_TENANT, parent_id: 0, role_name: '用户', sort: 2, role_alias: 'user', is_deleted: 0 },
    ]).execute();
    await trx.insertInto('blade_user').values({
      id: SEED_IDS.admin, tenant_id: ADMIN_TENANT, code: 'admin', user_type: 1, account: 'admin', password: await hashPassword(md5Hex('admin')), name: '管理员', real_name: '管理员',
      email: 'admin@canteen.local', phone: '13800000000', sex: 1, role_id: SEED_IDS.roleAdministrator, dept_id: SEED_IDS.dept, post_id: SEED_IDS.post, ...audit,
    }).execute();
    await trx.insertInto('blade_client').values({
      id: SEED_IDS.client, tenant_id: ADMIN_TENANT, client_id: 'saber', client_secret: await hashClientSecret('saber_secret'), scope: 'all', authorized_grant_types: 'password,refresh_token,captcha',
      access_token_validity: 3600, refresh_token_validity: 604800, ...audit,
    }).execute();
    await trx.insertInto('blade_param').values([
      { id: newId(), tenant_id: ADMIN_TENANT, param_name: '初始密码', param_key: 'account.initPassword', param_value: '123456', remark: '重置密码时使用', ...audit },
      { id: newId(), tenant_id: ADMIN_TENANT, param_name: '是否开启注册功能', param_key: 'account.registerUser', param_value: 'true', remark: '', ...audit },
      { id: newId(), tenant_id: ADMIN_TENANT, param_name: '日志保留天数', param_key: 'log.retentionDays', param_value: '30', remark: '接口、错误、通用日志保留的天数（0 为永久保留）', ...audit },
    ]).execute();
  });
}

/**
 * Insert the dictionaries of schemas/data/dictionaries/*.json whose code is not in the database (deleted rows
 * count as present). Returns their codes.
 */
export async function syncDictionaries(db: DB, data: Pick<SeedData, 'dictionaries'> = readSeedData()): Promise<string[]> {
  const present = async (table: 'blade_dict' | 'blade_dict_biz') => {
    let q = db.selectFrom(table).select('code').distinct();
    if (table === 'blade_dict_biz') q = q.where('tenant_id', '=', ADMIN_TENANT);
    return new Set((await q.execute()).map((r) => r.code as string));
  };
  const have = { blade_dict: await present('blade_dict'), blade_dict_biz: await present('blade_dict_biz') };
  const added: string[] = [];
  for (const d of data.dictionaries) {
    const table = d.biz ? 'blade_dict_biz' : 'blade_dict';
    if (have[table].has(d.code)) continue;
    const tenant = d.biz ? { tenant_id: ADMIN_TENANT } : {};
    const rootId = newId();
    await db.transaction().execute(async (trx) => {
      await trx.insertInto(table).values({ id: rootId, parent_id: 0, code: d.code, dict_key: '-1', dict_value: d.name, dict_value_en: d.nameEn, sort: 0, is_sealed: 0, is_deleted: 0, ...tenant }).execute();
      await trx.insertInto(table).values(d.items.map((it, i) => ({
        id: newId(), parent_id: rootId, code: d.code, dict_key: it.key, dict_value: it.value, dict_value_en: it.valueEn, sort: i + 1, remark: it.remark ?? null, is_sealed: 0, is_deleted: 0, ...tenant,
      }))).execute();
    });
    added.push(d.code);
  }
  return added;
}

/**
 * Insert missing menu codes (schemas/data/menus.json, then document `menu` keys) and grant them. Returns how
 * many were added.
 */
export async function syncMenus(db: DB, docs: ScreenDocument[], i18n: I18n, data: Pick<SeedData, 'menus'> = readSeedData()): Promise<number> {
  // Deleted rows count as present: a menu an administrator removed is not brought back at the next start.
  const rows = await db.selectFrom('blade_menu').select(['id', 'code', 'is_deleted']).orderBy('is_deleted', 'desc').execute();
  const ids = new Map(rows.map((r) => [r.code as string, String(r.id)]));
  const added: string[] = [];
  const userCodes = new Set(userRoleCodes(data.menus));
  const insert = async (n: Omit<SeedMenu, 'children' | 'at'>, parentId: string) => {
    const id = newId();
    await db.insertInto('blade_menu').values({
      id, parent_id: parentId, code: n.code, name: n.name, name_en: n.nameEn, alias: n.alias, path: n.path, source: n.source, sort: n.sort,
      category: n.category, action: n.action, is_open: n.isOpen, is_deleted: 0,
    }).execute();
    ids.set(n.code, id);
    added.push(n.code);
    return id;
  };
  const walk = async (nodes: SeedMenu[], parentId: string) => {
    for (const n of nodes) {
      const id = ids.get(n.code) ?? (await insert(n, parentId));
      await walk(n.children, id);
    }
  };
  await walk(data.menus, '0');

  for (const doc of docs) {
    if (!doc.menu || ids.has(doc.resource.permissionPrefix)) continue;
    const prefix = doc.resource.permissionPrefix;
    const parentId = ids.get(doc.menu.parent) ?? '0';
    const menuId = await insert({
      code: prefix, name: i18n.t('zh', doc.title), nameEn: i18n.t('en', doc.title), path: doc.route, source: doc.menu.icon ?? '', sort: doc.menu.sort ?? 99,
      category: 1, action: 0, isOpen: 1, alias: 'menu',
    }, parentId);
    let sort = 1;
    const offered = builtins(doc);
    for (const [verb, b] of Object.entries(STANDARD_BUTTONS)) {
      if (!offered.has(verb) || doc.resource.readOnlyApi && ['add', 'edit', 'delete'].includes(verb) || ids.has(`${prefix}_${verb}`)) continue;
      await insert({ code: `${prefix}_${verb}`, name: b.name, nameEn: b.nameEn, path: `${doc.resource.api}/${b.endpoint}`, source: '', sort: sort++, category: 2, action: b.action, isOpen: 1, alias: verb }, menuId);
    }
    for (const a of doc.list.actions ?? []) {
      if (ids.has(a.permission)) continue;
      await insert({ code: a.permission, name: i18n.t('zh', a.label), nameEn: i18n.t('en', a.label), path: `${doc.resource.api}/${a.endpoint}`, source: '', sort: sort++, category: 2, action: a.position === 'toolbar' ? 1 : 2, isOpen: 1, alias: a.name }, menuId);
    }
  }

  if (added.length) {
    const grants: Array<{ id: string; role_id: string; menu_id: string }> = added.map((code) => ({ id: newId(), role_id: SEED_IDS.roleAdministrator, menu_id: ids.get(code)! }));
    for (const code of added) if (userCodes.has(code)) grants.push({ id: newId(), role_id: SEED_IDS.roleUser, menu_id: ids.get(code)! });
    const haveRoles = await db.selectFrom('blade_role').select('id').where('id', 'in', [SEED_IDS.roleAdministrator, SEED_IDS.roleUser]).execute();
    const roleSet = new Set(haveRoles.map((r) => String(r.id)));
    const valid = grants.filter((g) => roleSet.has(g.role_id));
    for (let i = 0; i < valid.length; i += 200) {
      await db.insertInto('blade_role_menu').values(valid.slice(i, i + 200)).onConflict((oc) => oc.columns(['role_id', 'menu_id']).doNothing()).execute();
    }
  }
  await syncTopMenus(db, ids, data.menus);
  return added.length;
}

/**
 * The top menus (spec: home plus the server's top-menu entries): the canteen business and the platform
 * administration, each with its side-menu sections in blade_top_menu_setting so picking one really narrows
 * the side menu. A top menu whose settings an administrator already edited is left alone.
 */
async function syncTopMenus(db: DB, menuIds: Map<string, string>, menus: SeedMenu[]): Promise<void> {
  const sections = menus.map((m) => m.code);
  const tops = [
    { code: 'canteen', name: '食堂管理', nameEn: 'Canteen', source: 'ShopOutlined', sort: 1, menus: ['canteen'] },
    { code: 'platform', name: '平台管理', nameEn: 'Platform', source: 'SettingOutlined', sort: 2, menus: sections.filter((c) => c !== 'canteen') },
  ];
  const now = sql<string>`localtimestamp(0)`;
  for (const top of tops) {
    let row = await db.selectFrom('blade_top_menu').select('id').where('code', '=', top.code).where('tenant_id', '=', ADMIN_TENANT).executeTakeFirst();
    if (!row) {
      const id = newId();
      await db.insertInto('blade_top_menu').values({
        id, code: top.code, name: top.name, name_en: top.nameEn, source: top.source, path: '', sort: top.sort, tenant_id: ADMIN_TENANT,
        create_user: SEED_IDS.admin, create_dept: SEED_IDS.dept, create_time: now, update_user: SEED_IDS.admin, update_time: now, status: 1, is_deleted: 0,
      }).execute();
      row = { id };
    }
    const has = await db.selectFrom('blade_top_menu_setting').select('id').where('top_menu_id', '=', String(row.id)).executeTakeFirst();
    if (has) continue;
    const values = top.menus.map((c) => menuIds.get(c)).filter((m): m is string => !!m).map((menuId) => ({ id: newId(), top_menu_id: String(row!.id), menu_id: menuId }));
    if (values.length) await db.insertInto('blade_top_menu_setting').values(values).execute();
  }
}

const DEMO_MERCHANTS = [
  { merchantName: '一食堂自选餐', liaison: '王建国', liaisonPhone: '13812340001', loginPhone: '13812340001', feeRatio: '1.50', status: 1, enableFlag: 1, bind: 2, address: '园区一号楼一层', tel: '021-55550001', licenseNo: '91310000MA1FL0001X', contractSub: '一食堂自选餐餐饮服务合同', from: '2026-01-01', to: '2027-12-31' },
  { merchantName: '川味小厨', liaison: '李红', liaisonPhone: '13912340002', loginPhone: '13912340002', feeRatio: '2.00', status: 1, enableFlag: 1, bind: 1, address: '园区二号楼二层', tel: '021-55550002', licenseNo: '91310000MA1FL0002X', contractSub: '川味小厨入驻合同', from: '2026-03-01', to: '2027-02-28' },
  { merchantName: '面点坊', liaison: '张伟', liaisonPhone: '13712340003', loginPhone: '13712340003', feeRatio: '0.80', status: 2, enableFlag: 2, bind: 1, address: '园区一号楼二层', tel: '021-55550003', licenseNo: '91310000MA1FL0003X', contractSub: '面点坊入驻合同', from: '2025-07-01', to: '2026-06-30' },
  { merchantName: '清真餐厅', liaison: '马立', liaisonPhone: '13612340004', loginPhone: '13612340004', feeRatio: '1.20', status: 1, enableFlag: 1, bind: 2, address: '园区三号楼一层', tel: '021-55550004', licenseNo: '91310000MA1FL0004X', contractSub: '清真餐厅入驻合同', from: '2026-01-01', to: '2026-12-31' },
  { merchantName: '水果吧', liaison: '陈静', liaisonPhone: '13512340005', loginPhone: '13512340005', feeRatio: '3.00', status: 3, enableFlag: 2, bind: 1, address: '园区一号楼大厅', tel: '021-55550005', licenseNo: '91310000MA1FL0005X', contractSub: '水果吧入驻合同', from: '2024-01-01', to: '2025-12-31' },
];

async function seedDemoMerchants(db: DB, docs: ScreenDocument[], tz: string): Promise<void> {
  const doc = docs.find((d) => d.id === 'merchant');
  if (!doc || doc.resource.managed === 'module') return;
  const stored = new Set(storedFields(doc).map(([f]) => f));
  const now = localDateTime(tz);
  const day = now.slice(0, 10).replace(/-/g, '');
  const pay = await hashPassword('123456');
  const login = await hashPassword('123456');
  let i = 0;
  for (const m of DEMO_MERCHANTS) {
    i++;
    const values: Record<string, unknown> = {
      merchantNo: `SH${day}${String(900000 + i)}`, merchantName: m.merchantName, licenseNo: m.licenseNo, address: m.address, tel: m.tel, liaison: m.liaison,
      liaisonPhone: m.liaisonPhone, loginPhone: m.loginPhone, loginPsw: login, payPsw: pay, feeRatio: m.feeRatio, contractSub: m.contractSub,
      contractDaterange: JSON.stringify([m.from, m.to]), contractEnd: m.to, status: m.status, enableFlag: m.enableFlag, bind: m.bind, legalRepresentative: m.liaison,
      representativePhone: m.liaisonPhone, remarks: '演示数据',
    };
    const row: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(values)) if (stored.has(k)) row[toSnake(k)] = v;
    await db.insertInto(doc.resource.table).values({
      ...row, id: newId(), tenant_id: ADMIN_TENANT, create_user: SEED_IDS.admin, create_dept: SEED_IDS.dept, create_time: now, update_user: SEED_IDS.admin, update_time: now, is_deleted: 0,
    }).execute();
  }
}

/**
 * Tenants (document `schemas/system/tenant.json` on blade_tenant, generic CRUD): only the administrator of the
 * platform tenant 000000 reads or writes them, whatever codes another caller holds. A new tenant gets a
 * generated 6-digit id and, in the same transaction, what it needs to sign in (BladeX TenantServiceImpl.submit):
 * a root department, an `administrator` role granted every menu but the platform's own (tenants), and the account
 * `admin` with the parameter account.initPassword. Its expiry and account limit are enforced at sign-in
 * (modules/auth) and on user creation (modules/user).
 */
import { createHash, randomInt } from 'node:crypto';
import { isPlatformAdministrator, PLATFORM_TENANT, type ScreenHooks, type ServerModule } from '../../context.js';
import type { DB } from '../../db/index.js';
import { HttpError } from '../../lib/http.js';
import { newId } from '../../lib/ids.js';
import { hashPassword } from '../../lib/password.js';
import { localDateTime } from '../../lib/time.js';
import { readParam } from '../param/index.js';

/** Menus a tenant's administrator never gets: the platform's tenant screens. */
const PLATFORM_MENUS = ['tenant', 'tenant_package'];

async function newTenantId(db: DB): Promise<string> {
  for (;;) {
    const id = String(randomInt(100000, 1000000));
    if (id === PLATFORM_TENANT) continue;
    const taken = await db.selectFrom('blade_tenant').select('id').where('tenant_id', '=', id).executeTakeFirst();
    if (!taken) return id;
  }
}

async function provision(db: DB, tenantId: string, tenantName: string, by: string, tz: string): Promise<void> {
  const now = localDateTime(tz);
  const deptId = newId();
  const roleId = newId();
  await db.insertInto('blade_dept').values({ id: deptId, tenant_id: tenantId, parent_id: 0, ancestors: '0', dept_category: 1, dept_name: tenantName.slice(0, 45), full_name: tenantName.slice(0, 45), sort: 1, is_deleted: 0 }).execute();
  await db.insertInto('blade_role').values({ id: roleId, tenant_id: tenantId, parent_id: 0, role_name: '管理员', sort: 1, role_alias: 'administrator', is_deleted: 0 }).execute();
  const menus = await db
    .selectFrom('blade_menu as m')
    .select('m.id')
    .where('m.is_deleted', '=', 0)
    .where((eb) => eb.not(eb.exists(eb.selectFrom('blade_menu as p').select('p.id').whereRef('p.id', '=', 'm.parent_id').where('p.code', 'in', PLATFORM_MENUS))))
    .where('m.code', 'not in', PLATFORM_MENUS)
    .execute();
  for (let i = 0; i < menus.length; i += 500)
    await db.insertInto('blade_role_menu').values(menus.slice(i, i + 500).map((m) => ({ id: newId(), role_id: roleId, menu_id: String(m.id) }))).execute();
  const plain = (await readParam(db, 'account.initPassword')) || '123456';
  await db.insertInto('blade_user').values({
    id: newId(), tenant_id: tenantId, code: 'admin', user_type: 1, account: 'admin', password: await hashPassword(createHash('md5').update(plain).digest('hex')),
    name: '管理员', real_name: '管理员', role_id: roleId, dept_id: deptId, post_id: '', status: 1, is_deleted: 0,
    create_user: by, create_time: now, update_user: by, update_time: now,
  }).execute();
}

const onlyPlatform = (req: { user?: Parameters<typeof isPlatformAdministrator>[0] }) => {
  if (!req.user || !isPlatformAdministrator(req.user)) throw new HttpError(403, 'tenant.msg.platformOnly');
};

const tenantHooks: ScreenHooks = {
  async beforeSave({ mode, values, req, db }) {
    onlyPlatform(req);
    if (mode === 'add') values.tenantId = await newTenantId(db);
  },
  async afterSave({ mode, values, req, db }) {
    if (mode === 'add') await provision(db, String(values.tenantId), String(values.tenantName ?? ''), req.user!.userId, req.server.ctx.config.appTimezone);
  },
  async beforeRemove({ ids, req, db }) {
    onlyPlatform(req);
    const platform = await db.selectFrom('blade_tenant').select('id').where('id', 'in', ids).where('tenant_id', '=', PLATFORM_TENANT).executeTakeFirst();
    if (platform) throw new HttpError(400, 'tenant.msg.platformRemove');
  },
  afterRead({ req }) {
    onlyPlatform(req);
  },
  beforeExport({ req }) {
    onlyPlatform(req);
  },
};

const tenantModule: ServerModule = {
  name: 'tenant',
  screenHooks: { tenant: tenantHooks },
};

export default tenantModule;

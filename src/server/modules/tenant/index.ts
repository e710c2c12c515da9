/**
 * Tenants (document `schemas/system/tenant.json` on blade_tenant, generic CRUD): only the administrator of the
 * platform tenant 000000 reads or writes them, whatever codes another caller holds. A new tenant gets a
 * generated 6-digit id and, in the same transaction, what it needs to sign in (BladeX TenantServiceImpl.submit):
 * a root department, an `administrator` role granted every menu but the platform's own (tenants), and the account
 * `admin` with the parameter account.initPassword — each made by the module that owns it (dept, role, user services). Its expiry and account limit are enforced at sign-in
 * (modules/auth) and on user creation (modules/user).
 *
 * Tenant packages (document `schemas/system/tenant-package.json`, platform records): the menus a tenant may
 * hold. A tenant with a package gets only those: its administrator role at creation, the grant tree and
 * role/grant of its roles, and when the package or the tenant's package changes, its roles lose what fell
 * outside (`package-setting?tenantId&packageId`, `package-detail?tenantId`). Without a package a tenant may
 * hold every menu but the platform's own.
 */
import { randomInt } from 'node:crypto';
import { isPlatformAdministrator, PLATFORM_TENANT, requirePermission, type ScreenHooks, type ServerModule } from '../../context.js';
import { inTransaction } from '../../crud/index.js';
import { sql } from 'kysely';
import type { DB } from '../../db/index.js';
import { AUDIT_COLUMNS_SQL } from '../../db/migrate.js';
import { HttpError, fail, ok, okStatus } from '../../lib/http.js';
import { isId } from '../../lib/ids.js';
import { localDateTime } from '../../lib/time.js';
import { createRootDept } from '../dept/index.js';
import { liveMenuIds, menuIdsExcept } from '../menu/index.js';
import { createAdministratorRole, keepTenantRoleMenus } from '../role/index.js';
import { createTenantAdministrator } from '../user/index.js';

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

/** Every live menu but the platform's own tenant screens (and their buttons). */
const nonPlatformMenuIds = (db: DB) => menuIdsExcept(db, PLATFORM_MENUS);

async function packageMenus(db: DB, packageId: string): Promise<string[] | undefined> {
  const row = await db.selectFrom('blade_tenant_package').select('menu_id').where('id', '=', packageId).where('is_deleted', '=', 0).executeTakeFirst();
  return row ? String(row.menu_id ?? '').split(',').filter(isId) : undefined;
}

/**
 * The menus a tenant's roles may hold: its package's (never the platform's own), else every menu but the
 * platform's; undefined for the platform tenant (no limit).
 */
export async function tenantMenuIds(db: DB, tenantId: string): Promise<Set<string> | undefined> {
  if (tenantId === PLATFORM_TENANT) return undefined;
  const base = await nonPlatformMenuIds(db);
  const t = await db.selectFrom('blade_tenant').select('package_id').where('tenant_id', '=', tenantId).where('is_deleted', '=', 0).executeTakeFirst();
  const pkg = t?.package_id ? await packageMenus(db, String(t.package_id)) : undefined;
  if (!pkg) return new Set(base);
  const inPackage = new Set(pkg);
  return new Set(base.filter((m) => inPackage.has(m)));
}

/** The tenant's roles lose the menus outside what it may hold now (a package set or narrowed). */
async function pruneTenantGrants(db: DB, tenantId: string): Promise<void> {
  const allowed = await tenantMenuIds(db, tenantId);
  if (allowed) await keepTenantRoleMenus(db, tenantId, allowed);
}

async function provision(db: DB, tenantId: string, tenantName: string, by: string, tz: string): Promise<void> {
  // each owner makes its part: the root department, the administrator role with what the tenant may hold, the admin account
  const deptId = await createRootDept(db, tenantId, tenantName);
  const roleId = await createAdministratorRole(db, tenantId, [...((await tenantMenuIds(db, tenantId)) ?? [])]);
  await createTenantAdministrator(db, { tenantId, roleId, deptId, by, now: localDateTime(tz) });
}

const onlyPlatform = (req: { user?: Parameters<typeof isPlatformAdministrator>[0] }) => {
  if (!req.user || !isPlatformAdministrator(req.user)) throw new HttpError(403, 'tenant.msg.platformOnly');
};

const tenantHooks: ScreenHooks = {
  async beforeSave({ mode, values, req, db }) {
    onlyPlatform(req);
    if (mode === 'add') values.tenantId = await newTenantId(db);
    if (values.packageId !== undefined && values.packageId !== null && values.packageId !== '' && !(await packageMenus(db, String(values.packageId)))) throw new HttpError(400, 'tenantPackage.msg.unknown');
  },
  async afterSave({ mode, values, existing, req, db }) {
    if (mode === 'add') await provision(db, String(values.tenantId), String(values.tenantName ?? ''), req.user!.userId, req.server.ctx.config.appTimezone);
    else if (values.packageId !== undefined && String(values.packageId ?? '') !== String(existing?.packageId ?? '')) {
      await pruneTenantGrants(db, String(existing?.tenantId));
      req.server.ctx.permissions.clear();
    }
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

const packageHooks: ScreenHooks = {
  async beforeSave({ values, req, db }) {
    onlyPlatform(req);
    if (values.menuId !== undefined) {
      const ids = String(values.menuId ?? '').split(',').filter(Boolean);
      if (ids.some((id) => !isId(id)) || (await liveMenuIds(db, ids)).length !== ids.length) throw new HttpError(400, 'role.msg.grantUnknown');
    }
  },
  async afterSave({ mode, existing, req, db }) {
    if (mode !== 'edit' || !existing?.id) return;
    // a narrowed package narrows what its tenants' roles hold
    const tenants = await db.selectFrom('blade_tenant').select('tenant_id').where('package_id', '=', String(existing.id)).where('is_deleted', '=', 0).execute();
    for (const t of tenants) await pruneTenantGrants(db, String(t.tenant_id));
    req.server.ctx.permissions.clear();
  },
  async beforeRemove({ ids, req, db }) {
    onlyPlatform(req);
    const used = await db.selectFrom('blade_tenant').select('tenant_name').where('package_id', 'in', ids).where('is_deleted', '=', 0).executeTakeFirst();
    if (used) throw new HttpError(400, 'tenantPackage.msg.inUse', { tenant: String(used.tenant_name) });
  },
  afterRead({ req }) {
    onlyPlatform(req);
  },
};

/** `tenantId` of the query or body, checked; the live tenant row or 404. */
async function tenantOf(db: DB, req: { query?: unknown; body?: unknown }) {
  const q = (req.query ?? {}) as Record<string, unknown>;
  const b = req.body && typeof req.body === 'object' ? (req.body as Record<string, unknown>) : {};
  const tenantId = String(q.tenantId ?? b.tenantId ?? '');
  if (!/^[0-9]{6}$/.test(tenantId)) throw fail('error.paramMissing', { name: 'tenantId' });
  const row = await db.selectFrom('blade_tenant').select(['id', 'tenant_id', 'package_id']).where('tenant_id', '=', tenantId).where('is_deleted', '=', 0).executeTakeFirst();
  if (!row) throw new HttpError(404, 'error.notFound');
  return row;
}

const tenantModule: ServerModule = {
  name: 'tenant',
  // the tenant module owns the packages' table (document tenantPackage, managed by this module)
  migrations: [
    {
      name: 'tenant_0001_packages',
      up: async (db) => {
        await sql.raw(`create table blade_tenant_package (id bigint primary key, ${AUDIT_COLUMNS_SQL},
          package_name varchar(50), menu_id text, remark varchar(255))`).execute(db);
      },
    },
  ],
  screenHooks: { tenant: tenantHooks, tenantPackage: packageHooks },
  async plugin(app) {
    // BladeX tenant/package-setting?tenantId&packageId: the tenant's package (empty = none); its roles lose what falls outside.
    app.post('/api/blade-system/tenant/package-setting', async (req) => {
      const user = await requirePermission(app, req, 'tenant_package_setting');
      onlyPlatform({ user });
      const q = (req.query ?? {}) as Record<string, unknown>;
      const b = req.body && typeof req.body === 'object' ? (req.body as Record<string, unknown>) : {};
      const packageId = String(q.packageId ?? b.packageId ?? '');
      if (packageId && !isId(packageId)) throw fail('error.badRequest');
      await inTransaction(app.ctx.db(), async (db) => {
        const tenant = await tenantOf(db, req);
        if (tenant.tenant_id === PLATFORM_TENANT) throw new HttpError(400, 'tenant.msg.platformPackage');
        if (packageId && !(await packageMenus(db, packageId))) throw new HttpError(404, 'error.notFound');
        await db.updateTable('blade_tenant').set({ package_id: packageId || null, update_user: user.userId, update_time: localDateTime(app.ctx.config.appTimezone) }).where('id', '=', tenant.id).execute();
        await pruneTenantGrants(db, String(tenant.tenant_id));
      });
      app.ctx.permissions.clear();
      return okStatus();
    });
    // BladeX tenant/package-detail?tenantId: the tenant's package (null without one).
    app.get('/api/blade-system/tenant/package-detail', async (req) => {
      const user = await requirePermission(app, req, 'tenant');
      onlyPlatform({ user });
      const db = app.ctx.db();
      const tenant = await tenantOf(db, req);
      if (!tenant.package_id) return ok(null);
      const p = await db.selectFrom('blade_tenant_package').select(['id', 'package_name', 'menu_id', 'remark']).where('id', '=', String(tenant.package_id)).where('is_deleted', '=', 0).executeTakeFirst();
      return ok(p ? { id: String(p.id), packageName: p.package_name, menuId: p.menu_id, remark: p.remark } : null);
    });
  },
};

export default tenantModule;

/**
 * Posts (`/api/blade-system/post/`): the generic CRUD of the `post` document (category from the dictionary
 * post_category, postCode unique per tenant), plus `select?tenantId=`, the posts offered by the user form:
 * the caller's tenant, another tenant's only for an administrator of the platform tenant 000000.
 */
import { sql } from 'kysely';
import { requireUser, type ServerModule } from '../../context.js';
import type { Migration } from '../../db/migrate.js';
import { fail, ok } from '../../lib/http.js';

const ADMIN_TENANT = '000000';

/** postCode is unique per tenant among live posts, also under concurrent submits. */
const migrations: Migration[] = [
  {
    name: 'post_0001_unique_code',
    up: async (db) => {
      await sql`create unique index if not exists blade_post_code_uq on blade_post (tenant_id, post_code) where is_deleted = 0`.execute(db);
    },
  },
];

const postModule: ServerModule = {
  name: 'post',
  migrations,
  async plugin(app) {
    app.get('/api/blade-system/post/select', async (req) => {
      const user = requireUser(req);
      const raw = ((req.query ?? {}) as Record<string, unknown>).tenantId;
      const asked = typeof raw === 'string' && raw.trim() ? raw.trim() : user.tenantId;
      if (!/^[0-9A-Za-z_-]{1,12}$/.test(asked)) throw fail('error.badRequest');
      const platformAdmin = user.tenantId === ADMIN_TENANT && user.roleNames.includes('administrator');
      const tenantId = platformAdmin ? asked : user.tenantId;
      const rows = await app.ctx
        .db()
        .selectFrom('blade_post')
        .select(['id', 'tenant_id', 'category', 'post_code', 'post_name', 'sort', 'remark'])
        .where('tenant_id', '=', tenantId)
        .where('is_deleted', '=', 0)
        .orderBy('sort')
        .orderBy('id')
        .execute();
      return ok(rows.map((r) => ({ id: String(r.id), tenantId: r.tenant_id, category: r.category, postCode: r.post_code, postName: r.post_name, sort: r.sort ?? 0, remark: r.remark ?? '' })));
    });
  },
};

export default postModule;

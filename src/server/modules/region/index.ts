/**
 * Regions (`/api/blade-system/region/`, blade_region keyed by `code`, blade-contract §8): China's divisions
 * (region/data.ts, loaded by the seed into an empty table). The table has no id, so this module serves every
 * endpoint of the `region` document itself: `list` (paged, flat: 3,661 rows), `lazy-list?parentCode=`
 * (records with hasChildren), `lazy-tree?parentCode=` (TreeNode; without parentCode the provinces), `select?code=`
 * (the children of a code, for cascaders), `detail?code=`, `submit` (BladeX's upsert by code: a new code under
 * its parent, whose code it must start with and whose level decides its length; ancestors and the names of
 * every level above are filled in) and `remove?id=` (codes; a region with sub-regions is not removed).
 */
import type { FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import type { ScreenDocument } from '../../../shared/document.js';
import { pickEditable } from '../../../shared/form.js';
import { requirePermission, requireUser, type ServerModule } from '../../context.js';
import { pageEnvelope, pageParams, parseListRequest } from '../../crud/index.js';
import { dictionaryErrors, validateValues } from '../../crud/validate.js';
import type { DB } from '../../db/index.js';
import type { Migration } from '../../db/migrate.js';
import { HttpError, fail, notFound, ok } from '../../lib/http.js';
import { REGION_ROOT, type RegionRow } from './data.js';

/** Code length per level (province 2, city 4, district 6, town 9, village 12). */
const CODE_LENGTH = [2, 4, 6, 9, 12];
const LEVEL_NAMES = ['province', 'city', 'district', 'town', 'village'] as const;
const CODE = /^[0-9]{2,12}$/;

const COLUMNS = ['code', 'parent_code', 'ancestors', 'name', 'province_code', 'province_name', 'city_code', 'city_name', 'district_code', 'district_name',
  'town_code', 'town_name', 'village_code', 'village_name', 'level', 'sort', 'remark'] as const;

const migrations: Migration[] = [
  {
    name: 'region_0001_table',
    up: async (db) => {
      await sql`create table if not exists blade_region (code varchar(12) primary key, parent_code varchar(12) not null, ancestors varchar(255),
        name varchar(32) not null, province_code varchar(12), province_name varchar(32), city_code varchar(12), city_name varchar(32),
        district_code varchar(12), district_name varchar(32), town_code varchar(12), town_name varchar(32), village_code varchar(12),
        village_name varchar(32), level integer, sort integer, remark varchar(255))`.execute(db);
      await sql`create index if not exists blade_region_parent_idx on blade_region (parent_code, sort, code)`.execute(db);
    },
  },
];

const camel = (c: string) => c.replace(/_([a-z])/g, (_, x: string) => x.toUpperCase());

/** Wire record: camelCase fields, null → "" for text as BladeX's serializer does, plus parentName. */
function record(r: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const c of COLUMNS) out[camel(c)] = r[c] ?? (c === 'level' || c === 'sort' ? 0 : '');
  out.level = Number(out.level);
  out.sort = Number(out.sort);
  out.parentName = r.parent_name ?? '';
  if (r.kids !== undefined) out.hasChildren = Number(r.kids) > 0;
  return out;
}

function q(req: FastifyRequest): Record<string, unknown> {
  return (req.query ?? {}) as Record<string, unknown>;
}

function codeParam(req: FastifyRequest, name: string, fallback?: string): string {
  const raw = q(req)[name];
  const v = typeof raw === 'string' && raw.trim() ? raw.trim() : fallback;
  if (v === undefined) throw fail('error.paramMissing', { name });
  if (v !== REGION_ROOT && !CODE.test(v)) throw fail('error.badRequest');
  return v;
}

function base(db: DB, withKids = false) {
  let s = db
    .selectFrom('blade_region as r')
    .leftJoin('blade_region as p', 'p.code', 'r.parent_code')
    .select(COLUMNS.map((c) => `r.${c}` as const))
    .select('p.name as parent_name');
  if (withKids) s = s.select(sql<string>`(select count(*) from blade_region k where k.parent_code = r.code)`.as('kids'));
  return s;
}

async function children(db: DB, parentCode: string): Promise<Array<Record<string, any>>> {
  return base(db, true).where('r.parent_code', '=', parentCode).orderBy('r.sort').orderBy('r.code').execute();
}

/** One add or edit, after the document's validation: the code's place in the tree decides the derived columns. */
async function save(db: DB, values: Record<string, unknown>, existing: Record<string, unknown> | undefined): Promise<string> {
  if (existing) {
    const set: Record<string, unknown> = {};
    for (const f of ['name', 'sort', 'remark'] as const) if (values[f] !== undefined) set[f] = values[f];
    if (values.parentCode !== undefined && values.parentCode !== existing.parent_code) throw fail('system.region.msg.codeLevel', { parent: existing.parent_code, length: String(existing.code).length });
    if (Object.keys(set).length) await db.updateTable('blade_region').set(set).where('code', '=', String(existing.code)).execute();
    // the name of a level is copied into every row below it
    if (set.name !== undefined && set.name !== existing.name) {
      const level = LEVEL_NAMES[Number(existing.level) - 1];
      if (level) await sql`update blade_region set ${sql.ref(`${level}_name`)} = ${set.name} where ${sql.ref(`${level}_code`)} = ${existing.code}`.execute(db);
    }
    return String(existing.code);
  }
  const code = String(values.code);
  const parentCode = String(values.parentCode ?? REGION_ROOT);
  const parent = parentCode === REGION_ROOT ? undefined : ((await db.selectFrom('blade_region').selectAll().where('code', '=', parentCode).executeTakeFirst()) as RegionRow | undefined);
  if (parentCode !== REGION_ROOT && !parent) throw fail('system.region.msg.parentNotFound');
  const level = (parent?.level ?? 0) + 1;
  if (level > CODE_LENGTH.length) throw fail('system.region.msg.tooDeep');
  const prefix = parent ? parent.code : '';
  if (!code.startsWith(prefix) || code.length !== CODE_LENGTH[level - 1]) throw fail('system.region.msg.codeLevel', { parent: parent ? parent.code : REGION_ROOT, length: CODE_LENGTH[level - 1] });
  const row: Record<string, unknown> = {
    code, parent_code: parentCode, ancestors: parent ? `${parent.ancestors},${parent.code}` : REGION_ROOT, name: values.name, level,
    sort: values.sort ?? 1, remark: values.remark ?? null,
  };
  for (const [i, l] of LEVEL_NAMES.entries()) {
    if (i + 1 === level) Object.assign(row, { [`${l}_code`]: code, [`${l}_name`]: values.name });
    else if (i + 1 < level && parent) Object.assign(row, { [`${l}_code`]: parent[`${l}_code` as keyof RegionRow], [`${l}_name`]: parent[`${l}_name` as keyof RegionRow] });
  }
  await db.insertInto('blade_region').values(row).execute();
  return code;
}

const regionModule: ServerModule = {
  name: 'region',
  migrations,
  async plugin(app) {
    const db = () => app.ctx.db();
    const doc = (): ScreenDocument => {
      const d = app.ctx.docs.get('region');
      if (!d) throw notFound('error.notFound');
      return d;
    };
    const api = '/api/blade-system/region';

    app.get(`${api}/list`, async (req) => {
      const d = doc();
      await requirePermission(app, req, 'region');
      const query = q(req);
      const { conditions } = parseListRequest(d, query);
      const { current, size } = pageParams(d, query);
      let s = base(db());
      let c = db().selectFrom('blade_region as r').select(sql<string>`count(*)`.as('n'));
      const parentCode = typeof query.parentCode === 'string' && query.parentCode ? codeParam(req, 'parentCode') : undefined;
      const conds = [...conditions.map((x) => ({ ...x, column: `r.${x.field.replace(/[A-Z]/g, (m) => `_${m.toLowerCase()}`)}` }))];
      if (parentCode) conds.push({ field: 'parentCode', op: '=', value: parentCode, column: 'r.parent_code' });
      for (const x of conds) {
        const ref = sql.ref(x.column);
        const value = String(x.value);
        const where =
          x.op === 'contains' ? sql<boolean>`${ref} like ${`%${value.replace(/[\\%_]/g, (m) => `\\${m}`)}%`}`
          : x.op === 'prefix' ? sql<boolean>`${ref} like ${`${value.replace(/[\\%_]/g, (m) => `\\${m}`)}%`}`
          : x.field === 'level' || x.field === 'sort' ? sql<boolean>`${ref} ${sql.raw(x.op)} ${Number(x.value)}`
          : sql<boolean>`${ref} ${sql.raw(x.op)} ${value}`;
        s = s.where(where);
        c = c.where(where);
      }
      const [rows, count] = await Promise.all([s.orderBy('r.code').limit(size).offset((current - 1) * size).execute(), c.executeTakeFirst()]);
      return ok(pageEnvelope(rows.map(record), { total: Number(count?.n ?? 0), estimated: false }, current, size));
    });
    app.get(`${api}/lazy-list`, async (req) => {
      await requirePermission(app, req, 'region');
      return ok((await children(db(), codeParam(req, 'parentCode', REGION_ROOT))).map(record));
    });
    app.get(`${api}/lazy-tree`, async (req) => {
      requireUser(req);
      const rows = await children(db(), codeParam(req, 'parentCode', REGION_ROOT));
      return ok(rows.map((r) => ({ id: r.code, parentId: r.parent_code, title: r.name, key: r.code, value: r.code, hasChildren: Number(r.kids) > 0 })));
    });
    // the whole forest as TreeNode (3,661 nodes; the screen itself loads lazily)
    app.get(`${api}/tree`, async (req) => {
      await requirePermission(app, req, 'region');
      const rows = await db().selectFrom('blade_region').select(['code', 'parent_code', 'name']).orderBy('sort').orderBy('code').execute();
      const nodes = new Map(rows.map((r) => [r.code as string, { id: r.code as string, parentId: r.parent_code as string, title: r.name as string, key: r.code as string, value: r.code as string } as Record<string, any>]));
      const roots: Array<Record<string, any>> = [];
      for (const n of nodes.values()) {
        const p = nodes.get(n.parentId);
        if (p) (p.children ??= []).push(n);
        else roots.push(n);
      }
      return ok(roots);
    });
    app.get(`${api}/select`, async (req) => {
      requireUser(req);
      return ok((await children(db(), codeParam(req, 'code', REGION_ROOT))).map(record));
    });
    app.get(`${api}/detail`, async (req) => {
      await requirePermission(app, req, 'region');
      const code = codeParam(req, 'code');
      const row = await base(db()).where('r.code', '=', code).executeTakeFirst();
      if (!row) throw notFound();
      return ok(record(row));
    });

    app.post(`${api}/submit`, async (req) => {
      const d = doc();
      const body = req.body;
      if (!body || typeof body !== 'object' || Array.isArray(body)) throw fail('error.badRequest');
      const b = body as Record<string, unknown>;
      const code = typeof b.code === 'string' || typeof b.code === 'number' ? String(b.code) : '';
      const existing = CODE.test(code) ? await db().selectFrom('blade_region').selectAll().where('code', '=', code).executeTakeFirst() : undefined;
      const mode = existing ? 'edit' : 'add';
      const user = await requirePermission(app, req, `region_${mode}`);
      const { values } = pickEditable(d, mode, b);
      if (mode === 'add') values.code = code || b.code;
      const errors = validateValues(d, mode, values, app.ctx.i18n, req.lang);
      errors.push(...(await dictionaryErrors(db(), d, values, user.tenantId, app.ctx.i18n, req.lang)));
      if (errors.length) throw new HttpError(400, 'error.validation', {}, errors, errors[0].message);
      const saved = await db().transaction().execute((trx) => save(trx, values, existing as Record<string, unknown> | undefined));
      return ok({ code: saved, id: saved });
    });
    app.post(`${api}/remove`, async (req) => {
      await requirePermission(app, req, 'region_delete');
      const query = q(req);
      const b = req.body && typeof req.body === 'object' ? (req.body as Record<string, unknown>) : {};
      const raw = query.id ?? query.ids ?? query.code ?? b.id ?? b.ids ?? b.code;
      const codes = [...new Set(String(raw ?? '').split(',').map((s) => s.trim()).filter(Boolean))];
      if (!codes.length || codes.length > 1000 || codes.some((c) => !CODE.test(c))) throw fail('error.invalidIds');
      const removed = await db().transaction().execute(async (trx) => {
        const kids = await trx.selectFrom('blade_region as k').innerJoin('blade_region as p', 'p.code', 'k.parent_code')
          .select(['p.name', sql<string>`count(*)`.as('n')]).where('k.parent_code', 'in', codes).where('k.code', 'not in', codes).groupBy('p.name').execute();
        if (kids.length) throw fail('system.region.msg.hasChildren', { name: kids[0].name, count: Number(kids[0].n) });
        return (await trx.deleteFrom('blade_region').where('code', 'in', codes).executeTakeFirst()).numDeletedRows;
      });
      if (removed === 0n) throw notFound();
      return ok({ removed: Number(removed) });
    });
  },
};

export default regionModule;

/**
 * Server endpoints the web shell needs that are not generic CRUD: site switches for the login page,
 * personal info (info / update-info / update-password with the old password checked), department and role
 * selects of the switch dialog, guest registration after a social login, upload of the browser's error log,
 * and the home page's operator figures (asked of the ledger and merchant modules; SQL numeric sums).
 */
import { sql } from 'kysely';
import type { FastifyRequest } from 'fastify';
import { requireUser, type AuthUser, type ServerModule } from '../../context.js';
import type { DB } from '../../db/index.js';
import { HttpError, fail, forbidden, notFound, ok, okStatus } from '../../lib/http.js';
import { newId, isId } from '../../lib/ids.js';
import { hashPassword, verifyPassword } from '../../lib/password.js';
import { requestParams, text } from '../../lib/params.js';
import { localDateTime } from '../../lib/time.js';
import { countCardHolders } from '../ledger/cards.js';
import { pendingSettlementCount } from '../ledger/settlement.js';
import { paidPaymentsPerDay } from '../ledger/statistics.js';
import { countMerchants } from '../merchant/service.js';
import type { DashboardSummary } from '../../../shared/dashboard.js';

const MD5_HEX = /^[0-9a-f]{32}$/i;
const PHONE = /^1[3-9]\d{9}$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The shared request-parameter readers (lib/params.ts) under the short names the handlers use. */
const params = requestParams;
const str = text;
const bad = (req: FastifyRequest, zh: string, en: string) => new HttpError(400, 'error.badRequest', {}, null, req.lang === 'en' ? en : zh);

function isAdmin(u: AuthUser): boolean {
  return u.roleNames.includes('administrator') || u.roleNames.includes('admin');
}

function ymd(d: Date): string {
  return d.toISOString().slice(0, 10);
}

/**
 * Operator figures for the home page, from the modules that own them (the ledger's orders, cards and
 * settlements, the merchant module's merchants); money as SQL numeric text, never summed in JS.
 */
export async function dashboardSummary(db: DB, tenantId: string, tz: string, now = new Date()): Promise<DashboardSummary> {
  const today = localDateTime(tz, now).slice(0, 10);
  const from = ymd(new Date(new Date(`${today}T00:00:00Z`).getTime() - 29 * 86_400_000));
  const [trend, cardHolders, merchants, pendingSettlements] = await Promise.all([
    paidPaymentsPerDay(db, tenantId, from, today),
    countCardHolders(db, tenantId),
    countMerchants(db, tenantId),
    pendingSettlementCount(db, tenantId),
  ]);
  const last = trend[trend.length - 1];
  return { todayOrders: last?.orders ?? 0, todayAmount: last?.amount ?? '0.00', cardHolders, merchants, pendingSettlements, trend };
}

function envFlag(v: string | undefined): boolean | undefined {
  if (v === undefined || v === '') return undefined;
  return ['1', 'true', 'on', 'yes'].includes(v.toLowerCase());
}

const shellModule: ServerModule = {
  name: 'shell',
  migrations: [
    {
      name: 'shell_0001_client_log',
      up: async (db) => {
        await sql.raw(`create table shell_client_log (id bigint primary key, tenant_id varchar(12) not null default '000000',
          user_id bigint, type varchar(20), url varchar(2000), message text, stack text, info varchar(500),
          log_time varchar(32), create_time timestamp(0) not null default localtimestamp(0))`).execute(db);
        await sql.raw(`create index shell_client_log_time_idx on shell_client_log (tenant_id, create_time desc)`).execute(db);
      },
    },
  ],
  plugin: async (app) => {
    /** Site switches for the web app (public: the login page needs them before a token exists). */
    app.get('/api/blade-desk/shell/config', async () => {
      const env = process.env;
      const tokenTime = Number(env.TOKEN_TIME);
      const check = Number(env.TOKEN_CHECK_MS);
      return ok({
        tenantMode: envFlag(env.TENANT_MODE) ?? false,
        captchaMode: app.ctx.config.captchaMode === 'on',
        switchMode: envFlag(env.SWITCH_MODE) ?? false,
        tenantId: '000000',
        ...(tokenTime > 0 ? { tokenTime } : {}),
        ...(check > 0 ? { tokenCheckInterval: check } : {}),
      });
    });

    app.get('/api/blade-system/user/info', async (req) => {
      const u = requireUser(req);
      const row = await app.ctx.db().selectFrom('blade_user')
        .select(['id', 'tenant_id', 'account', 'name', 'real_name', 'avatar', 'email', 'phone', 'sex', 'role_id', 'dept_id', 'post_id'])
        .where('id', '=', u.userId).where('is_deleted', '=', 0).executeTakeFirst();
      if (!row) throw notFound();
      return ok({
        id: String(row.id), tenantId: row.tenant_id, account: row.account, name: row.name ?? '', realName: row.real_name ?? '',
        avatar: row.avatar ?? '', email: row.email ?? '', phone: row.phone ?? '', sex: row.sex ?? -1,
        roleId: row.role_id ?? '', deptId: row.dept_id ?? '', postId: row.post_id ?? '',
      });
    });

    app.post('/api/blade-system/user/update-info', async (req) => {
      const u = requireUser(req);
      const p = params(req);
      const set: Record<string, unknown> = {};
      for (const [k, col, max] of [['avatar', 'avatar', 2000], ['realName', 'real_name', 10], ['name', 'name', 20], ['phone', 'phone', 45], ['email', 'email', 45]] as const) {
        if (!(k in p)) continue;
        const v = str(p[k]);
        if (v.length > max) throw bad(req, `${k} 过长`, `${k} is too long`);
        set[col] = v;
      }
      if ('phone' in set) {
        const phone = String(set.phone);
        if (!phone) throw bad(req, '手机号码不能为空', 'Phone number cannot be empty');
        if (phone.length !== 11) throw bad(req, '手机号码长度不为11位', 'Phone number must be 11 digits');
        if (!PHONE.test(phone)) throw bad(req, '手机号码格式不正确', 'Phone number format is invalid');
      }
      if (set.email && !EMAIL.test(String(set.email))) throw bad(req, '邮箱格式不正确', 'Invalid email address');
      if (set.avatar && !/^(\/api\/|https?:\/\/)/.test(String(set.avatar))) throw bad(req, '头像地址不正确', 'Invalid avatar address');
      if (!Object.keys(set).length) return okStatus();
      await app.ctx.db().updateTable('blade_user')
        .set({ ...set, update_user: u.userId, update_time: localDateTime(app.ctx.config.appTimezone) })
        .where('id', '=', u.userId).where('is_deleted', '=', 0).execute();
      return okStatus();
    });

    /** Passwords arrive md5-hashed like the login; the old one must match. */
    app.post('/api/blade-system/user/update-password', async (req) => {
      const u = requireUser(req);
      const p = params(req);
      const oldPassword = str(p.oldPassword), newPassword = str(p.newPassword), newPassword1 = str(p.newPassword1);
      if (!oldPassword || !newPassword || !newPassword1) throw bad(req, '请输入密码', 'Please enter the passwords');
      if (![oldPassword, newPassword, newPassword1].every((x) => MD5_HEX.test(x))) throw bad(req, '密码格式不正确', 'Invalid password format');
      if (newPassword !== newPassword1) throw bad(req, '两次新密码不一致', 'The two new passwords do not match');
      const db = app.ctx.db();
      const row = await db.selectFrom('blade_user').select(['password']).where('id', '=', u.userId).where('is_deleted', '=', 0).executeTakeFirst();
      if (!row) throw notFound();
      if (!(await verifyPassword(oldPassword.toLowerCase(), row.password))) throw bad(req, '原密码不正确', 'The old password is wrong');
      await db.updateTable('blade_user')
        .set({ password: await hashPassword(newPassword.toLowerCase()), update_user: u.userId, update_time: localDateTime(app.ctx.config.appTimezone) })
        .where('id', '=', u.userId).execute();
      return okStatus();
    });

    /** Departments of a user (switch dialog); another user's only for administrators. */
    const userLists = async (req: FastifyRequest) => {
      const u = requireUser(req);
      const q = params(req);
      const userId = q.userId ? str(q.userId) : u.userId;
      if (!isId(userId)) throw fail('error.badRequest');
      if (userId !== u.userId && !isAdmin(u)) throw forbidden();
      const row = await app.ctx.db().selectFrom('blade_user').select(['dept_id', 'role_id', 'tenant_id']).where('id', '=', userId).where('is_deleted', '=', 0).executeTakeFirst();
      if (!row) throw notFound();
      const ids = (v: string | null) => String(v ?? '').split(',').filter(isId);
      return { deptIds: ids(row.dept_id), roleIds: ids(row.role_id), tenantId: row.tenant_id as string };
    };
    app.get('/api/blade-system/role/select', async (req) => {
      const { roleIds, tenantId } = await userLists(req);
      if (!roleIds.length) return ok([]);
      const rows = await app.ctx.db().selectFrom('blade_role').select(['id', 'role_name', 'role_alias', 'parent_id'])
        .where('id', 'in', roleIds).where('tenant_id', '=', tenantId).where('is_deleted', '=', 0).orderBy('sort').execute();
      return ok(rows.map((r) => ({ id: String(r.id), parentId: String(r.parent_id), roleName: r.role_name, roleAlias: r.role_alias })));
    });

    /** Account registration after a social login: creates the account without roles until an administrator grants them. */
    app.post('/api/blade-system/user/register-guest', async (req) => {
      requireUser(req);
      const p = params(req);
      const tenantId = str(p.tenantId), account = str(p.account), password = str(p.password), name = str(p.name), oauthId = str(p.oauthId);
      if (!tenantId) throw bad(req, '请先输入租户编号', 'Please enter the tenant code first');
      if (!account) throw bad(req, '请先输入账号', 'Please enter the account first');
      if (!password) throw bad(req, '请先输入密码', 'Please enter the password first');
      if (!MD5_HEX.test(password)) throw bad(req, '密码格式不正确', 'Invalid password format');
      if (account.length > 45 || name.length > 20 || !/^[A-Za-z0-9_.@-]+$/.test(account)) throw bad(req, '账号格式不正确', 'Invalid account');
      const db = app.ctx.db();
      const tenant = await db.selectFrom('blade_tenant').select('id').where('tenant_id', '=', tenantId).where('is_deleted', '=', 0).executeTakeFirst();
      if (!tenant) throw fail('error.tenantNotFound');
      const dup = await db.selectFrom('blade_user').select('id').where('tenant_id', '=', tenantId).where('account', '=', account).where('is_deleted', '=', 0).executeTakeFirst();
      if (dup) throw bad(req, '当前用户已存在', 'The account already exists');
      await db.insertInto('blade_user').values({
        id: newId(), tenant_id: tenantId, account, name: name || account, real_name: (name || account).slice(0, 10), password: await hashPassword(password.toLowerCase()),
        user_type: 1, role_id: '', dept_id: '', post_id: '', status: 1, is_deleted: 0, code: oauthId.slice(0, 12) || null,
      }).execute();
      return okStatus();
    });

    /** Browser error log upload (top bar → error log → upload). */
    app.post('/api/blade-desk/shell/send-logs', async (req) => {
      const u = requireUser(req);
      const body = Array.isArray(req.body) ? req.body : Array.isArray((req.body as { logs?: unknown })?.logs) ? (req.body as { logs: unknown[] }).logs : null;
      if (!body) throw fail('error.badRequest');
      const rows = body.slice(0, 500).map((l) => {
        const e = (l ?? {}) as Record<string, unknown>;
        const cut = (v: unknown, n: number) => str(v).slice(0, n);
        return { id: newId(), tenant_id: u.tenantId, user_id: u.userId, type: cut(e.type, 20), url: cut(e.url, 2000), message: cut(e.message, 10_000), stack: cut(e.stack, 20_000), info: cut(e.info, 500), log_time: cut(e.time, 32) };
      });
      if (rows.length) await app.ctx.db().insertInto('shell_client_log').values(rows).execute();
      return ok({ count: rows.length });
    });

    app.get('/api/blade-desk/dashboard/summary', async (req) => {
      const u = requireUser(req);
      return ok(await dashboardSummary(app.ctx.db(), u.tenantId, app.ctx.config.appTimezone));
    });
  },
};

export default shellModule;

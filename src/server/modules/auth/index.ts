/**
 * blade-auth (BladeX dialect B, blade-contract §3): token (password, captcha, refresh_token grants), captcha,
 * logout (revokes the session), user-info, clear-cache. The token endpoint answers raw OAuth JSON, not R.
 *
 * Failed logins are throttled twice:
 * - per account (tenant + account, BladeX behaviour): MAX_LOGIN_FAILURES wrong passwords lock the account for
 *   LOCK_MINUTES, even for the right password; `POST /api/blade-system/user/unlock` (user_unlock) lifts it;
 * - per client address: MAX_IP_FAILURES failed logins (any account, known or not) within IP_WINDOW_MINUTES
 *   block every login from that address for LOCK_MINUTES, and a blocked address's attempts no longer count
 *   against accounts. So one address can lock at most MAX_IP_FAILURES / MAX_LOGIN_FAILURES accounts per
 *   window instead of every account it can name. The address is the peer's, or the client's as reported by
 *   trusted reverse proxies (TRUST_PROXY): behind a proxy without TRUST_PROXY every client has the proxy's
 *   address and the block would hit everyone.
 * Wrong client credentials (Basic id:secret) count as failed logins of the address too, and a blocked
 * address gets no token of any grant. Calls per address are also rate limited (lib/rate-limit.ts).
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import { requireUser, type ServerModule } from '../../context.js';
import { recordClientErrors, recordEvent } from '../log/index.js';
import type { DB } from '../../db/index.js';
import { ok, okStatus } from '../../lib/http.js';
import { hashPassword, isLegacyHash, verifyPassword } from '../../lib/password.js';
import { findClient, type ClientRecord } from '../client/index.js';
import { captchaCode, captchaSvg } from './captcha.js';
import { USER_ACTIVE, USER_PENDING } from '../user/status.js';

export const MAX_LOGIN_FAILURES = 5;
export const LOCK_MINUTES = 30;
export const MAX_IP_FAILURES = 20;
export const IP_WINDOW_MINUTES = 30;
const CAPTCHA_MINUTES = 30;

class OAuthError extends Error {
  constructor(
    public status: number,
    public error: string,
    public key: string,
  ) {
    super(key);
  }
}

/** `Authorization: Basic base64(id:secret)` (also `Basic%20…`). */
export function parseBasic(header: string | undefined): { id: string; secret: string } | null {
  if (!header) return null;
  const m = /^Basic(?:\s+|%20)(.+)$/i.exec(header.trim());
  if (!m) return null;
  const decoded = Buffer.from(m[1], 'base64').toString('utf8');
  const i = decoded.indexOf(':');
  if (i <= 0) return null;
  return { id: decoded.slice(0, i), secret: decoded.slice(i + 1) };
}

function param(req: FastifyRequest, ...names: string[]): string | undefined {
  const q = (req.query ?? {}) as Record<string, unknown>;
  const b = req.body && typeof req.body === 'object' ? (req.body as Record<string, unknown>) : {};
  for (const n of names) {
    const v = q[n] ?? b[n];
    if (typeof v === 'string' && v !== '') return v;
  }
  return undefined;
}

function header(req: FastifyRequest, name: string): string | undefined {
  const v = req.headers[name.toLowerCase()];
  return typeof v === 'string' && v !== '' ? v : undefined;
}

type ClientRow = ClientRecord;

async function loadClient(db: DB, req: FastifyRequest): Promise<ClientRow> {
  const basic = parseBasic(req.headers.authorization);
  if (!basic) throw new OAuthError(401, 'invalid_client', 'error.client');
  // blade_client rows (modules/client): the secret is checked against its hash; grant types and validities apply
  const row = await findClient(db, basic.id, basic.secret);
  if (!row) throw new OAuthError(401, 'invalid_client', 'error.client');
  return row;
}

async function checkCaptcha(db: DB, req: FastifyRequest): Promise<void> {
  const key = header(req, 'Captcha-Key') ?? param(req, 'captchaKey', 'key');
  const code = header(req, 'Captcha-Code') ?? param(req, 'captchaCode', 'code');
  if (!key || !code) throw new OAuthError(400, 'invalid_grant', 'error.captcha');
  // Single use: the row is deleted whether or not the code matches.
  const row = await db.deleteFrom('blade_captcha').where('captcha_key', '=', key).returning(['code', sql<boolean>`expires_at > localtimestamp`.as('valid')]).executeTakeFirst();
  if (!row || !row.valid || String(row.code).toLowerCase() !== code.trim().toLowerCase()) throw new OAuthError(400, 'invalid_grant', 'error.captcha');
}

interface UserRow {
  id: string;
  tenant_id: string;
  account: string;
  password: string | null;
  name: string | null;
  real_name: string | null;
  avatar: string | null;
  role_id: string | null;
  dept_id: string | null;
  post_id: string | null;
  status: number | null;
}

const USER_COLUMNS = ['id', 'tenant_id', 'account', 'password', 'name', 'real_name', 'avatar', 'role_id', 'dept_id', 'post_id', 'status'] as const;

const csv = (s: string | null | undefined) => (s ?? '').split(',').map((x) => x.trim()).filter(Boolean);

/**
 * Dept-Id / Role-Id headers (switch mode) narrow the token to one of the user's OWN departments/roles,
 * as BladeX 4.x does; anything else in them is ignored, so a client can never widen its rights.
 */
function switchHeaders(req: FastifyRequest): { deptId?: string; roleId?: string } {
  const h = (name: string) => {
    const v = req.headers[name];
    return typeof v === 'string' && /^\d+$/.test(v.trim()) ? v.trim() : undefined;
  };
  return { deptId: h('dept-id'), roleId: h('role-id') };
}

async function issueTokens(app: FastifyInstance, db: DB, user: UserRow, client: ClientRow, sid: string, narrow: { deptId?: string; roleId?: string } = {}) {
  const ownRoles = csv(user.role_id);
  const roleIds = narrow.roleId && ownRoles.includes(narrow.roleId) ? [narrow.roleId] : ownRoles;
  const ownDepts = csv(user.dept_id);
  const deptId = narrow.deptId && ownDepts.includes(narrow.deptId) ? narrow.deptId : user.dept_id ?? '';
  const roles = roleIds.length
    ? await db.selectFrom('blade_role').select(['id', 'role_alias']).where('id', 'in', roleIds).where('is_deleted', '=', 0).execute()
    : [];
  if (!roles.length) throw new OAuthError(400, 'invalid_grant', 'error.noRole');
  const aliases = roles.map((r) => r.role_alias as string);
  const common = {
    tenant_id: user.tenant_id,
    user_id: String(user.id),
    client_id: client.client_id,
    sid,
  };
  const profile = {
    role_id: roles.map((r) => String(r.id)).join(','),
    dept_id: deptId,
    post_id: user.post_id ?? '',
    oauth_id: '',
    account: user.account,
    user_name: user.account,
    nick_name: user.name ?? '',
    real_name: user.real_name ?? '',
    role_name: aliases.join(','),
    avatar: user.avatar ?? '',
    license: 'powered by bladex',
  };
  const access = await app.ctx.tokens.sign({ ...common, ...profile, token_type: 'access_token', authorities: aliases, scope: ['all'], detail: { type: 'web' } }, client.access_token_validity);
  const refresh = await app.ctx.tokens.sign({ ...common, token_type: 'refresh_token' }, client.refresh_token_validity);
  await app.ctx.tokens.recordSession(sid, String(user.id), user.tenant_id, client.refresh_token_validity);
  return {
    access_token: access.token,
    token_type: 'bearer',
    refresh_token: refresh.token,
    expires_in: client.access_token_validity,
    scope: 'all',
    ...profile,
    tenant_id: user.tenant_id,
    user_id: String(user.id),
    client_id: client.client_id,
    detail: { type: 'web' },
    jti: access.jti,
  };
}

async function recordFailure(db: DB, tenantId: string, account: string): Promise<void> {
  await sql`insert into blade_login_failure (tenant_id, account, fail_count, last_fail_time) values (${tenantId}, ${account}, 1, localtimestamp(0))
    on conflict (tenant_id, account) do update set
      fail_count = case when blade_login_failure.locked_until is not null and blade_login_failure.locked_until <= localtimestamp then 1 else blade_login_failure.fail_count + 1 end,
      locked_until = case when blade_login_failure.locked_until is not null and blade_login_failure.locked_until <= localtimestamp then null else blade_login_failure.locked_until end,
      last_fail_time = localtimestamp(0)`.execute(db);
  await sql`update blade_login_failure set locked_until = localtimestamp(0) + make_interval(mins => ${LOCK_MINUTES})
    where tenant_id = ${tenantId} and account = ${account} and fail_count >= ${MAX_LOGIN_FAILURES} and locked_until is null`.execute(db);
}

async function isLocked(db: DB, tenantId: string, account: string): Promise<boolean> {
  const row = await db
    .selectFrom('blade_login_failure')
    .select(sql<boolean>`locked_until is not null and locked_until > localtimestamp`.as('locked'))
    .where('tenant_id', '=', tenantId)
    .where('account', '=', account)
    .executeTakeFirst();
  return !!row?.locked;
}

/** Removes the captchas past their time (the captchaCleanup job); how many. */
export async function purgeExpiredCaptchas(db: DB): Promise<number> {
  const r = await db.deleteFrom('blade_captcha').where('expires_at', '<', sql<string>`localtimestamp`).executeTakeFirst();
  return Number(r.numDeletedRows ?? 0);
}

/** The login failures of these accounts are forgotten (their lock lifted). */
export async function clearLoginFailures(db: DB, tenantId: string, accounts: string[]): Promise<number> {
  if (!accounts.length) return 0;
  const r = await db.deleteFrom('blade_login_failure').where('tenant_id', '=', tenantId).where('account', 'in', accounts).executeTakeFirst();
  return Number(r.numDeletedRows ?? 0);
}

/** A failed login from `ip`: counted in a window of IP_WINDOW_MINUTES; MAX_IP_FAILURES block the address. */
async function recordIpFailure(db: DB, ip: string): Promise<void> {
  await sql`insert into blade_login_failure_ip (ip, fail_count, first_fail_time, last_fail_time) values (${ip}, 1, localtimestamp(0), localtimestamp(0))
    on conflict (ip) do update set
      fail_count = case when blade_login_failure_ip.first_fail_time <= localtimestamp - make_interval(mins => ${IP_WINDOW_MINUTES})
                         or blade_login_failure_ip.locked_until <= localtimestamp then 1 else blade_login_failure_ip.fail_count + 1 end,
      first_fail_time = case when blade_login_failure_ip.first_fail_time <= localtimestamp - make_interval(mins => ${IP_WINDOW_MINUTES})
                              or blade_login_failure_ip.locked_until <= localtimestamp then localtimestamp(0) else blade_login_failure_ip.first_fail_time end,
      locked_until = case when blade_login_failure_ip.locked_until <= localtimestamp then null else blade_login_failure_ip.locked_until end,
      last_fail_time = localtimestamp(0)`.execute(db);
  await sql`update blade_login_failure_ip set locked_until = localtimestamp(0) + make_interval(mins => ${LOCK_MINUTES})
    where ip = ${ip} and fail_count >= ${MAX_IP_FAILURES} and locked_until is null`.execute(db);
  if (Math.random() < 0.02) {
    await sql`delete from blade_login_failure_ip where last_fail_time < localtimestamp - make_interval(mins => ${Math.max(IP_WINDOW_MINUTES, LOCK_MINUTES) * 2})`.execute(db);
  }
}

async function isIpBlocked(db: DB, ip: string): Promise<boolean> {
  const row = await db
    .selectFrom('blade_login_failure_ip')
    .select(sql<boolean>`locked_until is not null and locked_until > localtimestamp`.as('locked'))
    .where('ip', '=', ip)
    .executeTakeFirst();
  return !!row?.locked;
}

/** The client's address (req.ip honours TRUST_PROXY), at most 64 characters. */
function clientIp(req: FastifyRequest): string {
  return (req.ip || req.socket?.remoteAddress || 'unknown').slice(0, 64);
}

/**
 * The client of the request, with wrong client credentials counted like wrong passwords (issue 14, finding
 * 8): each is a failure of the address, and a blocked address is refused before its credentials are
 * looked at, so a client secret cannot be guessed faster than a password.
 */
async function loadClientThrottled(db: DB, req: FastifyRequest): Promise<ClientRow> {
  const ip = clientIp(req);
  if (await isIpBlocked(db, ip)) throw new OAuthError(400, 'invalid_grant', 'error.ipLocked');
  try {
    return await loadClient(db, req);
  } catch (e) {
    if (e instanceof OAuthError) await recordIpFailure(db, ip);
    throw e;
  }
}

let dummy: Promise<string> | undefined;
/** A hash of nothing anyone can send, verified against when the account does not exist. */
function dummyHash(): Promise<string> {
  dummy ??= hashPassword(randomUUID());
  return dummy;
}

async function passwordGrant(app: FastifyInstance, db: DB, req: FastifyRequest, client: ClientRow, tenantId: string) {
  const account = param(req, 'username', 'account');
  const sent = param(req, 'password');
  // an SM2 ciphertext (SpringBlade clients) becomes the md5 hex the stored hashes expect; md5 hex passes as is
  const password = sent ? await app.ctx.sm2.loginPassword(sent) : undefined;
  const ip = clientIp(req);
  if (await isIpBlocked(db, ip)) throw new OAuthError(400, 'invalid_grant', 'error.ipLocked');
  if (!account || !password) throw new OAuthError(400, 'invalid_grant', 'error.badCredentials');
  const tenant = await db.selectFrom('blade_tenant').select(['tenant_id', sql<boolean>`expire_time is not null and expire_time < localtimestamp`.as('expired')]).where('tenant_id', '=', tenantId).where('is_deleted', '=', 0).executeTakeFirst();
  if (!tenant) throw new OAuthError(400, 'invalid_grant', 'error.tenantNotFound');
  if (await isLocked(db, tenantId, account)) throw new OAuthError(400, 'invalid_grant', 'error.locked');
  const user = (await db.selectFrom('blade_user').select([...USER_COLUMNS]).where('tenant_id', '=', tenantId).where('account', '=', account).where('is_deleted', '=', 0).executeTakeFirst()) as UserRow | undefined;
  // an unknown account costs the same slow hash as a known one: no account enumeration by timing
  if (!user || !(await verifyPassword(password, user.password ?? (await dummyHash())))) {
    await recordIpFailure(db, ip);
    await recordFailure(db, tenantId, account);
    const who = { tenantId, account: account.slice(0, 64) };
    if (await isLocked(db, tenantId, account)) {
      recordEvent(req, 'lockout', `账号 ${account} 连续登录失败，锁定 ${LOCK_MINUTES} 分钟（地址 ${ip}）`, { ...who, level: 'warn' });
      throw new OAuthError(400, 'invalid_grant', 'error.locked');
    }
    recordEvent(req, 'loginFailed', `账号 ${account} 登录失败：${user ? '密码错误' : '账号不存在'}（地址 ${ip}）`, { ...who, level: 'warn' });
    throw new OAuthError(400, 'invalid_grant', 'error.badCredentials');
  }
  if (tenant.expired) throw new OAuthError(400, 'invalid_grant', 'error.tenantExpired');
  if (Number(user.status ?? USER_ACTIVE) === USER_PENDING) throw new OAuthError(400, 'invalid_grant', 'error.userPending');
  if (Number(user.status ?? USER_ACTIVE) !== USER_ACTIVE) throw new OAuthError(400, 'invalid_grant', 'error.userDisabled');
  await clearLoginFailures(db, tenantId, [account]);
  recordEvent(req, 'login', `账号 ${account} 登录（地址 ${ip}）`, { tenantId, account });
  if (isLegacyHash(user.password!)) {
    await db.updateTable('blade_user').set({ password: await hashPassword(password) }).where('id', '=', user.id).execute();
  }
  return issueTokens(app, db, user, client, randomUUID(), switchHeaders(req));
}

async function refreshGrant(app: FastifyInstance, db: DB, req: FastifyRequest, client: ClientRow) {
  const token = param(req, 'refresh_token', 'refreshToken');
  const claims = token ? await app.ctx.tokens.verify(token, 'refresh_token') : null;
  if (!claims || claims.client_id !== client.client_id) throw new OAuthError(400, 'invalid_grant', 'error.tokenExpired');
  // single use: a refresh token seen twice was copied, so its whole session (every token of the family) ends
  if (!(await app.ctx.tokens.consumeRefresh(String(claims.jti), Number(claims.exp)))) {
    await app.ctx.tokens.revoke(claims.sid, Number(client.refresh_token_validity));
    throw new OAuthError(400, 'invalid_grant', 'error.tokenExpired');
  }
  const user = (await db.selectFrom('blade_user').select([...USER_COLUMNS]).where('id', '=', claims.user_id).where('tenant_id', '=', claims.tenant_id).where('is_deleted', '=', 0).executeTakeFirst()) as UserRow | undefined;
  if (!user) throw new OAuthError(400, 'invalid_grant', 'error.tokenExpired');
  return issueTokens(app, db, user, client, claims.sid, switchHeaders(req));
}

/**
 * The SpringBlade reply of a grant (saber-client-contract.md, "Token endpoint"): camelCase, `authority` a
 * string (Saber reads `authority.includes('admin')`), `userId` never empty.
 */
function springBladeToken(t: Awaited<ReturnType<typeof issueTokens>>): Record<string, unknown> {
  return {
    accessToken: t.access_token,
    refreshToken: t.refresh_token,
    tokenType: t.token_type,
    expiresIn: t.expires_in,
    tenantId: t.tenant_id,
    userId: t.user_id,
    account: t.account,
    userName: t.user_name,
    nickName: t.nick_name,
    realName: t.real_name,
    avatar: t.avatar,
    authority: t.role_name,
    roleId: t.role_id,
    deptId: t.dept_id,
    license: t.license,
  };
}

const authModule: ServerModule = {
  name: 'auth',
  migrations: [
    {
      name: 'auth_0001_login_failure_ip',
      up: async (db) => {
        await sql`create table blade_login_failure_ip (ip varchar(64) primary key, fail_count integer not null default 0,
          first_fail_time timestamp(0) not null, last_fail_time timestamp(0) not null, locked_until timestamp(0))`.execute(db);
      },
    },
  ],
  async plugin(app) {
    const oauthFail = (req: FastifyRequest, reply: FastifyReply, e: OAuthError) =>
      reply.code(e.status).send({ error: e.error, error_description: app.ctx.i18n.t(req.lang, e.key), error_code: e.status });

    /** Both dialects' grants: password (or captcha) and refresh_token; throws OAuthError. */
    const grant = async (req: FastifyRequest) => {
      const db = app.ctx.db();
      const client = await loadClientThrottled(db, req);
      const type = param(req, 'grant_type', 'grantType') ?? 'password';
      const allowed = client.authorized_grant_types.split(',').map((s) => s.trim());
      if (!['password', 'captcha', 'refresh_token'].includes(type) || !allowed.includes(type)) throw new OAuthError(400, 'unsupported_grant_type', 'error.grantType');
      if (type === 'refresh_token') return refreshGrant(app, db, req, client);
      const tenantId = header(req, 'Tenant-Id') ?? param(req, 'tenantId', 'tenant_id') ?? '000000';
      if (type === 'captcha' || app.ctx.config.captchaMode === 'on') await checkCaptcha(db, req);
      return passwordGrant(app, db, req, client, tenantId);
    };

    // BladeX: raw OAuth JSON, snake_case
    app.post('/api/blade-auth/oauth/token', async (req, reply) => {
      try {
        return await grant(req);
      } catch (e) {
        if (e instanceof OAuthError) return oauthFail(req, reply, e);
        throw e;
      }
    });

    // SpringBlade (stock Saber): the same grants, an R envelope with camelCase data; a failure is R code ≠ 200 + msg
    app.post('/api/blade-auth/token', async (req, reply) => {
      try {
        return ok(springBladeToken(await grant(req)));
      } catch (e) {
        if (e instanceof OAuthError) return reply.code(e.status).send({ code: e.status, success: false, data: null, msg: app.ctx.i18n.t(req.lang, e.key) });
        throw e;
      }
    });

    const newCaptcha = async () => {
      const db = app.ctx.db();
      const key = randomUUID();
      const code = captchaCode();
      // Expired captchas go with every new one (the route is rate limited, so the table stays small).
      await db.deleteFrom('blade_captcha').where('expires_at', '<', sql<string>`localtimestamp`).execute();
      await db.insertInto('blade_captcha').values({ captcha_key: key, code, expires_at: sql`localtimestamp(0) + make_interval(mins => ${CAPTCHA_MINUTES})` }).execute();
      return { key, image: captchaSvg(code) };
    };
    app.get('/api/blade-auth/oauth/captcha', newCaptcha);
    app.get('/api/blade-auth/captcha', async () => ok(await newCaptcha()));
    app.get('/api/blade-auth/sm2/public-key', async () => ok({ publicKey: (await app.ctx.sm2.keys()).publicKey }));

    const logout = async (req: FastifyRequest) => {
      // The auth hook lets logout through without a token; with one, the whole login session is revoked.
      const user = req.user;
      if (user) {
        const client = await app.ctx.db().selectFrom('blade_client').select('refresh_token_validity').where('client_id', '=', user.clientId).executeTakeFirst();
        await app.ctx.tokens.revoke(user.sid, Number(client?.refresh_token_validity ?? 604800));
        // Saber's logout posts the browser's error log (an array, or {logs: […]}): into the error log as type client
        const b = req.body as unknown;
        const logs = Array.isArray(b) ? b : Array.isArray((b as { logs?: unknown } | undefined)?.logs) ? (b as { logs: unknown[] }).logs : [];
        if (logs.length) recordClientErrors(req, logs);
      }
      return ok({ account: user?.account ?? '' });
    };
    app.get('/api/blade-auth/oauth/logout', logout);
    app.post('/api/blade-auth/oauth/logout', logout);
    app.get('/api/blade-auth/logout', logout);
    app.post('/api/blade-auth/logout', logout);

    app.get('/api/blade-auth/oauth/user-info', async (req) => {
      const user = requireUser(req);
      const row = await app.ctx.db().selectFrom('blade_user').select(['id', 'tenant_id', 'account', 'name', 'real_name', 'avatar', 'email', 'phone', 'role_id', 'dept_id', 'post_id']).where('id', '=', user.userId).executeTakeFirst();
      const permissions = [...(await app.ctx.permissions.codes(user.roleIds))].sort();
      return ok({
        userId: user.userId,
        tenantId: user.tenantId,
        account: user.account,
        userName: user.userName,
        nickName: row?.name ?? '',
        realName: row?.real_name ?? '',
        avatar: row?.avatar ?? '',
        email: row?.email ?? '',
        phone: row?.phone ?? '',
        roleId: user.roleIds.join(','),
        deptId: user.deptIds.join(','),
        postId: user.postIds.join(','),
        roleName: user.roleNames.join(','),
        roles: user.roleNames,
        permissions,
      });
    });

    app.get('/api/blade-auth/oauth/clear-cache', async (req) => {
      requireUser(req);
      app.ctx.permissions.clear();
      app.ctx.access.clear();
      app.ctx.i18n.reload();
      return okStatus();
    });
  },
};

export default authModule;

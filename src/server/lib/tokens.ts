/**
 * JWT access/refresh tokens (HS512, jose). Signing key: JWT_SECRET, or a random key generated on the first
 * start and kept in blade_secret (per install, never a constant).
 *
 * Revocation (logout): both tokens of a login carry the same session id `sid`; logout records the sid in
 * blade_token_revoked. Checking must stay cheap on every request, so each instance keeps the revoked sids in
 * an in-process Set: its own revocations are added at once, and the Set is topped up from the table at most
 * every REFRESH_MS (one indexed query on revoke_time, only rows newer than the last look). Another instance's
 * logout is therefore honoured here within a few seconds. Expired rows are pruned now and then.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { SignJWT, jwtVerify, type JWTPayload } from 'jose';
import { sql } from 'kysely';
import type { DB } from '../db/index.js';

export const REFRESH_MS = 3000;
/** Verified tokens remembered (oldest forgotten first). */
const VERIFIED_MAX = 1000;
/**
 * The longest lifetime a token may claim (a year; clients' validities are hours to weeks). Every token must
 * carry `exp`: a signed token without one would never expire, and one far beyond this bound was not issued
 * by sign() (issue 14, finding 7).
 */
export const MAX_TOKEN_SECONDS = 366 * 24 * 3600;

export interface TokenClaims extends JWTPayload {
  token_type: 'access_token' | 'refresh_token';
  sid: string;
  tenant_id: string;
  user_id: string;
  client_id: string;
  [k: string]: unknown;
}

export class TokenService {
  private keyPromise?: Promise<Uint8Array>;
  private revoked = new Set<string>();
  private lastLook?: string;
  private lastLoadAt = 0;
  private loading?: Promise<void>;
  private verified = new Map<string, TokenClaims>();

  constructor(
    private getDb: () => DB,
    private secret?: string,
  ) {}

  key(): Promise<Uint8Array> {
    this.keyPromise ??= this.loadKey().catch((e) => {
      this.keyPromise = undefined;
      throw e;
    });
    return this.keyPromise;
  }

  private async loadKey(): Promise<Uint8Array> {
    if (this.secret) return new TextEncoder().encode(this.secret);
    const db = this.getDb();
    await db.insertInto('blade_secret').values({ name: 'jwt_hs512', value: randomBytes(64).toString('base64') }).onConflict((oc) => oc.column('name').doNothing()).execute();
    const row = await db.selectFrom('blade_secret').select('value').where('name', '=', 'jwt_hs512').executeTakeFirstOrThrow();
    return Buffer.from(row.value as string, 'base64');
  }

  async sign(claims: Omit<TokenClaims, 'jti' | 'iat' | 'exp' | 'nbf'>, ttlSeconds: number): Promise<{ token: string; jti: string; exp: number }> {
    const jti = randomUUID();
    const now = Math.floor(Date.now() / 1000);
    const exp = now + ttlSeconds;
    const token = await new SignJWT({ ...claims })
      .setProtectedHeader({ alg: 'HS512', typ: 'JWT' })
      .setJti(jti)
      .setIssuedAt(now)
      .setNotBefore(now)
      .setExpirationTime(exp)
      .setIssuer('canteen-admin')
      .sign(await this.key());
    return { token, jti, exp };
  }

  /** Verified, unrevoked claims of a token of the given type, or null. */
  async verify(token: string, type: TokenClaims['token_type']): Promise<TokenClaims | null> {
    const claims = await this.verifySignature(token);
    if (!claims || claims.token_type !== type || typeof claims.sid !== 'string') return null;
    if (await this.isRevoked(claims.sid)) return null;
    return claims;
  }

  /**
   * Signature and claims of a token, remembered for the few tokens in use: the same token arrives with every
   * request of a session, and its HMAC check (WebCrypto, off-thread) was the largest auth cost in a list
   * request's CPU profile. A remembered token is still refused once expired, and revocation is checked on
   * every request by the caller.
   */
  private async verifySignature(token: string): Promise<TokenClaims | null> {
    const hit = this.verified.get(token);
    if (hit) {
      if ((hit.exp as number) * 1000 > Date.now()) return hit;
      this.verified.delete(token);
      return null;
    }
    try {
      const { payload } = await jwtVerify(token, await this.key(), { algorithms: ['HS512'], issuer: 'canteen-admin', requiredClaims: ['exp'] });
      const claims = payload as TokenClaims;
      if (typeof claims.exp !== 'number' || !Number.isFinite(claims.exp) || claims.exp > Date.now() / 1000 + MAX_TOKEN_SECONDS) return null;
      if (this.verified.size >= VERIFIED_MAX) this.verified.delete(this.verified.keys().next().value!);
      this.verified.set(token, claims);
      return claims;
    } catch {
      return null;
    }
  }

  async isRevoked(sid: string): Promise<boolean> {
    if (Date.now() - this.lastLoadAt > REFRESH_MS) {
      this.loading ??= this.loadRevoked().finally(() => (this.loading = undefined));
      await this.loading;
    }
    return this.revoked.has(sid);
  }

  private async loadRevoked(): Promise<void> {
    const db = this.getDb();
    let q = db.selectFrom('blade_token_revoked').select(['jti', sql<string>`to_char(revoke_time, 'YYYY-MM-DD HH24:MI:SS')`.as('t')]).where('expires_at', '>', sql<string>`localtimestamp`);
    if (this.lastLook) q = q.where('revoke_time', '>=', this.lastLook);
    const rows = await q.execute();
    for (const r of rows) {
      this.revoked.add(r.jti as string);
      if (!this.lastLook || (r.t as string) > this.lastLook) this.lastLook = r.t as string;
    }
    this.lastLoadAt = Date.now();
    if (Math.random() < 0.01) await db.deleteFrom('blade_token_revoked').where('expires_at', '<', sql<string>`localtimestamp`).execute();
  }

  /**
   * Refresh tokens are single use (rotation): the first use of a refresh token's jti wins, across instances (the
   * row's primary key). A second use means the token was copied: the caller revokes its whole family (the
   * session). True when this call is the first use.
   */
  async consumeRefresh(jti: string, exp: number): Promise<boolean> {
    const ttl = Math.max(60, Math.ceil(exp - Date.now() / 1000));
    const r = await this.getDb()
      .insertInto('blade_token_revoked')
      .values({ jti: `rt:${jti}`.slice(0, 64), expires_at: sql`localtimestamp(0) + make_interval(secs => ${ttl})` })
      .onConflict((oc) => oc.column('jti').doNothing())
      .executeTakeFirst();
    return Number(r.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  /** Remember a new login session of a user, so that `endUserSessions` can find it. */
  async recordSession(sid: string, userId: string, tenantId: string, ttlSeconds: number): Promise<void> {
    await this.getDb()
      .insertInto('blade_user_session')
      .values({ sid, user_id: userId, tenant_id: tenantId, expires_at: sql`localtimestamp(0) + make_interval(secs => ${ttlSeconds})` })
      .onConflict((oc) => oc.column('sid').doNothing())
      .execute();
  }

  /**
   * End every live session of these users (a password change or reset, a disable, a removal, a re-grant), but
   * `keepSid` (the caller changing its own password stays signed in). Returns how many sessions ended. Inside a
   * write's transaction pass it (`inTransaction`): the revocation then commits, or not, with the write.
   */
  async endUserSessions(userIds: string[], keepSid?: string, inTransaction?: DB): Promise<number> {
    if (!userIds.length) return 0;
    // inside a write's transaction, use it: the embedded database has one connection
    const db = inTransaction ?? this.getDb();
    let q = db.selectFrom('blade_user_session').select(['sid', sql<number>`ceil(extract(epoch from expires_at - localtimestamp))`.as('ttl')])
      .where('user_id', 'in', userIds).where('expires_at', '>', sql<string>`localtimestamp`);
    if (keepSid) q = q.where('sid', '<>', keepSid);
    const rows = await q.execute();
    for (const r of rows) await this.revoke(r.sid as string, Math.max(60, Number(r.ttl)), db);
    await db.deleteFrom('blade_user_session').where('expires_at', '<', sql<string>`localtimestamp`).execute();
    return rows.length;
  }

  /** Revoke a login session (both its tokens) until `ttlSeconds` from now. */
  async revoke(sid: string, ttlSeconds: number, db: DB = this.getDb()): Promise<void> {
    this.revoked.add(sid);
    await db
      .insertInto('blade_token_revoked')
      .values({ jti: sid, expires_at: sql`localtimestamp(0) + make_interval(secs => ${ttlSeconds})` })
      .onConflict((oc) => oc.column('jti').doNothing())
      .execute();
  }
}

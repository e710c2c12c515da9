/**
 * Clients (`/api/blade-system/client/`, blade_client): the generic CRUD of the `client` document, whose
 * clientSecret is write-only and stored hashed (x-password: scrypt, never read back; an edit without a secret
 * keeps the stored one), and `findClient`, the lookup the token endpoint authenticates a client with: its
 * grant types and token validities come from the row. A secret written before hashing (plain text) is hashed
 * by this module's migration.
 */
import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { requireUser, type ScreenHooks, type ServerModule } from '../../context.js';
import type { DB } from '../../db/index.js';
import type { Migration } from '../../db/migrate.js';
import { HttpError } from '../../lib/http.js';
import { hashPassword, verifyPassword } from '../../lib/password.js';

export interface ClientRecord {
  client_id: string;
  authorized_grant_types: string;
  access_token_validity: number;
  refresh_token_validity: number;
}

const HASHED = /^scrypt\$/;

/**
 * Secrets already verified against a stored hash, by sha256(clientId, stored hash, secret): the token endpoint
 * is called at every login and refresh and scrypt is deliberately slow. Keyed by the stored hash, so a changed
 * secret is verified afresh; bounded.
 */
const verified = new Set<string>();
const VERIFIED_MAX = 1000;

async function secretMatches(clientId: string, secret: string, stored: string): Promise<boolean> {
  if (!HASHED.test(stored)) return false;
  const key = createHash('sha256').update(`${clientId}\u0000${stored}\u0000${secret}`).digest('hex');
  if (verified.has(key)) return true;
  if (!(await verifyPassword(secret, stored))) return false;
  if (verified.size >= VERIFIED_MAX) verified.delete(verified.values().next().value!);
  verified.add(key);
  return true;
}

/** The live client with this id whose secret matches, or undefined. */
export async function findClient(db: DB, clientId: string, secret: string): Promise<ClientRecord | undefined> {
  const row = await db
    .selectFrom('blade_client')
    .select(['client_id', 'client_secret', 'authorized_grant_types', 'access_token_validity', 'refresh_token_validity'])
    .where('client_id', '=', clientId)
    .where('is_deleted', '=', 0)
    .executeTakeFirst();
  if (!row || !(await secretMatches(clientId, secret, String(row.client_secret)))) return undefined;
  return {
    client_id: String(row.client_id),
    authorized_grant_types: String(row.authorized_grant_types ?? ''),
    access_token_validity: Number(row.access_token_validity),
    refresh_token_validity: Number(row.refresh_token_validity),
  };
}

/** The stored form of a client secret. */
export const hashClientSecret = (secret: string) => hashPassword(secret);

const clientHooks: ScreenHooks = {
  beforeSave({ mode, values, req }) {
    const empty = values.clientSecret === undefined || values.clientSecret === null || values.clientSecret === '';
    // write-only: an edit that leaves the secret empty keeps the stored one; a new client needs one (so the
    // document cannot mark it required: the edit dialog shows it empty)
    if (empty && mode === 'edit') delete values.clientSecret;
    if (empty && mode === 'add') {
      const message = req.server.ctx.i18n.t(req.lang, 'system.client.msg.clientSecret');
      throw new HttpError(400, 'error.validation', {}, [{ field: 'clientSecret', message }], message);
    }
  },
  async beforeRemove({ ids, req, db }) {
    const user = requireUser(req);
    const own = await db.selectFrom('blade_client').select('id').where('id', 'in', ids).where('client_id', '=', user.clientId).where('is_deleted', '=', 0).executeTakeFirst();
    if (own) throw new HttpError(400, 'system.client.msg.selfRemove');
  },
};

const migrations: Migration[] = [
  {
    // secrets stored in plain text before this module (the seeded saber/saber_secret) are hashed in place
    name: 'client_0001_hash_secrets',
    async up(db) {
      const rows = await sql<{ id: string; client_secret: string }>`select id, client_secret from blade_client`.execute(db);
      for (const r of rows.rows) {
        if (HASHED.test(r.client_secret)) continue;
        await sql`update blade_client set client_secret = ${await hashPassword(r.client_secret)} where id = ${r.id}`.execute(db);
      }
      await sql`create unique index if not exists blade_client_client_id_uq on blade_client (client_id) where is_deleted = 0`.execute(db);
    },
  },
];

const clientModule: ServerModule = {
  name: 'client',
  migrations,
  screenHooks: { client: clientHooks },
  async plugin(app) {
  },
};

export default clientModule;

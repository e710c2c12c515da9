/**
 * Object-storage configurations (BladeX blade-resource/oss; the screen document schemas/resource/oss.json, generic
 * CRUD, the secret key `x-secret`: sealed at rest, never read back). This module adds what the document cannot say:
 *   - an S3 configuration needs its secret key when it is added (or turned from local into S3);
 *   - POST /api/blade-resource/oss/enable?id (oss_enable; one in use per tenant) first checks that the bucket
 *     answers with these credentials;
 * and its service, the stores the resource module writes uploads to and reads them from (activeStore, storeOf).
 * (The resource module, owner of the attachments, refuses removing a configuration that still holds some.)
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ScreenHooks, ServerModule } from '../../context.js';
import { CONFIG_DISABLED, CONFIG_ENABLED, enableOneHandler } from '../../crud/enable-one.js';
import { HttpError } from '../../lib/http.js';
import { openSecret } from '../../lib/secret-box.js';
import { LocalStore, OSS_LOCAL, S3Store, S3_CATEGORIES, StoreUnreachable, type ObjectStore } from './stores.js';

type OssRow = Record<string, unknown>;

function fieldError(req: FastifyRequest, field: string, key: string, params?: Record<string, unknown>): HttpError {
  const message = req.server.ctx.i18n.t(req.lang, key, params);
  return new HttpError(400, 'error.validation', {}, [{ field, message }], message);
}

const ossHooks: ScreenHooks = {
  async beforeSave({ mode, values, existing, req }) {
    if (mode === 'add') values.status = CONFIG_DISABLED;
    const category = Number(values.category ?? existing?.category);
    const hasSecret = typeof values.secretKey === 'string' ? values.secretKey !== '' : !!existing?.secretKey && S3_CATEGORIES.includes(Number(existing?.category));
    if (S3_CATEGORIES.includes(category) && !hasSecret) throw fieldError(req, 'secretKey', 'oss.msg.secretKey');
  },
};

/** Stores built from a configuration, rebuilt when what they are built from changes (an edit within the same second too). */
const built = new Map<string, { stamp: string; store: S3Store }>();

function s3StoreOf(app: FastifyInstance, row: OssRow): S3Store {
  const id = String(row.id);
  const stamp = JSON.stringify([row.category, row.endpoint, row.access_key, row.secret_key, row.bucket_name, row.region, row.app_id]);
  const hit = built.get(id);
  if (hit && hit.stamp === stamp) return hit.store;
  hit?.store.destroy();
  const store = new S3Store({
    id, category: Number(row.category), endpoint: String(row.endpoint ?? ''), accessKey: String(row.access_key ?? ''),
    secretKey: openSecret(app, row.secret_key), bucketName: String(row.bucket_name ?? ''), region: row.region as string | null, appId: row.app_id as string | null,
  });
  built.set(id, { stamp, store });
  return store;
}

/** The store of a configuration row (local for category 5). */
function storeOfRow(app: FastifyInstance, row: OssRow | undefined): ObjectStore {
  if (!row || Number(row.category) === OSS_LOCAL || !S3_CATEGORIES.includes(Number(row.category))) return new LocalStore(app.ctx.config.dataDir);
  return s3StoreOf(app, row);
}

/** Where the tenant's uploads go now: its enabled configuration, else the server's disk. */
export async function activeStore(app: FastifyInstance, tenantId: string): Promise<ObjectStore> {
  const row = await app.ctx.db().selectFrom('blade_oss').selectAll().where('tenant_id', '=', tenantId).where('status', '=', CONFIG_ENABLED).where('is_deleted', '=', 0).executeTakeFirst();
  return storeOfRow(app, row);
}

/** The store holding an attachment (its oss_id; none = the server's disk). */
export async function storeOf(app: FastifyInstance, ossId: unknown): Promise<ObjectStore> {
  if (ossId === null || ossId === undefined || ossId === '') return new LocalStore(app.ctx.config.dataDir);
  const row = await app.ctx.db().selectFrom('blade_oss').selectAll().where('id', '=', String(ossId)).executeTakeFirst();
  if (!row) throw new StoreUnreachable('configuration removed');
  return storeOfRow(app, row);
}

const ossModule: ServerModule = {
  name: 'oss',
  screenHooks: { oss: ossHooks },
  async plugin(app) {
    app.post(
      '/api/blade-resource/oss/enable',
      enableOneHandler(app, {
        table: 'blade_oss',
        permission: 'oss_enable',
        notFound: 'oss.msg.notFound',
        async check(row) {
          try {
            await storeOfRow(app, row).check();
          } catch (e) {
            if (e instanceof StoreUnreachable) throw new HttpError(400, 'oss.msg.unreachable', { reason: e.message });
            throw e;
          }
        },
      }),
    );
  },
};

export default ossModule;

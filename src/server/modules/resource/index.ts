/**
 * blade-resource uploads, serving them back, and the attachments screen.
 *
 * Uploads (put-file, put-file-attach, and the attachments screen's own upload) are checked by upload-rules.ts, then
 * written to the tenant's active store (stores.ts, oss.ts: an enabled S3 configuration, else the server's disk
 * under DATA_DIR/upload/yyyyMMdd/<random>.<ext>) and recorded in blade_attach with the store that holds them.
 *
 * Serving. Files are read back WITHOUT a token: they are shown by <img src> / <a href> (banners, logos,
 * avatars, contracts), which cannot send the Blade-Auth header. They are capability links instead: names are
 * 128 random bits (unguessable, never listed except in the records that reference them), only the sniffed
 * types are served, with their own content type, nosniff and a CSP that forbids any active content. A link is
 * served while its attachment is not removed, from whichever store holds it (no bucket needs to be public).
 *
 * References. The generic submit of any document with `upload` fields only stores a link that this server
 * handed out for the caller's tenant and whose attachment is not deleted (beforeSave hooks added at start):
 * a client cannot point a banner at an arbitrary URL or at another tenant's file. An attachment that a record
 * still shows cannot be removed; a removed one takes its stored object with it.
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import type { ScreenDocument } from '../../../shared/document.js';
import { allProperties, fieldUi, formatBytes, toSnake } from '../../../shared/fields.js';
import { FILE_ROUTE_PREFIX } from '../../app.js';
import { requireAnyPermission, requirePermission, requireUser, type AuthUser, type ScreenHooks, type ServerModule } from '../../context.js';
import { HttpError, fail, notFound, ok } from '../../lib/http.js';
import { isId, newId } from '../../lib/ids.js';
import { requestParams } from '../../lib/params.js';
import { localDateTime, localDay } from '../../lib/time.js';
import { recordServerError } from '../log/index.js';
import { activeStore, storeOf } from '../oss/index.js';
import { ObjectMissing, StoreUnreachable, type ObjectStore } from '../oss/stores.js';
import { MIME_BY_EXT, accepts, limitsFor, normalizeMime, sniff, type Endpoint } from './upload-rules.js';

export { DEFAULT_LIMITS, limitsFor, sniff, type UploadRule } from './upload-rules.js';

/** The attachments screen's own upload: its action form's `file` field. */
const ATTACH_UPLOAD = { screen: 'attach', field: 'file' };

/**
 * Who may upload: a field of a screen (`?screen=&field=`) takes files from a caller who may write that screen
 * (its add or edit code, or the code of an action whose form has the field); without a screen, `put-file` is the
 * caller's own avatar (personal info) and `put-file-attach` needs the attachments screen's upload button (attach_upload).
 */
async function requireUploadRight(app: FastifyInstance, req: FastifyRequest, endpoint: Endpoint): Promise<AuthUser> {
  const user = requireUser(req);
  const q = (req.query ?? {}) as Record<string, unknown>;
  const doc = typeof q.screen === 'string' && q.screen ? app.ctx.docs.byId.get(q.screen) : undefined;
  if (!doc && endpoint === 'put-file') return user;
  const field = typeof q.field === 'string' ? q.field : '';
  const allowed = doc
    ? [`${doc.resource.permissionPrefix}_add`, `${doc.resource.permissionPrefix}_edit`, ...(doc.list.actions ?? []).filter((a) => a.form?.uiSchema?.[field]).map((a) => a.permission)]
    : ['attach_upload'];
  return requireAnyPermission(app, req, allowed);
}

/** The store's failure as the caller sees it: a missing object 404, an unreachable store 502 naming why. */
function storeError(e: unknown): never {
  if (e instanceof ObjectMissing) throw new HttpError(404, 'error.notFound');
  if (e instanceof StoreUnreachable) throw new HttpError(502, 'error.storageUnreachable', { reason: e.message });
  throw e;
}

async function upload(app: FastifyInstance, req: FastifyRequest, user: AuthUser, endpoint: Endpoint, named?: { screen: string; field: string }) {
  if (!req.isMultipart()) throw fail('error.uploadMissing');
  const rules = limitsFor(app, req, endpoint, named);
  const streamMax = Math.max(...rules.map((r) => r.maxSize));
  let file: Awaited<ReturnType<FastifyRequest['file']>>;
  let buf: Buffer;
  try {
    file = await req.file({ limits: { fileSize: streamMax, files: 1 } });
    if (!file || file.fieldname !== 'file') throw fail('error.uploadMissing');
    buf = await file.toBuffer();
  } catch (e) {
    if (e instanceof HttpError) throw e;
    if ((e as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw fail('error.uploadSize', { size: formatBytes(streamMax) });
    // A body cut short (or otherwise malformed multipart) is the client's problem: nothing was stored yet.
    throw fail('error.uploadBroken');
  }
  // PostgreSQL text cannot hold NUL, and no control character belongs in a file name: refused before the
  // file is written, so no orphan file is left behind.
  if (/[\u0000-\u001f\u007f]/.test(file.filename ?? '')) throw fail('error.uploadName');
  if (file.file.truncated || buf.length > streamMax) throw fail('error.uploadSize', { size: formatBytes(streamMax) });
  if (buf.length === 0) throw fail('error.uploadMissing');
  const type = sniff(buf);
  const rule = type ? rules.find((r) => accepts(r.accept, type.mime)) : undefined;
  if (!type || normalizeMime(file.mimetype) !== type.mime || !rule) throw fail('error.uploadType');
  if (buf.length > rule.maxSize) throw fail('error.uploadSize', { size: formatBytes(rule.maxSize) });

  const day = localDay(app.ctx.config.appTimezone);
  const fileName = `${randomBytes(16).toString('hex')}.${type.ext}`;
  const name = `upload/${day}/${fileName}`;
  const store = await activeStore(app, user.tenantId);
  await store.put(name, buf, type.mime).catch(storeError);
  const link = `${FILE_ROUTE_PREFIX}${day}/${fileName}`;
  const host = req.headers['x-forwarded-host'] ?? req.headers.host ?? '';
  const domain = host ? `${req.protocol}://${host}` : '';
  const originalName = path.basename(file.filename || fileName).slice(0, 200);
  const attachId = newId();
  const now = localDateTime(app.ctx.config.appTimezone);
  await recordOrRemove(store, name, () => app.ctx
    .db()
    .insertInto('blade_attach')
    .values({
      id: attachId, tenant_id: user.tenantId, link, domain, name, original_name: originalName, extension: type.ext, attach_size: buf.length, oss_id: store.ossId ?? null,
      create_user: user.userId, create_dept: user.deptIds[0] ?? null, create_time: now, update_user: user.userId, update_time: now, status: 1, is_deleted: 0,
    })
    .execute());
  return ok({ link, domain, name, originalName, attachId });
}

/** The object's record is written, or the object is removed again (no object without its blade_attach row). */
async function recordOrRemove(store: ObjectStore, name: string, write: () => Promise<unknown>): Promise<void> {
  try {
    await write();
  } catch (e) {
    await store.remove(name).catch(() => undefined);
    throw e;
  }
}

/** Fields of a document drawn with the `upload` widget (they store a link returned by an upload). */
export function uploadFields(doc: ScreenDocument): string[] {
  return Object.keys(allProperties(doc.schema)).filter((f) => fieldUi(doc, f)['ui:widget'] === 'upload');
}

/** The path of one of our file links (`/api/blade-resource/oss/file/…`, also with scheme and host), else undefined. */
export function fileLinkPath(value: string): string | undefined {
  let p = value.trim();
  const abs = /^https?:\/\/[^/]+(\/.*)$/i.exec(p);
  if (abs) p = abs[1];
  p = p.split(/[?#]/)[0];
  return /^\/api\/blade-resource\/oss\/file\/\d{8}\/[0-9a-f]{32}\.[a-z]{3,4}$/.test(p) ? p : undefined;
}

/** beforeSave: a new or changed upload value must be a link of an attachment of the caller's tenant. */
function attachmentHook(fields: string[]): ScreenHooks {
  return {
    async beforeSave({ values, existing, req, db }) {
      const user = requireUser(req);
      for (const f of fields) {
        const v = values[f];
        if (v === undefined || v === null || v === '' || (existing && existing[f] === v)) continue;
        const link = typeof v === 'string' ? fileLinkPath(v) : undefined;
        const found = link
          ? await db.selectFrom('blade_attach').select('id').where('link', '=', link).where('tenant_id', '=', user.tenantId).where('is_deleted', '=', 0).executeTakeFirst()
          : undefined;
        if (!found) {
          const msg = req.server.ctx.i18n.t(req.lang, 'error.uploadUnknown');
          throw new HttpError(400, 'error.uploadUnknown', {}, [{ field: f, message: msg }], msg);
        }
        values[f] = link;
      }
    },
  };
}

/**
 * The attachments screen's removal: refused while a record of the tenant still shows the file (a banner's image, a
 * merchant's contract), naming the screen; once removed, the stored object goes too (after the commit, so a failed
 * removal keeps both; an object the store cannot delete is recorded in the error log, the record stays removed).
 */
function attachRemoveHooks(app: FastifyInstance): ScreenHooks {
  return {
    async beforeRemove({ ids, req, db }) {
      const user = requireUser(req);
      const links = (await db.selectFrom('blade_attach').select('link').where('id', 'in', ids).where('tenant_id', '=', user.tenantId).execute()).map((r) => String(r.link));
      if (!links.length) return;
      for (const doc of app.ctx.docs.all) {
        for (const f of uploadFields(doc)) {
          let q = db.selectFrom(doc.resource.table).select(sql<string>`${sql.ref(toSnake(f))}`.as('link')).where(sql.ref(toSnake(f)), 'in', links);
          if (doc.resource.tenantScoped !== false) q = q.where('tenant_id', '=', user.tenantId);
          if (doc.resource.softDelete !== false) q = q.where('is_deleted', '=', 0);
          const used = await q.executeTakeFirst();
          if (used) throw new HttpError(400, 'attach.msg.inUse', { screen: app.ctx.i18n.t(req.lang, doc.title) });
        }
      }
    },
    async afterRemove({ ids, req, db }) {
      const user = requireUser(req);
      const rows = await db.selectFrom('blade_attach').select(['name', 'oss_id']).where('id', 'in', ids).where('tenant_id', '=', user.tenantId).where('is_deleted', '=', 1).execute();
      for (const row of rows) {
        try {
          await (await storeOf(app, row.oss_id)).remove(String(row.name));
        } catch (e) {
          recordServerError(app, req, e as Error);
        }
      }
    },
  };
}

/** An object-storage configuration still holding attachments cannot be removed (their links would break). */
const storesHoldingAttachments: ScreenHooks = {
  async beforeRemove({ ids, db }) {
    const used = await db.selectFrom('blade_attach').select(['oss_id', (eb) => eb.fn.countAll<string>().as('n')])
      .where('oss_id', 'in', ids).where('is_deleted', '=', 0).groupBy('oss_id').executeTakeFirst();
    if (used) throw new HttpError(400, 'oss.msg.inUse', { count: Number(used.n) });
  },
};

/** Streams an attachment's object with the headers every served file gets. */
function sendObject(reply: FastifyReply, body: Readable, ext: string, download?: string) {
  reply.header('X-Content-Type-Options', 'nosniff');
  reply.header('Content-Security-Policy', "default-src 'none'");
  if (download !== undefined) {
    reply.header('Cache-Control', 'private, no-store');
    const ascii = download.replace(/[^\x20-\x7e]|["\\]/g, '_');
    reply.header('Content-Disposition', `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(download)}`);
  } else reply.header('Cache-Control', 'public, max-age=31536000, immutable');
  return reply.type(MIME_BY_EXT[ext] ?? 'application/octet-stream').send(body);
}

const resourceModule: ServerModule = {
  name: 'resource',
  migrations: [
    {
      // which store holds each attachment (none: the server's disk), and the link lookup of file serving
      name: 'resource_0001_attach_store',
      up: async (db) => {
        await sql`alter table blade_attach add column oss_id bigint`.execute(db);
        await sql`create index blade_attach_link on blade_attach (link)`.execute(db);
      },
    },
  ],
  screenHooks: { oss: storesHoldingAttachments },
  async plugin(app) {
    app.post('/api/blade-resource/oss/endpoint/put-file', async (req) => upload(app, req, await requireUploadRight(app, req, 'put-file'), 'put-file'));
    app.post('/api/blade-resource/oss/endpoint/put-file-attach', async (req) => upload(app, req, await requireUploadRight(app, req, 'put-file-attach'), 'put-file-attach'));
    app.post('/api/blade-resource/attach/upload', async (req) => upload(app, req, await requirePermission(app, req, 'attach_upload'), 'put-file-attach', ATTACH_UPLOAD));
    // Every document with upload fields: its generic submit stores only links of this tenant's attachments.
    for (const doc of app.ctx.docs.all) {
      const fields = uploadFields(doc);
      if (!fields.length) continue;
      app.ctx.hooks.set(doc.id, [...(app.ctx.hooks.get(doc.id) ?? []), attachmentHook(fields)]);
    }
    app.ctx.hooks.set('attach', [...(app.ctx.hooks.get('attach') ?? []), attachRemoveHooks(app)]);

    app.get(`${FILE_ROUTE_PREFIX}:day/:file`, async (req, reply) => {
      const { day, file } = req.params as { day: string; file: string };
      const m = /^[0-9a-f]{32}\.([a-z]{3,4})$/.exec(file);
      if (!/^\d{8}$/.test(day) || !m || !MIME_BY_EXT[m[1]]) throw notFound('error.notFound');
      const row = await app.ctx.db().selectFrom('blade_attach').select(['name', 'oss_id']).where('link', '=', `${FILE_ROUTE_PREFIX}${day}/${file}`).where('is_deleted', '=', 0).executeTakeFirst();
      if (!row) throw new HttpError(404, 'error.notFound');
      const body = await (await storeOf(app, row.oss_id)).read(String(row.name)).catch(storeError);
      return sendObject(reply, body, m[1]);
    });

    app.get('/api/blade-resource/attach/download', async (req, reply) => {
      const user = await requirePermission(app, req, 'attach_download');
      const id = String(requestParams(req).id ?? '');
      if (!isId(id)) throw new HttpError(400, 'error.paramMissing', { name: 'id' });
      const row = await app.ctx.db().selectFrom('blade_attach').select(['name', 'oss_id', 'original_name', 'extension'])
        .where('id', '=', id).where('tenant_id', '=', user.tenantId).where('is_deleted', '=', 0).executeTakeFirst();
      if (!row) throw new HttpError(404, 'error.recordNotFound');
      const body = await (await storeOf(app, row.oss_id)).read(String(row.name)).catch(storeError);
      return sendObject(reply, body, String(row.extension), String(row.original_name || path.basename(String(row.name))));
    });
  },
};

export default resourceModule;

/**
 * blade-resource uploads (local storage under DATA_DIR/upload/yyyyMMdd/<random>.<ext>) and serving them back.
 *
 * Limits. The type is taken from the content (magic bytes) and must agree with the declared MIME. The limits
 * come from the screen document's field when the client names it (`?screen=<id>&field=<field>`, as the web
 * runtime's upload widget does: ui:options accept/maxSize of the field, or of an action form's field). Without
 * a known document field the strictest sensible default applies, by sniffed type (DEFAULT_LIMITS):
 *   put-file         png/jpeg ≤ 500 KB  (the spec's avatar endpoint: the personal-info page sends no field)
 *   put-file-attach  png/jpeg ≤ 1024 KB, pdf ≤ 10 MB
 * and every other type is refused.
 *
 * Serving. Files are read back WITHOUT a token: they are shown by <img src> / <a href> (banners, logos,
 * avatars, contracts), which cannot send the Blade-Auth header. They are capability links instead: names are
 * 128 random bits (unguessable, never listed except in the records that reference them), only the sniffed
 * types are served, with their own content type, nosniff and a CSP that forbids any active content.
 *
 * References. The generic submit of any document with `upload` fields only stores a link that this server
 * handed out for the caller's tenant and whose attachment is not deleted (beforeSave hooks added at start):
 * a client cannot point a banner at an arbitrary URL or at another tenant's file.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ScreenDocument } from '../../../shared/document.js';
import { allProperties, fieldUi } from '../../../shared/fields.js';
import { FILE_ROUTE_PREFIX } from '../../app.js';
import { requireUser, type AuthUser, type ScreenHooks, type ServerModule } from '../../context.js';
import { HttpError, fail, forbidden, notFound, ok } from '../../lib/http.js';
import { newId } from '../../lib/ids.js';
import { localDateTime, localDay } from '../../lib/time.js';

/** A set of accepted types with their size limit in bytes. */
export interface UploadRule {
  accept: string[];
  maxSize: number;
}

type Endpoint = 'put-file' | 'put-file-attach';

const KB = 1024;
const MB = 1024 * 1024;
/** Limits when the request names no document field (see the header). */
export const DEFAULT_LIMITS: Record<Endpoint, UploadRule[]> = {
  'put-file': [{ accept: ['image/png', 'image/jpeg'], maxSize: 500 * KB }],
  'put-file-attach': [
    { accept: ['image/png', 'image/jpeg'], maxSize: 1024 * KB },
    { accept: ['application/pdf'], maxSize: 10 * MB },
  ],
};
/** Upper bound whatever a document declares. */
const HARD_MAX = 100 * MB;

const TYPES: Array<{ mime: string; ext: string; test: (b: Buffer) => boolean }> = [
  { mime: 'image/png', ext: 'png', test: (b) => b.length >= 8 && b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) },
  { mime: 'image/jpeg', ext: 'jpg', test: (b) => b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
  { mime: 'application/pdf', ext: 'pdf', test: (b) => b.subarray(0, 5).toString('latin1') === '%PDF-' },
  { mime: 'image/gif', ext: 'gif', test: (b) => /^GIF8[79]a/.test(b.subarray(0, 6).toString('latin1')) },
  { mime: 'image/webp', ext: 'webp', test: (b) => b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP' },
];
const MIME_BY_EXT = Object.fromEntries(TYPES.map((t) => [t.ext, t.mime]));

export function sniff(buf: Buffer): { mime: string; ext: string } | undefined {
  return TYPES.find((t) => t.test(buf));
}

function normalizeMime(m: string): string {
  const s = m.toLowerCase().split(';')[0].trim();
  return s === 'image/jpg' || s === 'image/pjpeg' ? 'image/jpeg' : s;
}

function accepts(accept: string[], mime: string): boolean {
  return accept.some((a) => {
    const x = normalizeMime(a);
    return x === mime || (x.endsWith('/*') && mime.startsWith(x.slice(0, -1)));
  });
}

/** ui:options of an upload/file field of the document, or of a field of one of its action forms. */
function uploadOptions(doc: ScreenDocument, field: string): { accept?: string[]; maxSize?: number } | undefined {
  const candidates = [fieldUi(doc, field), ...(doc.list.actions ?? []).map((a) => a.form?.uiSchema?.[field])];
  for (const ui of candidates) {
    if (!ui || Array.isArray(ui) || typeof ui !== 'object') continue;
    const opts = (ui as { 'ui:options'?: { accept?: string[]; maxSize?: number } })['ui:options'];
    if (opts && (opts.accept?.length || opts.maxSize)) return opts;
  }
  return undefined;
}

/** The rules of this request: the named document field's, else the endpoint's strict default. */
export function limitsFor(app: FastifyInstance, req: FastifyRequest, endpoint: Endpoint): UploadRule[] {
  const q = (req.query ?? {}) as Record<string, unknown>;
  if (typeof q.screen === 'string' && q.screen && typeof q.field === 'string' && q.field) {
    const doc = app.ctx.docs.byId.get(q.screen);
    const opts = doc ? uploadOptions(doc, q.field) : undefined;
    if (opts) {
      const fallback = DEFAULT_LIMITS[endpoint];
      if (!opts.accept?.length) return fallback.map((r) => ({ ...r, maxSize: Math.min(r.maxSize, opts.maxSize ?? r.maxSize) }));
      // A declared type without a declared size gets the default size of that type (or the smallest default).
      const size = opts.maxSize ?? Math.min(...fallback.filter((r) => opts.accept!.some((a) => accepts(r.accept, normalizeMime(a)))).map((r) => r.maxSize), ...fallback.map((r) => r.maxSize));
      return [{ accept: opts.accept, maxSize: Math.min(size, HARD_MAX) }];
    }
  }
  return DEFAULT_LIMITS[endpoint];
}

function humanSize(n: number): string {
  return n >= 1024 * 1024 ? `${Math.round((n / 1024 / 1024) * 10) / 10}MB` : `${Math.round(n / 1024)}KB`;
}

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
  const codes = await app.ctx.permissions.codes(user.roleIds);
  const field = typeof q.field === 'string' ? q.field : '';
  const allowed = doc
    ? [`${doc.resource.permissionPrefix}_add`, `${doc.resource.permissionPrefix}_edit`, ...(doc.list.actions ?? []).filter((a) => a.form?.uiSchema?.[field]).map((a) => a.permission)]
    : ['attach_upload'];
  if (!allowed.some((c) => codes.has(c))) throw forbidden();
  return user;
}

async function upload(app: FastifyInstance, req: FastifyRequest, endpoint: Endpoint) {
  const user = await requireUploadRight(app, req, endpoint);
  if (!req.isMultipart()) throw fail('error.uploadMissing');
  const rules = limitsFor(app, req, endpoint);
  const streamMax = Math.max(...rules.map((r) => r.maxSize));
  let file: Awaited<ReturnType<FastifyRequest['file']>>;
  let buf: Buffer;
  try {
    file = await req.file({ limits: { fileSize: streamMax, files: 1 } });
    if (!file || file.fieldname !== 'file') throw fail('error.uploadMissing');
    buf = await file.toBuffer();
  } catch (e) {
    if (e instanceof HttpError) throw e;
    if ((e as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw fail('error.uploadSize', { size: humanSize(streamMax) });
    // A body cut short (or otherwise malformed multipart) is the client's problem: nothing was stored yet.
    throw fail('error.uploadBroken');
  }
  // PostgreSQL text cannot hold NUL, and no control character belongs in a file name: refused before the
  // file is written, so no orphan file is left behind.
  if (/[\u0000-\u001f\u007f]/.test(file.filename ?? '')) throw fail('error.uploadName');
  if (file.file.truncated || buf.length > streamMax) throw fail('error.uploadSize', { size: humanSize(streamMax) });
  if (buf.length === 0) throw fail('error.uploadMissing');
  const type = sniff(buf);
  const rule = type ? rules.find((r) => accepts(r.accept, type.mime)) : undefined;
  if (!type || normalizeMime(file.mimetype) !== type.mime || !rule) throw fail('error.uploadType');
  if (buf.length > rule.maxSize) throw fail('error.uploadSize', { size: humanSize(rule.maxSize) });

  const day = localDay(app.ctx.config.appTimezone);
  const dir = path.join(app.ctx.config.dataDir, 'upload', day);
  await fs.promises.mkdir(dir, { recursive: true });
  const fileName = `${randomBytes(16).toString('hex')}.${type.ext}`;
  await fs.promises.writeFile(path.join(dir, fileName), buf, { flag: 'wx' });
  const name = `upload/${day}/${fileName}`;
  const link = `${FILE_ROUTE_PREFIX}${day}/${fileName}`;
  const host = req.headers['x-forwarded-host'] ?? req.headers.host ?? '';
  const domain = host ? `${req.protocol}://${host}` : '';
  const originalName = path.basename(file.filename || fileName).slice(0, 200);
  const attachId = newId();
  const now = localDateTime(app.ctx.config.appTimezone);
  await recordOrRemove(path.join(dir, fileName), () => app.ctx
    .db()
    .insertInto('blade_attach')
    .values({
      id: attachId, tenant_id: user.tenantId, link, domain, name, original_name: originalName, extension: type.ext, attach_size: buf.length,
      create_user: user.userId, create_dept: user.deptIds[0] ?? null, create_time: now, update_user: user.userId, update_time: now, status: 1, is_deleted: 0,
    })
    .execute());
  return ok({ link, domain, name, originalName, attachId });
}

/** The file's record is written, or the file is removed again (no file without its blade_attach row). */
async function recordOrRemove(file: string, write: () => Promise<unknown>): Promise<void> {
  try {
    await write();
  } catch (e) {
    await fs.promises.rm(file, { force: true });
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

const resourceModule: ServerModule = {
  name: 'resource',
  async plugin(app) {
    app.post('/api/blade-resource/oss/endpoint/put-file', (req) => upload(app, req, 'put-file'));
    app.post('/api/blade-resource/oss/endpoint/put-file-attach', (req) => upload(app, req, 'put-file-attach'));
    // Every document with upload fields: its generic submit stores only links of this tenant's attachments.
    for (const doc of app.ctx.docs.all) {
      const fields = uploadFields(doc);
      if (!fields.length) continue;
      app.ctx.hooks.set(doc.id, [...(app.ctx.hooks.get(doc.id) ?? []), attachmentHook(fields)]);
    }
    app.get(`${FILE_ROUTE_PREFIX}:day/:file`, async (req, reply) => {
      const { day, file } = req.params as { day: string; file: string };
      const m = /^[0-9a-f]{32}\.([a-z]{3,4})$/.exec(file);
      if (!/^\d{8}$/.test(day) || !m || !MIME_BY_EXT[m[1]]) throw notFound('error.notFound');
      const full = path.join(app.ctx.config.dataDir, 'upload', day, file);
      try {
        await fs.promises.access(full);
      } catch {
        throw new HttpError(404, 'error.notFound');
      }
      reply.header('X-Content-Type-Options', 'nosniff');
      reply.header('Cache-Control', 'public, max-age=31536000, immutable');
      reply.header('Content-Security-Policy', "default-src 'none'");
      return reply.type(MIME_BY_EXT[m[1]]).send(fs.createReadStream(full));
    });
  },
};

export default resourceModule;

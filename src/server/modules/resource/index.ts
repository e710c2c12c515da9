/**
 * blade-resource uploads (local storage under DATA_DIR/upload/yyyyMMdd/<random>.<ext>) and serving them back.
 * Type is checked by magic bytes AND declared MIME; limits come from the screen document's field
 * (`?screen=<id>&field=<field>` → ui:options accept/maxSize), else png/jpeg/pdf ≤ 10 MB. File names are 128
 * random bits, so links are unguessable and can be served without a token (they are used in <img>).
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { fieldUi } from '../../../shared/fields.js';
import { FILE_ROUTE_PREFIX } from '../../app.js';
import { requireUser, type ServerModule } from '../../context.js';
import { HttpError, fail, notFound, ok } from '../../lib/http.js';
import { newId } from '../../lib/ids.js';
import { localDateTime, localDay } from '../../lib/time.js';

export const DEFAULT_ACCEPT = ['image/png', 'image/jpeg', 'application/pdf'];
export const DEFAULT_MAX_SIZE = 10 * 1024 * 1024;

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

function limitsFor(app: FastifyInstance, req: FastifyRequest): { accept: string[]; maxSize: number } {
  const q = (req.query ?? {}) as Record<string, unknown>;
  if (typeof q.screen === 'string' && typeof q.field === 'string') {
    const doc = app.ctx.docs.byId.get(q.screen);
    const opts = doc ? fieldUi(doc, q.field)['ui:options'] : undefined;
    if (opts && (opts.accept || opts.maxSize)) {
      return { accept: opts.accept?.length ? opts.accept : DEFAULT_ACCEPT, maxSize: Math.min(opts.maxSize ?? DEFAULT_MAX_SIZE, 100 * 1024 * 1024) };
    }
  }
  return { accept: DEFAULT_ACCEPT, maxSize: DEFAULT_MAX_SIZE };
}

function humanSize(n: number): string {
  return n >= 1024 * 1024 ? `${Math.round((n / 1024 / 1024) * 10) / 10}MB` : `${Math.round(n / 1024)}KB`;
}

async function upload(app: FastifyInstance, req: FastifyRequest) {
  const user = requireUser(req);
  if (!req.isMultipart()) throw fail('error.uploadMissing');
  const { accept, maxSize } = limitsFor(app, req);
  const file = await req.file({ limits: { fileSize: maxSize, files: 1 } });
  if (!file || file.fieldname !== 'file') throw fail('error.uploadMissing');
  let buf: Buffer;
  try {
    buf = await file.toBuffer();
  } catch (e) {
    if ((e as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw fail('error.uploadSize', { size: humanSize(maxSize) });
    throw e;
  }
  if (file.file.truncated || buf.length > maxSize) throw fail('error.uploadSize', { size: humanSize(maxSize) });
  if (buf.length === 0) throw fail('error.uploadMissing');
  const type = sniff(buf);
  if (!type || normalizeMime(file.mimetype) !== type.mime || !accepts(accept, type.mime)) throw fail('error.uploadType');

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
  await app.ctx
    .db()
    .insertInto('blade_attach')
    .values({
      id: attachId, tenant_id: user.tenantId, link, domain, name, original_name: originalName, extension: type.ext, attach_size: buf.length,
      create_user: user.userId, create_dept: user.deptIds[0] ?? null, create_time: now, update_user: user.userId, update_time: now, status: 1, is_deleted: 0,
    })
    .execute();
  return ok({ link, domain, name, originalName, attachId });
}

const resourceModule: ServerModule = {
  name: 'resource',
  async plugin(app) {
    app.post('/api/blade-resource/oss/endpoint/put-file', (req) => upload(app, req));
    app.post('/api/blade-resource/oss/endpoint/put-file-attach', (req) => upload(app, req));
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

/**
 * What an upload may be: the type is taken from the content (magic bytes) and must agree with the declared MIME;
 * the limits come from the screen document's field when the client names it (`?screen=<id>&field=<field>`, as the
 * web runtime's upload widget does: ui:options accept/maxSize of the field, or of an action form's field). Without
 * a known document field the strictest sensible default applies, by sniffed type (DEFAULT_LIMITS):
 *   put-file         png/jpeg ≤ 500 KB  (the spec's avatar endpoint: the personal-info page sends no field)
 *   put-file-attach  png/jpeg ≤ 1024 KB, pdf ≤ 10 MB
 * and every other type is refused.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ScreenDocument } from '../../../shared/document.js';
import { fieldUi } from '../../../shared/fields.js';

/** A set of accepted types with their size limit in bytes. */
export interface UploadRule {
  accept: string[];
  maxSize: number;
}

export type Endpoint = 'put-file' | 'put-file-attach';

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
export const MIME_BY_EXT = Object.fromEntries(TYPES.map((t) => [t.ext, t.mime]));

export function sniff(buf: Buffer): { mime: string; ext: string } | undefined {
  return TYPES.find((t) => t.test(buf));
}

export function normalizeMime(m: string): string {
  const s = m.toLowerCase().split(';')[0].trim();
  return s === 'image/jpg' || s === 'image/pjpeg' ? 'image/jpeg' : s;
}

export function accepts(accept: string[], mime: string): boolean {
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
export function limitsFor(app: FastifyInstance, req: FastifyRequest, endpoint: Endpoint, named?: { screen: string; field: string }): UploadRule[] {
  const q = (req.query ?? {}) as Record<string, unknown>;
  const screen = named?.screen ?? q.screen;
  const field = named?.field ?? q.field;
  if (typeof screen === 'string' && screen && typeof field === 'string' && field) {
    const doc = app.ctx.docs.byId.get(screen);
    const opts = doc ? uploadOptions(doc, field) : undefined;
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

/**
 * Request parameters as BladeX clients send them: in the query string (`@RequestParam`) or in a JSON/form body,
 * the query string winning. One reader for every module: plain values, trimmed text, ids (a bad id is a clear
 * 400/404, never a 500 from the database) and comma-joined lists ("1,2,3" or an array). Paging is the document's
 * rule (crud pageParams: its pageSizes, at most 200), also for lists a module pages itself.
 */
import type { FastifyRequest } from 'fastify';
import { BusinessError } from './errors.js';

/** A password as the web app sends it (login, password change, registration): md5, 32 hex digits. */
export const MD5_HEX = /^[0-9a-f]{32}$/i;

/** An id as BladeX writes them: 1–19 digits. */
export const ID = /^[0-9]{1,19}$/;

/** The body's fields (a JSON or form object); a buffer, array or text body has none. */
export function bodyParams(req: FastifyRequest): Record<string, unknown> {
  const b = req.body;
  return b && typeof b === 'object' && !Array.isArray(b) && !Buffer.isBuffer(b) ? (b as Record<string, unknown>) : {};
}

/** Every parameter: the body's fields overlaid with the query string's. */
export function requestParams(req: FastifyRequest): Record<string, unknown> {
  return { ...bodyParams(req), ...((req.query ?? {}) as Record<string, unknown>) };
}

/** The first of `names` that is present (not undefined/null), from the query string, else the body. */
export function param(req: FastifyRequest, ...names: string[]): unknown {
  const q = (req.query ?? {}) as Record<string, unknown>;
  const b = bodyParams(req);
  for (const n of names) {
    const v = q[n] ?? b[n];
    if (v !== undefined && v !== null) return v;
  }
  return undefined;
}

/** A value as trimmed text ('' when absent). */
export function text(v: unknown): string {
  return typeof v === 'string' ? v.trim() : v == null ? '' : String(v);
}

/** Text cut to `max` characters, undefined unless a string was sent (free-text remarks). */
export function optionalText(v: unknown, max: number): string | undefined {
  return typeof v === 'string' ? v.slice(0, max) : undefined;
}

/** A required id: 400 error.paramMissing when absent, 404 when it cannot name a record (not 1–19 digits). */
export function idParam(req: FastifyRequest, name = 'id'): string {
  const v = param(req, name);
  const s = typeof v === 'string' || typeof v === 'number' ? String(v).trim() : '';
  if (!s) throw new BusinessError('error.paramMissing', { name });
  if (!ID.test(s)) throw new BusinessError('error.recordNotFound', {}, 404);
  return s;
}

/** A list sent as "a,b,c" or as an array: trimmed, empty entries dropped; undefined when nothing was sent. */
export function listParam(v: unknown): string[] | undefined {
  if (v === undefined || v === null || v === '') return undefined;
  return (Array.isArray(v) ? v : String(v).split(',')).map((x) => String(x).trim()).filter(Boolean);
}

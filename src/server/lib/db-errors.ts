/**
 * Database errors that are not the server's fault, mapped to the R envelope by the app's error handler:
 * - SQLSTATE class 22 (data exception: a value out of range, malformed, untranslatable) → 400: the input
 *   guards and the document's schema catch the known cases first (NUL, year 0, ids, pages); this is the net
 *   for the rest (e.g. a number too large for its column). The statement failed, so its transaction wrote
 *   nothing.
 * - the database unreachable (issue 14, finding 1) → 503: a connection that could not be opened, was
 *   terminated (SQLSTATE 57P01–57P03, class 08), ran out (53300), or a statement cancelled by its timeout
 *   (57014). The pool replaces dead connections by itself, so the next request may well succeed. A write
 *   whose connection died before COMMIT was rolled back by the database.
 */
import { CONNECT_FAILED } from '../db/index.js';
import { HttpError } from './http.js';

export function sqlState(err: unknown): string | undefined {
  const code = (err as { code?: unknown })?.code;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) ? code : undefined;
}

const UNAVAILABLE_STATES = new Set(['57P01', '57P02', '57P03', '57014', '53300']);
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);
const NETWORK_MESSAGES = /Connection terminated|connection error and is not queryable|timeout exceeded when trying to connect|Query read timeout|Client was closed and is not queryable/i;

export function isDatabaseUnavailable(err: unknown): boolean {
  if (!err || typeof err !== 'object') return false;
  if ((err as Record<symbol, unknown>)[CONNECT_FAILED]) return true;
  const state = sqlState(err);
  if (state && (UNAVAILABLE_STATES.has(state) || state.startsWith('08'))) return true;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string' && NETWORK_CODES.has(code)) return true;
  return NETWORK_MESSAGES.test(String((err as { message?: unknown }).message ?? ''));
}

export function mapDatabaseError(err: unknown): HttpError | undefined {
  if (err instanceof HttpError) return undefined;
  const state = sqlState(err);
  if (state?.startsWith('22')) return new HttpError(400, 'error.badValue');
  if (isDatabaseUnavailable(err)) return new HttpError(503, 'error.dbUnavailable');
  return undefined;
}

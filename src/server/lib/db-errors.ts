/**
 * Database errors that are not the server's fault, mapped to the R envelope by the app's error handler:
 * - SQLSTATE class 22 (data exception: a value out of range, malformed, untranslatable) → 400: the input
 *   guards and the document's schema catch the known cases first (NUL, year 0, ids, pages); this is the net
 *   for the rest (e.g. a number too large for its column). The statement failed, so its transaction wrote
 *   nothing.
 */
import { HttpError } from './http.js';

export function sqlState(err: unknown): string | undefined {
  const code = (err as { code?: unknown })?.code;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) ? code : undefined;
}

export function mapDatabaseError(err: unknown): HttpError | undefined {
  const state = sqlState(err);
  if (state?.startsWith('22')) return new HttpError(400, 'error.badValue');
  return undefined;
}

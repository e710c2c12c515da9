/**
 * BusinessError: a refusal by a business rule — an i18n key (locales/*.json), its parameters and the HTTP
 * status (400 unless said). The app's error handler answers HTTP <status> + R with the text in the request
 * language; `message` carries the zh text for logs and for callers outside a request (scripts, tests).
 */
import type { FastifyRequest } from 'fastify';
import { HttpError } from './http.js';
import { translate } from './i18n.js';

export class BusinessError extends HttpError {
  constructor(key: string, params: Record<string, unknown> = {}, status = 400) {
    super(status, key, params, null);
    this.message = translate(key, params);
    this.name = 'BusinessError';
  }
}

/** A 400 whose text the spec gives in both languages (written in the handler, not a locale key). */
export function badRequestText(req: FastifyRequest, zh: string, en: string): HttpError {
  return new HttpError(400, 'error.badRequest', {}, null, req.lang === 'en' ? en : zh);
}

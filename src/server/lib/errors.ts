/**
 * BusinessError: a refusal by a business rule — an i18n key (locales/*.json), its parameters and the HTTP
 * status (400 unless said). The app's error handler answers HTTP <status> + R with the text in the request
 * language; `message` carries the zh text for logs and for callers outside a request (scripts, tests).
 */
import { HttpError } from './http.js';
import { translate } from './i18n.js';

export class BusinessError extends HttpError {
  constructor(key: string, params: Record<string, unknown> = {}, status = 400) {
    super(status, key, params, null);
    this.message = translate(key, params);
    this.name = 'BusinessError';
  }
}

/**
 * Security headers on every reply (issue 14, finding 2), set in onSend so that a route which chose its own
 * (the uploaded-file route's `default-src 'none'` and long cache) keeps them.
 *
 * CSP of the web app: scripts only from our own origin — Vite's build emits `<script type="module" src>` and
 * chunk files, no inline script. 'unsafe-eval' is allowed because the dialogs validate with ajv (rjsf's
 * validator-ajv8), which compiles each form schema to a function with `new Function`; the form schemas come from
 * the screen documents at run time, so they cannot be precompiled at build time (without it no validation message
 * ever shows and an empty required form submits nothing: seen in the browser journeys). Eval only runs code this
 * origin's own scripts build; an injected inline <script> or event-handler attribute is still refused. Styles need 'unsafe-inline': antd (cssinjs) and
 * @rjsf/antd insert <style> elements and style attributes at run time, and React renders `style={…}` props as
 * attributes; a nonce would not cover style attributes, and hashes cannot cover generated CSS. Inline styles
 * cannot run code, so the script policy (the one that stops XSS) stays strict. Images: our own files plus
 * data: (favicon, captcha SVG, antd icons) and blob: (previews). Framing is refused both ways
 * (frame-ancestors + X-Frame-Options for old browsers).
 *
 * /api/ replies carry personal or money data nearly everywhere (tokens, users, cards, ledgers), so all of
 * them are `Cache-Control: no-store` unless the route set its own caching (uploaded files).
 */
import type { FastifyInstance } from 'fastify';

export const APP_CSP = [
  "default-src 'self'",
  "script-src 'self' 'unsafe-eval'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

export function registerSecurityHeaders(app: FastifyInstance): void {
  app.addHook('onSend', async (req, reply, payload) => {
    const set = (name: string, value: string) => {
      if (!reply.hasHeader(name)) reply.header(name, value);
    };
    set('Content-Security-Policy', APP_CSP);
    set('X-Frame-Options', 'DENY');
    set('X-Content-Type-Options', 'nosniff');
    // no-referrer: download links may carry ?blade-auth=<token>, which must never leak in a Referer.
    set('Referrer-Policy', 'no-referrer');
    set('Cross-Origin-Opener-Policy', 'same-origin');
    if (req.url.startsWith('/api/')) set('Cache-Control', 'no-store');
    return payload;
  });
}

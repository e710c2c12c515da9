/**
 * Values no route can store, refused before any handler runs (issue 14, finding 4): the database would
 * raise on them mid-write and the client would get a 500. One preValidation hook looks at the query, the
 * route parameters and the parsed body (JSON or form), at any depth, and answers 400 with the field's name:
 * - a NUL character in any string or key (PostgreSQL text cannot hold U+0000);
 * - a date or date-time of year 0000 (PostgreSQL's calendar starts at year 1; the format check only looks
 *   at the shape and the day of the month);
 * - an id (`id`, `ids`, `…Id`, `…Ids`, `…_id`) beyond the bigint range, or a number id that is not an integer;
 * - a page number or page size (`current`, `size`) beyond PAGE_MAX: the offset would overflow;
 * - an object key naming an Object.prototype member (toString, valueOf, __proto__, …).
 * Bodies are walked iteratively, so a deeply nested body cannot exhaust the stack.
 */
import type { FastifyInstance } from 'fastify';
import { HttpError } from './http.js';

export const PAGE_MAX = 10_000_000;
const BIGINT_MAX = 9223372036854775807n;
const ID_KEY = /^(ids?|.*Ids?|.*_ids?)$/;
const YEAR_ZERO = /^0000-\d\d-\d\d/;
/**
 * Keys that name Object.prototype members: `{"toString": "x"}` makes String(value) throw in any handler that
 * turns a value into text, and __proto__/constructor are the prototype-pollution vectors. No field is so named.
 */
const RESERVED_KEYS = new Set(['__proto__', 'constructor', 'prototype', 'toString', 'valueOf', 'toJSON', 'hasOwnProperty', 'isPrototypeOf', 'toLocaleString']);

function badId(value: unknown): boolean {
  if (typeof value === 'number') return !Number.isSafeInteger(value);
  if (typeof value !== 'string') return false;
  return value.split(',').some((part) => {
    const s = part.trim();
    return /^\d{19,}$/.test(s) && BigInt(s) > BIGINT_MAX;
  });
}

function badPage(value: unknown): boolean {
  if (typeof value !== 'string' && typeof value !== 'number') return false;
  const s = String(value).trim();
  if (!/^[+-]?(\d|\.\d)/.test(s)) return false; // not a number at all: the route's own default applies
  const n = Number(s);
  return !Number.isFinite(n) || Math.abs(n) > PAGE_MAX;
}

/** The first problem in `input`, as [message key, field], or undefined. */
export function findBadValue(input: unknown, checkPage: boolean): [string, string] | undefined {
  const stack: Array<[unknown, string, string | undefined]> = [[input, '', undefined]];
  while (stack.length) {
    const [v, field, key] = stack.pop()!;
    if (typeof v === 'string') {
      if (v.includes('\u0000')) return ['error.nulByte', field];
      if (YEAR_ZERO.test(v)) return ['error.dateRange', field];
    }
    if (key !== undefined && ID_KEY.test(key) && (badId(v) || (Array.isArray(v) && v.some(badId)))) return ['error.idRange', field];
    if (checkPage && field === key && (key === 'current' || key === 'size') && badPage(v)) return ['error.pageRange', field];
    if (v && typeof v === 'object') {
      for (const [k, child] of Object.entries(v as Record<string, unknown>)) {
        if (k.includes('\u0000')) return ['error.nulByte', field || k.replace(/\u0000/g, '\\0')];
        if (RESERVED_KEYS.has(k)) return ['error.reservedKey', field || k];
        stack.push([child, field || k, Array.isArray(v) ? key : k]);
      }
    }
  }
  return undefined;
}

export function registerInputGuards(app: FastifyInstance): void {
  app.addHook('preValidation', async (req) => {
    const bad = findBadValue(req.query, true) ?? findBadValue(req.params, false) ?? findBadValue(req.body, false);
    if (bad) throw new HttpError(400, bad[0], { field: bad[1] });
  });
}

/**
 * Snowflake-style bigint ids (like BladeX's ASSIGN_ID): 41 bits of milliseconds since 2020-01-01, 10 bits of
 * worker (random per process), 12 bits of sequence. Always handled as decimal strings in JS and on the wire.
 */
import { randomInt } from 'node:crypto';

const EPOCH = 1577836800000n;
const worker = BigInt(randomInt(0, 1024));
let lastMs = 0n;
let seq = 0n;

export function newId(): string {
  let ms = BigInt(Date.now()) - EPOCH;
  if (ms < lastMs) ms = lastMs;
  if (ms === lastMs) {
    seq = (seq + 1n) & 4095n;
    if (seq === 0n) ms = lastMs + 1n;
  } else {
    seq = 0n;
  }
  lastMs = ms;
  return ((ms << 22n) | (worker << 12n) | seq).toString();
}

export const ID_PATTERN = /^[1-9][0-9]{0,18}$/;

/** A positive decimal id that fits PostgreSQL's bigint (19 digits may exceed 2^63-1). */
export function isId(v: unknown): v is string {
  return typeof v === 'string' && ID_PATTERN.test(v) && (v.length < 19 || BigInt(v) <= 9223372036854775807n);
}

/**
 * Money on the wire: a string or a number, at most 2 decimals, strictly positive, at most 10 integer digits.
 * It is validated as TEXT and handed to SQL as text cast to numeric: JS never adds money.
 * A number like 0.1 + 0.2 (0.30000000000000004) is refused rather than rounded.
 */
import { BusinessError } from '../../lib/errors.js';

const AMOUNT = /^(0|[1-9][0-9]{0,9})(\.[0-9]{1,2})?$/;

export function parseAmount(v: unknown, max?: string): string {
  let s: string;
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) throw new BusinessError('ledger.msg.amountInvalid');
    s = String(v);
  } else if (typeof v === 'string') s = v.trim();
  else throw new BusinessError('ledger.msg.amountInvalid');
  if (!AMOUNT.test(s) || /^0(\.0{1,2})?$/.test(s)) throw new BusinessError('ledger.msg.amountInvalid');
  if (max !== undefined && compareDecimal(s, max) > 0) throw new BusinessError('employee.msg.amountMax');
  return s;
}

/** A valid amount (parseAmount's output, at most 2 decimals) written with exactly 2 decimals: "50" → "50.00". */
export function money2(s: string): string {
  const [i, f = ''] = s.split('.');
  return `${i}.${f.padEnd(2, '0')}`;
}

/** Compare two non-negative decimal strings exactly (no float). */
function compareDecimal(a: string, b: string): number {
  const [ai, af = ''] = a.split('.');
  const [bi, bf = ''] = b.split('.');
  const l = Math.max(af.length, bf.length);
  const x = BigInt(ai + af.padEnd(l, '0'));
  const y = BigInt(bi + bf.padEnd(l, '0'));
  return x === y ? 0 : x > y ? 1 : -1;
}

/** Upper bound of a single movement (recharge, payment, refund). */
export const MAX_AMOUNT = '100000';

/**
 * Passwords at rest: scrypt over what the client sends (the md5 hex of the password for logins, the plain
 * text for screen fields such as a merchant's login password). Format `scrypt$<N>$<salt b64>$<hash b64>`.
 * Legacy BladeX rows hold 40-hex sha1(md5): accepted, and upgraded by the caller on a successful login.
 */
import { createHash, randomBytes, scrypt as scryptCb, timingSafeEqual } from 'node:crypto';

const N = 16384;
const KEYLEN = 32;

function scrypt(secret: string, salt: Buffer, n: number): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scryptCb(secret, salt, KEYLEN, { N: n, r: 8, p: 1, maxmem: 64 * 1024 * 1024 }, (err, key) => (err ? reject(err) : resolve(key))),
  );
}

export async function hashPassword(secret: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(secret, salt, N);
  return `scrypt$${N}$${salt.toString('base64')}$${key.toString('base64')}`;
}

export function isLegacyHash(stored: string): boolean {
  return /^[0-9a-f]{40}$/i.test(stored);
}

export async function verifyPassword(secret: string, stored: string | null | undefined): Promise<boolean> {
  if (!stored) return false;
  if (isLegacyHash(stored)) {
    const h = createHash('sha1').update(secret).digest('hex');
    return timingSafeEqual(Buffer.from(h), Buffer.from(stored.toLowerCase()));
  }
  const m = /^scrypt\$(\d+)\$([^$]+)\$([^$]+)$/.exec(stored);
  if (!m) return false;
  const expected = Buffer.from(m[3], 'base64');
  const key = await scrypt(secret, Buffer.from(m[2], 'base64'), Number(m[1]));
  return key.length === expected.length && timingSafeEqual(key, expected);
}

export function md5Hex(s: string): string {
  return createHash('md5').update(s).digest('hex');
}

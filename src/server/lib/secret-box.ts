/**
 * Secrets at rest (fields with `x-secret`: the SMS and object-storage secret keys). They must be readable again —
 * the server signs requests to the provider with them — so they are encrypted, not hashed: AES-256-GCM with a
 * random 96-bit IV, stored as `enc:v1:<base64 iv‖tag‖ciphertext>`.
 *
 * The key lives outside the database, so a dump or a backup of the database alone reveals no secret:
 * `CONFIG_SECRET_KEY` (64 hex; the setting for several instances on one PostgreSQL, which must share it), else a key
 * generated on first use in `DATA_DIR/keys/config-secret.key` (mode 0600). A value written before encryption
 * existed (no prefix) is read as it is and sealed at the next start (sealStoredSecrets).
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { HttpError } from './http.js';

const PREFIX = 'enc:v1:';
const KEY_HEX = /^[0-9a-f]{64}$/i;

/** A sealed value that this server's key cannot open (another install's key, or a damaged value). */
export class SecretUnreadable extends Error {
  constructor() {
    super('secret cannot be decrypted with this server key (CONFIG_SECRET_KEY)');
  }
}

export class SecretBox {
  private key?: Buffer;

  constructor(
    private dataDir: string,
    private configured?: string,
  ) {
    if (configured && !KEY_HEX.test(configured)) throw new Error('CONFIG_SECRET_KEY must be 64 hex characters');
  }

  static isSealed(value: string): boolean {
    return value.startsWith(PREFIX);
  }

  seal(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.secretKey(), iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return PREFIX + Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64');
  }

  /** The plain secret; a value without the prefix is a legacy plain value. */
  open(stored: string): string {
    if (!SecretBox.isSealed(stored)) return stored;
    const raw = Buffer.from(stored.slice(PREFIX.length), 'base64');
    if (raw.length < 28) throw new SecretUnreadable();
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.secretKey(), raw.subarray(0, 12));
      decipher.setAuthTag(raw.subarray(12, 28));
      return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
    } catch {
      throw new SecretUnreadable();
    }
  }

  private secretKey(): Buffer {
    if (this.key) return this.key;
    if (this.configured) return (this.key = Buffer.from(this.configured, 'hex'));
    const file = path.join(this.dataDir, 'keys', 'config-secret.key');
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    try {
      // 'wx': two processes starting together keep the first key written
      fs.writeFileSync(file, randomBytes(32).toString('hex'), { flag: 'wx', mode: 0o600 });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    const hex = fs.readFileSync(file, 'utf8').trim();
    if (!KEY_HEX.test(hex)) throw new Error(`${file}: not a 64-hex key`);
    return (this.key = Buffer.from(hex, 'hex'));
  }
}

/** A stored x-secret as the module needs it ('' when none); one this server cannot open is a clear 400, not a 500. */
export function openSecret(app: FastifyInstance, stored: unknown): string {
  if (typeof stored !== 'string' || !stored) return '';
  try {
    return app.ctx.secrets.open(stored);
  } catch (e) {
    if (e instanceof SecretUnreadable) throw new HttpError(400, 'error.secretUnreadable');
    throw e;
  }
}

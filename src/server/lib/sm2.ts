/**
 * SM2 sign-in passwords (the open-source SpringBlade dialect, shared/research/saber-client-contract.md): Saber
 * sends `sm2.doEncrypt(password, publicKey, 0)` — C1‖C2‖C3 lowercase hex, C1 without its leading 04. The private
 * key is `SM2_PRIVATE_KEY` (64 hex), or a key pair generated on the first start and kept in blade_secret (per
 * install, never a constant); its public key is served at GET /api/blade-auth/sm2/public-key for the client build.
 */
import { sm2 } from 'sm-crypto';
import type { DB } from '../db/index.js';
import { md5Hex } from './password.js';

export interface Sm2KeyPair {
  privateKey: string;
  publicKey: string;
}

const PRIVATE_HEX = /^[0-9a-f]{64}$/i;

/** sm-crypto has it; its typings (@types/sm-crypto) do not. */
function publicKeyOf(privateKey: string): string {
  return (sm2 as unknown as { getPublicKeyFromPrivateKey(k: string): string }).getPublicKeyFromPrivateKey(privateKey);
}

export class Sm2Keys {
  private pair?: Promise<Sm2KeyPair>;

  constructor(
    private getDb: () => DB,
    private configured?: string,
  ) {
    if (configured && !PRIVATE_HEX.test(configured)) throw new Error('SM2_PRIVATE_KEY must be 64 hex characters');
  }

  keys(): Promise<Sm2KeyPair> {
    this.pair ??= this.load().catch((e) => {
      this.pair = undefined;
      throw e;
    });
    return this.pair;
  }

  private async load(): Promise<Sm2KeyPair> {
    if (this.configured) return { privateKey: this.configured.toLowerCase(), publicKey: publicKeyOf(this.configured.toLowerCase()) };
    const db = this.getDb();
    const fresh = sm2.generateKeyPairHex();
    await db.insertInto('blade_secret').values({ name: 'sm2_private', value: fresh.privateKey }).onConflict((oc) => oc.column('name').doNothing()).execute();
    const row = await db.selectFrom('blade_secret').select('value').where('name', '=', 'sm2_private').executeTakeFirstOrThrow();
    const privateKey = String(row.value);
    return { privateKey, publicKey: publicKeyOf(privateKey) };
  }

  /**
   * The password as the stored hashes expect it (md5 hex of the typed password): an SM2 ciphertext is decrypted
   * and hashed; anything else (BladeX clients send md5 hex) is taken as it is. A ciphertext that does not
   * decrypt gives '' (refused like a wrong password).
   */
  async loginPassword(sent: string): Promise<string> {
    if (!isSm2Cipher(sent)) return sent;
    let plain = '';
    try {
      plain = sm2.doDecrypt(sent.toLowerCase(), (await this.keys()).privateKey, 0);
    } catch {
      plain = '';
    }
    return plain ? md5Hex(plain) : '';
  }
}

/** C1 (128 hex) + C3 (64 hex) + at least one byte of C2: what doEncrypt mode 0 writes. */
export function isSm2Cipher(s: string): boolean {
  return s.length >= 194 && s.length % 2 === 0 && /^[0-9a-f]+$/i.test(s);
}

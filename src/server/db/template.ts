/**
 * The empty cluster every new embedded database starts from (issue 13: first start ≤ 10 s and ≤ 400 MB).
 * PGlite makes a new data folder by running initdb in WebAssembly: a second PostgreSQL instance plus initdb's
 * own, ≈ 6 s and ≈ 780 MB at its peak. What initdb writes is the same for every install of one PGlite version,
 * so `npm run db:template` runs it once and the repository keeps the result (a brotli-compressed tar, ≈ 1.3 MB);
 * a first start unpacks it into the new data folder (`unpackTemplate`, no PostgreSQL instance needed). The file is named by the PGlite version: after an upgrade
 * without a new template the server falls back to initdb, and tests/api/pgdata-template.test.ts fails until
 * `npm run db:template` is run.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import zlib from 'node:zlib';
import { PRODUCT_ROOT } from '../lib/productRoot.js';

export const TEMPLATE_DIR = path.join(PRODUCT_ROOT, 'src/server/db/pgdata-template');

/** The installed PGlite's version (its package.json is not exported, so it is found beside its entry file). */
export function pgliteVersion(): string {
  const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  for (let dir = path.dirname(entry); dir !== path.dirname(dir); dir = path.dirname(dir)) {
    const pkg = path.join(dir, 'package.json');
    if (fs.existsSync(pkg)) {
      const { name, version } = JSON.parse(fs.readFileSync(pkg, 'utf8'));
      if (name === '@electric-sql/pglite') return version;
    }
  }
  throw new Error('@electric-sql/pglite package.json not found');
}

/** Where the template of the installed PGlite version is (whether or not it exists). */
export function templatePath(): string {
  return path.join(TEMPLATE_DIR, `pglite-${pgliteVersion()}.tar.br`);
}

/** The template as PGlite's `loadDataDir` takes it (an uncompressed tar), or undefined when there is none. */
export function emptyCluster(file: string = templatePath()): Blob | undefined {
  if (!fs.existsSync(file)) return undefined;
  return new Blob([zlib.brotliDecompressSync(fs.readFileSync(file))]);
}

/** Compresses a data-folder tar for the repository: brotli at its best (initdb's files are mostly zeros). */
export function compressTemplate(tar: Uint8Array): Buffer {
  return zlib.brotliCompressSync(tar, {
    params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_LGWIN]: 24, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: tar.byteLength },
  });
}

/**
 * Writes the template's files into `dir` (which must not exist yet). The tar is the one PGlite's dumpDataDir
 * writes: ustar headers, directories and regular files, names rooted at "/" (the data folder).
 */
export function unpackTemplate(file: string, dir: string): void {
  const tar = zlib.brotliDecompressSync(fs.readFileSync(file));
  fs.mkdirSync(dir, { mode: 0o700 });
  const field = (at: number, len: number) => tar.toString('latin1', at, at + len).replace(/\0.*$/s, '');
  for (let at = 0; at + 512 <= tar.length; ) {
    const name = field(at + 345, 155) ? `${field(at + 345, 155)}/${field(at, 100)}` : field(at, 100);
    if (!name) break; // the two zero blocks that end the archive
    const size = parseInt(field(at + 124, 12).trim() || '0', 8);
    const mode = parseInt(field(at + 100, 8).trim() || '600', 8) & 0o777;
    const type = field(at + 156, 1) || '0';
    // Normalised as an absolute path first, so no name ("../x") can reach outside the data folder.
    const target = path.join(dir, path.normalize(`/${name}`));
    if (type === '5') fs.mkdirSync(target, { recursive: true, mode: 0o700 });
    else if (type === '0') {
      fs.mkdirSync(path.dirname(target), { recursive: true, mode: 0o700 });
      fs.writeFileSync(target, tar.subarray(at + 512, at + 512 + size), { mode });
    } else throw new Error(`template entry of an unexpected type ${JSON.stringify(type)}: ${name}`);
    at += 512 + Math.ceil(size / 512) * 512;
  }
  if (!fs.existsSync(path.join(dir, 'PG_VERSION'))) throw new Error(`${file} holds no PG_VERSION`);
}

/**
 * `npm run db:template`: runs PGlite's initdb once and writes the empty cluster every new embedded database starts
 * from (src/server/db/template.ts) to src/server/db/pgdata-template/pglite-<version>.tar.br, removing the
 * templates of other PGlite versions. Run it after upgrading @electric-sql/pglite, and commit the file.
 */
import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { TEMPLATE_DIR, compressTemplate, templatePath } from '../src/server/db/template.js';

async function main() {
  const db = await PGlite.create('memory://');
  const tar = new Uint8Array(await (await db.dumpDataDir('none')).arrayBuffer());
  await db.close();
  const file = templatePath();
  fs.mkdirSync(TEMPLATE_DIR, { recursive: true });
  for (const f of fs.readdirSync(TEMPLATE_DIR)) if (f.startsWith('pglite-') && path.join(TEMPLATE_DIR, f) !== file) fs.rmSync(path.join(TEMPLATE_DIR, f));
  const packed = compressTemplate(tar);
  fs.writeFileSync(file, packed);
  console.log(`${path.relative(process.cwd(), file)}: ${(packed.length / 1048576).toFixed(2)} MB (${(tar.byteLength / 1048576).toFixed(1)} MB unpacked)`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});

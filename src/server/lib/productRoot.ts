/**
 * The product's root folder (schemas/, locales/, dist/web live there). Found by walking up from this module to
 * the package.json named canteen-admin, so it holds wherever the code runs from: src/ under tsx, or the bundled
 * server in dist/server (issue 13: the server runs bundled, without the TypeScript loader's memory).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

function findRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const pkg = path.join(dir, 'package.json');
    if (fs.existsSync(pkg) && JSON.parse(fs.readFileSync(pkg, 'utf8')).name === 'canteen-admin') return dir;
    if (path.dirname(dir) === dir) throw new Error(`canteen-admin's package.json not found above ${from}`);
  }
}

export const PRODUCT_ROOT = findRoot(path.dirname(fileURLToPath(import.meta.url)));

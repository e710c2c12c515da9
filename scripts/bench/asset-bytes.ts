/** What a browser downloaded, measured deterministically: the built files behind the requested URLs, gzip-9 here. */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

export interface AssetBytes {
  files: number;
  jsRaw: number;
  jsGzip: number;
  cssGzip: number;
  /** Each JS/CSS file found in `dist`, by name, with its gzip-9 size (in request order, each once). */
  parts: Array<{ name: string; js: boolean; gzip: number }>;
}

/** gzip-9 of the requested .js/.css files that exist in `dist` (URLs outside it or not built are skipped). */
export function assetBytes(urls: Iterable<string>, dist: string): AssetBytes {
  const out: AssetBytes = { files: 0, jsRaw: 0, jsGzip: 0, cssGzip: 0, parts: [] };
  for (const rel of new Set([...urls].map((u) => decodeURIComponent(new URL(u).pathname).replace(/^\//, '')))) {
    const file = path.join(dist, rel);
    if (!file.startsWith(dist) || !fs.existsSync(file)) continue;
    const buf = fs.readFileSync(file);
    const gzip = zlib.gzipSync(buf, { level: 9 }).length;
    const js = rel.endsWith('.js');
    if (!js && !rel.endsWith('.css')) continue;
    out.files++;
    out.parts.push({ name: path.basename(rel), js, gzip });
    if (js) {
      out.jsRaw += buf.length;
      out.jsGzip += gzip;
    } else out.cssGzip += gzip;
  }
  return out;
}

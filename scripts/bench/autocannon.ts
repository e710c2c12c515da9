/** autocannon at 10 clients in its own process (so the load generator does not share the server's event loop). */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface HttpFigures {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

/** One run of `seconds` against `url` with the user's bearer token; errors count failed and non-2xx answers. */
export function autocannon(url: string, token: string, seconds: number): Promise<HttpFigures> {
  return new Promise((resolve, reject) => {
    const bin = path.join(root, 'node_modules/autocannon/autocannon.js');
    const p = spawn(process.execPath, [bin, '-c', '10', '-d', String(seconds), '-j', '-H', `blade-auth=bearer ${token}`, url], { stdio: ['ignore', 'pipe', 'ignore'] });
    let out = '';
    p.stdout.on('data', (d) => (out += d));
    p.on('error', reject);
    p.on('close', () => {
      try {
        const r = JSON.parse(out);
        resolve({ rps: Math.round(r.requests.average), p50: r.latency.p50, p99: r.latency.p99, errors: r.errors + r.non2xx });
      } catch {
        reject(new Error(`autocannon: ${out.slice(0, 200)}`));
      }
    });
  });
}

/**
 * Counts of the hardening suites (requests, cases, 5xx, rows written, lost writes) for CI's summary: each
 * suite merges its figures into .ci-results/suites.json under "<suite>@<database>", and
 * scripts/ci/summarize.mjs prints them. Outside CI (no .ci-results directory) nothing is written.
 */
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../..');

export function recordSuite(name: string, counts: Record<string, number>): void {
  const dir = path.join(ROOT, '.ci-results');
  if (!fs.existsSync(dir)) return;
  const file = path.join(dir, 'suites.json');
  const key = `${name}@${process.env.DATABASE_URL ? 'postgres' : 'pglite'}`;
  let all: Record<string, Record<string, number>> = {};
  try {
    all = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    /* first suite */
  }
  all[key] = counts;
  fs.writeFileSync(file, JSON.stringify(all, null, 2));
}

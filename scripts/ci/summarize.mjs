// Sums the vitest JSON reports (and the one-shot checks recorded by .ci/run) into the single line CI reads:
// `N passed, N failed`. A report that is missing or unreadable counts as one failure, never as a pass.
import { readFileSync, existsSync } from 'node:fs';

const [checksFile, ...reports] = process.argv.slice(2);
let passed = 0;
let failed = 0;
for (const line of existsSync(checksFile) ? readFileSync(checksFile, 'utf8').split('\n') : []) {
  const [name, status] = line.trim().split(/\s+/);
  if (!name) continue;
  if (status === 'ok') passed++;
  else failed++;
}
for (const file of reports) {
  try {
    const r = JSON.parse(readFileSync(file, 'utf8'));
    passed += r.numPassedTests ?? 0;
    failed += (r.numFailedTests ?? 0) + (r.numTotalTests === 0 ? 1 : 0);
    const pending = (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
    if (pending) console.log(`${file}: ${pending} skipped/todo (not counted as passed)`);
    if (r.success === false && !r.numFailedTests) failed++; // suite-level error (e.g. a file that failed to load)
  } catch (e) {
    console.log(`${file}: no readable report (${e.message})`);
    failed++;
  }
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);

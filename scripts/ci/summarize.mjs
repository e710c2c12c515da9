// Sums the vitest JSON reports (and the one-shot checks recorded by .ci/run) into the single line CI reads:
// `N passed, N failed`. A report that is missing or unreadable counts as one failure, never as a pass.
// Before it: the hardening suites' figures (.ci-results/suites.json) and every browser test that passed only
// on a retry (flaky).
import { readFileSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

const [checksFile, ...reports] = process.argv.slice(2);
let passed = 0;
let failed = 0;
for (const line of existsSync(checksFile) ? readFileSync(checksFile, 'utf8').split('\n') : []) {
  const [name, status] = line.trim().split(/\s+/);
  if (!name) continue;
  if (status === 'ok') passed++;
  else failed++;
}
const flaky = [];
for (const file of reports) {
  try {
    const r = JSON.parse(readFileSync(file, 'utf8'));
    // A test that passed only on a retry (retries recorded in meta by scripts/ci/e2e-retry-meta.ts; the
    // failure of the first attempt also stays in failureMessages) is flaky: listed, to be fixed.
    for (const f of r.testResults ?? []) {
      for (const a of f.assertionResults ?? []) {
        if (a.status === 'passed' && ((a.meta?.retries ?? 0) > 0 || (a.failureMessages ?? []).length > 0)) flaky.push(`${file}: ${f.name.replace(/^.*?\/tests\//, 'tests/')} › ${a.fullName}`);
      }
    }
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
// Figures of the hardening suites (tests/api/suite-report.ts writes them next to the reports).
const suitesFile = reports.length ? join(dirname(reports[0]), 'suites.json') : '';
if (suitesFile && existsSync(suitesFile)) {
  try {
    const suites = JSON.parse(readFileSync(suitesFile, 'utf8'));
    console.log('hardening suites:');
    for (const [name, counts] of Object.entries(suites)) {
      console.log(`  ${name}: ${Object.entries(counts).map(([k, v]) => `${v} ${k}`).join(', ')}`);
    }
    const expected = ['fuzz@pglite', 'fuzz@postgres', 'durability@pglite', 'durability@postgres', 'concurrency@pglite', 'concurrency@postgres', 'connection-loss@postgres'];
    const missing = expected.filter((k) => !(k in suites));
    if (missing.length) console.log(`  not run: ${missing.join(', ')}`);
  } catch (e) {
    console.log(`${suitesFile}: unreadable (${e.message})`);
  }
} else {
  console.log('hardening suites: no figures recorded (suites.json missing)');
}
if (flaky.length) {
  console.log(`flaky (passed only on a retry) — ${flaky.length}:`);
  for (const f of flaky) console.log(`  ${f}`);
} else {
  console.log('flaky (passed only on a retry): none');
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);

// Browser-test setup (vitest.e2e.config.ts): records on each test how many retries it needed, in task.meta,
// which vitest's JSON report carries; scripts/ci/summarize.mjs lists every test that passed only on a retry
// as flaky (issue 14: a journey that needs a retry is reported, then fixed — never left retried quietly).
import { beforeEach } from 'vitest';

beforeEach(({ task }) => {
  (task.meta as Record<string, unknown>).retries = task.result?.retryCount ?? 0;
});

import { defineConfig } from 'vitest/config';

// Browser journeys: built web app + real server + headless Debian Chromium through playwright-core.
export default defineConfig({
  test: {
    include: ['tests/e2e/**/*.e2e.ts'],
    environment: 'node',
    testTimeout: 180_000,
    hookTimeout: 180_000,
    pool: 'forks',
    fileParallelism: false,
    // One retry, so that CI can tell a flaky journey (passed on the retry, listed by scripts/ci/summarize.mjs)
    // from a broken one; the retry count is put in each test's meta by the setup file.
    retry: 1,
    setupFiles: ['scripts/ci/e2e-retry-meta.ts'],
  },
});

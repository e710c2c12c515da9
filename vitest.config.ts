import { defineConfig } from 'vitest/config';

// Unit + API suites. API tests start the server in process on PGlite (or DATABASE_URL when set).
export default defineConfig({
  test: {
    include: ['tests/unit/**/*.test.ts', 'tests/unit/**/*.test.tsx', 'tests/api/**/*.test.ts', 'tests/lint/**/*.test.ts'],
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    fileParallelism: false,
  },
});

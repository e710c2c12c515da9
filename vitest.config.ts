import { defineConfig } from 'vitest/config';
import { localeSections } from './scripts/vite-locales.js';

// Unit + API suites. API tests start the server in process on PGlite (or DATABASE_URL when set).
export default defineConfig({
  // the web app's string sections (src/web/i18n.ts imports them)
  plugins: [localeSections(import.meta.dirname)],
  test: {
    include: ['tests/unit/**/*.test.ts', 'tests/unit/**/*.test.tsx', 'tests/api/**/*.test.ts', 'tests/lint/**/*.test.ts'],
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    fileParallelism: false,
  },
});

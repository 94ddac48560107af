import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['test/ui/**', 'node_modules/**'],
    // One real Temporal dev server for the whole run, started here and shared by every file.
    globalSetup: ['test/helpers/global-setup.ts'],
    // Temporal's native worker runs in forked processes, not worker threads.
    pool: 'forks',
    maxWorkers: 3,
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});

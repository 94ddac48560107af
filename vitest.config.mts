import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Temporal's native worker runs in forked processes, not worker threads.
    pool: 'forks',
    maxWorkers: 3,
    testTimeout: 120_000,
    hookTimeout: 120_000,
    projects: [
      {
        extends: true,
        // The pure rules: no server, milliseconds each.
        test: { name: 'unit', include: ['test/unit/**/*.test.ts'] },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: [
            'test/integration/**/*.test.ts',
            'test/cli/**/*.test.ts',
            'test/hostile/**/*.test.ts',
            'test/package/**/*.test.ts',
          ],
          // One real Temporal dev server for the whole run, started here and shared by every file.
          globalSetup: ['test/helpers/global-setup.ts'],
        },
      },
    ],
  },
});

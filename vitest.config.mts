import { defineConfig } from 'vitest/config';
import LongestFirstSequencer from './test/helpers/sequencer.mts';

export default defineConfig({
  test: {
    // Temporal's native worker runs in forked processes, not worker threads.
    pool: 'forks',
    maxWorkers: 3,
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // The longest files first (test/durations.json where vitest has no cache of its own): no slow file left for the tail.
    sequence: { sequencer: LongestFirstSequencer },
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

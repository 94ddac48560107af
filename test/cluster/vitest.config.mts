import { defineConfig } from 'vitest/config';

/**
 * `npm run test:cluster`: teamrun on a production-shaped Temporal (`npm run cluster`: PostgreSQL,
 * separate frontend, history, matching and worker processes), under the faults such a cluster has.
 * Not part of `npm test`. One file at a time: the faults hit the one shared cluster.
 */
export default defineConfig({
  test: {
    include: ['test/cluster/**/*.test.ts'],
    globalSetup: ['test/cluster/global-setup.ts'],
    pool: 'forks',
    maxWorkers: 1,
    fileParallelism: false,
    sequence: { concurrent: false },
    testTimeout: 600_000,
    hookTimeout: 1_800_000,
  },
});

import { defineConfig } from 'vitest/config';

/** `npm run test:ui`: the Web UI and the report, checked in headless Chromium (not part of `npm test`). */
export default defineConfig({
  test: {
    include: ['test/ui/**/*.test.ts'],
    globalSetup: ['test/ui/global-setup.ts'],
    pool: 'forks',
    // One browser at a time: the machine is small and the pages are heavy.
    maxWorkers: 1,
    fileParallelism: false,
    testTimeout: 180_000,
    hookTimeout: 180_000,
  },
});

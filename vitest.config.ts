import { defineConfig } from 'vitest/config';

// Dawn (the `webgpu` package) crashes inside worker threads: every test file runs in a forked
// process. Two cores here, so at most two files at a time.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});

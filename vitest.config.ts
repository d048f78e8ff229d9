import { defineConfig } from 'vitest/config';

/**
 * The test projects (`npm run test:<name>`; `npm test` runs them all):
 * - unit: the algebra, cute/, the memory model, render/, the CPU verify and engine, atoms/, linear/ — the fast inner loop;
 * - gpu: whatever needs a WebGPU device (a software adapter here);
 * - cli: the built bin and the subcommands (dist/ built once in a global set-up);
 * - e2e: the page in Chromium;
 * - package: `npm pack` as a user meets it.
 * A test file belongs to exactly one project: gpu, cli, e2e and package name theirs, unit takes the rest (test/cli/json-span.test.ts
 * is pure functions in process: unit).
 */
const gpu = [
  'test/engine/{batch-backends,bounds,composed,gpu,select,u64,walk,webgpu,window-plan}.test.ts',
  'test/verify/{composed,gpu-cpu,interpreter,ops-cli}.test.ts',
  'test/memory/{search,search-rank}.test.ts',
  'test/memory/machines-gpu.test.ts',
  'test/planner/gpu.test.ts',
  'test/engine/quiet-stderr.test.ts',
  'test/throughput/{composed,verify}.test.ts',
];
const cli = [
  'test/cli/**/!(json-span).test.ts',
  'test/*/cli.test.ts',
  'test/bench/vocab-corpus.test.ts',
  'test/bench/descriptors-corpus.test.ts',
  'test/scripts/**/*.test.ts',
  'test/engine/evaluator-cli.test.ts',
  'test/docs/code-blocks.test.ts', // tsc and tsx over every code block of the docs: seconds, beyond a unit test's 10
];
const e2e = ['test/e2e/**/*.test.ts'];
const pack = ['test/package/**/*.test.ts'];

const all = 'test/**/*.test.ts';

// Dawn (the `webgpu` package) crashes inside worker threads: every test file runs in a forked
// process. Two cores here, so at most two files at a time.
export default defineConfig({
  test: {
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 120_000,
    hookTimeout: 120_000,
    globalSetup: ['test/helpers/global-setup.ts'],
    projects: [
      // the unit project is the fast inner loop: 10 s a test (test/suite.test.ts holds it, and that none opens a device)
      { extends: true, test: { name: 'unit', include: [all], exclude: [...gpu, ...cli, ...e2e, ...pack], testTimeout: 10_000 } },
      { extends: true, test: { name: 'gpu', include: gpu } },
      { extends: true, test: { name: 'cli', include: cli, globalSetup: ['test/helpers/build-setup.ts'] } },
      { extends: true, test: { name: 'e2e', include: e2e, globalSetup: ['test/helpers/build-setup.ts'] } },
      { extends: true, test: { name: 'package', include: pack, globalSetup: ['test/helpers/build-setup.ts'] } },
    ],
  },
});

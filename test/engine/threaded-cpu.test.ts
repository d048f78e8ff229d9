/**
 * The CPU backend on a worker pool (engine/node/threaded-cpu.ts, pool.ts): the same answers and
 * witnesses as CpuBackend whatever the number of threads, and failures that never hang: a task
 * error, a worker that dies, a deadline. Workers run the TypeScript sources here (through tsx).
 */
import { availableParallelism } from 'node:os';
import { afterAll, describe, expect, it } from 'vitest';
import { withDeadline } from '../../src/algebra/deadline.js';
import { LayoutError } from '../../src/algebra/errors.js';
import { concat, size } from '../../src/algebra/layout.js';
import { parseLayout } from '../../src/algebra/notation.js';
import { CpuBackend } from '../../src/engine/cpu.js';
import { PoolError, WorkerPool, parseThreads, splitRange } from '../../src/engine/node/pool.js';
import { ThreadedCpuBackend } from '../../src/engine/node/threaded-cpu.js';
import { randomLayout, rng } from './gen.js';
import { VERIFY_TASKS } from '../../src/verify/parallel.js';

const cpu = new CpuBackend();
const pools: WorkerPool[] = [];
/** small parts, so that collisions, witnesses and extrema cross part boundaries */
const threaded = (threads: number, minParallel = 1, windowBits?: number): ThreadedCpuBackend => {
  const pool = new WorkerPool(threads);
  pools.push(pool);
  return new ThreadedCpuBackend(new CpuBackend(), threads, { minParallel, minPart: 37, pool, lazyWorkers: null, ...(windowBits ? { windowBits } : {}) });
};
afterAll(() => pools.forEach((p) => p.close()));

// layouts of every kind of answer: compact, colliding, out of range, both
const fixed = ['(64,32):(1,64)', '(64,32):(1,63)', '(64,32):(2,64)', '(16,(8,16)):(128,(1,8))', '(2,1024):(0,1)', '(4096):(3)', '(12,(10,9)):(90,(9,1))'];

describe('ThreadedCpuBackend', () => {
  const layouts = [...fixed.map((t) => parseLayout(t)), ...Array.from({ length: 14 }, (_, i) => randomLayout(rng(100 + i), 1 << 14))];
  for (const threads of [2, 3]) {
    it(`answers check_compact, check_complement, digest and check_compose as the CPU backend does (${threads} threads)`, async () => {
      const t = threaded(threads);
      for (const l of layouts) {
        expect(await t.checkCompact(l)).toEqual(await cpu.checkCompact(l));
        const n = size(l);
        expect(await t.digestRange(l, 0, n)).toEqual(await cpu.digestRange(l, 0, n));
        const [lo, hi] = [Math.min(3, n), Math.max(Math.min(3, n), n - 5)];
        expect(await t.digestRange(l, lo, hi)).toEqual(await cpu.digestRange(l, lo, hi));
      }
      const a = parseLayout('(4,8):(1,4)');
      const b = parseLayout('(2,2):(1,4)');
      expect(await t.checkCompact(concat(a, b))).toEqual(await cpu.checkCompact(concat(a, b)));
      const B = parseLayout('(64,64):(1,64)');
      const A = parseLayout('(32,32):(1,32)');
      for (const C of ['(32,32):(1,32)', '(32,32):(1,33)', '(1024):(1)', '(32,32):(2,1)']) {
        expect(await t.checkCompose(B, A, parseLayout(C))).toEqual(await cpu.checkCompose(B, A, parseLayout(C)));
      }
    });
  }

  it('answers check_compact alike when the offsets take several bitmap windows', async () => {
    const t = threaded(2, 1, 96);
    for (const l of layouts) expect(await t.checkCompact(l)).toEqual(await cpu.checkCompact(l));
  });

  it('starts no thread for small requests', async () => {
    const pool = new WorkerPool(2);
    pools.push(pool);
    const t = new ThreadedCpuBackend(new CpuBackend(), 2, { pool });
    expect(await t.checkCompact(parseLayout('(64,32):(1,63)'))).toEqual(await cpu.checkCompact(parseLayout('(64,32):(1,63)')));
    expect((pool as unknown as { slots: unknown[] }).slots.length).toBe(0);
  });

  it('reports progress up to the total and answers a deadline with timeout and what completed', async () => {
    const t = threaded(2);
    const seen: number[] = [];
    const l = parseLayout('(1024,1024,8):(1,1024,1048576)');
    await t.digestRange(l, 0, 2 ** 23, { onProgress: (d, total) => (expect(total).toBe(2 ** 23), seen.push(d)) });
    expect(Math.max(...seen)).toBe(2 ** 23);
    const err = await t.checkCompact(parseLayout('(1024,1024,256):(1,1024,1048576)'), { timeoutMs: 1 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LayoutError);
    expect((err as LayoutError).kind).toBe('timeout');
    expect((err as LayoutError).message).toMatch(/completed \d+ of 268435456 indices/);
    // the request's own deadline (batch --request-timeout) bounds a threaded run too
    const err2 = await withDeadline(1, () => t.checkCompact(parseLayout('(1024,1024,256):(1,1024,1048576)'))).catch((e: unknown) => e);
    expect((err2 as LayoutError).kind).toBe('timeout');
    // the pool is whole again afterwards
    expect(await t.checkCompact(parseLayout('(64,32):(1,63)'))).toEqual(await cpu.checkCompact(parseLayout('(64,32):(1,63)')));
  });
});

describe('WorkerPool', () => {
  it('reports a worker that dies with what completed, and recovers', async () => {
    process.env.LAYOUTGPU_POOL_FAULT = 'exit-on-task:2';
    const pool = new WorkerPool(2);
    pools.push(pool);
    try {
      const tasks = splitRange(0, 2 ** 22, 8, 1).map(([lo, hi]) => ({ kind: 'digest', payload: { l: { shapes: [2 ** 22], strides: [1] }, lo, hi } }));
      const err = await pool.runTasks(tasks).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(PoolError);
      expect((err as Error).message).toMatch(/worker thread \d+ died \(exit code 3\) during part \d of 8: completed \d of 8 parts/);
    } finally {
      delete process.env.LAYOUTGPU_POOL_FAULT;
    }
    const ok = await pool.runTasks<{ sum: string }>([{ kind: 'digest', payload: { l: { shapes: [100], strides: [1] }, lo: 0, hi: 100 } }]);
    expect(ok[0]!.sum).toBe('4950');
  });

  it('passes a task’s LayoutError on, and an unknown task as a failure', async () => {
    const pool = new WorkerPool(1);
    pools.push(pool);
    const err = await pool
      .runTasks([
        {
          kind: 'verify',
          module: VERIFY_TASKS,
          payload: { property: 'bogus', spec: { kind: 'list', items: [], arity: 1, describe: '' }, maxExamples: 1, all: false },
        },
      ])
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LayoutError);
    expect((err as LayoutError).kind).toBe('bad-request');
    const err2 = await pool.runTasks([{ kind: 'nothing', payload: null }]).catch((e: unknown) => e);
    expect(err2).toBeInstanceOf(PoolError);
    expect((err2 as Error).message).toMatch(/unknown task kind 'nothing'/);
  });

  it('takes --threads as a positive integer', () => {
    expect(parseThreads('3', '--threads', () => {})).toBe(Math.min(3, availableParallelism()));
    expect(parseThreads(undefined)).toBeGreaterThanOrEqual(1);
    for (const bad of ['0', '-1', 'two', '1.5', '']) expect(() => parseThreads(bad)).toThrowError(/--threads takes a positive integer/);
  });
});

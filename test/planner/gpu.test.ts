/**
 * plan_smem priced on the GPU (shaders/plan.wgsl, planner/gpu.ts; docs/planner.md "Scale") answers the whole
 * PlanResult of planSmem on one CPU thread and of the worker threads, byte for byte, errors included, on the seeded
 * set of pairs and tiles (_bulk-cases.ts: NVIDIA's and AMD's machines, live masks, matrix instructions, descriptor
 * sides) and on the committed corpus's 64×64 fp16 pairs; the op prices on the device when the request or the
 * context's backend says gpu. Runs for real on the test device (lavapipe here).
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GpuBackend } from '../../src/engine/gpu.js';
import type { NodeDevice } from '../../src/engine/node/device-node.js';
import { WorkerPool } from '../../src/engine/node/pool.js';
import { loadPlanner, planOn, planRequestOf } from '../../src/ops/planner.js';
import { planSmemGpu } from '../../src/planner/gpu.js';
import { planSmemThreaded } from '../../src/planner/parallel.js';
import { planSmem } from '../../src/planner/plan.js';
import { testDevice } from '../helpers/device.js';
import { bulkCases, outcome } from './_bulk-cases.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
let dev: NodeDevice;
let pool: WorkerPool;

beforeAll(async () => {
  await loadPlanner();
  dev = await testDevice();
  pool = new WorkerPool(2);
});
afterAll(() => {
  pool.close();
  dev.release();
});

describe('plan_smem on the GPU', () => {
  it('answers what one CPU thread and two threads answer, on the seeded pairs and tiles', async () => {
    for (const c of bulkCases(0x28b01c, 10)) {
      const { request: req } = planRequestOf(c.request);
      const one = await outcome(() => planSmem(req));
      expect(await outcome(() => planSmemGpu(req, dev.device)), c.name).toBe(one);
      expect(await outcome(() => planSmemThreaded(req, { threads: 2, pool, lazyWorkers: null, minWork: 0 })), c.name).toBe(one);
    }
  });

  it('answers what one CPU thread answers on the corpus’s 64×64 fp16 pairs', async () => {
    const lines = readFileSync(join(ROOT, 'bench', 'corpus', 'planner.jsonl'), 'utf8').split('\n');
    const reqs = lines.filter((l) => l.includes('"(64,64)-half_t-')).map((l) => (JSON.parse(l) as { args: [Record<string, unknown>] }).args[0]);
    expect(reqs.length).toBeGreaterThan(4);
    for (const r of reqs.slice(0, 4)) {
      const { request: req } = planRequestOf(r);
      expect(await outcome(() => planSmemGpu(req, dev.device))).toBe(await outcome(() => planSmem(req)));
    }
  });

  it('the op prices on the device when the request or the context asks', async () => {
    const c = bulkCases(1, 0).find((x) => x.name.startsWith('an ldmatrix.x1'))!;
    const one = await outcome(() => planSmem(planRequestOf(c.request).request));
    const gpu = new GpuBackend(dev.device, { adapter: 'test', software: true });
    let asked = 0;
    const backend = (): Promise<GpuBackend> => {
      asked++;
      return Promise.resolve(gpu);
    };
    expect(await outcome(() => planOn({ ...c.request, backend: 'gpu' }, { backendChoice: 'cpu', backend }))).toBe(one);
    expect(await outcome(() => planOn(c.request, { backendChoice: 'gpu', backend }))).toBe(one);
    expect(asked).toBe(2);
    // backend cpu in the request: the context's GPU is not asked for
    expect(await outcome(() => planOn({ ...c.request, backend: 'cpu' }, { backendChoice: 'gpu', backend }))).toBe(one);
    expect(asked).toBe(2);
  });
});

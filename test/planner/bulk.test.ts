/**
 * The bulk paths of the planner on the CPU (docs/planner.md "Scale"): a plan cut into slices of its families' members,
 * priced slice by slice in any order and merged (planner/slices.ts), and on worker threads (planner/parallel.ts), answer
 * the whole PlanResult of planSmem on one thread, byte for byte, on a seeded set of pairs and tiles (_bulk-cases.ts);
 * the sides cross to a worker as plain data (wire.ts); plan_smem's `threads` and `backend` are read and checked.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withDeadline } from '../../src/algebra/deadline.js';
import { WorkerPool } from '../../src/engine/node/pool.js';
import { loadPlanner, planOn, planRequestOf } from '../../src/ops/planner.js';
import type { OpContext } from '../../src/ops/spec.js';
import { memberCount } from '../../src/planner/families.js';
import { planSmemMany, planSmemThreaded } from '../../src/planner/parallel.js';
import { planSmem, type PlanRequest } from '../../src/planner/plan.js';
import { planFromSlices, planSlices, priceSlice, tritonTable } from '../../src/planner/slices.js';
import { requestFromWire, requestWire } from '../../src/planner/wire.js';
import { mulberry32 } from '../helpers/brute.js';
import { bulkCases, outcome } from './_bulk-cases.js';

const CASES = bulkCases(0x28b01c, 10);
/** the cases in groups of four, one test each (each within the unit project's 10 s) */
const GROUPS = Array.from({ length: Math.ceil(CASES.length / 4) }, (_, g) => ({ g, cases: CASES.slice(4 * g, 4 * g + 4) }));
let pool: WorkerPool;

beforeAll(async () => {
  await loadPlanner();
  pool = new WorkerPool(2);
});
afterAll(() => pool.close());

/** The plan of the request cut into `parts` slices (at least one member each), priced in a shuffled order and merged. */
function sliced(request: Record<string, unknown>, parts: number, rng: () => number): unknown {
  const { request: req } = planRequestOf(request);
  const specs = planSlices(req, parts, 1);
  const triton = tritonTable(req);
  const priced = specs.map((s) => priceSlice(req, s, triton));
  for (let i = priced.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [priced[i], priced[j]] = [priced[j]!, priced[i]!];
  }
  return planFromSlices(req, priced);
}

describe('a plan in slices', () => {
  it.each(GROUPS)('answers planSmem’s PlanResult whatever the cut and the order of the slices (cases group $g)', async ({ g, cases }) => {
    const rng = mulberry32(7 + g);
    for (const c of cases) {
      const one = await outcome(() => planSmem(planRequestOf(c.request).request));
      for (const parts of [3, 64]) expect(await outcome(() => sliced(c.request, parts, rng)), `${c.name}, ${parts} slices`).toBe(one);
    }
  });

  it('leaves out a function an earlier slice met: a tile whose two mode orders are one base', () => {
    const c = CASES.find((x) => x.request.tile === '(1,64)')!;
    const { request: req } = planRequestOf(c.request);
    const one = planSmem(req);
    // the second base's swizzles repeat the first's: fewer candidates than members, also across 64 slices
    expect(one.searched.swizzle).toBeLessThan(memberCount('swizzle', req.tile, req.dtype));
    expect(sliced(c.request, 64, mulberry32(1))).toEqual(one);
  });

  it('the sides as plain data build the same request again (the same plan)', async () => {
    for (const c of CASES.slice(0, 12)) {
      const { request: req } = planRequestOf(c.request);
      const wire = requestWire(req)!;
      expect(wire).not.toBeNull();
      const back = requestFromWire(structuredClone(wire));
      expect(await outcome(() => planSmem(back)), c.name).toBe(await outcome(() => planSmem(req)));
    }
  });
});

describe('a plan on worker threads', () => {
  it.each(GROUPS)('answers planSmem’s PlanResult on two threads, errors included (cases group $g)', async ({ cases }) => {
    for (const c of cases) {
      const { request: req } = planRequestOf(c.request);
      const one = await outcome(() => planSmem(req));
      expect(await outcome(() => planSmemThreaded(req, { threads: 2, pool, lazyWorkers: null, slicesPerThread: 3, minWork: 0 })), c.name).toBe(one);
    }
    expect(pool.threadsStarted).toBeGreaterThan(0);
  });

  it('many plans, each whole on a worker (planSmemMany): each answer planSmem’s, in order; an error is the first plan’s', async () => {
    const ok: PlanRequest[] = [];
    let bad: { req: PlanRequest; want: string } | null = null;
    for (const c of CASES) {
      let req: PlanRequest;
      try {
        req = planRequestOf(c.request).request;
      } catch {
        continue;
      }
      const want = await outcome(() => planSmem(req));
      if (want.startsWith('{"searched"')) ok.push(req);
      else bad ??= { req, want };
    }
    expect(ok.length).toBeGreaterThan(4);
    const many = await planSmemMany(ok, { threads: 2, pool });
    expect(many.map((r) => JSON.stringify(r))).toEqual(ok.map((r) => JSON.stringify(planSmem(r))));
    expect(bad).not.toBeNull();
    expect(await outcome(() => planSmemMany([ok[0]!, bad!.req], { threads: 2, pool }))).toBe(bad!.want);
  });

  it('stops at the deadline in force with kind timeout (the workers stopped)', async () => {
    const big = { tile: '(128,128)', dtype: 'half_t', write: '((32,8),(8,8)):((128,1),(16,1024))', read: '((32,8),(8,8)):((1,32),(256,2048))' };
    const { request: req } = planRequestOf(big);
    const run = withDeadline(30, () => planSmemThreaded(req, { threads: 2, pool, lazyWorkers: null, minWork: 0 }));
    expect(await outcome(() => run)).toMatch(/"error":"timeout"/);
  });

  it('the op takes threads and backend from the request or the context', async () => {
    const c = CASES.find((x) => x.name.startsWith('an ldmatrix.x4'))!;
    const one = await outcome(() => planSmem(planRequestOf(c.request).request));
    const calls: number[] = [];
    const ctx: OpContext = {
      backendChoice: 'cpu',
      backend: () => Promise.reject(new Error('no backend needed')),
      threads: 2,
      planThreaded: (req, n) => {
        calls.push(n);
        return planSmemThreaded(req, { threads: n, pool, lazyWorkers: null, minWork: 0 });
      },
    };
    expect(await outcome(() => planOn(c.request, ctx))).toBe(one);
    expect(await outcome(() => planOn({ ...c.request, threads: 1 }, ctx))).toBe(one);
    expect(await outcome(() => planOn({ ...c.request, backend: 'cpu', threads: 3 }, ctx))).toBe(one);
    expect(calls).toEqual([2, 3]);
    // without the Node corner's threads (the page), one thread answers
    expect(await outcome(() => planOn({ ...c.request, threads: 2 }, { backendChoice: 'cpu', backend: ctx.backend }))).toBe(one);
    for (const bad of [{ threads: 0 }, { threads: 1.5 }, { threads: '2' }, { backend: 'tpu' }]) {
      expect(await outcome(() => planOn({ ...c.request, ...bad }, ctx))).toMatch(/"error":"bad-request"/);
    }
  });
});

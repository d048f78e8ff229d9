/**
 * plan_smem on worker threads (Node only, like verify/parallel.ts; docs/planner.md "Scale"): each family's members are
 * cut into slices (slices.ts planSlices, about four per thread), each slice is priced in a pool worker (or on this
 * thread, which takes its share) by parallel-task.ts with planSmem's own code, and this thread merges the slices'
 * fronts (planFromSlices): the same PlanResult as planSmem, whatever the number of threads. Falls back to planSmem for
 * one thread or a side that cannot cross to a worker (no wire).
 */
import { carryDeadline, currentDeadline } from '../algebra/deadline.js';
import { LAZY_WORKERS, sharedPool, type PoolTask, type WorkerPool } from '../engine/node/pool.js';
import { rememberRequest, type PlanSliceInput, type PlanWholeInput } from './parallel-task.js';
import { planSmem, type PlanRequest, type PlanResult } from './plan.js';
import { planFromSlices, planSlices, tritonTable, type PricedSlice } from './slices.js';
import { requestWire } from './wire.js';

/** the module of the plan slices' task handlers, loaded by the pool's threads (the engine does not import planner/) */
export const PLAN_TASKS = new URL('./parallel-task.js', import.meta.url).href;

let jobs = 0;

/** How a threaded plan runs. */
export interface ThreadedPlanOptions {
  /** threads (1: planSmem on this thread) */
  readonly threads: number;
  /** the pool (default: the process's shared pool of `threads` threads) */
  readonly pool?: WorkerPool;
  /** slices per thread (default 4) */
  readonly slicesPerThread?: number;
  /** when the workers start (default LAZY_WORKERS: only for a plan that proves long; null: at once) */
  readonly lazyWorkers?: { afterMs: number; minLeftMs: number } | null;
  /** members × tile elements below which the plan stays on this thread, unsliced (default MIN_PARALLEL_WORK) */
  readonly minWork?: number;
}

/**
 * The smallest plan cut into slices: members × tile elements (each member costs a pass over the tile and one over each
 * side's accesses). Below it (a 64×64 tile's 620 members are 2.5M) the slicing's own cost is not worth it.
 */
export const MIN_PARALLEL_WORK = 2 ** 23;

/**
 * planSmem over `threads` threads: the same answer (tested: test/planner/bulk.test.ts). Errors as planSmem's; `timeout`
 * at the deadline in force when it is called (the workers are stopped then).
 * @example await planSmemThreaded(req, { threads: 2 })
 */
export async function planSmemThreaded(req: PlanRequest, o: ThreadedPlanOptions): Promise<PlanResult> {
  const wire = requestWire(req);
  if (o.threads <= 1 || wire === null) return planSmem(req);
  const due = carryDeadline('the planner');
  const at = currentDeadline();
  const slices = planSlices(req, o.threads * (o.slicesPerThread ?? 4));
  const members = slices.reduce((a, x) => a + x.hi - x.lo, 0);
  if (members * req.tile.size < (o.minWork ?? MIN_PARALLEL_WORK)) return planSmem(req);
  const triton = tritonTable(req);
  const job = `${Date.now()}-${++jobs}`;
  const tasks: PoolTask[] = slices.map((slice) => {
    const payload: PlanSliceInput = { job, request: wire, slice, triton };
    return { kind: 'plan-slice', module: PLAN_TASKS, payload };
  });
  rememberRequest(job, req);
  const pool = o.pool ?? sharedPool(o.threads);
  let done = 0;
  const priced = await pool.runTasks<PricedSlice>(tasks, {
    onResult: () => void done++,
    completed: () => `priced ${done} of ${tasks.length} slices of the candidates`,
    ...(Number.isFinite(at) ? { deadline: Date.now() + (at - performance.now()) } : {}),
    lazyWorkers: o.lazyWorkers === undefined ? LAZY_WORKERS : o.lazyWorkers,
    // every slice on a worker, none on this thread: this thread's slices ran slower (it also posts and receives) and a
    // worker's prefetched next slice took the tail from it (1.35× against 1.6× on two threads, the 128×128 plan)
    inline: false,
  });
  return due.within(() => planFromSlices(req, priced));
}

/**
 * Many plans on `threads` threads, each plan whole on one worker (a sweep over tiles or sides: no slicing, no merge), in
 * the order of `reqs`: each answer planSmem's (tested: test/planner/bulk.test.ts). A request whose side cannot cross to
 * a worker is planned on this thread. Errors: the first plan's error, as planSmem's; `timeout` at the deadline in force.
 * @example await planSmemMany([req64, req128], { threads: 2 })
 */
export async function planSmemMany(reqs: readonly PlanRequest[], o: Pick<ThreadedPlanOptions, 'threads' | 'pool'>): Promise<PlanResult[]> {
  const wires = reqs.map(requestWire);
  if (o.threads <= 1 || wires.some((w) => w === null)) return reqs.map((r) => planSmem(r));
  const due = carryDeadline('the planner');
  const at = currentDeadline();
  const tasks: PoolTask[] = wires.map((w) => ({ kind: 'plan-whole', module: PLAN_TASKS, payload: { request: w! } satisfies PlanWholeInput }));
  const pool = o.pool ?? sharedPool(o.threads);
  let done = 0;
  const out = await pool.runTasks<PlanResult>(tasks, {
    onResult: () => void done++,
    completed: () => `planned ${done} of ${tasks.length} requests`,
    ...(Number.isFinite(at) ? { deadline: Date.now() + (at - performance.now()) } : {}),
    lazyWorkers: null,
    inline: false,
  });
  return due.within(() => out);
}

/**
 * A slice of a plan as run in a pool worker (engine/node/pool-worker.ts; parallel.ts): the request built again from its
 * plain data (wire.ts), the slice priced with the same code as on one thread (slices.ts priceSlice), under the job's
 * deadline.
 */
import { withDeadline } from '../algebra/deadline.js';
import { requestFromWire, type RequestWire } from './wire.js';
import { priceSlice, type PricedSlice, type SliceSpec, type TritonTable } from './slices.js';
import { planSmem, type PlanRequest, type PlanResult } from './plan.js';

export interface PlanSliceInput {
  /** the job's number in its process (slices of one job share their request) */
  readonly job: string;
  readonly request: RequestWire;
  readonly slice: SliceSpec;
  readonly triton: TritonTable | null;
}

/** the last request built in this thread, by its job */
let last: { job: string; req: PlanRequest } | null = null;

/** The request of a job as this thread built it (parallel.ts, for the slices this thread takes itself: no rebuild). */
export function rememberRequest(job: string, req: PlanRequest): void {
  last = { job, req };
}

/** A whole plan, as run in a pool worker (parallel.ts planSmemMany): its request as plain data. */
export interface PlanWholeInput {
  readonly request: RequestWire;
}

export const handlers = {
  'plan-whole'(p: PlanWholeInput, ctx: { deadline: number }): PlanResult {
    const left = Number.isFinite(ctx.deadline) ? Math.max(1, ctx.deadline - Date.now()) : undefined;
    return withDeadline(left, () => planSmem(requestFromWire(p.request)));
  },
  'plan-slice'(p: PlanSliceInput, ctx: { deadline: number }): PricedSlice {
    const left = Number.isFinite(ctx.deadline) ? Math.max(1, ctx.deadline - Date.now()) : undefined;
    return withDeadline(left, () => {
      if (last === null || last.job !== p.job) last = { job: p.job, req: requestFromWire(p.request) };
      return priceSlice(last.req, p.slice, p.triton);
    });
  },
};

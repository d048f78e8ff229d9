/**
 * Triton's optimalSwizzling for a plan's pair (docs/planner.md, "Triton's algorithm"): not built yet.
 */
import type { PlanEntry, PlanRequest } from './plan.js';
import type { PriceScratch } from './price.js';

/** The entry of the layout Triton builds for the pair, priced on the same model; null where it has none. */
export function tritonEntry(req: PlanRequest, s: PriceScratch): PlanEntry | null {
  void req;
  void s;
  return null;
}

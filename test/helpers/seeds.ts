/**
 * Seeded property runs, shared by the property suites: each suite has its own fast-check seed;
 * FC_SEED=<n> reruns every suite with another, FC_RUNS=<percent> scales the number of runs.
 */
import fc from 'fast-check';
import { mulberry32 } from './brute.js';

const SCALE = process.env.FC_RUNS ? Number(process.env.FC_RUNS) / 100 : 1;

/** n runs, scaled by FC_RUNS (at least one) */
export const runs = (n: number): number => Math.max(1, Math.round(n * SCALE));

/**
 * The suite's `forSeeds(n, body)`: runs `body` on runs(n) seeded generators drawn by fast-check
 * from `seed` (or FC_SEED); a failure names the seed (and body's messages).
 * Example: const forSeeds = seededRuns(0x5eed2026).
 */
export function seededRuns(seed: number): (n: number, body: (rng: () => number) => void) => void {
  const s0 = process.env.FC_SEED ? Number(process.env.FC_SEED) : seed;
  return (n, body) =>
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 0x7fffffff }), (s) => {
        body(mulberry32(s));
      }),
      { numRuns: runs(n), seed: s0 },
    );
}

/**
 * Seeded property runs, shared by the property suites: each suite has its own fast-check seed;
 * FC_SEED=<n> reruns every suite with another, FC_RUNS=<percent> scales the number of runs.
 * The body's rng draws through `fc.gen()`, so a failing run shrinks: its plain draws toward 0 and
 * what it draws from the kit's arbitraries (test/helpers/arbitraries.ts, `randomLayout`, `rng.draw`)
 * as those values, and fast-check prints the shrunk draws.
 */
import fc from 'fast-check';
import type { DrawingRng } from './arbitraries.js';

const SCALE = process.env.FC_RUNS ? Number(process.env.FC_RUNS) / 100 : 1;

/** n runs, scaled by FC_RUNS (at least one) */
export const runs = (n: number): number => Math.max(1, Math.round(n * SCALE));

const WORD = { min: 0, max: 0xffffffff };

/** An rng over fast-check's generator: each call one 32-bit draw in [0, 1); `draw(arb)` one value of arb. */
export function drawingRng(g: fc.GeneratorValue): DrawingRng {
  const rng = (): number => g(fc.integer, WORD) / 4294967296;
  return Object.assign(rng, { draw: <T>(arb: fc.Arbitrary<T>): T => g(() => arb) });
}

/**
 * The suite's `forSeeds(n, body)`: runs `body` runs(n) times, each on a generator drawn by
 * fast-check from `seed` (or FC_SEED); a failure is shrunk and names the seed and the draws.
 * Example: const forSeeds = seededRuns(0x5eed2026).
 */
export function seededRuns(seed: number): (n: number, body: (rng: DrawingRng) => void) => void {
  const s0 = process.env.FC_SEED ? Number(process.env.FC_SEED) : seed;
  return (n, body) =>
    fc.assert(
      fc.property(fc.gen(), (g) => {
        body(drawingRng(g));
      }),
      // unbiased: the draws uniform, as the suites' distributions were written for (shrinking is unaffected)
      { numRuns: runs(n), seed: s0, unbiased: true },
    );
}

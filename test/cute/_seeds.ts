/** Seeded property runs for the CuTe vocabulary tests (as test/algebra/properties.test.ts). */
import fc from 'fast-check';
import { mulberry32, type BL } from '../helpers/brute.js';
import { formatLayout, parseLayout } from '../../src/algebra/notation.js';
import type { Layout } from '../../src/algebra/layout.js';
import { LayoutError } from '../../src/algebra/errors.js';

const SEED = process.env.FC_SEED ? Number(process.env.FC_SEED) : 0x5eed2026;
const SCALE = process.env.FC_RUNS ? Number(process.env.FC_RUNS) / 100 : 1;

/** Run `body` on `n` seeded generators; a failure names the seed (and body's messages). */
export function forSeeds(n: number, body: (rng: () => number) => void): void {
  fc.assert(
    fc.property(fc.integer({ min: 0, max: 0x7fffffff }), (s) => {
      body(mulberry32(s));
    }),
    { numRuns: Math.max(1, Math.round(n * SCALE)), seed: SEED },
  );
}

/** A brute-side layout as a validated library Layout (through the parser). */
export const lib = (l: BL): Layout => parseLayout(formatLayout(l as Layout));

/** The error kind of f, or null when it succeeds. */
export function kindOf(f: () => unknown): string | null {
  try {
    f();
    return null;
  } catch (e) {
    if (e instanceof LayoutError) return e.kind;
    throw e;
  }
}

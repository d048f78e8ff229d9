/** Random layouts for the evaluator tests (seeded, reproducible). */
import { makeLayout, type Layout } from '../../src/algebra/layout.js';
import type { Tuple } from '../../src/algebra/tuple.js';
import { drawFrom, layouts } from '../helpers/arbitraries.js';

export function rng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s / 4294967296;
  };
}

export const int = (r: () => number, lo: number, hi: number): number => lo + Math.floor(r() * (hi - lo + 1));

/** a random layout of size ≤ maxSize: nested up to depth 2, strides often column-major-like (compact runs and their
 *  reversal), sometimes wild (collisions, gaps), sometimes 0, and with `bigStrides` half of them beyond 2^20 — the
 *  kit's one arbitrary (test/helpers/arbitraries.ts), so a seeded run over it shrinks */
export function randomLayout(r: () => number, maxSize = 4096, bigStrides = false): Layout {
  const l = drawFrom(r, layouts({ minLen: 1, maxLen: 5, maxShape: 13, maxStride: 40, maxSize, maxDepth: 2, colex: true, powersOfTwo: true, bigStrides }));
  return makeLayout(l.shape as Tuple, l.stride as Tuple);
}

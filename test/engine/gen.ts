/** Random layouts for the evaluator tests (seeded, reproducible). */
import { makeLayout, type Layout } from '../../src/algebra/layout.js';
import type { Tuple } from '../../src/algebra/tuple.js';

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

/** a random layout of size ≤ maxSize: nested up to depth 2, strides often colex-like, sometimes
 *  wild (collisions, gaps), sometimes 0 */
export function randomLayout(r: () => number, maxSize = 4096, bigStrides = false): Layout {
  for (;;) {
    const n = int(r, 1, 5);
    const shapes: number[] = [];
    let sz = 1;
    for (let i = 0; i < n; i++) {
      const s = r() < 0.3 ? 2 ** int(r, 0, 4) : int(r, 1, 13);
      shapes.push(s);
      sz *= s;
    }
    if (sz > maxSize) continue;
    const strides: number[] = [];
    let colex = 1;
    for (let i = 0; i < n; i++) {
      const k = r();
      let d: number;
      if (k < 0.45) d = colex;
      else if (k < 0.55) d = 0;
      else d = int(r, 1, 40);
      if (bigStrides && r() < 0.5) d = d * int(r, 1 << 20, 1 << 24) + int(r, 0, 1000);
      strides.push(d);
      colex *= shapes[i]!;
    }
    // shuffle the strides of a colex layout now and then (a permutation stays compact)
    if (r() < 0.3) strides.reverse();
    // nest: group the first two entries
    let shape: Tuple = shapes;
    let stride: Tuple = strides;
    if (n >= 3 && r() < 0.4) {
      shape = [[shapes[0]!, shapes[1]!], ...shapes.slice(2)];
      stride = [[strides[0]!, strides[1]!], ...strides.slice(2)];
    } else if (n === 1 && r() < 0.5) {
      shape = shapes[0]!;
      stride = strides[0]!;
    }
    return makeLayout(shape, stride);
  }
}

/**
 * Sorting entries (src/algebra/complement.ts, sortEntries; Def. 2.1.6.x) against the brute
 * force's sort, on short lists (insertion sort) and long ones (the O(n log n) sort), and the
 * predicates that sort on layouts of 200,000 entries (issue 9: an insertion sort took 43 s;
 * asserted on the outcome, under a deadline-free vitest timeout, never on wall time).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sortEntries } from '../../src/algebra/complement.js';
import { isTractableSpec, mulberry32, randInt, sortedB, type BL } from '../helpers/brute.js';
import { drawingRng } from '../helpers/seeds.js';
import { ok } from './_run.js';

const SEED = process.env.FC_SEED ? Number(process.env.FC_SEED) : 0x5eed2028;

describe('sortEntries', () => {
  it('orders by stride, then shape, dropping shape-1 entries unless asked not to (any length)', () => {
    fc.assert(
      fc.property(fc.gen(), (g) => {
        const rng = drawingRng(g);
        const n = rng() < 0.5 ? randInt(rng, 0, 30) : randInt(rng, 20, 300);
        const s = Array.from({ length: n }, () => (rng() < 0.2 ? 1 : randInt(rng, 1, 9)));
        const d = Array.from({ length: n }, () => randInt(rng, 0, rng() < 0.5 ? 5 : 2 ** 40));
        const l: BL = { shape: s, stride: d };
        for (const dropUnit of [true, false]) {
          const got = sortEntries(s, d, dropUnit);
          const want = sortedB(l, !dropUnit);
          expect(got.shapes).toEqual(want.map((e) => e[0]));
          expect(got.strides).toEqual(want.map((e) => e[1]));
        }
      }),
      { numRuns: 150, seed: SEED },
    );
  });

  it('is_tractable, is_compact and complement answer on 200,000 entries', () => {
    const n = 200_000;
    const rng = mulberry32(200_000);
    // shape-1 entries with random strides, shuffled: size 1, tractable exactly when the
    // sorted non-zero strides divide each other (docs/semantics.md §7)
    const strides = Array.from({ length: n }, () => 2 ** randInt(rng, 0, 40));
    const l = `(${new Array(n).fill(1).join(',')}):(${strides.join(',')})`;
    expect(ok('is_tractable', l)).toBe(true);
    const bad = strides.slice();
    bad[randInt(rng, 0, n - 1)] = 3;
    const lb = `(${new Array(n).fill(1).join(',')}):(${bad.join(',')})`;
    expect(isTractableSpec({ shape: new Array(n).fill(1), stride: bad })).toBe(false);
    expect(ok('is_tractable', lb)).toBe(false);
    expect(ok('is_compact', l)).toBe(true);
    expect(ok('complement', l, 6)).toBe('6:1');
    // a column-major layout of 40 entries of shape 2 among the 200,000, shuffled
    const shapes = new Array(n).fill(1);
    const st = strides.slice();
    const at = Array.from({ length: 40 }, (_, i) => i * 5000 + randInt(rng, 0, 4999));
    at.forEach((k, i) => {
      shapes[k] = 2;
      st[k] = 2 ** (39 - i);
    });
    const lc = `(${shapes.join(',')}):(${st.join(',')})`;
    expect(ok('is_compact', lc)).toBe(true);
    expect(ok('complement', lc, 2 ** 41)).toBe('2:1099511627776');
  }, 60_000);
});

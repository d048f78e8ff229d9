/**
 * The phase tables of the swizzle search (src/memory/phases.ts): the swizzle as 32-bit bits
 * against applySwizzle, and the search built on them against a loop of bank_conflicts on
 * random tiles, access patterns, element sizes and vector widths (the two facts of phases.ts
 * are exact only if these agree everywhere).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LayoutError } from '../../src/algebra/errors.js';
import { makeLayout } from '../../src/algebra/layout.js';
import { makeSwizzle, applySwizzle } from '../../src/cute/swizzle.js';
import { swizzleBits } from '../../src/memory/phases.js';
import { searchCpu, swizzleCandidates, type AccessPattern, type CandidateResult } from '../../src/memory/search.js';
import { loop, strip } from './_search.js';

/** A bijective TV layout over [0, 2^k): the first `vb` value modes are the tile index's low
 *  bits in order (so vectors are often contiguous), the other bits split into thread and value
 *  modes in a random order (each mode of shape 2, its stride the bit it stands for). */
const tvOver = (k: number) =>
  fc
    .record({
      vb: fc.integer({ min: 0, max: Math.min(4, k - 1) }),
      order: fc.shuffledSubarray([...Array(k).keys()], { minLength: k, maxLength: k }),
      cut: fc.integer({ min: 1, max: k }),
    })
    .map(({ vb, order, cut }) => {
      const low = [...Array(vb).keys()];
      const rest = order.filter((b) => b >= vb);
      const t = rest.slice(0, Math.max(1, Math.min(cut, rest.length)));
      const v = [...low, ...rest.slice(t.length)];
      const mode = (bits: number[]) =>
        bits.length === 0
          ? makeLayout(1, 0)
          : bits.length === 1
            ? makeLayout(2, 2 ** bits[0]!)
            : makeLayout(
                bits.map(() => 2),
                bits.map((b) => 2 ** b),
              );
      const tm = mode(t);
      const vm = mode(v);
      return makeLayout([tm.shape, vm.shape], [tm.stride, vm.stride]);
    });

describe('swizzleBits', () => {
  it('computes applySwizzle for every Sw<B,M,S> of the search on random offsets', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 5 }),
        fc.integer({ min: 0, max: 7 }),
        fc.integer({ min: -10, max: 10 }),
        fc.integer({ min: 0, max: 2 ** 30 - 1 }),
        (b, m, s, y) => {
          fc.pre(Math.abs(s) >= b);
          const sw = makeSwizzle(b, m, s);
          const { mask, r, l } = swizzleBits(sw)!;
          expect(y ^ (((y & mask) >>> r) << l)).toBe(applySwizzle(sw, y));
        },
      ),
    );
  });
});

describe('the search from phase tables', () => {
  it('equals a loop of bank_conflicts on random tiles, patterns, element sizes and vector widths', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 4, max: 11 }).chain((k) =>
          fc.record({
            k: fc.constant(k),
            rowBits: fc.integer({ min: 1, max: k - 1 }),
            pad: fc.constantFrom(0, 0, 1, 8),
            tvs: fc.array(tvOver(k), { minLength: 1, maxLength: 2 }),
            e: fc.constantFrom(1, 2, 4, 8, 16),
            v: fc.constantFrom(undefined, undefined, 1, 2, 4, 8),
            pick: fc.integer({ min: 0, max: 6 }),
          }),
        ),
        ({ k, rowBits, pad, tvs, e, v, pick }) => {
          // a row-major tile of 2^rowBits rows, rows padded by `pad` elements, indexed column
          // first (the tile index's low bits run along a row, where vectors can be contiguous)
          const cols = 2 ** (k - rowBits);
          const base = makeLayout([cols, 2 ** rowBits], [1, cols + pad]);
          const cands = swizzleCandidates(base).filter((_, i) => i % 7 === pick);
          const patterns: AccessPattern[] = tvs.map((tv) => (v === undefined ? { tv, e } : { tv, e, v }));
          const expected = loop(cands, patterns);
          let got: CandidateResult[];
          try {
            got = searchCpu(cands, patterns);
          } catch (err) {
            // a pattern the search rejects outright (a bad v): every candidate fails in the loop too
            expect(err).toBeInstanceOf(LayoutError);
            expect(expected.every((r) => r.wavefronts === null)).toBe(true);
            return;
          }
          expect(strip(got)).toEqual(expected);
        },
      ),
      { numRuns: 40 },
    );
  });
});

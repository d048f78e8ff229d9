/**
 * make_layout(S, O)'s strides (docs/semantics.md §8.4, CuTe `compact_order`): the accelerator
 * orderedStridesBySort against the definition orderedStridesByDefinition (entry j's stride is the product of the
 * shapes whose order is less) on random shapes and orders, from 1 entry to 40; an order with two equal entries is
 * `domain` for both.
 */
import { describe, expect, it } from 'vitest';
import { orderedStridesByDefinition, orderedStridesBySort } from '../../src/cute/make.js';
import { randInt } from '../helpers/brute.js';
import { forSeeds, kindOf } from './_seeds.js';

describe('make_layout(S, O): the accelerator equals the definition', () => {
  it('on random shapes and orders (distinct entries: the same strides; a tie: domain for both)', () => {
    let ties = 0;
    forSeeds(500, (rng) => {
      const n = randInt(rng, 1, 40);
      const s = Array.from({ length: n }, () => randInt(rng, 1, 2)); // size ≤ 2^40: every product exact
      // distinct orders with gaps and negatives, shuffled
      const o = Array.from({ length: n }, (_, i) => 3 * i - 20 + randInt(rng, 0, 2)).sort(() => rng() - 0.5);
      const tie = n > 1 && rng() < 0.25;
      if (tie) {
        o[randInt(rng, 0, n - 1)] = o[randInt(rng, 0, n - 1)]!;
        if (new Set(o).size === n) o[0] = o[n - 1]!;
        ties++;
      }
      const tag = `S = (${s}), O = (${o})`;
      if (tie) {
        expect(
          kindOf(() => orderedStridesByDefinition(s, o, o)),
          tag,
        ).toBe('domain');
        expect(
          kindOf(() => orderedStridesBySort(s, o, o)),
          tag,
        ).toBe('domain');
      } else {
        const want = orderedStridesByDefinition(s, o, o);
        // the definition itself: stride j is the product of the shapes ordered before it
        for (let j = 0; j < n; j++) expect(want[j], tag).toBe(s.reduce((p, x, i) => (o[i]! < o[j]! ? p * x : p), 1));
        expect(orderedStridesBySort(s, o, o), tag).toEqual(want);
      }
    });
    expect(ties).toBeGreaterThan(50);
  });
});

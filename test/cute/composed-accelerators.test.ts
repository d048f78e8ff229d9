/**
 * The cosize of a composed layout (docs/semantics.md §9.1): its named accelerators (src/cute/composed.ts) against
 * its definition, 1 + the largest Φ(x) = Sw(K + Φ_L(x)) over every x, which is checked itself against Φ evaluated
 * point by point. `cosizeWithinBlock` must equal the definition wherever it decides (and decide some random
 * layouts, leave others), `cosizeBySplit` everywhere, and so must cosizeLayoutFunction.
 */
import { describe, expect, it } from 'vitest';
import { LayoutError } from '../../src/algebra/errors.js';
import { size, type Layout } from '../../src/algebra/layout.js';
import {
  cosizeBySplit,
  cosizeComposedByDefinition,
  cosizeLayoutFunction,
  cosizeWithinBlock,
  makeComposed,
  phiComposed,
  type ComposedLayout,
} from '../../src/cute/composed.js';
import { makeSwizzle, type Swizzle } from '../../src/cute/swizzle.js';
import { randInt, showL, type BL } from '../helpers/brute.js';
import { randomLayout } from '../helpers/arbitraries.js';
import { forSeeds, lib } from './_seeds.js';

/** a valid swizzle: its fields near the offsets reached (so that it often acts), or anywhere */
function swizzle(rng: () => number): Swizzle {
  const bits = randInt(rng, 0, 4);
  const shift = (rng() < 0.3 ? -1 : 1) * randInt(rng, bits, bits + (rng() < 0.7 ? 4 : 20));
  return makeSwizzle(bits, randInt(rng, 0, rng() < 0.7 ? 4 : 20), shift);
}

/** a compact layout of 2^k points (a permutation of its powers of two), or a random layout */
function inner(rng: () => number): Layout {
  if (rng() < 0.5) return lib(randomLayout(rng, { maxLen: 4, maxShape: 6, maxStride: 40 }));
  const k = randInt(rng, 1, 4);
  const s = Array.from({ length: k }, () => 2 ** randInt(rng, 1, 3));
  const order = s.map((_, i) => i).sort(() => rng() - 0.5);
  const d = new Array<number>(k).fill(0);
  let p = 1;
  for (const i of order) {
    d[i] = p;
    p *= s[i]!;
  }
  return lib({ shape: s, stride: d } as BL);
}

function composed(rng: () => number): ComposedLayout | null {
  const l = inner(rng);
  // K = 0, a multiple of size(L) (the offsets reached part of an aligned block), a power of two, or any
  const r = rng();
  const k = r < 0.4 ? 0 : r < 0.7 ? size(l) * randInt(rng, 1, 3) : r < 0.85 ? 2 ** randInt(rng, 0, 8) : randInt(rng, 0, 100);
  try {
    return makeComposed(swizzle(rng), k, l);
  } catch (e) {
    if (e instanceof LayoutError && e.kind === 'overflow') return null;
    throw e;
  }
}

const show = (c: ComposedLayout): string => `Sw<${c.swizzle.bits},${c.swizzle.base},${c.swizzle.shift}> o ${c.offset} o ${showL(c.inner as never)}`;

describe('cosize of a composed layout: the accelerators equal the definition', () => {
  it('on random composed layouts', () => {
    let decided = 0;
    let undecided = 0;
    forSeeds(600, (rng) => {
      const c = composed(rng);
      if (c === null) return;
      let max = 0;
      for (let x = 0; x < size(c.inner); x++) max = Math.max(max, phiComposed(c, x));
      const want = cosizeComposedByDefinition(c);
      expect(want, `definition: ${show(c)}`).toBe(BigInt(max + 1));
      expect(cosizeBySplit(c), `cosizeBySplit: ${show(c)}`).toBe(want);
      expect(cosizeLayoutFunction(c), show(c)).toBe(want);
      const block = cosizeWithinBlock(c);
      if (block === null) undecided++;
      else {
        decided++;
        expect(block, `cosizeWithinBlock: ${show(c)}`).toBe(want);
      }
    });
    expect(decided, 'cosizeWithinBlock decides some').toBeGreaterThan(50);
    expect(undecided, 'cosizeWithinBlock leaves some to the split').toBeGreaterThan(50);
  });

  it('the definition refuses, as overflow, more than 2^24 points', () => {
    const c = makeComposed(makeSwizzle(3, 3, 3), 0, lib({ shape: [4096, 4097], stride: [1, 4096] } as BL));
    expect(() => cosizeComposedByDefinition(c)).toThrow(expect.objectContaining({ kind: 'overflow' }));
  });
});

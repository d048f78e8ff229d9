/**
 * Composed layouts whose swizzle reads bits the offsets never reach (issue 18, item 10): values
 * that are representable are never `overflow`. cosize = 1 + max Φ against brute force (random
 * composed layouts, swizzle fields anywhere) and, for the reproducers too large to enumerate,
 * against the definition read off the offsets reached (a swizzle that reads no bit of them is the
 * identity there; one that maps whole aligned blocks onto themselves keeps the largest offset);
 * the 53-bit bound of makeComposed and the offset bound of the bulk checks (prep.ts swizzleBound)
 * from the offsets reached, not the mask.
 */
import { describe, expect, it } from 'vitest';
import { LayoutError } from '../../src/algebra/errors.js';
import { cosize, size, type Layout } from '../../src/algebra/layout.js';
import { cosizeLayoutFunction, makeComposed, parseLayoutFunction, phiComposed, type ComposedLayout } from '../../src/cute/composed.js';
import { applySwizzleBig, makeSwizzle, swizzleWithin, type Swizzle } from '../../src/cute/swizzle.js';
import { swizzleBound } from '../../src/engine/prep.js';
import { randInt, showL } from '../helpers/brute.js';
import { randomLayout } from '../helpers/arbitraries.js';
import { forSeeds, lib } from './_seeds.js';

/** a valid swizzle with its fields anywhere from bit 0 to bit ~40 */
function wildSwizzle(rng: () => number): Swizzle {
  const bits = randInt(rng, 0, 6);
  const shift = (rng() < 0.4 ? -1 : 1) * randInt(rng, bits, bits + 20);
  return makeSwizzle(bits, randInt(rng, 0, 20), shift);
}

const composedOrNull = (sw: Swizzle, k: number, l: Layout): ComposedLayout | null => {
  try {
    return makeComposed(sw, k, l);
  } catch (e) {
    if (e instanceof LayoutError && e.kind === 'overflow') return null;
    throw e;
  }
};

describe('swizzleWithin: the swizzle as it acts below 2^w', () => {
  it('agrees with Sw on every y < 2^w (random swizzles and widths)', () => {
    forSeeds(300, (rng) => {
      const sw = wildSwizzle(rng);
      const w = randInt(rng, 0, 12);
      const eff = swizzleWithin(sw, w);
      for (let y = 0; y < 2 ** w; y += 1 + randInt(rng, 0, 15)) expect(applySwizzleBig(eff, BigInt(y)), `y = ${y}`).toBe(applySwizzleBig(sw, BigInt(y)));
    });
  });
});

describe('cosize of a composed layout = 1 + max Φ, from the offsets reached', () => {
  it('equals brute force on random composed layouts with swizzle fields anywhere', () => {
    let identity = 0;
    forSeeds(400, (rng) => {
      const l = lib(randomLayout(rng, { maxLen: 4, maxShape: 6, maxStride: 40 }));
      const c = composedOrNull(wildSwizzle(rng), rng() < 0.5 ? 0 : randInt(rng, 0, 100), l);
      if (c === null) return;
      let max = 0;
      for (let x = 0; x < size(l); x++) max = Math.max(max, phiComposed(c, x));
      const got = cosizeLayoutFunction(c);
      expect(got, `${showL(l as never)} under Sw<${c.swizzle.bits},${c.swizzle.base},${c.swizzle.shift}> o ${c.offset}`).toBe(BigInt(max + 1));
      if (got === BigInt(cosize(l) + c.offset)) identity++;
    });
    expect(identity).toBeGreaterThan(50);
  });

  it('the reproducers: a swizzle that is the identity on the offsets, one whose blocks are whole', () => {
    // Sw<3,30,3> reads bits 33–35: the offsets stay below 2^26, so it is the identity there
    expect(cosizeLayoutFunction(parseLayoutFunction('Sw<3,30,3> o (8192,8192):(8192,1)'))).toBe(2n ** 26n);
    expect(cosizeLayoutFunction(parseLayoutFunction('Sw<3,50,3> o 9007199254740991:1'))).toBe(2n ** 53n - 1n);
    // (4096,4096,4):(4096,1,2^24) is a bijection onto [0, 2^26), one aligned block of Sw<2,0,24>
    expect(cosizeLayoutFunction(parseLayoutFunction('Sw<2,0,24> o (4096,4096,4):(4096,1,16777216)'))).toBe(2n ** 26n);
    // the same structure small enough to enumerate: the block argument agrees with brute force
    const small = parseLayoutFunction('Sw<2,0,6> o (8,8,4):(8,1,64)') as ComposedLayout;
    let max = 0;
    for (let x = 0; x < 256; x++) max = Math.max(max, phiComposed(small, x));
    expect(cosizeLayoutFunction(small)).toBe(BigInt(max + 1));
  });
});

describe('the 53-bit bound from the offsets reached', () => {
  it('a left shift whose reached bits land below 2^53 is a layout; one past it is overflow', () => {
    // offsets < 2^32: Sw<5,29,-20> reads bits 29–31 of them (33, 34 never set) and writes bits 49–51
    const c = parseLayoutFunction('Sw<5,29,-20> o 2147483651 o (64):(64)') as ComposedLayout;
    expect(phiComposed(c, 63)).toBeLessThan(2 ** 53);
    // offsets < 2^12: Sw<31,0,-32> writes at most bits 32–43
    expect(() => parseLayoutFunction('Sw<31,0,-32> o (64,64):(64,1)')).not.toThrow();
    // offsets reach bit 0: Sw<1,0,-64> writes bit 64
    expect(() => parseLayoutFunction('Sw<1,0,-64> o (64,64):(64,1)')).toThrow(/2\^53/);
  });

  it('the bound of the bulk checks contains every value, and is the offsets themselves when the swizzle reads none of them', () => {
    forSeeds(300, (rng) => {
      const l = lib(randomLayout(rng, { maxLen: 3, maxShape: 6, maxStride: 50 }));
      const c = composedOrNull(wildSwizzle(rng), randInt(rng, 0, 64), l);
      if (c === null) return;
      const ymax = c.offset + cosize(l) - 1;
      const bound = swizzleBound(c.swizzle, ymax);
      for (let x = 0; x < size(l); x++) expect(phiComposed(c, x)).toBeLessThan(bound);
      if (swizzleWithin(c.swizzle, ymax.toString(2).length).bits === 0) expect(bound).toBe(ymax + 1);
    });
    expect(swizzleBound(makeSwizzle(3, 30, 3), 2 ** 26 - 1)).toBe(2 ** 26);
  });
});

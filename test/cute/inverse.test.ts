/**
 * right_inverse and left_inverse (docs/semantics.md §8.5): the examples, and properties against brute
 * force Φ on random layouts: Φ_L(Φ_R(i)) = i for i < size(R); for an injective L,
 * Φ_R(Φ_L(i)) = i; CuTe's greedy construction re-derived independently.
 */
import { describe, expect, it } from 'vitest';
import { err, ok } from '../algebra/_run.js';
import { leftInverse, rightInverse } from '../../src/cute/inverse.js';
import { isCoalescedB, isCompactB, layoutEq, parseL, phiB, showL, sizeB, valuesB, type BL } from '../helpers/brute.js';
import { randomComplementable, randomLayout } from '../helpers/arbitraries.js';
import { forSeeds, kindOf, lib } from './_seeds.js';
import { leftInverseSpec, rightInverseSpec } from './_spec.js';

const injective = (l: BL): boolean => new Set(valuesB(l)).size === sizeB(l);

describe('right_inverse', () => {
  it('docs/semantics.md §8.5 examples', () => {
    expect(ok('right_inverse', '(4,8):(1,5)')).toBe('4:1');
    expect(ok('right_inverse', '(2,4,6):(4,1,8)')).toBe('(4,2,6):(2,1,8)');
    expect(ok('right_inverse', '(2,3):(1,1)')).toBe('2:1');
    expect(ok('right_inverse', '(4,8):(2,5)')).toBe('1:0');
    expect(ok('right_inverse', '():()')).toBe('1:0');
    expect(ok('right_inverse', '(4,(2,8)):(2,(1,8))')).toBe('(2,4,8):(4,1,8)');
    expect(ok('right_inverse', '(4,(2,8)):(8,(1,32))')).toBe('2:4'); // 4:8 is not reached from 2:1
  });

  it('Φ_L(Φ_R(i)) = i for i < size(R), R coalesced, as docs/semantics.md constructs it (random layouts)', () => {
    forSeeds(500, (rng) => {
      const l = randomLayout(rng, { maxLen: 5, maxShape: 6, maxStride: 16 });
      const r = rightInverse(lib(l)) as BL;
      const tag = `right_inverse(${showL(l)}) = ${showL(r)}`;
      expect(isCoalescedB(r), tag).toBe(true);
      for (let i = 0; i < sizeB(r); i++) expect(phiB(l, phiB(r, i)), `${tag} at i = ${i}`).toBe(i);
      expect(layoutEq(r, rightInverseSpec(l)), `${tag}, expected ${showL(rightInverseSpec(l))}`).toBe(true);
      // a compact L is inverted whole
      if (isCompactB(l)) expect(sizeB(r), tag).toBe(sizeB(l));
    });
  });
});

describe('left_inverse', () => {
  it("docs/semantics.md §8.5 examples (CuTe C++'s, not pycute's)", () => {
    expect(ok('left_inverse', '(4,8):(1,5)')).toBe('(5,8):(1,4)');
    expect(ok('left_inverse', '4:2')).toBe('(2,4):(0,1)');
    expect(ok('left_inverse', '(4,6):(1,5)')).toBe('(5,6):(1,4)');
    expect(ok('left_inverse', '(4,8):(8,1)')).toBe('(8,4):(4,1)');
    expect(ok('left_inverse', '(4,2):(0,0)')).toBe('8:0');
    expect(ok('left_inverse', '():()')).toBe('1:0');
  });

  it('divisibility failure is domain, naming the stride', () => {
    const e = err('left_inverse', '(4,6):(2,3)');
    expect(e.kind).toBe('domain');
    expect(e.message).toContain('3');
    expect(e.message).toContain('2');
    // size(R) = 2^52·2 is beyond 2^53 − 1: refused, never rounded
    expect(err('left_inverse', '2:4503599627370496').kind).toBe('overflow');
  });

  it('Φ_R(Φ_L(i)) = i for an injective L (chains and random layouts); failures exactly where docs/semantics.md says', () => {
    let inverted = 0;
    forSeeds(500, (rng) => {
      const l = rng() < 0.5 ? randomComplementable(rng).a : randomLayout(rng, { maxLen: 4, maxShape: 5, maxStride: 12 });
      const want = leftInverseSpec(l);
      const kind = kindOf(() => leftInverse(lib(l)));
      if (want === null) {
        expect(kind, `left_inverse(${showL(l)}) must fail`).toBe('domain');
        return;
      }
      const r = leftInverse(lib(l)) as BL;
      const tag = `left_inverse(${showL(l)}) = ${showL(r)}`;
      expect(layoutEq(r, want), `${tag}, expected ${showL(want)}`).toBe(true);
      if (!injective(l)) return;
      inverted++;
      for (let i = 0; i < sizeB(l); i++) {
        const x = phiB(l, i);
        expect(x < sizeB(r), `${tag}: Φ_L(${i}) = ${x} in R's domain`).toBe(true);
        expect(phiB(r, x), `${tag} at i = ${i}`).toBe(i);
      }
    });
    expect(inverted).toBeGreaterThan(100);
  });

  it('examples parse back through the brute parser', () => {
    expect(layoutEq(parseL(ok('left_inverse', '(4,8):(1,5)') as string), parseL('(5,8):(1,4)'))).toBe(true);
  });
});

/**
 * filter_zeros and filter (docs/semantics.md §8.5): the examples, and on random layouts, against brute
 * force: filter_zeros keeps the structure and the strides and gives shape 1 exactly to the
 * stride-0 entries; filter(L) is coalesced, has no stride-0 entry, and takes the same
 * values as L on the entries of non-zero stride.
 */
import { describe, expect, it } from 'vitest';
import { ok } from '../algebra/_run.js';
import { filter, filterZeros } from '../../src/cute/filter.js';
import { coalB, flatB, isCoalescedB, layoutEq, profB, showL, tupEq, valuesB, type BL } from '../helpers/brute.js';
import { randomLayout } from '../helpers/arbitraries.js';
import { forSeeds, lib } from './_seeds.js';

describe('filter_zeros and filter', () => {
  it('docs/semantics.md §8.5 examples', () => {
    expect(ok('filter_zeros', '(4,1,(2,3)):(1,5,(0,8))')).toBe('(4,1,(1,3)):(1,5,(0,8))');
    expect(ok('filter', '(4,1,(2,3)):(1,5,(0,8))')).toBe('(4,3):(1,8)');
    expect(ok('filter', '(4,2):(0,0)')).toBe('1:0');
    expect(ok('filter', '():()')).toBe('1:0');
    expect(ok('filter', '(4,2):(2,9)')).toBe('(4,2):(2,9)');
    expect(ok('filter', '(4,2):(2,8)')).toBe('8:2');
    expect(ok('filter', '(4,2):(1,4)')).toBe('8:1');
    expect(ok('filter_zeros', '7:0')).toBe('1:0');
    // filter_zeros is structural: any size
    expect(ok('filter_zeros', '(4294967296,4294967296):(0,1)')).toBe('(1,4294967296):(0,1)');
  });

  it('against brute force on random layouts', () => {
    forSeeds(400, (rng) => {
      const l = randomLayout(rng, { maxLen: 6, maxShape: 5, maxStride: 12 });
      const z = filterZeros(lib(l)) as BL;
      const f = filter(lib(l)) as BL;
      const tag = `${showL(l)}: filter_zeros ${showL(z)}, filter ${showL(f)}`;
      expect(profB(z.shape), tag).toBe(profB(l.shape));
      expect(tupEq(z.stride, l.stride), tag).toBe(true);
      const fl = flatB(l);
      const fz = flatB(z);
      fl.s.forEach((s, i) => expect(fz.s[i], tag).toBe(fl.d[i] === 0 ? 1 : s));
      // filter: the coalesced layout of the non-zero-stride entries
      const keep = fl.s.map((_, i) => i).filter((i) => fl.d[i] !== 0);
      const nz: BL = { shape: keep.map((i) => fl.s[i]!), stride: keep.map((i) => fl.d[i]!) };
      expect(isCoalescedB(f), tag).toBe(true);
      expect(
        flatB(f).d.every((d, i) => d !== 0 || flatB(f).s[i] === 1),
        tag,
      ).toBe(true);
      expect(valuesB(f), tag).toEqual(valuesB(nz));
      expect(layoutEq(f, coalB(nz)), tag).toBe(true);
    });
  });
});

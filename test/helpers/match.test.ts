/** The example comparator (test/helpers/match.ts): regroupings of the same function pass, anything else fails with a reason. */
import { describe, expect, it } from 'vitest';
import { mismatch, swizzleB } from './match.js';

describe('match rules of the example pairs', () => {
  it('exact: JSON equality, key order aside', () => {
    expect(mismatch({ a: 1, b: [2, 3] }, { b: [2, 3], a: 1 })).toBeNull();
    expect(mismatch({ a: 1 }, { a: 2 })).not.toBeNull();
  });

  it('modes: another grouping of the same function passes; a different function or a shape off the guide fails', () => {
    const rule = { match: 'modes', guide: '(32,4)' };
    const want = '((4,8),(2,2)):((32,1),(16,8))';
    expect(mismatch(want, want, rule)).toBeNull();
    expect(mismatch('(32,4):(1,32)', '(32,4):(1,32)', rule)).toBeNull();
    expect(mismatch('((4,8),2,2):((32,1),16,8)', want, rule)).toMatch(/refine/);
    expect(mismatch('((4,8),(2,2)):((32,1),(16,8))', want, rule)).toBeNull();
    expect(mismatch('((4,8),((2),2)):((32,1),((16),8))', want, rule)).toBeNull();
    expect(mismatch('((4,8),(2,2)):((32,1),(8,16))', want, rule)).toMatch(/at x = /);
    expect(mismatch('(32,4):(1,32)', '(32,4):(1,32)', { match: 'modes', guide: '(16,8)' })).toMatch(/refine/);
    expect(mismatch(7, want, rule)).toMatch(/layout string/);
  });

  it('fields: the same keys, ruled keys by their rule and the others exactly', () => {
    const rule = { match: 'fields', fields: { layoutTV: { match: 'modes', guide: '(4,2)' } } };
    const want = { tiler: '(2,4)', layoutTV: '(4,2):(2,1)' };
    expect(mismatch({ tiler: '(2,4)', layoutTV: '((2,2),2):((2,4),1)' }, want, rule)).toBeNull();
    expect(mismatch({ tiler: '(4,2)', layoutTV: '(4,2):(2,1)' }, want, rule)).toMatch(/^tiler/);
    expect(mismatch({ tiler: '(2,4)' }, want, rule)).toMatch(/keys/);
  });

  it('tensor: offsets o + Φ(x) agree, whether the offset is outside or inside a composed layout', () => {
    const rule = { match: 'tensor', guide: '(8,4)' };
    const want = { offset: 33, layout: '(8,4):(2,256)' };
    expect(mismatch({ offset: 33, layout: '(8,(2,2)):(2,(256,512))' }, want, rule)).toBeNull();
    expect(mismatch({ offset: 32, layout: '(8,4):(2,256)' }, want, rule)).toMatch(/at x = 0/);
    const sw = { offset: 0, layout: 'Sw<3,3,3> o 1344 o (8,1,4):(1,0,16)' };
    expect(mismatch(sw, sw, { match: 'tensor', guide: '(8,1,4)' })).toBeNull();
    // 1344 = 1024 + 320: the part the swizzle does not see (bits ≥ 9) may stand outside
    expect(mismatch({ offset: 1024, layout: 'Sw<3,3,3> o 320 o (8,1,4):(1,0,16)' }, sw, { match: 'tensor', guide: '(8,1,4)' })).toBeNull();
    expect(mismatch({ offset: 1344, layout: 'Sw<3,3,3> o (8,1,4):(1,0,16)' }, sw, { match: 'tensor', guide: '(8,1,4)' })).not.toBeNull();
  });

  it('atoms-list: ascending, no repeats, every expected name', () => {
    const want = { copy: ['A', 'B'] };
    expect(mismatch({ copy: ['A', 'AB', 'B'] }, want, { match: 'atoms-list' })).toBeNull();
    expect(mismatch({ copy: ['B', 'A'] }, want, { match: 'atoms-list' })).toMatch(/ascending/);
    expect(mismatch({ copy: ['A', 'A', 'B'] }, want, { match: 'atoms-list' })).toMatch(/ascending/);
    expect(mismatch({ copy: ['A'] }, want, { match: 'atoms-list' })).toMatch(/missing B/);
    expect(mismatch({ copy: ['A', 'B'], mma: [] }, want, { match: 'atoms-list' })).toMatch(/keys/);
  });

  it('the swizzle by its definition: Sw<3,3,3> XORs bits 6–8 into bits 3–5; Sw<2,0,-3> shifts left', () => {
    for (let y = 0; y < 1024; y++) {
      expect(swizzleB(3, 3, 3, BigInt(y))).toBe(BigInt(y ^ (((y >> 6) & 7) << 3)));
      expect(swizzleB(2, 0, -3, BigInt(y))).toBe(BigInt(y ^ ((y & 3) << 3)));
    }
  });
});

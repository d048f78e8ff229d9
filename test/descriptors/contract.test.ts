/**
 * The driver's contract of cuTensorMapEncodeTiled (docs/descriptors.md §2.2, contract.ts) clause by clause: for each clause a
 * map that passes it (the worked bf16 128×64 map) and one that fails only it, the message naming the rule and the
 * numbers; and the same clauses reached through tma_desc from a layout.
 */
import { describe, expect, it } from 'vitest';
import { LayoutError } from '../../src/algebra/errors.js';
import { CONTRACT, checkTensorMap, type TensorMapFields } from '../../src/descriptors/contract.js';
import { tmaDesc } from '../../src/descriptors/api.js';

const GOOD: TensorMapFields = {
  rank: 2,
  globalDim: [4096, 4096],
  globalStrides: [8192],
  boxDim: [64, 128],
  elementStrides: [1, 1],
  interleave: 'NONE',
  swizzle: '128B',
  l2Promotion: 'L2_128B',
  oobFill: 'NONE',
};

/** clause name → a map failing it alone, and words its message must hold */
const FAILING: Record<string, [Partial<TensorMapFields>, string]> = {
  rank: [{ rank: 6, globalDim: [1, 1, 1, 1, 1, 1] }, 'tensorRank = 6'],
  globalDim: [{ globalDim: [2 ** 32 + 1, 4096] }, 'globalDim[0] = 4294967297 must be 1 to 2^32'],
  'globalStrides < 2^40': [{ globalStrides: [2 ** 40] }, 'globalStrides[0] = 1099511627776 bytes must be below 2^40'],
  'globalStrides multiple of 16': [{ globalStrides: [2008] }, 'globalStrides[0] = 2008 bytes must be a multiple of 16'],
  boxDim: [{ boxDim: [64, 257] }, 'boxDim[1] = 257 must be 1 to 256'],
  'boxDim[0]·e multiple of 16': [{ boxDim: [4, 128], swizzle: 'NONE' }, 'boxDim[0]·e = 4·2 = 8 bytes must be a multiple of 16'],
  elementStrides: [{ elementStrides: [1, 9] }, 'elementStrides[1] = 9 must be 1 to 8'],
  interleave: [{ interleave: '16B' }, 'interleave 16B'],
  'swizzle span': [{ boxDim: [128, 8] }, 'boxDim[0]·e = 256 bytes > 128'],
  l2Promotion: [{ l2Promotion: 'L2_512B' }, 'l2Promotion L2_512B'],
  oobFill: [{ oobFill: 'ZERO' }, 'oobFill ZERO'],
};

function failure(m: TensorMapFields): LayoutError | null {
  try {
    checkTensorMap(m, 2);
    return null;
  } catch (e) {
    if (e instanceof LayoutError) return e;
    throw e;
  }
}

describe("the driver's contract, clause by clause", () => {
  it('names every clause once, and each has a failing case here', () => {
    expect(Object.keys(FAILING).sort()).toEqual(CONTRACT.map((c) => c.name).sort());
  });
  it('accepts the worked map (docs/descriptors.md §2)', () => {
    expect(failure(GOOD)).toBeNull();
    for (const c of CONTRACT) expect(() => c.check(GOOD, 2)).not.toThrow();
  });
  for (const c of CONTRACT) {
    it(`${c.name}: passes the worked map, refuses one that breaks it alone`, () => {
      const [change, words] = FAILING[c.name]!;
      const bad = { ...GOOD, ...change };
      expect(() => c.check(GOOD, 2)).not.toThrow();
      const e = failure(bad);
      expect(e?.kind).toBe('domain');
      expect(e?.message).toContain(words);
      // it is this clause that fails, no earlier one
      expect(() => c.check(bad, 2)).toThrow(LayoutError);
      for (const other of CONTRACT.slice(0, CONTRACT.indexOf(c))) expect(() => other.check(bad, 2)).not.toThrow();
    });
  }
  it('the edges: globalDim 1 and 2^32, strides 16 and 2^40 − 16, box 1 and 256, inner boxes of 16 and 32 bytes under 32B', () => {
    expect(failure({ ...GOOD, globalDim: [1, 2 ** 32] })).toBeNull();
    expect(failure({ ...GOOD, globalDim: [0, 4096] })?.message).toContain('globalDim[0] = 0');
    expect(failure({ ...GOOD, globalStrides: [16] })).toBeNull();
    expect(failure({ ...GOOD, globalStrides: [2 ** 40 - 16] })).toBeNull();
    expect(failure({ ...GOOD, boxDim: [64, 256] })).toBeNull();
    expect(failure({ ...GOOD, boxDim: [64, 0] })?.message).toContain('boxDim[1] = 0');
    expect(failure({ ...GOOD, boxDim: [8, 1], swizzle: '32B' })).toBeNull();
    expect(failure({ ...GOOD, boxDim: [16, 1], swizzle: '32B' })).toBeNull();
    expect(failure({ ...GOOD, boxDim: [32, 1], swizzle: '32B' })?.message).toContain('64 bytes > 32');
    expect(failure({ ...GOOD, boxDim: [512, 1], swizzle: 'NONE' })?.message).toContain('boxDim[0] = 512');
  });
});

describe('the clauses through tma_desc', () => {
  const run = (gmem: string, smem: string, dtype = 'half_t'): string => {
    try {
      tmaDesc({ gmem, smem, dtype });
      return 'ok';
    } catch (e) {
      if (e instanceof LayoutError) return `${e.kind}: ${e.message}`;
      throw e;
    }
  };
  it('globalStrides multiple of 16: pitch 1024 passes, 1004 fails', () => {
    expect(run('(1024,1024):(1024,1)', '(8,64):(64,1)')).toBe('ok');
    expect(run('(1024,1004):(1004,1)', '(8,64):(64,1)')).toMatch(/^domain: .*2008 bytes must be a multiple of 16/);
  });
  it('globalStrides < 2^40: a stride of 2^38 fp16 passes, 2^39 fails', () => {
    expect(run('(64,8):(1,274877906944)', '(64,8):(1,64)')).toBe('ok');
    expect(run('(64,8):(1,549755813888)', '(64,8):(1,64)')).toMatch(/^domain: .*below 2\^40/);
  });
  it('globalDim ≤ 2^32: a mode of 2^32 passes, 2^32 + 8 fails', () => {
    expect(run('(4294967296,8):(1,4294967296)', '(64,8):(1,64)')).toBe('ok');
    expect(run('(4294967304,8):(1,4294967304)', '(64,8):(1,64)')).toMatch(/^domain: .*globalDim\[0\] = 4294967304/);
  });
  it('boxDim ≤ 256: 256 rows pass, 512 fail', () => {
    expect(run('(4096,4096):(4096,1)', '(256,64):(64,1)')).toBe('ok');
    expect(run('(4096,4096):(4096,1)', '(512,8):(8,1)')).toMatch(/^domain: .*boxDim\[1\] = 512 must be 1 to 256/);
  });
  it('boxDim[0]·e multiple of 16: 8 fp16 pass, 4 fail', () => {
    expect(run('(4096,4096):(4096,1)', '(64,8):(8,1)')).toBe('ok');
    expect(run('(4096,4096):(4096,1)', '(64,4):(4,1)')).toMatch(/^domain: .*boxDim\[0\]·e = 4·2 = 8 bytes/);
  });
  it('the swizzle span: 64 fp16 under 128B pass, 128 fail (CuTe does not check it)', () => {
    expect(run('(1024,1024):(1024,1)', 'Sw<3,3,3> o (8,64):(64,1)')).toBe('ok');
    expect(run('(1024,1024):(1024,1)', 'Sw<3,3,3> o (8,128):(128,1)')).toMatch(
      /inner box 256 bytes exceeds the 128B swizzle span: boxDim\[0\]·e = 256 bytes > 128/,
    );
    expect(run('(1024,1024):(1024,1)', 'Sw<1,3,3> o (8,16):(16,1)')).toBe('ok');
    expect(run('(1024,1024):(1024,1)', 'Sw<1,3,3> o (8,32):(32,1)')).toMatch(/> 32/);
  });
});

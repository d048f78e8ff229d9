/**
 * gmma_desc (docs/descriptors.md §3) against CuTe's own statements and brute force: the canonical forms of CuTe's comments in
 * make_gmma_desc / make_umma_desc (in units of T = 16 / sizeof(T)) accepted with the LBO and SBO they were built with;
 * every GMMA atom of every element type, tiled and sliced to one k-block, accepted with the layout type of its swizzle;
 * and for every accepted tile, the canonical layout rebuilt from the fields reproduces U's offsets (Φ, index by index).
 */
import { describe, expect, it } from 'vitest';
import { makeLayout, mode, phi, size, type Layout } from '../../src/algebra/layout.js';
import { upcast } from '../../src/cute/cast.js';
import { composeByMode } from '../../src/cute/divide.js';
import { innerLayout, makeComposed, mapInner, type LayoutFunction } from '../../src/cute/composed.js';
import { makeSwizzle } from '../../src/cute/swizzle.js';
import { SMEM_ATOMS, atomTiledTo } from '../../src/descriptors/atoms.js';
import { DTYPES, type DType } from '../../src/descriptors/dtype.js';
import { gmmaDescriptor, packDescriptor, type GmmaDescriptor, type Major } from '../../src/descriptors/gmma.js';
import { gmmaDesc } from '../../src/descriptors/api.js';
import { kindOf } from '../helpers/kind.js';

const W: Record<string, number> = {
  INTERLEAVE: 1,
  B32: 2,
  B64: 4,
  B128: 8,
  SWIZZLE_NONE: 1,
  SWIZZLE_32B: 2,
  SWIZZLE_64B: 4,
  SWIZZLE_128B: 8,
  SWIZZLE_128B_BASE32B: 8,
};

/** The canonical layout of docs/descriptors.md §3 in 16-byte units, rebuilt from a descriptor's fields for a (MN, K) extent in units. */
function canonical(d: GmmaDescriptor, major: Major, mn: number, k: number): Layout {
  const w = W[d.layoutType]!;
  const none = w === 1;
  if (major === 'K') return makeLayout([[8, mn / 8], k], [[none ? 1 : w, d.sbo], none ? d.lbo : 1]);
  const kAtom = d.layoutType === 'SWIZZLE_128B_BASE32B' ? 4 : 8;
  if (none)
    return makeLayout(
      [
        [1, mn],
        [kAtom, k / kAtom],
      ],
      [
        [0, d.sbo],
        [1, d.lbo],
      ],
    );
  return makeLayout(
    [
      [w, mn / w],
      [kAtom, k / kAtom],
    ],
    [
      [1, d.lbo],
      [w, d.sbo],
    ],
  );
}

/** Whether Φ_U and Φ of the rebuilt canonical layout agree at every index (a size-1 mode's stride read as 0). */
function reproduces(smem: LayoutFunction, dt: DType, d: GmmaDescriptor, major: Major): string | null {
  const u = upcast(innerLayout(smem), 16 / dt.bytes);
  const mn = size(mode(u, 1));
  const k = size(mode(u, 2));
  const c = canonical(d, major, mn, k);
  for (let i = 0; i < size(u); i++) if (phi(u, i) !== phi(c, i)) return `index ${i}: U ${phi(u, i)}, canonical ${phi(c, i)}`;
  return null;
}

const swizzled = (b: number, dt: DType, l: Layout): LayoutFunction => makeComposed(makeSwizzle(b, 4 - dt.log2Bytes, 3), 0, l);

describe("CuTe's canonical forms (the comments of make_gmma_desc), in units of T", () => {
  // LayoutType::B128 K: Sw<3,4,3> o smem_ptr o ((8,m),(T,2)):((8T,SBO),(1,T)), and its B64, B32 and INTERLEAVE siblings
  for (const dt of DTYPES) {
    const t = 16 / dt.bytes;
    it(`K-major, ${dt.name} (T = ${t}): B128, B64, B32 with SBO, INTERLEAVE with SBO and LBO`, () => {
      for (const [b, name, w] of [
        [3, 'B128', 8],
        [2, 'B64', 4],
        [1, 'B32', 2],
      ] as const) {
        const sbo = 8 * w * 2;
        const l = swizzled(
          b,
          dt,
          makeLayout(
            [
              [8, 4],
              [t, 2],
            ],
            [
              [w * t, sbo * t],
              [1, t],
            ],
          ),
        );
        const d = gmmaDescriptor({ smem: l, dtype: dt, major: 'K' });
        expect([d.layoutType, d.lbo, d.sbo]).toEqual([name, 1, sbo]);
        expect(reproduces(l, dt, d, 'K')).toBeNull();
      }
      const inter = makeLayout(
        [
          [8, 4],
          [t, 2],
        ],
        [
          [t, 8 * t],
          [1, 64 * t],
        ],
      );
      const d = gmmaDescriptor({ smem: inter, dtype: dt, major: 'K' });
      expect([d.layoutType, d.lbo, d.sbo]).toEqual(['INTERLEAVE', 64, 8]);
      expect(reproduces(inter, dt, d, 'K')).toBeNull();
    });
    // MN: ((T,8,m),(8,k)):((1,T,LBO),(8T,SBO)) for B128 (W = 8), ((T,1,m),(8,k)):((1,T,SBO),(1T,LBO)) for INTERLEAVE
    it(`MN-major, ${dt.name}: B128, B64, B32 with LBO and SBO, INTERLEAVE`, () => {
      // sm90 checks K: 8k elements of 8e bytes are 128, 256 or 512 bits
      const k = dt.bytes === 8 ? 1 : 4 / dt.bytes;
      for (const [b, name, w] of [
        [3, 'B128', 8],
        [2, 'B64', 4],
        [1, 'B32', 2],
      ] as const) {
        const lbo = w * 8;
        const sbo = w * 8 * 2;
        const l = swizzled(
          b,
          dt,
          makeLayout(
            [
              [t, w, 2],
              [8, k],
            ],
            [
              [1, t, lbo * t],
              [w * t, sbo * t],
            ],
          ),
        );
        const d = gmmaDescriptor({ smem: l, dtype: dt, major: 'MN' });
        expect([d.layoutType, d.lbo, d.sbo]).toEqual([name, lbo, k > 1 ? sbo : 0]);
        expect(reproduces(l, dt, d, 'MN')).toBeNull();
      }
      const inter = makeLayout(
        [
          [t, 1, 4],
          [8, k],
        ],
        [
          [1, t, 8 * t],
          [t, 32 * t],
        ],
      );
      const d = gmmaDescriptor({ smem: inter, dtype: dt, major: 'MN' });
      expect([d.layoutType, d.lbo, d.sbo]).toEqual(['INTERLEAVE', k > 1 ? 32 : 0, 8]);
      expect(reproduces(inter, dt, d, 'MN')).toBeNull();
    });
  }
});

/** k-block 0 of tile_to_shape(atom, (MN, 4 k-blocks)): the tile composed with (MN:1, kb:1). */
function kBlock(atomName: string, dt: DType, mnMul: number): { smem: LayoutFunction; major: Major } {
  const a = SMEM_ATOMS.find((x) => x.name === atomName)!;
  const w = a.rowBits / (8 * dt.bytes);
  const [am, ak] = a.major === 'K' ? [a.rows, w] : [w, a.rows];
  // one wgmma k-block is 32 bytes of K (sm90 K-major: 2 units; MN-major: 256 bits)
  const kb = Math.max(32 / dt.bytes, a.major === 'MN' ? 8 : 1);
  const tile = atomTiledTo(a, dt, [am * mnMul, Math.max(ak, kb) * 4]);
  const block = mapInner(tile, (l) => composeByMode(l, [makeLayout(am * mnMul, 1), makeLayout(kb, 1)]));
  return { smem: block, major: a.major };
}

describe('every GMMA atom of every element type, tiled and sliced to one k-block', () => {
  const TYPES: Record<string, string> = { 0: 'INTERLEAVE', 1: 'B32', 2: 'B64', 3: 'B128' };
  for (const a of SMEM_ATOMS.filter((x) => x.namespace === 'GMMA')) {
    it(`${a.name}<T> for every T: accepted on sm90 and sm100, the fields reproduce U`, () => {
      let accepted = 0;
      for (const dt of DTYPES) {
        for (const mnMul of [1, 2, 8]) {
          const kb = kBlock(a.name, dt, mnMul);
          const d = gmmaDescriptor({ smem: kb.smem, dtype: dt, major: kb.major });
          expect(d.layoutType).toBe(TYPES[a.b]);
          expect(d.smemAlignment).toBe(a.b === 0 ? 16 : 128 << a.b);
          expect(reproduces(kb.smem, dt, d, kb.major), `${a.name}<${dt.name}> ×${mnMul}`).toBeNull();
          const d100 = gmmaDescriptor({ smem: kb.smem, dtype: dt, major: kb.major, arch: 'sm100' });
          expect([d100.lbo, d100.sbo]).toEqual([d.lbo, d.sbo]);
          accepted++;
        }
      }
      expect(accepted).toBeGreaterThan(10);
    });
  }
  it("UMMA's Layout_MN_SW128_32B_Atom<T>: SWIZZLE_128B_BASE32B on sm100, refused on sm90 and K-major", () => {
    for (const dt of DTYPES) {
      const a = SMEM_ATOMS.find((x) => x.name === 'Layout_MN_SW128_32B_Atom')!;
      const w = a.rowBits / (8 * dt.bytes);
      const smem = atomTiledTo(a, dt, [w * 2, 8]);
      const d = gmmaDescriptor({ smem, dtype: dt, major: 'MN', arch: 'sm100' });
      expect(d.layoutType).toBe('SWIZZLE_128B_BASE32B');
      expect(reproduces(smem, dt, d, 'MN')).toBeNull();
      expect(kindOf(() => gmmaDescriptor({ smem, dtype: dt, major: 'MN' }))).toBe('domain');
      expect(kindOf(() => gmmaDescriptor({ smem, dtype: dt, major: 'K', arch: 'sm100' }))).toBe('domain');
    }
  });
});

describe('the 64 bits (mma_sm90_desc.hpp, mma_sm100_desc.hpp)', () => {
  it('sm90: LBO at bit 16, SBO at 32, layout type at 62; sm100: version 1 at bit 46, layout type at 61', () => {
    expect(packDescriptor('sm90', 1, 1, 64)).toBe('0x4000004000010000');
    expect(packDescriptor('sm90', 3, 0x3fff, 0x3fff)).toBe('0xc0003fff3fff0000');
    expect(packDescriptor('sm100', 2, 1, 64)).toBe('0x4000404000010000');
    expect(packDescriptor('sm100', 6, 0, 0)).toBe('0xc000400000000000');
    expect(packDescriptor('sm90', 0, 0, 0)).toBe('0x0000000000000000');
  });
  it('a field of 2^14 units does not fit (domain), 2^14 − 1 does', () => {
    const inter = (sbo: number): Layout =>
      makeLayout(
        [
          [8, 2],
          [8, 2],
        ],
        [
          [8, sbo * 8],
          [1, 512],
        ],
      );
    expect(gmmaDescriptor({ smem: inter(2 ** 14 - 1), dtype: DTYPES[0]!, major: 'K' }).sbo).toBe(2 ** 14 - 1);
    expect(() => gmmaDescriptor({ smem: inter(2 ** 14), dtype: DTYPES[0]!, major: 'K' })).toThrow(/SBO = 16384 units .* 14 bits/);
  });
});

describe('the checks, each failing as CuTe names it', () => {
  const fail = (smem: string, major: string, dtype = 'half_t', arch?: string): string => {
    try {
      gmmaDesc({ smem, dtype, major, arch });
      return 'ok';
    } catch (e) {
      return (e as Error).message;
    }
  };
  it('rank 2 only', () => expect(fail('(8,8,2):(8,1,64)', 'K')).toMatch(/rank 3/));
  it('K-major MN a multiple of 8', () => expect(fail('(4,16):(16,1)', 'K')).toMatch(/MN-size multiple of 8, got 4/));
  it('sm90 K-major K = 2 or 4 units; sm100 takes 8', () => {
    expect(fail('Sw<3,3,3> o ((8,8),(64,1)):((64,512),(1,0))', 'K')).toMatch(/K-size 2 \(or 4, sparse\).*got 8/);
    expect(fail('Sw<3,3,3> o ((8,8),32):((64,512),1)', 'K')).toBe('ok');
    expect(fail('Sw<3,3,3> o ((8,8),(64,1)):((64,512),(1,0))', 'K', 'half_t', 'sm100')).toBe('ok');
  });
  it('sm90 MN-major K = 256 / sizeof_bits (or 128, 512)', () => {
    expect(fail('Sw<3,3,3> o ((64,2),(8,2)):((1,512),(64,1024))', 'MN')).toBe('ok');
    expect(fail('Sw<3,3,3> o ((64,2),(8,3)):((1,512),(64,1024))', 'MN')).toMatch(/K-size 16, 8, 32.*got 24/);
  });
  it('the stride of the 8 rows (K) and of the W units (MN): expected stride failure with the numbers', () => {
    expect(fail('(64,16):(16,1)', 'K')).toMatch(/expected stride failure: the stride of the 8 rows is 2, expected 1/);
    expect(fail('Sw<3,3,3> o ((8,8),16):((32,512),1)', 'K')).toMatch(/expected stride failure: the stride of the 8 rows is 4, expected 8/);
    expect(fail('Sw<3,3,3> o ((64,2),(8,2)):((1,512),(128,1024))', 'MN')).toMatch(/the stride of the 8 K rows is 16, expected 8/);
  });
  it('a mode that is not one stride: profile failure', () => {
    expect(fail('((8,4,2),(8,2)):((8,64,1024),(1,512))', 'K')).toMatch(/the rest of mode 1 .* is not one stride \(expected profile failure/);
  });
  it('the swizzle: B = 0 is none, M ≠ 4 and S ≠ 3 are refused with the reason, BASE32B sm100 only', () => {
    expect(fail('Sw<0,1,1> o ((8,8),(8,2)):((8,64),(1,512))', 'K')).toBe('ok');
    expect(fail('Sw<2,3,2> o ((8,8),16):((32,256),1)', 'K')).toMatch(/expected S = 3 when M = 4/);
    expect(fail('Sw<3,2,3> o ((8,8),16):((64,512),1)', 'K')).toMatch(/expected M = 4/);
    expect(fail('Sw<3,3,3> o 8 o ((8,8),16):((64,512),1)', 'K')).toMatch(/offset 8/);
  });
  it('where an atom of the major would pass, the message names it', () => {
    expect(fail('(64,16):(16,1)', 'K')).toMatch(/CUTLASS's Layout_K_SW32_Atom<half_t> tiled to \(64,16\) would pass: Sw<1,3,3> o \(8,16\):\(16,1\)/);
    expect(fail('(64,64):(1,64)', 'MN')).toMatch(/Layout_MN_SW128_Atom<half_t> tiled to \(64,64\)|K-size/);
  });
});

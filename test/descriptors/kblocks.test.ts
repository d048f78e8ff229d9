/**
 * The k-blocks of an operand tile (src/descriptors/kblocks.ts) against the definition, by brute force: element (m, j)
 * of k-block b is element (m, k_b + j) of the tile, Φ_S(m, k_b + j) = Sw(offset_b + Φ_block(m, j)) for every m, j
 * (the plain parts: Φ_L(m, k_b + j) = offset_b + Φ_Lb(m, j)); 256 bits of K per block; errors by kind.
 */
import { describe, expect, it } from 'vitest';
import { coordToOffset, mode, size } from '../../src/algebra/layout.js';
import { formatLayoutFunction, innerLayout, isComposed, parseLayoutFunction, type LayoutFunction } from '../../src/cute/composed.js';
import { applySwizzle } from '../../src/cute/swizzle.js';
import { kBlocks } from '../../src/descriptors/kblocks.js';
import { kindOf } from '../helpers/kind.js';

/** Φ of S at the (m, k) coordinate, by its own definition (Sw(K + Φ_L)). */
function at(s: LayoutFunction, m: number, k: number): number {
  const l = innerLayout(s);
  const v = coordToOffset(l, [m, k]);
  return isComposed(s) ? applySwizzle(s.swizzle, s.offset + v) : v;
}

const CASES: [string, number][] = [
  ['Sw<3,3,3> o ((8,8),(64,1)):((64,512),(1,0))', 2], // K-major SW128 bf16, 64×64
  ['Sw<3,3,3> o ((64,2),(8,8)):((1,512),(64,1024))', 2], // MN-major SW128 half, 128×64
  ['Sw<3,4,3> o ((8,16),(128,1)):((128,1024),(1,0))', 1], // fp8 K-major 128×128
  ['Sw<3,2,3> o ((8,16),(32,1)):((32,256),(1,0))', 4], // tf32 K-major 128×32
  ['(64,32):(40,1)', 2], // padded rows
  ['((8,2),(2,16)):((8,1),(64,128))', 2], // interleaved, K across two modes
];

describe('kBlocks', () => {
  it.each(CASES)('%s (%i-byte elements): every element of every block is the tile’s', (text, bytes) => {
    const s = parseLayoutFunction(text);
    const l = innerLayout(s);
    const mn = size(mode(l, 1));
    const kb = 32 / bytes;
    const blocks = kBlocks(s, bytes);
    expect(blocks).toHaveLength(size(mode(l, 2)) / kb);
    blocks.forEach((b, i) => {
      expect(b.k).toBe(i * kb);
      expect(b.offset).toBe(coordToOffset(l, [0, b.k]));
      const bl = innerLayout(b.layout);
      expect([size(mode(bl, 1)), size(mode(bl, 2))]).toEqual([mn, kb]);
      if (isComposed(s)) expect(isComposed(b.layout) && b.layout.swizzle).toEqual(s.swizzle);
      for (let m = 0; m < mn; m++) {
        for (let j = 0; j < kb; j++) {
          const v = b.offset + coordToOffset(bl, [m, j]);
          expect(isComposed(s) ? applySwizzle(s.swizzle, v) : v, `block ${i} (${m}, ${j})`).toBe(at(s, m, b.k + j));
        }
      }
    });
  });

  it('docs/descriptors.md §3: the first 16-element slice of the bf16 K-major 128B tile of 64×64', () => {
    const b = kBlocks(parseLayoutFunction('Sw<3,3,3> o ((8,8),(64,1)):((64,512),(1,0))'), 2)[0]!;
    // ((8,8),16):((64,512),1) is this function: rows 64 apart, 8 · 64 = 512 (coalesced)
    expect(formatLayoutFunction(b.layout)).toBe('Sw<3,3,3> o (64,16):(64,1)');
  });

  it('refuses a tile of rank ≠ 2 and a K that is not whole blocks (domain)', () => {
    expect(kindOf(() => kBlocks(parseLayoutFunction('(8,8,2):(1,8,64)'), 2))).toBe('domain');
    expect(kindOf(() => kBlocks(parseLayoutFunction('(64,24):(24,1)'), 2))).toBe('domain');
  });
});

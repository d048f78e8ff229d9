/**
 * The two worked examples of docs/linear.md, checked on every element: Triton's MMAv2 accumulator
 * LL is CuTe's TV layout ((4,8),(2,2)):((32,1),(16,8)) (output flattened dim0 + 16·dim1), and
 * Triton's 128-byte fp16 shared LL over 8×64 is the inverse of Sw<3,3,3> o (8,64):(64,1).
 */
import { describe, expect, it } from 'vitest';
import { parseLayoutFunction, phiLayoutFunctionBig } from '../../src/cute/composed.js';
import { parseLL } from '../../src/linear/forms.js';
import { apply, invert } from '../../src/linear/operations.js';

describe('the worked examples of docs/linear.md', () => {
  it('the MMAv2 accumulator LL is ((4,8),(2,2)):((32,1),(16,8))', () => {
    const ll = parseLL('#ttg.linear<{register = [[0, 1], [8, 0]], lane = [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp = [], block = []}>');
    const tv = parseLayoutFunction('((4,8),(2,2)):((32,1),(16,8))');
    for (let t = 0; t < 32; t++) {
      for (let v = 0; v < 4; v++) {
        const { dim0, dim1 } = apply(ll, { register: v, lane: t, warp: 0, block: 0 });
        expect(dim0! + 16 * dim1!).toBe(Number(phiLayoutFunctionBig(tv, t + 32 * v)));
      }
    }
  });

  it('the 128-byte fp16 nvmma_shared LL over 8×64 is the inverse of Sw<3,3,3> o (8,64):(64,1)', () => {
    const ll = parseLL(
      'SharedLinearLayout(offset_bases=[[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [0, 32], [1, 8], [2, 16], [4, 32]], block_bases=[], alignment=16)',
    );
    const cute = parseLayoutFunction('Sw<3,3,3> o (8,64):(64,1)');
    const inv = invert(ll);
    const seen = new Set<number>();
    for (let r = 0; r < 8; r++) {
      for (let c = 0; c < 64; c++) {
        const offset = Number(phiLayoutFunctionBig(cute, r + 8 * c));
        seen.add(offset);
        expect(apply(ll, { offset, block: 0 })).toEqual({ dim0: r, dim1: c });
        expect(apply(inv, { dim0: r, dim1: c })).toEqual({ offset, block: 0 });
      }
    }
    expect(seen.size).toBe(512);
  });
});

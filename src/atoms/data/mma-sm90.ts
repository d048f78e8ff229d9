/** SM90 warp-wide MMA atoms: 16x8x{4,8,16} double and complex double (CuTe `include/cute/atom/mma_traits_sm90.hpp`). */
import type { MmaAtomData } from '../types.js';
import { SM80_16x8_Row } from './mma-sm80.js';

const source = 'include/cute/atom/mma_traits_sm90.hpp';

/** (K, ALayout, BLayout) of the F64 traits; the C64 ones inherit them. */
const shapes: readonly (readonly [number, string, string])[] = [
  [4, '((4,8),2):((16,1),8)', '((4,8),1):((8,1),0)'],
  [8, '((4,8),(2,2)):((16,1),(8,64))', '((4,8),2):((8,1),32)'],
  [16, '((4,8),(2,4)):((16,1),(8,64))', '((4,8),4):((8,1),32)'],
];

export const sm90Mma: readonly MmaAtomData[] = ['F64F64F64F64', 'C64C64C64C64'].flatMap((types) =>
  shapes.map(([k, a, b]) => ({
    name: `SM90_16x8x${k}_${types}_TN`,
    thrID: '32:1',
    shapeMNK: [16, 8, k] as const,
    A: a,
    B: b,
    C: SM80_16x8_Row,
    source,
  })),
);

/** SM90 warp-wide MMA atoms: 16x8x{4,8,16} double and complex double (CuTe `include/cute/atom/mma_traits_sm90.hpp`). */
import type { MmaAtomData } from '../types.js';

const source = 'include/cute/atom/mma_traits_sm90.hpp';

/** An atom of K, ALayout and BLayout of the F64 traits (the C64 ones inherit them); C is SM80_16x8_Row. */
const warp = (name: string, k: number, a: string, b: string): MmaAtomData => ({
  name,
  thrID: '32:1',
  shapeMNK: [16, 8, k],
  A: a,
  B: b,
  C: '((4,8),(2,2)):((32,1),(16,8))',
  source,
});

export const sm90Mma: readonly MmaAtomData[] = [
  warp('SM90_16x8x4_F64F64F64F64_TN', 4, '((4,8),2):((16,1),8)', '((4,8),1):((8,1),0)'),
  warp('SM90_16x8x8_F64F64F64F64_TN', 8, '((4,8),(2,2)):((16,1),(8,64))', '((4,8),2):((8,1),32)'),
  warp('SM90_16x8x16_F64F64F64F64_TN', 16, '((4,8),(2,4)):((16,1),(8,64))', '((4,8),4):((8,1),32)'),
  warp('SM90_16x8x4_C64C64C64C64_TN', 4, '((4,8),2):((16,1),8)', '((4,8),1):((8,1),0)'),
  warp('SM90_16x8x8_C64C64C64C64_TN', 8, '((4,8),(2,2)):((16,1),(8,64))', '((4,8),2):((8,1),32)'),
  warp('SM90_16x8x16_C64C64C64C64_TN', 16, '((4,8),(2,4)):((16,1),(8,64))', '((4,8),4):((8,1),32)'),
];

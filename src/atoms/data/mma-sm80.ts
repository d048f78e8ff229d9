/** SM80 MMA atoms (CuTe `include/cute/atom/mma_traits_sm80.hpp`). */
import type { MmaAtomData } from '../types.js';

const src = 'include/cute/atom/mma_traits_sm80.hpp';

export const sm80Mma: readonly MmaAtomData[] = [
  {
    name: 'SM80_16x8x16_F32F16F16F32_TN',
    thrID: '32:1',
    shapeMNK: [16, 8, 16],
    A: '((4,8),(2,2,2)):((32,1),(16,8,128))',
    B: '((4,8),(2,2)):((16,1),(8,64))',
    C: '((4,8),(2,2)):((32,1),(16,8))',
    source: src,
  },
];

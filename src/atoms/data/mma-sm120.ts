/** SM120 MMA atoms: `SM120_16x8x32_TN<a,b,c>` (F8F6F4), whose traits inherit those of SM80_16x8x32_S32S8S8S32_TN
 *  (CuTe `include/cute/atom/mma_traits_sm120.hpp`); the element types are not part of the name. */
import type { MmaAtomData } from '../types.js';

export const sm120Mma: readonly MmaAtomData[] = [
  {
    name: 'SM120_16x8x32_TN',
    thrID: '32:1',
    shapeMNK: [16, 8, 32],
    A: '((4,8),(4,2,2)):((64,1),(16,8,256))',
    B: '((4,8),(4,2)):((32,1),(8,128))',
    C: '((4,8),(2,2)):((32,1),(16,8))',
    source: 'include/cute/atom/mma_traits_sm120.hpp',
  },
];

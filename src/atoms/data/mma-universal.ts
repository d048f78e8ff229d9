/** UniversalFMA: one thread, one scalar fused multiply-add (CuTe `MMA_Traits<UniversalFMA<D,A,B,C>>`,
 *  `include/cute/atom/mma_traits.hpp`); its element types do not change the layouts and are not part of the name. */
import type { MmaAtomData } from '../types.js';

export const universalMma: readonly MmaAtomData[] = [
  {
    name: 'UniversalFMA',
    thrID: '1:0',
    shapeMNK: [1, 1, 1],
    A: '(1,1):(0,0)',
    B: '(1,1):(0,0)',
    C: '(1,1):(0,0)',
    source: 'include/cute/atom/mma_traits.hpp',
  },
];

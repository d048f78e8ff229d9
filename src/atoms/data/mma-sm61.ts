/** SM61 MMA atoms: the dot-product instructions dp4a and dp2a (CuTe `include/cute/atom/mma_traits_sm61.hpp`). */
import type { MmaAtomData } from '../types.js';

const source = 'include/cute/atom/mma_traits_sm61.hpp';

/** One thread, C `Layout<Shape<_1,_1>>`; A and B `Layout<Shape<_1,K>>` (CuTe gives size-1 modes stride 0). */
const dot = (name: string, k: number): MmaAtomData => ({
  name,
  thrID: '1:0',
  shapeMNK: [1, 1, k],
  A: `(1,${k}):(0,1)`,
  B: `(1,${k}):(0,1)`,
  C: '(1,1):(0,0)',
  source,
});

export const sm61Mma: readonly MmaAtomData[] = [dot('SM61_DP4A', 4), dot('SM61_DP2A', 2)];

/**
 * SM100's vectorized FMA atoms, two fused multiply-adds of one thread (CuTe `include/cute/atom/mma_traits_sm100.hpp`,
 * `MMA_Traits<SM100_2x1x1_F32F32F32F32>` and `<SM100_1x2x1_F32F32F32F32>`): ThrID `Layout<_1>`, the pair of values
 * along M or N. CuTe's `Layout<Shape<_1,_2>>` is written with the stride 0 of its size-1 mode, as `UniversalFMA` is.
 */
import type { MmaAtomData } from '../types.js';

const source = 'include/cute/atom/mma_traits_sm100.hpp';

export const sm100Mma: readonly MmaAtomData[] = [
  { name: 'SM100_2x1x1_F32F32F32F32', thrID: '1:0', shapeMNK: [2, 1, 1], A: '(1,2):(0,1)', B: '(1,1):(0,0)', C: '(1,2):(0,1)', source },
  { name: 'SM100_1x2x1_F32F32F32F32', thrID: '1:0', shapeMNK: [1, 2, 1], A: '(1,1):(0,0)', B: '(1,2):(0,1)', C: '(1,2):(0,1)', source },
];

/** SM89 MMA atoms: FP8 16x8x32 with F32 and F16 accumulators (CuTe `include/cute/atom/mma_traits_sm89.hpp`). */
import type { MmaAtomData } from '../types.js';

const source = 'include/cute/atom/mma_traits_sm89.hpp';

/** The layouts of the int8 16x8x32 atom (mma-sm80.ts's `s16x8x32`), as the header writes them. */
const fp8 = (name: string): MmaAtomData => ({
  name,
  thrID: '32:1',
  shapeMNK: [16, 8, 32],
  A: '((4,8),(4,2,2)):((64,1),(16,8,256))',
  B: '((4,8),(4,2)):((32,1),(8,128))',
  C: '((4,8),(2,2)):((32,1),(16,8))',
  source,
});

/** Every (accumulator, A type, B type). */
export const sm89Mma: readonly MmaAtomData[] = [
  fp8('SM89_16x8x32_F32E4M3E4M3F32_TN'),
  fp8('SM89_16x8x32_F32E4M3E5M2F32_TN'),
  fp8('SM89_16x8x32_F32E5M2E4M3F32_TN'),
  fp8('SM89_16x8x32_F32E5M2E5M2F32_TN'),
  fp8('SM89_16x8x32_F16E4M3E4M3F16_TN'),
  fp8('SM89_16x8x32_F16E4M3E5M2F16_TN'),
  fp8('SM89_16x8x32_F16E5M2E4M3F16_TN'),
  fp8('SM89_16x8x32_F16E5M2E5M2F16_TN'),
];

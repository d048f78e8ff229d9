/** SM75 MMA atoms (CuTe `include/cute/atom/mma_traits_sm75.hpp`). */
import type { MmaAtomData } from '../types.js';

const source = 'include/cute/atom/mma_traits_sm75.hpp';

/** 16x8x8 HMMA: the F16 and F32 accumulators share the layouts. */
const hmma = (name: string): MmaAtomData => ({
  name,
  thrID: '32:1',
  shapeMNK: [16, 8, 8],
  A: '((4,8),(2,2)):((32,1),(16,8))',
  B: '((4,8),2):((16,1),8)',
  C: '((4,8),(2,2)):((32,1),(16,8))',
  source,
});

export const sm75Mma: readonly MmaAtomData[] = [
  hmma('SM75_16x8x8_F32F16F16F32_TN'),
  hmma('SM75_16x8x8_F16F16F16F16_TN'),
  {
    name: 'SM75_8x8x16_S32S8S8S32_TN',
    thrID: '32:1',
    shapeMNK: [8, 8, 16],
    A: '((4,8),4):((32,1),8)',
    B: '((4,8),4):((32,1),8)',
    C: '((4,8),2):((16,1),8)',
    source,
  },
];

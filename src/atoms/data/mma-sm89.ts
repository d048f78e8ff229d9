/** SM89 MMA atoms: FP8 16x8x32 with F32 and F16 accumulators (CuTe `include/cute/atom/mma_traits_sm89.hpp`). */
import type { MmaAtomData } from '../types.js';
import { s16x8x32 } from './mma-sm80.js';

const source = 'include/cute/atom/mma_traits_sm89.hpp';
const fp8 = ['E4M3', 'E5M2'];

/** Every (accumulator, A type, B type): the layouts of the int8 16x8x32 atom, as the header writes them. */
export const sm89Mma: readonly MmaAtomData[] = ['F32', 'F16'].flatMap((acc) =>
  fp8.flatMap((a) =>
    fp8.map((b) => ({
      name: `SM89_16x8x32_${acc}${a}${b}${acc}_TN`,
      thrID: '32:1',
      shapeMNK: [16, 8, 32] as const,
      A: s16x8x32.a,
      B: s16x8x32.b,
      C: s16x8x32.c,
      source,
    })),
  ),
);

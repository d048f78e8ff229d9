/** SM70 MMA atoms: the quadpair 8x8x4 HMMA (CuTe `include/cute/atom/mma_traits_sm70.hpp`). */
import type { MmaAtomData } from '../types.js';

const source = 'include/cute/atom/mma_traits_sm70.hpp';

/** SM70_QuadPair: logical thread id → lane (lanes 0–3 and 16–19 of a quadpair). */
const quadPair = '(4,2):(1,16)';
/** SM70_8x4_Row and SM70_8x4_Col: (T8,V4) → (M8,K4). */
const row = '(8,4):(1,8)';
const col = '((4,2),4):((8,4),1)';
/** SM70_8x8_16b and SM70_8x8_32b: (T8,V8) → (M8,N8). */
const c16 = '(8,8):(1,8)';
const c32 = '((2,2,2),(2,2,2)):((1,16,4),(8,2,32))';

/** The majors: T is the row layout, N the column layout (A then B). */
const majors = { TN: [row, row], NT: [col, col], NN: [col, row], TT: [row, col] } as const;

const quad = (name: string, m: keyof typeof majors, c: string): MmaAtomData => ({
  name,
  thrID: quadPair,
  shapeMNK: [8, 8, 4],
  A: majors[m][0],
  B: majors[m][1],
  C: c,
  source,
});

export const sm70Mma: readonly MmaAtomData[] = [
  quad('SM70_8x8x4_F16F16F16F16_TN', 'TN', c16),
  quad('SM70_8x8x4_F16F16F16F16_NT', 'NT', c16),
  quad('SM70_8x8x4_F16F16F16F16_NN', 'NN', c16),
  quad('SM70_8x8x4_F16F16F16F16_TT', 'TT', c16),
  quad('SM70_8x8x4_F32F16F16F32_TN', 'TN', c32),
  quad('SM70_8x8x4_F32F16F16F32_NT', 'NT', c32),
  quad('SM70_8x8x4_F32F16F16F32_NN', 'NN', c32),
  quad('SM70_8x8x4_F32F16F16F32_TT', 'TT', c32),
];

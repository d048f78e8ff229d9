/**
 * SM80 MMA atoms, all 65 `MMA_Traits` specializations (CuTe `include/cute/atom/mma_traits_sm80.hpp`):
 * 16x8x8 and 16x8x16 F16/F32/BF16, 16x8x4 and 16x8x8 TF32, 8x8x4 F64 (and its complex C64 and
 * Gauss-complex GC64), the int8 and int4 families with signed/unsigned operands (each with its
 * `_SATURATE` twin, same layouts), and the 1-bit XORPOPC/ANDPOPC ones.
 */
import type { MmaAtomData } from '../types.js';

const source = 'include/cute/atom/mma_traits_sm80.hpp';

/** SM80_8x4: (T32,V1) → (M8,N4). */
const SM80_8x4 = '((4,8),1):((8,1),0)';
/** SM80_8x8_Row: (T32,V2) → (M8,N8). */
const SM80_8x8_Row = '((4,8),2):((16,1),8)';
/** SM80_8x16_Row: (T32,V4) → (M8,N16). */
const SM80_8x16_Row = '((4,8),4):((32,1),8)';
/** SM80_16x8_Row: (T32,V4) → (M16,N8), the C layout of every 16x8 atom. */
const SM80_16x8_Row = '((4,8),(2,2)):((32,1),(16,8))';

/** A warp-wide atom (ThrID `Layout<_32>`). */
const warp = (name: string, m: number, n: number, k: number, a: string, b: string, c: string): MmaAtomData => ({
  name,
  thrID: '32:1',
  shapeMNK: [m, n, k],
  A: a,
  B: b,
  C: c,
  source,
});

/** The layouts of a traits struct, reused by the specializations that inherit from it. */
interface Shape3 {
  readonly m: number;
  readonly n: number;
  readonly k: number;
  readonly a: string;
  readonly b: string;
  readonly c: string;
}
const named = (name: string, s: Shape3): MmaAtomData => warp(name, s.m, s.n, s.k, s.a, s.b, s.c);

const f16x8x8: Shape3 = { m: 16, n: 8, k: 8, a: SM80_16x8_Row, b: SM80_8x8_Row, c: SM80_16x8_Row };
const f16x8x16: Shape3 = {
  m: 16,
  n: 8,
  k: 16,
  a: '((4,8),(2,2,2)):((32,1),(16,8,128))',
  b: '((4,8),(2,2)):((16,1),(8,64))',
  c: SM80_16x8_Row,
};

/** The int8 traits (8x8x16, 16x8x16, 16x8x32); the 16x8x32 one is also SM89's and SM120's (written again there). */
const s8x8x16: Shape3 = { m: 8, n: 8, k: 16, a: SM80_8x16_Row, b: SM80_8x16_Row, c: SM80_8x8_Row };
const s16x8x16: Shape3 = { m: 16, n: 8, k: 16, a: '((4,8),(4,2)):((64,1),(16,8))', b: SM80_8x16_Row, c: SM80_16x8_Row };
const s16x8x32: Shape3 = {
  m: 16,
  n: 8,
  k: 32,
  a: '((4,8),(4,2,2)):((64,1),(16,8,256))',
  b: '((4,8),(4,2)):((32,1),(8,128))',
  c: SM80_16x8_Row,
};

/** The int4 traits (8x8x32, 16x8x32, 16x8x64), as the header writes them (`Shape<_8>` is a 1-tuple), at CUTLASS
 *  aeba0d372 ("correct BLayout stride in SM80 m16n8k32 int4 MMA traits"): the 16x8x32 BLayout strides its threads
 *  by 64, the hardware's (thread t holds k = 8·(t mod 4) + v of column n = ⌊t/4⌋), where earlier headers wrote 32
 *  (160 of the 256 elements reached, some twice). Every A and B now covers its tile (test/atoms/data.test.ts). */
const s4x8x32: Shape3 = { m: 8, n: 8, k: 32, a: '((4,8),(8)):((64,1),(8))', b: '((4,8),(8)):((64,1),(8))', c: SM80_8x8_Row };
const s4x16x32: Shape3 = {
  m: 16,
  n: 8,
  k: 32,
  a: '((4,8),(8,2)):((128,1),(16,8))',
  b: '((4,8),(8)):((64,1),(8))',
  c: SM80_16x8_Row,
};
const s4x16x64: Shape3 = {
  m: 16,
  n: 8,
  k: 64,
  a: '((4,8),(8,2,2)):((128,1),(16,8,512))',
  b: '((4,8),(8,2)):((64,1),(8,256))',
  c: SM80_16x8_Row,
};

/** SM80_16x8x256 and its siblings (1-bit operands): XORPOPC and ANDPOPC share the layouts. */
const b1x16x256: Shape3 = {
  m: 16,
  n: 8,
  k: 256,
  a: '((4,8),(32,2,2)):((512,1),(16,8,2048))',
  b: '((4,8),(32,2)):((256,1),(8,1024))',
  c: SM80_16x8_Row,
};
const b1x8x128: Shape3 = { m: 8, n: 8, k: 128, a: '((4,8),32):((256,1),8)', b: '((4,8),32):((256,1),8)', c: SM80_8x8_Row };
/** The header's ALayout here has a stride not congruent to its shape (no layout); docs/atoms.md takes
 *  the intended `((4,8),(32,2)):((512,1),(16,8))`, the pattern of the 16x8x256 sibling. */
const b1x16x128: Shape3 = { m: 16, n: 8, k: 128, a: '((4,8),(32,2)):((512,1),(16,8))', b: '((4,8),32):((256,1),8)', c: SM80_16x8_Row };

export const sm80Mma: readonly MmaAtomData[] = [
  named('SM80_16x8x8_F16F16F16F16_TN', f16x8x8),
  named('SM80_16x8x16_F16F16F16F16_TN', f16x8x16),
  named('SM80_16x8x8_F32F16F16F32_TN', f16x8x8),
  named('SM80_16x8x16_F32F16F16F32_TN', f16x8x16),
  named('SM80_16x8x8_F32BF16BF16F32_TN', f16x8x8),
  named('SM80_16x8x16_F32BF16BF16F32_TN', f16x8x16),
  warp('SM80_16x8x4_F32TF32TF32F32_TN', 16, 8, 4, '((4,8),2):((16,1),8)', SM80_8x4, SM80_16x8_Row),
  warp('SM80_16x8x8_F32TF32TF32F32_TN', 16, 8, 8, '((4,8),(2,2)):((16,1),(8,64))', '((4,8),2):((8,1),32)', SM80_16x8_Row),
  warp('SM80_8x8x4_F64F64F64F64_TN', 8, 8, 4, SM80_8x4, SM80_8x4, SM80_8x8_Row),
  warp('SM80_8x8x4_C64C64C64C64_TN', 8, 8, 4, SM80_8x4, SM80_8x4, SM80_8x8_Row),
  warp('SM80_8x8x4_GC64C64C64GC64_TN', 8, 8, 4, SM80_8x4, SM80_8x4, SM80_8x8_Row),
  // the integer families: every operand signedness, each with its `_SATURATE` twin (the same layouts)
  named('SM80_8x8x16_S32S8S8S32_TN', s8x8x16),
  named('SM80_8x8x16_S32S8S8S32_TN_SATURATE', s8x8x16),
  named('SM80_8x8x16_S32S8U8S32_TN', s8x8x16),
  named('SM80_8x8x16_S32S8U8S32_TN_SATURATE', s8x8x16),
  named('SM80_8x8x16_S32U8S8S32_TN', s8x8x16),
  named('SM80_8x8x16_S32U8S8S32_TN_SATURATE', s8x8x16),
  named('SM80_8x8x16_S32U8U8S32_TN', s8x8x16),
  named('SM80_8x8x16_S32U8U8S32_TN_SATURATE', s8x8x16),
  named('SM80_16x8x16_S32S8S8S32_TN', s16x8x16),
  named('SM80_16x8x16_S32S8S8S32_TN_SATURATE', s16x8x16),
  named('SM80_16x8x16_S32S8U8S32_TN', s16x8x16),
  named('SM80_16x8x16_S32S8U8S32_TN_SATURATE', s16x8x16),
  named('SM80_16x8x16_S32U8S8S32_TN', s16x8x16),
  named('SM80_16x8x16_S32U8S8S32_TN_SATURATE', s16x8x16),
  named('SM80_16x8x16_S32U8U8S32_TN', s16x8x16),
  named('SM80_16x8x16_S32U8U8S32_TN_SATURATE', s16x8x16),
  named('SM80_16x8x32_S32S8S8S32_TN', s16x8x32),
  named('SM80_16x8x32_S32S8S8S32_TN_SATURATE', s16x8x32),
  named('SM80_16x8x32_S32S8U8S32_TN', s16x8x32),
  named('SM80_16x8x32_S32S8U8S32_TN_SATURATE', s16x8x32),
  named('SM80_16x8x32_S32U8S8S32_TN', s16x8x32),
  named('SM80_16x8x32_S32U8S8S32_TN_SATURATE', s16x8x32),
  named('SM80_16x8x32_S32U8U8S32_TN', s16x8x32),
  named('SM80_16x8x32_S32U8U8S32_TN_SATURATE', s16x8x32),
  named('SM80_8x8x32_S32S4S4S32_TN', s4x8x32),
  named('SM80_8x8x32_S32S4S4S32_TN_SATURATE', s4x8x32),
  named('SM80_8x8x32_S32S4U4S32_TN', s4x8x32),
  named('SM80_8x8x32_S32S4U4S32_TN_SATURATE', s4x8x32),
  named('SM80_8x8x32_S32U4S4S32_TN', s4x8x32),
  named('SM80_8x8x32_S32U4S4S32_TN_SATURATE', s4x8x32),
  named('SM80_8x8x32_S32U4U4S32_TN', s4x8x32),
  named('SM80_8x8x32_S32U4U4S32_TN_SATURATE', s4x8x32),
  named('SM80_16x8x32_S32S4S4S32_TN', s4x16x32),
  named('SM80_16x8x32_S32S4S4S32_TN_SATURATE', s4x16x32),
  named('SM80_16x8x32_S32S4U4S32_TN', s4x16x32),
  named('SM80_16x8x32_S32S4U4S32_TN_SATURATE', s4x16x32),
  named('SM80_16x8x32_S32U4S4S32_TN', s4x16x32),
  named('SM80_16x8x32_S32U4S4S32_TN_SATURATE', s4x16x32),
  named('SM80_16x8x32_S32U4U4S32_TN', s4x16x32),
  named('SM80_16x8x32_S32U4U4S32_TN_SATURATE', s4x16x32),
  named('SM80_16x8x64_S32S4S4S32_TN', s4x16x64),
  named('SM80_16x8x64_S32S4S4S32_TN_SATURATE', s4x16x64),
  named('SM80_16x8x64_S32S4U4S32_TN', s4x16x64),
  named('SM80_16x8x64_S32S4U4S32_TN_SATURATE', s4x16x64),
  named('SM80_16x8x64_S32U4S4S32_TN', s4x16x64),
  named('SM80_16x8x64_S32U4S4S32_TN_SATURATE', s4x16x64),
  named('SM80_16x8x64_S32U4U4S32_TN', s4x16x64),
  named('SM80_16x8x64_S32U4U4S32_TN_SATURATE', s4x16x64),
  // the 1-bit families: XORPOPC and ANDPOPC share the layouts
  named('SM80_16x8x256_S32U1U1S32_TN_XORPOPC', b1x16x256),
  named('SM80_16x8x256_S32U1U1S32_TN_ANDPOPC', b1x16x256),
  named('SM80_8x8x128_S32U1U1S32_TN_XORPOPC', b1x8x128),
  named('SM80_8x8x128_S32U1U1S32_TN_ANDPOPC', b1x8x128),
  named('SM80_16x8x128_S32U1U1S32_TN_XORPOPC', b1x16x128),
  named('SM80_16x8x128_S32U1U1S32_TN_ANDPOPC', b1x16x128),
];

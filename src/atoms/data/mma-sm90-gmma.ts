/**
 * SM90 GMMA (warpgroup MMA) atoms, generated from their rule (CuTe `include/cute/atom/mma_traits_sm90_gmma.hpp`):
 * 40 families `SM90_64xNxK_<types>_{SS,RS}[_TN][_SATURATE]` for N ∈ {8, 16, 32, 64, 96, 128, 192, 256},
 * 320 names. Every atom is 128 threads (ThrID `Layout<_128>`). An SS operand lives in shared memory and every
 * thread sees the whole tile through the descriptor (`GMMA::ABLayout<MN,K>`); an RS A operand is
 * register-distributed (`GMMA::ALayout_64x{8,16,32}` by the width of the A type); C is `GMMA::CLayout_64xN`.
 * The majors and scales of the F16/BF16 ones are template arguments that leave the layouts alone
 * (they only change the shared-memory descriptor), so they are not part of the names (docs/atoms.md).
 */
import type { MmaAtomData } from '../types.js';

const source = 'include/cute/atom/mma_traits_sm90_gmma.hpp';

/** The N values of the required set (the others of `mma_traits_sm90_gmma_ext.hpp` are optional). */
export const GMMA_N: readonly number[] = [8, 16, 32, 64, 96, 128, 192, 256];

/** `GMMA::ABLayout<MN,K>`: (128,(MN,K)):(0,(1,MN)). */
const abLayout = (mn: number, k: number): string => `(128,(${mn},${k})):(0,(1,${mn}))`;
/** `GMMA::CLayout_64xN`. */
const cLayout = (n: number): string => `((4,8,4),(2,2,${n / 8})):((128,1,16),(64,8,512))`;
/** The register-source A layouts by the A type's width in bits: `GMMA::ALayout_64x8` (32-bit), `_64x16` (16-bit), `_64x32` (8-bit). */
const rsA: Readonly<Record<number, string>> = {
  32: '((4,8,4),(2,2)):((64,1,16),(8,256))',
  16: '((4,8,4),(2,2,2)):((128,1,16),(64,8,512))',
  8: '((4,8,4),(4,2,2)):((256,1,16),(64,8,1024))',
};

/** One family: its name pattern `SM90_64x{N}x{K}_{types}_{SS|RS}{suffix}`, K and the A type's width. */
interface Family {
  readonly types: string;
  readonly k: number;
  readonly bitsA: 8 | 16 | 32;
  readonly suffix: string;
}

const families: readonly Family[] = [
  ...['F16F16F16', 'F32F16F16', 'F32BF16BF16'].map((types) => ({ types, k: 16, bitsA: 16 as const, suffix: '' })),
  { types: 'F32TF32TF32', k: 8, bitsA: 32, suffix: '_TN' },
  ...['S8S8', 'S8U8', 'U8S8', 'U8U8'].flatMap((ab) => ['_TN', '_TN_SATURATE'].map((suffix) => ({ types: `S32${ab}`, k: 32, bitsA: 8 as const, suffix }))),
  ...['E4M3E4M3', 'E4M3E5M2', 'E5M2E4M3', 'E5M2E5M2'].flatMap((ab) =>
    ['F16', 'F32'].map((acc) => ({ types: `${acc}${ab}`, k: 32, bitsA: 8 as const, suffix: '_TN' })),
  ),
];

const atom = (f: Family, n: number, rs: boolean): MmaAtomData => ({
  name: `SM90_64x${n}x${f.k}_${f.types}_${rs ? 'RS' : 'SS'}${f.suffix}`,
  thrID: '128:1',
  shapeMNK: [64, n, f.k],
  A: rs ? rsA[f.bitsA]! : abLayout(64, f.k),
  B: abLayout(n, f.k),
  C: cLayout(n),
  source,
});

export const sm90GmmaMma: readonly MmaAtomData[] = families.flatMap((f) => GMMA_N.flatMap((n) => [atom(f, n, false), atom(f, n, true)]));

/**
 * The SM100 atoms' names as CuTe defines them, written out here independently of src/ and of scripts/gen-atoms.mjs:
 * the UMMA families with their legal (M, N) as the static_asserts of CUTLASS's `include/cute/arch/mma_sm100_umma.hpp`
 * and `include/cute/atom/mma_traits_sm100.hpp` state them (predicates over every M and N up to 256, not lists), and
 * the TMEM copies of `include/cute/atom/copy_traits_sm100.hpp` (NVIDIA/cutlass 7107b05, 2026-08-20).
 */

/** One UMMA atom of CuTe's list: its name `Family<M,N>`, (M, N, K), whether a CTA pair issues it, whether A is in TMEM. */
export interface Umma {
  readonly name: string;
  readonly M: number;
  readonly N: number;
  readonly K: number;
  readonly pair: boolean;
  readonly ts: boolean;
}

const mult = (n: number, k: number, lo: number): boolean => n % k === 0 && lo <= n && n <= 256;
/** mma_sm100_umma.hpp:48–49 (SS: N a multiple of 8 for M 64 or 128), :130–131 (TS: 8 for M = 64, 16 for M = 128). */
const ss1 = (m: number, n: number): boolean => (m === 64 || m === 128) && mult(n, 8, 8);
const ts1 = (m: number, n: number): boolean => (m === 64 && mult(n, 8, 8)) || (m === 128 && mult(n, 16, 16));
/** :514–515 (2x1SM SS: M 128 or 256, N a multiple of 16), :595–596 (2x1SM TS: of 32). */
const ss2 = (m: number, n: number): boolean => (m === 128 || m === 256) && mult(n, 16, 16);
const ts2 = (m: number, n: number): boolean => (m === 128 || m === 256) && mult(n, 32, 32);
/** :971–972, :1011–1012 (S8 SS and TS: N = 8 or a multiple of 16); :1092–1093, :1133–1134 (S8 2x1SM: of 32). */
const s8 = (m: number, n: number): boolean => (m === 64 || m === 128) && (n === 8 || mult(n, 16, 16));

/** Family, K (256 bits of the A type; CuTe's K = 32 for F8F6F4, 64 for MXF4) and the legal (M, N). */
const FAMILIES: readonly (readonly [string, number, (m: number, n: number) => boolean])[] = [
  ...(
    [
      ['TF32', 8],
      ['F16BF16', 16],
    ] as const
  ).flatMap(
    ([t, k]) =>
      [
        [`SM100_MMA_${t}_SS`, k, ss1],
        [`SM100_MMA_${t}_TS`, k, ts1],
        [`SM100_MMA_${t}_2x1SM_SS`, k, ss2],
        [`SM100_MMA_${t}_2x1SM_TS`, k, ts2],
      ] as const,
  ),
  ['SM100_MMA_S8_SS', 32, s8],
  ['SM100_MMA_S8_TS', 32, s8],
  ['SM100_MMA_S8_2x1SM_SS', 32, ts2],
  ['SM100_MMA_S8_2x1SM_TS', 32, ts2],
  // mma_traits_sm100.hpp:2473–2475: M 64 or 128, N a multiple of 8 for a K-major B (16 for MN-major): the union
  ['SM100_MMA_F8F6F4_SS', 32, ss1],
  ['SM100_MMA_F8F6F4_TS', 32, ts1],
  // mma_traits_sm100.hpp:2890–2892: M 128 or 256, N a multiple of 16 for a K-major B (32 for MN-major)
  ['SM100_MMA_F8F6F4_2x1SM_SS', 32, ss2],
  ['SM100_MMA_F8F6F4_2x1SM_TS', 32, ts2],
  // mma_sm100_umma.hpp:1252–1253 (M = 128, N of 8), :1543–1544 (M = 256, N of 16)
  ['SM100_MMA_MXF8F6F4_SS', 32, (m, n) => m === 128 && mult(n, 8, 8)],
  ['SM100_MMA_MXF8F6F4_2x1SM_SS', 32, (m, n) => m === 256 && mult(n, 16, 16)],
  // mma_sm100_umma.hpp:1624–1625 (M = 128, N of 8), :1766–1767 (M 128 or 256, N of 16)
  ['SM100_MMA_MXF4_SS', 64, (m, n) => m === 128 && mult(n, 8, 8)],
  ['SM100_MMA_MXF4_2x1SM_SS', 64, ss2],
];

/** Every UMMA atom of CuTe's list: each family at each (M, N) its predicate accepts. */
export function requiredUmma(): Umma[] {
  const out: Umma[] = [];
  for (const [family, K, ok] of FAMILIES) {
    for (const M of [32, 64, 128, 256]) {
      for (let N = 1; N <= 256; N++) {
        if (ok(M, N)) out.push({ name: `${family}<${M},${N}>`, M, N, K, pair: family.includes('_2x1SM_'), ts: family.endsWith('_TS') });
      }
    }
  }
  return out;
}

/** Every `SM100_TMEM_LOAD_*` and `SM100_TMEM_STORE_*` of copy_traits_sm100.hpp: shapes 16dp256b (1x–32x), 16dp128b
 *  (1x–64x), 16dp64b, 16dp32b, 32dp32b (1x–128x), each plain and `_16b`, and `LOAD_STAT_32dp32b{32,128}x`. */
export function requiredTmem(): string[] {
  const reps = (max: number): number[] => Array.from({ length: Math.log2(max) + 1 }, (_, i) => 2 ** i);
  const shapes: readonly (readonly [string, number])[] = [
    ['16dp256b', 32],
    ['16dp128b', 64],
    ['16dp64b', 128],
    ['16dp32b', 128],
    ['32dp32b', 128],
  ];
  const names = ['LOAD', 'STORE'].flatMap((dir) =>
    shapes.flatMap(([s, max]) => reps(max).flatMap((r) => ['', '_16b'].map((p) => `SM100_TMEM_${dir}_${s}${r}x${p}`))),
  );
  return [...names, 'SM100_TMEM_LOAD_STAT_32dp32b32x', 'SM100_TMEM_LOAD_STAT_32dp32b128x'];
}

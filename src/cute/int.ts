/** Small integer helpers of CuTe's vocabulary. */

/** ⌈a/b⌉ for exact integers a ≥ 0, b ≥ 1 (CuTe `ceil_div`), exact up to 2^53 − 1
 *  (a − a mod b is a multiple of b, so the division is exact). */
export function ceilDiv(a: number, b: number): number {
  const r = a % b;
  return (a - r) / b + (r === 0 ? 0 : 1);
}

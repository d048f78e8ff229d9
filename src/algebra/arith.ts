/**
 * Checked integer arithmetic: every value of the algebra is a JavaScript number that is an
 * exact integer at most 2^53 − 1. A product or sum that would leave that range is refused with
 * an `overflow` error instead of being rounded. (For non-negative a, b ≤ 2^53 − 1 the rounded
 * float result exceeds 2^53 − 1 exactly when the true one does, so the checks are exact.)
 */
import { LayoutError } from './errors.js';

export const MAX_EXACT = Number.MAX_SAFE_INTEGER;

export function overflow(what: string): LayoutError {
  return new LayoutError('overflow', `${what} exceeds 2^53-1 and cannot be represented exactly`);
}

/** a·b for non-negative exact integers, or an overflow error naming `what`. */
export function mul(a: number, b: number, what = 'product'): number {
  const p = a * b;
  if (p > MAX_EXACT) throw overflow(what);
  return p;
}

/** a + b for non-negative exact integers, or an overflow error naming `what`. */
export function add(a: number, b: number, what = 'sum'): number {
  const s = a + b;
  if (s > MAX_EXACT) throw overflow(what);
  return s;
}

export function gcd(a: number, b: number): number {
  while (b !== 0) [a, b] = [b, a % b];
  return a;
}

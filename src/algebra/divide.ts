/**
 * Logical division and logical product (SPEC §6; paper 2.3.8, 2.3.9).
 */
import { mul } from './arith.js';
import { complement, span } from './complement.js';
import { compose } from './compose.js';
import { concat, cosize, size, type Layout } from './layout.js';
import { overflow } from './arith.js';

/** Def. 2.3.8.1: A ⊘ B = A ∘ (B, comp(B, size(A))). Read a coordinate of the result as
 *  ((coordinate in the tile), (which tile)). */
export function logicalDivide(a: Layout, b: Layout): Layout {
  return compose(a, concat(b, complement(b, size(a))));
}

/** The N of Def. 2.3.9.1 used here: the least multiple of span(A) that is ≥ size(A)·cosize(B)
 *  (Observation 2.3.9.2: the product is the same for every admissible N). */
export function productModulus(a: Layout, b: Layout): number {
  const sp = span(a); // first: A's complement failure is the product's, before N is formed
  const need = mul(size(a), cosize(b), 'size(A)·cosize(B)');
  const n = Math.ceil(need / sp) * sp;
  if (n > Number.MAX_SAFE_INTEGER) throw overflow('N for the logical product');
  return n;
}

/** Def. 2.3.9.1: A ⊗ B = (A, comp(A, N) ∘ B). */
export function logicalProduct(a: Layout, b: Layout): Layout {
  const n = productModulus(a, b);
  return concat(a, compose(complement(a, n), b));
}

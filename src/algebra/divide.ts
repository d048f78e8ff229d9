/**
 * Logical division and logical product (docs/semantics.md §6; paper 2.3.8, 2.3.9).
 * Both build their operands flat and call composition's core directly: the concatenations
 * they form are compact of size N (or inside one), so they need no size or cosize check
 * beyond the one named below.
 */
import { mul, overflow } from './arith.js';
import { complementableEntries, complementOfSorted, sortedComplementable, spanOfSorted } from './complement.js';
import { composeEntries } from './compose.js';
import { coalesceNested } from './coalesce.js';
import { flat, type Flat, type Layout } from './layout.js';
import type { Tuple } from './tuple.js';

/** Def. 2.3.8.1: A ⊘ B = A ∘ (B, comp(B, size(A))). Read a coordinate of the result as
 *  ((coordinate in the tile), (which tile)). Errors: those of complement and composition.
 *  Example: (4,8):(1,4) ⊘ (2,2):(1,4) = ((2,2),(2,4)):((1,4),(2,8)). */
export function logicalDivide(a: Layout, b: Layout): Layout {
  const fa = flat(a);
  const n = sizeOf(fa.shapes);
  const fb = flat(b);
  const sorted = sortedComplementable(b, fb);
  const comp = complementOfSorted(b, sorted.shapes, sorted.strides, n);
  // (B, comp(B, N)) is compact of size N = size(A): its size and cosize are N
  const k = comp.shapes.length;
  const shape: Tuple[] = [b.shape, k === 0 ? 1 : k === 1 ? comp.shapes[0]! : comp.shapes];
  const xs = (fb.shapes as number[]).concat(k === 0 ? [1] : comp.shapes);
  const xd = (fb.strides as number[]).concat(k === 0 ? [0] : comp.strides);
  const ca = coalesceNested(a.shape, a.stride);
  return composeEntries(ca.shapes, ca.strides, shape, xs, xd);
}

/** The N of Def. 2.3.9.1 used here: the least multiple of span(A) that is ≥ size(A)·cosize(B)
 *  (Observation 2.3.9.2: the product is the same for every admissible N). Errors: A not
 *  complementable; `overflow` when N exceeds 2^53 − 1. Example: productModulus(2:1, 3:1) = 6. */
export function productModulus(a: Layout, b: Layout): number {
  const sorted = complementableEntries(a); // first: A's complement failure is the product's
  return leastModulus(sorted, flat(b));
}

function leastModulus(sortedA: Flat, fb: Flat): number {
  const sp = spanOfSorted(sortedA.shapes, sortedA.strides);
  const need = mul(sizeOf(sortedA.shapes), cosizeOf(fb), 'size(A)·cosize(B)');
  const n = Math.ceil(need / sp) * sp;
  if (n > Number.MAX_SAFE_INTEGER) throw overflow('N for the logical product');
  return n;
}

/** Def. 2.3.9.1: A ⊗ B = (A, comp(A, N) ∘ B). Errors: those of complement and composition,
 *  `overflow` when N or size(A)·size(B) exceeds 2^53 − 1.
 *  Example: (2,2):(1,2) ⊗ 3:1 = ((2,2),3):((1,2),4). */
export function logicalProduct(a: Layout, b: Layout): Layout {
  const fa = flat(a);
  const sorted = sortedComplementable(a, fa);
  const fb = flat(b);
  const n = leastModulus(sorted, fb);
  const comp = complementOfSorted(a, sorted.shapes, sorted.strides, n);
  const c = composeEntries(comp.shapes, comp.strides, b.shape, fb.shapes, fb.strides);
  // the result's cosize is at most N (its image lies in that of the compact (A, comp(A, N)));
  // its size size(A)·size(B) is checked (a stride-0 B has size beyond its cosize)
  mul(sizeOf(sorted.shapes), sizeOf(fb.shapes), 'size');
  return { shape: [a.shape, c.shape], stride: [a.stride, c.stride] };
}

/** The product of a flat list of shapes (a size), checked. */
function sizeOf(shapes: readonly number[]): number {
  let p = 1;
  for (let i = 0; i < shapes.length; i++) p = mul(p, shapes[i]!, 'size');
  return p;
}

/** cosize = 1 + Σ (s_i − 1)·d_i of a flat list of entries, checked. */
function cosizeOf(f: Flat): number {
  let c = 1;
  for (let i = 0; i < f.shapes.length; i++) {
    c += mul(f.shapes[i]! - 1, f.strides[i]!, 'cosize');
    if (c > Number.MAX_SAFE_INTEGER) throw overflow('cosize');
  }
  return c;
}

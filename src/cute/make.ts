/**
 * Making layouts (docs/semantics.md §8.4, CuTe `make_layout(shape)`, `make_layout(shape, LayoutRight)`,
 * `make_ordered_layout(shape, order)` of layout.hpp and stride.hpp): compact layouts of a
 * shape whose strides follow an order of its entries.
 */
import { MAX_EXACT } from '../algebra/arith.js';
import { domainError } from '../algebra/errors.js';
import { makeLayout, type Layout } from '../algebra/layout.js';
import { colMajorStride, formatTuple, rowMajorStride } from '../algebra/notation.js';
import * as T from '../algebra/tuple.js';
import type { Tuple } from '../algebra/tuple.js';

/** The order of a compact layout: column-major (`LayoutLeft`), row-major (`LayoutRight`), or a
 *  nested tuple of integers congruent to the shape (CuTe's `Step`). */
export type LayoutOrder = 'col' | 'row' | Tuple;

/** The `domain` error of an order with two equal entries. */
function tie(order: Tuple, x: number): never {
  throw domainError(`make_layout: the order ${formatTuple(order)} has equal entries (${x} twice)`);
}

/** Strides compact in the order of O's entries, smallest first (CuTe `compact_order`), with the nesting of S: the
 *  definition for a few entries, its accelerator for more. */
function orderedStride(shape: Tuple, order: Tuple): Tuple {
  if (!T.congruent(shape, order)) {
    throw domainError(`make_layout: the order ${formatTuple(order)} is not congruent to the shape ${formatTuple(shape)}`);
  }
  const s = T.entries(shape);
  const o = T.entries(order);
  // small (the usual case): the products directly
  const d = s.length <= 16 ? orderedStridesByDefinition(s, o, order) : orderedStridesBySort(s, o, order);
  return refold(shape, d, { at: 0 });
}

/** The definition (CuTe `compact_order`): entry j's stride is the product of the entries i with o_i < o_j. Errors:
 *  `domain` for two equal entries of O (`order`, as written, names it). Example: ([2,2,2,2], [0,2,3,1]) → [1,4,8,2]. */
export function orderedStridesByDefinition(s: readonly number[], o: readonly number[], order: Tuple): number[] {
  const n = s.length;
  const d: number[] = new Array(n);
  for (let j = 0; j < n; j++) {
    let p = 1;
    for (let i = 0; i < n; i++) {
      if (o[i]! < o[j]!) p *= s[i]!;
      else if (i !== j && o[i] === o[j]) tie(order, o[i]!);
    }
    d[j] = p;
  }
  return d;
}

/** Accelerator of orderedStridesByDefinition (n log n): the entries sorted by O, each stride the running product
 *  of the shapes before it. Errors: `domain` for two equal entries of O. */
export function orderedStridesBySort(s: readonly number[], o: readonly number[], order: Tuple): number[] {
  const d: number[] = new Array(s.length);
  const idx = s.map((_, i) => i).sort((i, j) => o[i]! - o[j]!);
  let run = 1;
  for (let k = 0; k < idx.length; k++) {
    const i = idx[k]!;
    if (k > 0 && o[i] === o[idx[k - 1]!]) tie(order, o[i]!);
    d[i] = run;
    run *= s[i]!;
  }
  return d;
}

/** The entries d, in order, with the nesting of `like`. */
function refold(like: Tuple, d: readonly number[], pos: { at: number }): Tuple {
  if (typeof like === 'number') return d[pos.at++]!;
  const out: Tuple[] = new Array(like.length);
  for (let i = 0; i < like.length; i++) out[i] = refold(like[i]!, d, pos);
  return out;
}

/** make_layout(S[, O]) (docs/semantics.md §8.4): the compact layout of shape S, column-major by default
 *  (CuTe `make_layout(S)`; a shape-1 entry gets the running product like any other), row-major
 *  for 'row' (the last entry has stride 1), or ordered by a tuple O congruent to S (CuTe
 *  `make_ordered_layout`: entry j's stride is the product of the entries whose order is less).
 *  Errors: `domain` for an O not congruent to S or with equal entries; `overflow` beyond 2^53−1.
 *  Example: makeOrderedLayout([2,2,2,2], [0,2,3,1]) = (2,2,2,2):(1,4,8,2). */
export function makeOrderedLayout(shape: Tuple, order: LayoutOrder = 'col'): Layout {
  const stride = order === 'col' ? colMajorStride(shape) : order === 'row' ? rowMajorStride(shape) : orderedStride(shape, order);
  // compact: cosize = size, so a shape of positive integers with size ≤ 2^53 − 1 makes a valid
  // layout; anything else goes through makeLayout for its exact error
  return sizeOfValid(shape, 1) > 0 ? { shape, stride } : makeLayout(shape, stride);
}

/** p · size(s) when every entry of s is a positive integer and the running product stays
 *  ≤ 2^53 − 1 (so it is exact); else 0. */
function sizeOfValid(s: Tuple, p: number): number {
  if (typeof s === 'number') {
    const q = p * s;
    return Number.isInteger(s) && s >= 1 && q <= MAX_EXACT ? q : 0;
  }
  for (let i = 0; i < s.length && p > 0; i++) p = sizeOfValid(s[i]!, p);
  return p;
}

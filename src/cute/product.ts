/**
 * CuTe's products (docs/semantics.md §8.3, CuTe `logical_product`, `zipped_product`, `tiled_product`,
 * `flat_product`, `blocked_product`, `raked_product`, `tile_to_shape` of layout.hpp), each a
 * few lines over the paper's exact logical product (algebra/divide.ts, Def. 2.3.9.1).
 */
import { domainError } from '../algebra/errors.js';
import { logicalProduct } from '../algebra/divide.js';
import { append, mode, modes, rank, size, zip, type Layout } from '../algebra/layout.js';
import { formatTuple } from '../algebra/notation.js';
import * as T from '../algebra/tuple.js';
import type { Tuple } from '../algebra/tuple.js';
import { makeOrderedLayout, type LayoutOrder } from './make.js';
import { asTiler, byMode, isByMode, tileUnzip, unpackBoth, unpackRest, type Tiler } from './tiler.js';

/** logical_product(A, T) (docs/semantics.md §8.3, CuTe `logical_product`): A ⊗ T (Def. 2.3.9.1) for a layout
 *  T; by mode for a by-mode T, A's modes beyond T kept. Errors: `domain` (k > rank),
 *  `not-complementable`, `not-composable`, `overflow`.
 *  Example: logical_product((2,2):(1,2), (3,4)) = ((2,3),(2,(2,2))):((1,2),(2,(1,4))). */
export function logicalProductByMode(a: Layout, t: Tiler): Layout {
  return productBy('logical_product', a, asTiler(t));
}

/** logical_product by a tiler, errors in the name of `op`. */
function productBy(op: string, a: Layout, t: Tiler): Layout {
  if (!isByMode(t) && t !== '_') return logicalProduct(a, t);
  return byMode(op, a, t, logicalProduct, true);
}

/** zipped_product(A, T) (docs/semantics.md §8.3, CuTe `zipped_product`): logical_product(A, T) unzipped along
 *  T as zipped_divide is: ((block_1,…,block_k),(rest_1,…,rest_k,…)). Errors: those of
 *  logical_product, `domain` where a `_` leaves a mode of rank ≠ 2.
 *  Example: zipped_product((2,2):(1,2), (3,4)) = ((2,2),(3,(2,2))):((1,2),(2,(1,4))). */
export function zippedProduct(a: Layout, tiler: Tiler): Layout {
  const t = asTiler(tiler);
  return tileUnzip('zipped_product', productBy('zipped_product', a, t), t);
}

/** tiled_product(A, T) (docs/semantics.md §8.3, CuTe `tiled_product`): zipped_product with the rest unpacked.
 *  Example: tiled_product((2,2):(1,2), (3,4)) = ((2,2),3,(2,2)):((1,2),2,(1,4)). */
export function tiledProduct(a: Layout, tiler: Tiler): Layout {
  const t = asTiler(tiler);
  return unpackRest(tileUnzip('tiled_product', productBy('tiled_product', a, t), t));
}

/** flat_product(A, T) (docs/semantics.md §8.3, CuTe `flat_product`): zipped_product with both modes unpacked.
 *  Example: flat_product((2,2):(1,2), (3,4)) = (2,2,3,(2,2)):(1,2,2,(1,4)). */
export function flatProduct(a: Layout, tiler: Tiler): Layout {
  const t = asTiler(tiler);
  return unpackBoth(tileUnzip('flat_product', productBy('flat_product', a, t), t));
}

/** The modes of a product's second part C = comp(A', N) ∘ B': shape(C) refines shape(B'), so its
 *  modes relative to B' are its top-level modes, or C itself for a depth-0 B'. */
const modesOver = (c: Layout, b: Layout): Layout[] => (typeof b.shape === 'number' ? [c] : modes(c));

function rankedProduct(a: Layout, b: Layout, raked: boolean): Layout {
  const r = Math.max(rank(a), rank(b));
  const a2 = append(a, r);
  const b2 = append(b, r);
  const c = mode(logicalProduct(a2, b2), 2);
  // the result regroups the modes of the valid A' ⊗ B' = (A', C): its size and cosize
  return raked ? zip([modesOver(c, b2), modes(a2)]) : zip([modes(a2), modesOver(c, b2)]);
}

/** blocked_product(A, B) (docs/semantics.md §8.3, CuTe `blocked_product`): with A', B' padded by 1:0 modes to
 *  R = max(rank A, rank B) and (A', C) = A' ⊗ B', mode i is (mode_i(A'), mode_i(C)): copies of
 *  the block A laid out by B, block coordinate first. Errors: those of the logical product.
 *  Example: blocked_product((3,4):(4,1), (2,5):(1,2)) = ((3,2),(4,5)):((4,12),(1,24)). */
export function blockedProduct(a: Layout, b: Layout): Layout {
  return rankedProduct(a, b, false);
}

/** raked_product(A, B) (docs/semantics.md §8.3, CuTe `raked_product`): as blocked_product with each mode
 *  (mode_i(C), mode_i(A')): the copies of A interleaved, tile coordinate first.
 *  Example: raked_product((3,4):(4,1), (2,5):(1,2)) = ((2,3),(5,4)):((12,4),(24,1)). */
export function rakedProduct(a: Layout, b: Layout): Layout {
  return rankedProduct(a, b, true);
}

/** tile_to_shape(A, S[, O]) (docs/semantics.md §8.3, CuTe `tile_to_shape`): A padded to rank(S) with 1:0 modes,
 *  repeated by blocked_product over make_layout(size(S_i) / size(mode_i(A')), O) to fill S.
 *  O orders the repetitions (default column-major); it is congruent to that shape of
 *  repetition counts (flat of rank(S), an integer only for an integer S).
 *  Errors: `domain` when rank(A) > rank(S) or a size(mode_i(A')) does not divide size(S_i).
 *  Example: tile_to_shape((2,2):(1,2), (8,6)) = ((2,4),(2,3)):((1,4),(2,16)). */
export function tileToShape(a: Layout, s: Tuple, order: LayoutOrder = 'col'): Layout {
  const r = T.rank(s);
  if (rank(a) > r) {
    throw domainError(`tile_to_shape: the layout has rank ${rank(a)} but the shape ${formatTuple(s)} has rank ${r}`);
  }
  const a2 = append(a, r);
  const am = modes(a2);
  const targets = typeof s === 'number' ? [s] : s.map(T.size);
  const counts = targets.map((t, i) => {
    const b = size(am[i]!);
    if (t % b !== 0) {
      throw domainError(`tile_to_shape: mode ${i + 1} of the layout has size ${b}, which does not divide ${t}, the size of mode ${i + 1} of the shape`);
    }
    return t / b;
  });
  return blockedProduct(a2, makeOrderedLayout(typeof s === 'number' ? counts[0]! : counts, order));
}

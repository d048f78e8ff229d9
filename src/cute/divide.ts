/**
 * CuTe's by-mode composition and division (docs/semantics.md §8.3, CuTe `composition`, `logical_divide`,
 * `zipped_divide`, `tiled_divide`, `flat_divide` of layout.hpp), each a few lines over the
 * paper's exact composition and division (algebra/compose.ts, algebra/divide.ts): where
 * CuTe's own composition is wrong, these inherit the exact answer or `not-composable`, and a
 * tile whose span does not divide its mode is `not-complementable` (CuTe rounds up).
 */
import { compose } from '../algebra/compose.js';
import { logicalDivide } from '../algebra/divide.js';
import type { Layout } from '../algebra/layout.js';
import { asTiler, byMode, isByMode, tileUnzip, unpackBoth, unpackRest, type Tiler } from './tiler.js';

/** compose(A, T) (docs/semantics.md §8.3, CuTe `composition(Layout, Tiler)`): A∘T for a layout T (§5); for a
 *  by-mode T = <T1,…,Tk>, mode i is compose(mode_i(A), T_i) and A's modes beyond k are dropped;
 *  `_` keeps a mode. A layout written as a shape alone is by-mode (asTiler). Errors: `domain` (k > rank), `not-composable`, `overflow`.
 *  Example: compose((12,(4,8)):(59,(13,1)), <3:4,8:2>) = (3,(2,4)):(236,(26,1)). */
export function composeByMode(a: Layout, tiler: Tiler): Layout {
  const t = asTiler(tiler);
  if (!isByMode(t) && t !== '_') return compose(a, t);
  return byMode('compose', a, t, compose, false);
}

/** logical_divide(A, T) (docs/semantics.md §8.3, CuTe `logical_divide`): A ⊘ T (Def. 2.3.8.1) for a layout T;
 *  by mode for a by-mode T, A's modes beyond T kept. Errors: `domain` (k > rank),
 *  `not-complementable`, `not-composable`, `overflow`.
 *  Example: logical_divide((128,64):(64,1), (32,16)) = ((32,4),(16,4)):((64,2048),(1,16)). */
export function logicalDivideByMode(a: Layout, t: Tiler): Layout {
  return divideBy('logical_divide', a, asTiler(t));
}

/** logical_divide by a tiler, errors in the name of `op`. */
function divideBy(op: string, a: Layout, t: Tiler): Layout {
  if (!isByMode(t) && t !== '_') return logicalDivide(a, t);
  return byMode(op, a, t, logicalDivide, true, '', true); // A ⊘ T has A's size and cosize
}

/** zipped_divide(A, T) (docs/semantics.md §8.3, CuTe `zipped_divide`): logical_divide(A, T) with the tiles
 *  gathered into mode 1 and the rests into mode 2: ((tile_1,…,tile_k),(rest_1,…,rest_k,…)).
 *  Errors: those of logical_divide, and `domain` where a `_` leaves a mode of rank ≠ 2.
 *  Example: zipped_divide((12,32):(1,12), (4,8)) = ((4,8),(3,4)):((1,12),(4,96)). */
export function zippedDivide(a: Layout, tiler: Tiler): Layout {
  const t = asTiler(tiler);
  return tileUnzip('zipped_divide', divideBy('zipped_divide', a, t), t);
}

/** tiled_divide(A, T) (docs/semantics.md §8.3, CuTe `tiled_divide`): zipped_divide with the rest unpacked,
 *  ((tile_1,…,tile_k), rest_1, …, rest_k, …). Errors: those of zipped_divide.
 *  Example: tiled_divide((8,6):(1,8), 4:2) = (4,2,6):(2,1,8). */
export function tiledDivide(a: Layout, tiler: Tiler): Layout {
  const t = asTiler(tiler);
  return unpackRest(tileUnzip('tiled_divide', divideBy('tiled_divide', a, t), t));
}

/** flat_divide(A, T) (docs/semantics.md §8.3, CuTe `flat_divide`): zipped_divide with both modes unpacked,
 *  (tile_1, …, tile_k, rest_1, …, rest_k, …). Errors: those of zipped_divide.
 *  Example: flat_divide((128,64):(64,1), (32,16)) = (32,16,4,4):(64,1,2048,16). */
export function flatDivide(a: Layout, tiler: Tiler): Layout {
  const t = asTiler(tiler);
  return unpackBoth(tileUnzip('flat_divide', divideBy('flat_divide', a, t), t));
}

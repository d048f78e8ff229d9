/**
 * The table entries of CuTe's vocabulary (docs/semantics.md §8.3–8.4), spread into the one table of
 * src/ops/table.ts (so each gets a CLI subcommand, a `batch` op and a place on the page).
 * compose, logical_divide and logical_product take tilers in src/ops/table.ts itself.
 */
import type { Layout } from '../algebra/layout.js';
import { formatLayout } from '../algebra/notation.js';
import type { Tuple } from '../algebra/tuple.js';
import type { ArgSpec, OpSpec } from './spec.js';
import { flatDivide, tiledDivide, zippedDivide } from '../cute/divide.js';
import { makeOrderedLayout, type LayoutOrder } from '../cute/make.js';
import { blockedProduct, flatProduct, rakedProduct, tiledProduct, tileToShape, zippedProduct } from '../cute/product.js';
import type { Tiler } from '../cute/tiler.js';

const layout = (name: string): ArgSpec => ({ name, kind: 'layout' });
const tiler = (name: string): ArgSpec => ({ name, kind: 'tiler' });
const order: ArgSpec = { name: 'O', kind: 'order', optional: true };

/** the page's CuTe group; on a composed layout, the result on its inner layout (CuTe's layout_composed.hpp) */
const cute = { page: 'CuTe', composed: 'inner' } as const;

const byTiler = (name: string, summary: string, f: (a: Layout, t: Tiler) => Layout, tiling?: OpSpec['tiling']): OpSpec => ({
  name,
  summary,
  args: [layout('A'), tiler('T')],
  run: ([a, t]) => formatLayout(f(a as Layout, t as Tiler)),
  ...cute,
  ...(tiling ? { tiling } : {}),
});

const ranked = (name: string, summary: string, f: (a: Layout, b: Layout) => Layout): OpSpec => ({
  name,
  summary,
  args: [layout('A'), layout('B')],
  run: ([a, b]) => formatLayout(f(a as Layout, b as Layout)),
  ...cute,
});

/** The table entries of docs/semantics.md §8.3–8.4 (zipped/tiled/flat divide and product, blocked and raked
 *  products, tile_to_shape, make_layout), each printing its layout canonically. */
export const cuteOps: OpSpec[] = [
  byTiler('zipped_divide', 'logical_divide gathered: ((tiles),(rests)) (CuTe zipped_divide, docs/semantics.md §8.3)', zippedDivide, {
    argument: true,
    result: true,
  }),
  byTiler('tiled_divide', 'logical_divide as ((tiles), rest_1, rest_2, …) (CuTe tiled_divide)', tiledDivide, { argument: true, result: true }),
  byTiler('flat_divide', 'logical_divide as (tile_1, …, rest_1, …) (CuTe flat_divide)', flatDivide, { argument: true }),
  byTiler('zipped_product', 'logical_product gathered: ((blocks),(rests)) (CuTe zipped_product)', zippedProduct, { result: true }),
  byTiler('tiled_product', 'logical_product as ((blocks), rest_1, …) (CuTe tiled_product)', tiledProduct, { result: true }),
  byTiler('flat_product', 'logical_product as (block_1, …, rest_1, …) (CuTe flat_product)', flatProduct),
  ranked('blocked_product', 'copies of block A laid out by B, mode by mode: ((A_i, C_i)) (CuTe blocked_product)', blockedProduct),
  ranked('raked_product', 'copies of A interleaved by B, mode by mode: ((C_i, A_i)) (CuTe raked_product)', rakedProduct),
  {
    name: 'tile_to_shape',
    summary: 'A repeated (blocked) to fill shape S, repetitions in order O (CuTe tile_to_shape)',
    args: [layout('A'), { name: 'S', kind: 'tuple' }, order],
    run: ([a, s, o]) => formatLayout(tileToShape(a as Layout, s as Tuple, (o as LayoutOrder | undefined) ?? 'col')),
    ...cute,
  },
  {
    name: 'make_layout',
    summary: 'the compact layout of shape S: col (default), row, or ordered by O (CuTe make_layout, make_ordered_layout)',
    args: [{ name: 'S', kind: 'tuple' }, order],
    run: ([s, o]) => formatLayout(makeOrderedLayout(s as Tuple, (o as LayoutOrder | undefined) ?? 'col')),
    page: 'CuTe',
  },
];

/**
 * Grid geometry shared by every picture of a layout (ASCII, SVG, TikZ, the page): where index x
 * of a layout L sits, and what each cell holds. Rank 2 is rows × columns as CuTe's print_layout
 * draws it; rank 1 is one row; higher ranks group the modes after the first into columns
 * (column j is the colexicographic index over modes 2..r), so cell (r, c) holds
 * Φ_L(r + rows·c).
 */
import { LayoutError } from '../algebra/errors.js';
import { cosize, flat, modes, size, type Layout } from '../algebra/layout.js';
import { formatLayout } from '../algebra/notation.js';
import type { Tiling } from './tiles.js';

/** The arrangement of a layout's indices in a grid. */
export interface GridShape {
  /** number of rows: size of mode 1 (1 for rank ≤ 1) */
  readonly rows: number;
  /** number of columns: size(L) / rows */
  readonly cols: number;
  /** the index x of L in row r, column c */
  readonly index: (r: number, c: number) => number;
}

/**
 * Rows × columns of the picture of L: rank ≤ 1 (or an integer shape) is 1 × size(L), otherwise
 * size(mode 1) × the rest. Pre-condition: size(L) ≤ 2^53 − 1 (else `overflow` from size).
 * @example gridShape(parseLayout('(4,8):(1,4)')) // rows 4, cols 8, index(r, c) = r + 4c
 */
export function gridShape(l: Layout): GridShape {
  const ms = modes(l);
  if (ms.length <= 1 || typeof l.shape === 'number') {
    return { rows: 1, cols: size(l), index: (_r, c) => c };
  }
  const rows = size(ms[0]!);
  return { rows, cols: rows === 0 ? 0 : size(l) / rows, index: (r, c) => r + rows * c };
}

/** The cell (row, column) of index x in a grid of the given number of rows (inverse of index). */
export function cellOf(rows: number, x: number): { row: number; col: number } {
  return { row: x % rows, col: Math.floor(x / rows) };
}

/**
 * Φ_L(x) for every x < size(L) (Construction 2.3.1.17), counted like an odometer over L♭: the
 * colexicographic coordinates advance by one, the offset by the stride of the digit that moved
 * less the wrap of the digits below it. Exact: every value is at most cosize(L) − 1.
 * Errors: `overflow` when size or cosize exceed 2^53 − 1.
 * @example offsetsOf(parseLayout('(2,2):(2,1)')) // Float64Array [0, 2, 1, 3]
 */
export function offsetsOf(l: Layout): Float64Array {
  const n = size(l);
  cosize(l); // refuses inexact offsets
  const { shapes, strides } = flat(l);
  const out = new Float64Array(n);
  const digit = new Float64Array(shapes.length);
  let off = 0;
  for (let x = 0; x < n; x++) {
    out[x] = off;
    for (let i = 0; i < shapes.length; i++) {
      if (++digit[i]! < shapes[i]!) {
        off += strides[i]!;
        break;
      }
      off -= (shapes[i]! - 1) * strides[i]!;
      digit[i] = 0;
    }
  }
  return out;
}

/** Everything a picture draws: the layout, its grid, Φ at every index, and optionally a tiling. */
export interface Picture {
  /** the layout pictured */
  readonly layout: Layout;
  /** where each index sits (gridShape) */
  readonly grid: GridShape;
  /** offsets[x] = Φ_L(x), for every index x < size(L) */
  readonly offsets: Float64Array;
  /** the tiles of a ⊘ or ⊗ picture (colour = tile, strength = entry) */
  readonly tiling?: Tiling;
  /** the text of the layout function pictured when it is not `layout` itself (a composed
   *  layout Sw<B,M,S> o K o L: its grid is L's, its offsets Sw(K + Φ_L)) */
  readonly name?: string;
  /** the field of offset bits a swizzle writes, [low, low + bits): untiled cells are coloured by
   *  its value (swizzleClass), which is where the swizzle shows */
  readonly swizzle?: { readonly low: number; readonly bits: number };
}

/**
 * The colour class of an offset in a swizzled picture: the value of the bits the swizzle writes,
 * ⌊v / 2^low⌋ mod 2^bits (docs/semantics.md §9.1: Sw<B,M,S> XORs B source bits into the B
 * bits from M (S ≥ 0) or M − S (S < 0)).
 * @example swizzleClass(72, { low: 3, bits: 3 }) // 1
 */
export function swizzleClass(v: number, f: { low: number; bits: number }): number {
  return Math.floor(v / 2 ** f.low) % 2 ** f.bits;
}

/** The name of the layout function a picture shows. */
export const pictureName = (p: Picture): string => p.name ?? formatLayout(p.layout);

/** Most cells the ASCII, SVG and TikZ pictures draw (the page draws up to 2^20 on a canvas). */
export const MAX_SHOW = 1 << 16;

/**
 * The picture of L: its grid and Φ_L at every index. Errors: `bad-request` when size(L) exceeds
 * `max` (the message names the size and the limit), `overflow` when the size is not exact.
 * @example makePicture(parseLayout('(2,2):(2,1)')).offsets // [0, 2, 1, 3]
 */
export function makePicture(l: Layout, opts: { tiling?: Tiling; max?: number } = {}): Picture {
  const max = opts.max ?? MAX_SHOW;
  const n = size(l);
  if (n > max) throw new LayoutError('bad-request', `size ${n} is too large to show (at most ${max} cells)`);
  const offsets = offsetsOf(l);
  return opts.tiling ? { layout: l, grid: gridShape(l), offsets, tiling: opts.tiling } : { layout: l, grid: gridShape(l), offsets };
}

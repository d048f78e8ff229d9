/**
 * Tilings of a picture: which tile each index belongs to and which entry of the tile it is, for
 * the pictures of A ⊘ B (colour = tile, Remark 2.3.8.3) and of the results of ⊘ and ⊗.
 */
import { complement } from '../algebra/complement.js';
import { LayoutError } from '../algebra/errors.js';
import { concat, indexToCoord, mode, phi, rank, size, type Layout } from '../algebra/layout.js';
import { formatTuple } from '../algebra/notation.js';

/** The tile of an index and its entry within the tile. */
export interface TileOf {
  /** which tile: 0 … tiles − 1 */
  readonly tile: number;
  /** which entry of the tile: 0 … tileSize − 1 */
  readonly entry: number;
}

/** A partition of a layout's indices into `tiles` tiles of `tileSize` entries each. */
export interface Tiling {
  /** the tile and entry of index x, or null when x is in no tile */
  readonly tileOf: (x: number) => TileOf | null;
  /** number of tiles */
  readonly tiles: number;
  /** entries per tile */
  readonly tileSize: number;
  /** the coordinate of tile k in the shape of the tiles (what a hover names: `(2,3)`), when
   *  the tiling has one */
  readonly coordOf?: (tile: number) => string;
}

/** The coordinate of tile k in the layout R whose indices number the tiles (mode 2 of a zipped
 *  result): formatTuple(idx2crd(k, shape(R))).
 *  @example tileCoordIn(parseLayout('(4,2):(1,4)'))(6) // '(2,1)' */
export function tileCoordIn(r: Layout): (tile: number) => string {
  return (k) => formatTuple(indexToCoord(r, k));
}

/**
 * The tiles of A under A ⊘ B (Def. 2.3.8.1, Remark 2.3.8.3): index j of A belongs to tile t as
 * entry e when j = Φ_{(B, comp(B, size A))}(e + size(B)·t). Pre-conditions: size(A) ≤ `max`,
 * B size(A)-complementable. Errors: `bad-request` beyond `max`, `not-complementable` from the
 * complement, `overflow` for inexact sizes.
 * @example divisionTiling(parseLayout('(4,8):(1,4)'), parseLayout('(2,2):(1,4)')).tileOf(4) // {tile: 0, entry: 2}
 */
export function divisionTiling(a: Layout, b: Layout, max = 1 << 20): Tiling {
  const n = size(a);
  if (n > max) throw new LayoutError('bad-request', `size ${n} is too large to tile in a picture (at most ${max} cells)`);
  const bc = concat(b, complement(b, n));
  return permutationTiling(n, size(b), (x) => phi(bc, x));
}

/**
 * The tiling of [0, n) by a permutation f of it, tiles of `ts` consecutive x: index f(x) is
 * entry x mod ts of tile ⌊x / ts⌋. Pre-condition: f permutes [0, n) and ts divides n.
 * Example: permutationTiling(4, 2, (x) => 3 - x).tileOf(0) // {tile: 1, entry: 1}
 */
export function permutationTiling(n: number, ts: number, f: (x: number) => number, coordOf?: (tile: number) => string): Tiling {
  const at = new Int32Array(n).fill(-1);
  for (let x = 0; x < n; x++) at[f(x)] = x;
  const t: Tiling = {
    tileOf: (j) => {
      const x = j >= 0 && j < n ? at[j]! : -1;
      return x < 0 ? null : { tile: Math.floor(x / ts), entry: x % ts };
    },
    tiles: n / ts,
    tileSize: ts,
  };
  return coordOf ? { ...t, coordOf } : t;
}

/**
 * The tiles of a result R = A ⊘ B or A ⊗ B: mode 1 of R is the tile, mode 2 says which tile, so
 * index x is entry x mod size(mode 1) of tile ⌊x / size(mode 1)⌋. Pre-condition: rank(R) ≥ 1.
 * Errors: `domain` for the empty layout.
 * @example modeTiling(parseLayout('((2,2),(2,4)):((1,4),(2,8))')).tileOf(5) // {tile: 1, entry: 1}
 */
export function modeTiling(r: Layout): Tiling {
  if (rank(r) < 1) throw new LayoutError('domain', 'the empty layout has no tiles');
  const ts = size(mode(r, 1));
  const n = size(r);
  return {
    tileOf: (x) => (x >= 0 && x < n ? { tile: Math.floor(x / ts), entry: x % ts } : null),
    tiles: n / ts,
    tileSize: ts,
    ...(rank(r) >= 2 ? { coordOf: tileCoordIn(mode(r, 2)) } : {}),
  };
}

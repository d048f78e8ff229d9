/**
 * CUTLASS's shared-memory layout atoms for the tensor cores (docs/descriptors.md §4; CuTe's
 * mma_traits_sm90_gmma.hpp `GMMA::Layout_{K,MN}_{INTER,SW32,SW64,SW128}_Atom<T>` and mma_traits_sm100.hpp's
 * `UMMA::Layout_MN_SW128_32B_Atom<T>`), as layouts in elements: the atoms are defined in bits (8 rows of 128 to
 * 1024 bits, K- or MN-major) behind a byte swizzle, and recast to T. Tiled to a shape with tile_to_shape, and searched
 * by `suggestAtom` for one that passes a check where the given layout failed.
 */
import { LayoutError } from '../algebra/errors.js';
import { makeLayout } from '../algebra/layout.js';
import { formatTuple } from '../algebra/notation.js';
import type { Tuple } from '../algebra/tuple.js';
import { formatLayoutFunction, makeComposed, type ComposedLayout } from '../cute/composed.js';
import { tileToShape } from '../cute/product.js';
import { makeSwizzle } from '../cute/swizzle.js';
import type { DType } from './dtype.js';
import type { Major } from './gmma.js';

/** One atom: CUTLASS's name, its major, its byte swizzle and its row in bits. */
export interface AtomSpec {
  readonly name: string;
  readonly major: Major;
  /** the byte swizzle Swizzle<B,M,S> */
  readonly b: number;
  readonly m: number;
  readonly s: number;
  /** the contiguous extent in bits (128 to 1024) */
  readonly rowBits: number;
  /** the other extent (8 rows; 4 for the 32-byte-atom UMMA layout) */
  readonly rows: number;
  /** `GMMA` or `UMMA` */
  readonly namespace: 'GMMA' | 'UMMA';
}

const atom = (name: string, major: Major, b: number, m: number, s: number, rowBits: number, rows = 8, namespace: 'GMMA' | 'UMMA' = 'GMMA'): AtomSpec => ({
  name,
  major,
  b,
  m,
  s,
  rowBits,
  rows,
  namespace,
});

/** The atoms, widest swizzle first (the order suggestions are tried in). */
export const SMEM_ATOMS: readonly AtomSpec[] = [
  atom('Layout_K_SW128_Atom', 'K', 3, 4, 3, 1024),
  atom('Layout_MN_SW128_Atom', 'MN', 3, 4, 3, 1024),
  atom('Layout_K_SW64_Atom', 'K', 2, 4, 3, 512),
  atom('Layout_MN_SW64_Atom', 'MN', 2, 4, 3, 512),
  atom('Layout_K_SW32_Atom', 'K', 1, 4, 3, 256),
  atom('Layout_MN_SW32_Atom', 'MN', 1, 4, 3, 256),
  atom('Layout_K_INTER_Atom', 'K', 0, 4, 3, 128),
  atom('Layout_MN_INTER_Atom', 'MN', 0, 4, 3, 128),
  atom('Layout_MN_SW128_32B_Atom', 'MN', 2, 5, 2, 1024, 4, 'UMMA'),
];

/** `Layout_K_SW128_Atom<bfloat16_t>`, CUTLASS's spelling of an atom of a type. */
export const atomName = (a: AtomSpec, dt: DType): string => `${a.name}<${dt.name}>`;

/**
 * The atom over T in elements (CuTe's `upcast<sizeof_bits<T>>` of the bits atom): a row of rowBits / (8e) elements,
 * the element swizzle Sw<B, M − log2 e, S>. Example: Layout_K_SW128_Atom over bfloat16_t is Sw<3,3,3> o (8,64):(64,1).
 */
export function atomLayout(a: AtomSpec, dt: DType): ComposedLayout {
  const w = a.rowBits / (8 * dt.bytes);
  const inner = a.major === 'K' ? makeLayout([a.rows, w], [w, 1]) : makeLayout([w, a.rows], [1, w]);
  return makeComposed(makeSwizzle(a.b, a.m - dt.log2Bytes, a.s), 0, inner);
}

/** tile_to_shape(atom, shape) (CuTe's, column-major repetition), the swizzle kept. Errors: `domain` as tileToShape. */
export function atomTiledTo(a: AtomSpec, dt: DType, shape: Tuple): ComposedLayout {
  const l = atomLayout(a, dt);
  return makeComposed(l.swizzle, 0, tileToShape(l.inner, shape));
}

/** the tiled atoms the suggestions tried, by atom, type and shape (values, so a failure's search does not tile again);
 *  emptied when it reaches TILED_LIMIT entries */
const tiledCache = new Map<string, ComposedLayout | LayoutError>();
const TILED_LIMIT = 4096;

function tiledOnce(a: AtomSpec, dt: DType, shape: Tuple): ComposedLayout {
  const key = `${a.name}<${dt.name}>${formatTuple(shape)}`;
  let t = tiledCache.get(key);
  if (t === undefined) {
    try {
      t = atomTiledTo(a, dt, shape);
    } catch (e) {
      if (!(e instanceof LayoutError)) throw e;
      t = e;
    }
    if (tiledCache.size >= TILED_LIMIT) tiledCache.clear();
    tiledCache.set(key, t);
  }
  if (t instanceof LayoutError) throw t;
  return t;
}

/** The atom of that name (without `<T>`), or undefined. */
export const atomByName = (name: string): AtomSpec | undefined => SMEM_ATOMS.find((a) => a.name === name);

/**
 * The first atom (widest swizzle first) among `candidates` that, tiled to `shape`, passes `check`: the sentence
 * "CUTLASS's Layout_K_SW128_Atom<bfloat16_t> tiled to (128,64) would pass: Sw<3,3,3> o (8,64):(64,1)", or '' when none
 * does. `check` throws a LayoutError when the layout fails (any other error propagates).
 */
export function suggestAtom(candidates: readonly AtomSpec[], dt: DType, shape: Tuple, check: (smem: ComposedLayout) => void): string {
  for (const a of candidates) {
    let tiled: ComposedLayout;
    try {
      tiled = tiledOnce(a, dt, shape);
      check(tiled);
    } catch (e) {
      if (e instanceof LayoutError) continue;
      throw e;
    }
    return `CUTLASS's ${atomName(a, dt)} tiled to ${formatTuple(shape)} would pass: ${formatLayoutFunction(atomLayout(a, dt))}`;
  }
  return '';
}

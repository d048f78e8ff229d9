/**
 * TMA descriptors (docs/descriptors.md §2): the tensor map CuTe's `make_tma_copy(SM90_TMA_LOAD{}, G, S, T)`
 * builds for a global layout G and a shared-memory tile S (both in elements), as CuTe's `construct_tma_gbasis`,
 * `fill_tma_gmem_shape_stride` and `make_tma_copy_desc` build it: each step of §12.2 one function below, in order,
 * then the driver's contract (contract.ts). Every integer is static, as everywhere here (docs/semantics.md §8).
 */
import { add, gcd, mul } from '../algebra/arith.js';
import { domainError, LayoutError } from '../algebra/errors.js';
import { flat, makeLayout, size, type Layout } from '../algebra/layout.js';
import type { Tuple } from '../algebra/tuple.js';
import { formatLayoutFunction, innerLayout, isComposed, type LayoutFunction } from '../cute/composed.js';
import { rightInverse } from '../cute/inverse.js';
import { formatTiler, isByMode, type Tiler } from '../cute/tiler.js';
import { coalesceBasis, composeBasis, type BasisEntry } from './basis.js';
import { checkTensorMap } from './contract.js';
import type { DType } from './dtype.js';
import { byteSwizzle, SWIZZLE_MODES, tmaSwizzleMode, type SwizzleMode } from './swizzle-mode.js';

/** What tma_desc takes, parsed: G (plain), S (plain or Sw o L), the element type, and T (default: S's mode sizes). */
export interface TmaInput {
  readonly gmem: Layout;
  readonly smem: LayoutFunction;
  readonly dtype: DType;
  readonly tiler?: Tiler | undefined;
}

/** The tensor map (docs/descriptors.md §2's result): the driver's fields, lists innermost first, and what CuTe leaves implicit. */
export interface TmaDescriptor {
  dataType: string;
  rank: number;
  globalDim: number[];
  /** rank − 1 byte strides (the innermost stride is 1 element, implicit) */
  globalStrides: number[];
  boxDim: number[];
  elementStrides: number[];
  interleave: 'NONE';
  swizzle: string;
  l2Promotion: 'L2_128B';
  oobFill: 'NONE';
  /** the byte boundary the smem tile must start on (the swizzle's repeating pattern; 128 unswizzled) */
  smemAlignment: number;
  /** TMA instructions per CTA tile: size(S) / ∏ boxDim */
  boxes: number;
}

/** One TMA dimension while it is built: its box extent and the leaves of G it covers, innermost first. */
interface TmaDim {
  box: number;
  readonly leaves: number[];
}

/** The leaves of G's shape: n_j, d_j (flattened, innermost first). */
interface Leaves {
  readonly n: readonly number[];
  readonly d: readonly number[];
}

/** The pieces the box map (boxes.ts) reads besides the descriptor: V, I and the elements per box. */
export interface TmaPlan {
  readonly desc: TmaDescriptor;
  readonly tileBasis: readonly BasisEntry[];
  readonly inverse: Layout;
  readonly boxElements: number;
  readonly leaves: Leaves;
}

const fail = (message: string): never => {
  throw domainError(`tma_desc: ${message}`);
};

/** The default tiler, CuTe's product_each(shape(S)): S's top-level mode sizes by mode (an integer shape: N:1 over all of G). */
export function defaultTiler(s: Layout): Tiler {
  if (typeof s.shape === 'number') return makeLayout(s.shape, 1);
  return s.shape.map((m) => makeLayout(sizeOf(m), 1));
}

const sizeOf = (t: Tuple): number => (typeof t === 'number' ? t : t.reduce<number>((p, x) => p * sizeOf(x), 1));

/** The entries n:E<j>, coefficient 1, of the leaves of one (sub-)shape of G whose first leaf is `first`. */
function identityEntries(shape: Tuple, first: number, out: BasisEntry[]): number {
  if (typeof shape === 'number') {
    out.push({ size: shape, leaf: first, coef: 1 });
    return first + 1;
  }
  let j = first;
  for (const m of shape) j = identityEntries(m, j, out);
  return j;
}

/** A tiler as the user wrote it: a by-mode list of N:1 as the shape (128,64,3), else formatTiler's print. */
function tilerText(t: Tiler): string {
  if (isByMode(t) && t.every((x) => typeof x === 'object' && !Array.isArray(x) && typeof (x as Layout).shape === 'number' && (x as Layout).stride === 1)) {
    return `(${t.map((x) => (x as Layout).shape).join(',')})`;
  }
  return formatTiler(t);
}

const leafCount = (t: Tuple): number => (typeof t === 'number' ? 1 : t.reduce<number>((c, m) => c + leafCount(m), 0));

/** The part of V over one (sub-)shape of G under tiler t: CuTe's composition by mode, modes beyond t dropped. */
function tileBasisOf(shape: Tuple, first: number, t: Tiler, out: BasisEntry[], path: string): void {
  if (t === '_') {
    identityEntries(shape, first, out);
    return;
  }
  if (isByMode(t)) {
    const r = typeof shape === 'number' ? 1 : shape.length;
    if (t.length > r) {
      fail(
        `the tiler ${tilerText(t)} has ${t.length} modes but ${path === '' ? 'the tensor' : `mode ${path} of the tensor`} has rank ${r} (CuTe's composition static_assert: mismatched ranks)`,
      );
    }
    let j = first;
    for (let i = 0; i < t.length; i++) {
      const sub = typeof shape === 'number' ? shape : shape[i]!;
      tileBasisOf(sub, j, t[i]!, out, path === '' ? `${i + 1}` : `${path}.${i + 1}`);
      j += leafCount(sub);
    }
    return;
  }
  const ids: BasisEntry[] = [];
  identityEntries(shape, first, ids);
  const f = flat(t as Layout);
  try {
    for (const e of composeBasis(ids, f.shapes, f.strides, 'tma_desc')) out.push(e);
  } catch (e) {
    // the tiler named only on a failure (formatting it on every request costs)
    if (e instanceof LayoutError)
      fail(`the tile ${formatTiler(t)} over ${path === '' ? 'the tensor' : `mode ${path} of the tensor`}: ${e.message.replace(/^tma_desc: /, '')}`);
    throw e;
  }
}

/**
 * Step 1 (docs/descriptors.md §2): V = make_identity_layout(shape(G)) ∘ T, the map from a tile coordinate to a coordinate of G,
 * as scaled-basis entries; size(S) must be size(V). Errors: `domain` (the tiler's rank, CuTe's size equivalence).
 */
export function tileBasis(g: Layout, s: Layout, t: Tiler): BasisEntry[] {
  const v: BasisEntry[] = [];
  tileBasisOf(g.shape, 0, t, v, '');
  let sizeV = 1;
  for (const e of v) sizeV *= e.size;
  if (size(s) !== sizeV)
    fail(`size(S) = ${size(s)} but the tile ${tilerText(t)} has size ${sizeV}: TMA requires CTA_Tile and SLayout top-level size equivalence`);
  return v;
}

/** Step 2: F = coalesce(V ∘ right_inverse(S)), smem offset → coordinate of G (scaled bases). */
export function smemToGmem(v: readonly BasisEntry[], inverse: Layout): BasisEntry[] {
  const f = flat(inverse);
  return coalesceBasis(composeBasis(v, f.shapes, f.strides, 'tma_desc: the smem layout over the tile'));
}

/** Step 3: the box, F's longest prefix of unit steps along one leaf of G each (CuTe's smem_rank). Errors: `domain` when empty. */
export function boxPrefix(f: readonly BasisEntry[]): BasisEntry[] {
  let k = 0;
  while (k < f.length && f[k]!.coef === 1) k++;
  if (k === 0) fail("could not find a common tile-gmem vectorization: the smem tile's first contiguous elements are no unit step of any mode of G");
  return f.slice(0, k);
}

/** Step 4: the box modes with G's strides, merged while contiguous and at most 256 (CuTe's coalesce_256), one TMA dim each. */
export function coalesce256(box: readonly BasisEntry[], leaves: Leaves): TmaDim[] {
  const dims: TmaDim[] = [];
  let backStride = 0;
  for (const e of box) {
    const d = leaves.d[e.leaf]!;
    const back = dims[dims.length - 1];
    if (back !== undefined && back.box * backStride === d && back.box * e.size <= 256) {
      back.box *= e.size;
      back.leaves.push(e.leaf);
    } else {
      dims.push({ box: e.size, leaves: [e.leaf] });
      backStride = d;
    }
  }
  return dims;
}

/** whether leaf j is among the leaves of the first `count` dims */
function inBoxDims(dims: readonly TmaDim[], count: number, j: number): boolean {
  for (let i = 0; i < count; i++) if (dims[i]!.leaves.includes(j)) return true;
  return false;
}

/** Step 5: every leaf of G the box does not reach, not of size 1 nor stride 0, a dim of box 1; beyond 5 dims, the rest folded into the fifth. */
export function remainingDims(dims: TmaDim[], leaves: Leaves): TmaDim[] {
  const boxDims = dims.length;
  for (let j = 0; j < leaves.n.length; j++) {
    if (leaves.n[j] === 1 || leaves.d[j] === 0 || inBoxDims(dims, boxDims, j)) continue;
    dims.push({ box: 1, leaves: [j] });
  }
  if (dims.length <= 5) return dims;
  const rest = dims.slice(4);
  return [...dims.slice(0, 4), { box: rest.reduce((p, x) => p * x.box, 1), leaves: rest.flatMap((x) => x.leaves) }];
}

/**
 * Step 6: globalDim and the element stride of each dim from the leaves it covers (CuTe's fill_tma_gmem_shape_stride:
 * one leaf its shape and stride; several, stride g = gcd and shape = (shape − 1)·(d_prev / g) + (s_j − 1)·(d_j / g) + 1).
 * The innermost stride must be 1. Errors: `domain` (majorness), `overflow`.
 */
export function gmemShapeStride(dims: readonly TmaDim[], leaves: Leaves): { globalDim: number[]; strides: number[] } {
  const globalDim: number[] = [];
  const strides: number[] = [];
  for (const dim of dims) {
    let shape = 1;
    let stride = 0;
    for (const j of dim.leaves) {
      const sj = leaves.n[j]!;
      const dj = leaves.d[j]!;
      const old = stride;
      stride = gcd(stride, dj);
      shape = stride === 0 ? sj : add(add(mul(shape - 1, old / stride, 'globalDim'), mul(sj - 1, dj / stride, 'globalDim'), 'globalDim'), 1, 'globalDim');
    }
    globalDim.push(shape);
    strides.push(stride);
  }
  if (strides[0] !== 1) {
    fail(
      `the innermost TMA dimension has stride ${strides[0]} in G, not 1: majorness of smem doesn't match majorness of gmem (the smem tile's contiguous direction is not G's)`,
    );
  }
  return { globalDim, strides };
}

/** The swizzle mode of S (plain: none) over the element type; a composed S with an offset K ≠ 0 is `domain`. */
export function smemSwizzleMode(s: LayoutFunction, dt: DType): SwizzleMode {
  if (!isComposed(s)) return SWIZZLE_MODES.none;
  if (s.offset !== 0) fail(`the smem layout ${formatLayoutFunction(s)} has offset ${s.offset}: a descriptor starts at the tile's base (K = 0)`);
  return tmaSwizzleMode(byteSwizzle(s.swizzle, dt), s, dt);
}

function leavesOf(g: Layout): Leaves {
  const f = flat(g);
  return { n: f.shapes, d: f.strides };
}

/** Steps 1–7 with the pieces the box map needs (boxes.ts). Errors: as tmaDescriptor. */
export function tmaPlan(input: TmaInput): TmaPlan {
  const { gmem: g, smem, dtype: dt } = input;
  const mode = smemSwizzleMode(smem, dt);
  const s = innerLayout(smem);
  const leaves = leavesOf(g);
  const v = tileBasis(g, s, input.tiler ?? defaultTiler(s));
  const inverse = rightInverse(s);
  const box = boxPrefix(smemToGmem(v, inverse));
  const dims = remainingDims(coalesce256(box, leaves), leaves);
  const { globalDim, strides } = gmemShapeStride(dims, leaves);
  const boxDim = dims.map((x) => x.box);
  const boxElements = boxDim.reduce((p, b) => p * b, 1);
  const desc: TmaDescriptor = {
    dataType: dt.tmaDataType,
    rank: dims.length,
    globalDim,
    globalStrides: strides.slice(1).map((x) => x * dt.bytes),
    boxDim,
    elementStrides: dims.map(() => 1),
    interleave: 'NONE',
    swizzle: mode.name,
    l2Promotion: 'L2_128B',
    oobFill: 'NONE',
    smemAlignment: mode.smemAlignment,
    boxes: size(s) / boxElements,
  };
  checkTensorMap(desc, dt.bytes);
  return { desc, tileBasis: v, inverse, boxElements, leaves };
}

/**
 * The tensor map of docs/descriptors.md §2 for parsed values (tmaDesc in api.ts takes strings too). Errors: `domain` for every rule
 * of §12 (CuTe's asserts, the driver's contract, a swizzle with no mode, offset K ≠ 0), `overflow` where a dimension
 * cannot be represented. Example: G (4096,4096):(4096,1), S = Sw<3,3,3> o ((8,16),(64,1)):((64,512),(1,0)), bfloat16_t
 * → boxDim [64, 128], swizzle 128B, smemAlignment 1024, boxes 1.
 */
export function tmaDescriptor(input: TmaInput): TmaDescriptor {
  return tmaPlan(input).desc;
}

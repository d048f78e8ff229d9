/**
 * The exact bridge between CuTe layouts and linear layouts (docs/linear.md, "The bridge to
 * CuTe"): `checkLinear` decides whether a CuTe layout function is F2-linear (with a witness),
 * `toLL` writes a linear one as a linear layout (function, thread-value or shared kind), and
 * `fromLL` gives the simplest exact CuTe form of a linear layout: strides when the images of the
 * index bits have disjoint binary supports, else the first `Sw<B,M,S> o L` in the documented
 * order, else `not-representable`.
 *
 * Everything works on the images of single bits (never on every index): a CuTe layout whose
 * size is a power of two has Φ_L(x) = Σ x_i·b_i over its index bits, which is an XOR exactly
 * when the nonzero b_i have disjoint supports; a swizzle is a linear bijection on top of it.
 */
import { intText } from '../algebra/int-text.js';
import { LayoutError } from '../algebra/errors.js';
import { coalesceRelative } from '../algebra/coalesce.js';
import { flat, makeLayout, mode, rank, size, type Layout } from '../algebra/layout.js';
import type { Tuple } from '../algebra/tuple.js';
import { formatLayoutFunction, innerLayout, isComposed, makeComposed, type LayoutFunction } from '../cute/composed.js';
import { applySwizzle } from '../cute/swizzle.js';
import { dimNamed, log2, makeLinearLayout, MAX_BITS, MAX_DIM_LOG2, type InDim, type LinearLayout } from './value.js';
import { firstCarry, firstSwizzle, hasFormBig, highBit, or53, xor53 } from './bits.js';

const isPow2 = (n: number): boolean =>
  Number.isSafeInteger(n) && n >= 1 && (n <= 2 ** 30 ? (n & (n - 1)) === 0 : Number.isInteger(Math.log2(n)) && 2 ** Math.log2(n) === n);
const bitsOf = (n: number): number => Math.round(Math.log2(n));

const domain = (msg: string): LayoutError => new LayoutError('domain', msg);

// ---------------------------------------------------------------------------------------------
// check_linear (docs/linear.md, "Deciding linearity")

/** The answer of `check_linear`: a witness [x, y] with Φ(x ⊕ y) ≠ Φ(x) ⊕ Φ(y) where one exists. */
export interface LinearCheck {
  readonly linear: boolean;
  readonly reason: null | 'size' | 'offset' | 'carry';
  readonly witness: null | readonly [number, number];
}

/** The images Φ_L(2^i) of the index bits of a layout whose shape entries are powers of two. */
function bitImages(l: Layout): number[] {
  const { shapes, strides } = flat(l);
  const b: number[] = [];
  for (let q = 0; q < shapes.length; q++) {
    const k = bitsOf(shapes[q]!);
    for (let j = 0; j < k; j++) b.push(strides[q]! * 2 ** j);
  }
  return b;
}

/**
 * Whether the CuTe layout function C (plain, or composed Sw<B,M,S> o K o L) is F2-linear on
 * [0, size): Φ(x ⊕ y) = Φ(x) ⊕ Φ(y) (docs/linear.md, "Deciding linearity"). Not a power-of-two
 * size: reason `size`; K ≠ 0: `offset` (Φ(0) = Sw(K) ≠ 0, witness [0, 0]); two index bits whose
 * images share a bit: `carry` with the witness [2^i, 2^j]. A swizzle never breaks linearity.
 * @example checkLinear(parseLayout('(2,2):(1,1)')) // { linear: false, reason: 'carry', witness: [1, 2] }
 */
export function checkLinear(c: LayoutFunction): LinearCheck {
  const inner = innerLayout(c);
  if (!isPow2(size(inner))) return { linear: false, reason: 'size', witness: null };
  if (isComposed(c) && c.offset !== 0) return { linear: false, reason: 'offset', witness: [0, 0] };
  const carry = firstCarry(bitImages(inner));
  if (carry === null) return { linear: true, reason: null, witness: null };
  return { linear: false, reason: 'carry', witness: [2 ** carry[0], 2 ** carry[1]] };
}

/** Φ of a layout function at an index below 2^53 whose value is exact */
const phiAt = (c: LayoutFunction, images: readonly number[], x: number): number => {
  // Φ_L(x) = Σ x_i·b_i over the set bits (the shape entries are powers of two)
  let v = 0;
  for (let i = 0; x > 0; i++, x = Math.floor(x / 2)) if (x % 2 === 1) v += images[i]!;
  return isComposed(c) ? applySwizzle(c.swizzle, c.offset + v) : v;
};

/** The `not-linear` error of `to_ll`, naming the reason's witness. */
function notLinear(c: LayoutFunction, check: LinearCheck): LayoutError {
  const text = formatLayoutFunction(c);
  if (check.reason === 'size') {
    return new LayoutError('not-linear', `not linear: ${text} has size ${size(innerLayout(c))}, not a power of two (an F2-linear map needs whole index bits)`);
  }
  if (check.reason === 'offset' && isComposed(c)) {
    return new LayoutError(
      'not-linear',
      `not linear but affine: the offset K = ${c.offset} makes Phi(0) = ${applySwizzle(c.swizzle, c.offset)} != 0 ` +
        '(witness x = 0, y = 0); a linear layout maps 0 to 0',
    );
  }
  const [x, y] = check.witness!;
  const b = bitImages(innerLayout(c));
  const both = phiAt(c, b, x + y);
  const sep = xor53(phiAt(c, b, x), phiAt(c, b, y));
  return new LayoutError('not-linear', `not linear: x = ${x}, y = ${y} give Phi(x xor y) = ${both} but Phi(x) xor Phi(y) = ${sep}`);
}

// ---------------------------------------------------------------------------------------------
// to_ll (docs/linear.md, "CuTe to linear layouts")

/** The kinds of `to_ll` and `from_ll`. */
export type BridgeKind = 'function' | 'tv' | 'shared';

/** Options of `toLL`: the tile (tv, shared) and the lane and warp counts (tv). */
export interface ToLLOptions {
  readonly tile?: readonly number[];
  readonly lanes?: number;
  readonly warps?: number;
}

/** The images Φ_C(2^i) of a linear C: Sw(b_i) for a composed one (K = 0). Pre-condition: linear. */
function linearImages(c: LayoutFunction): number[] {
  const b = bitImages(innerLayout(c));
  return isComposed(c) ? b.map((v) => applySwizzle(c.swizzle, v)) : b;
}

/** A tile argument: sizes that are powers of two (at most 2^30 each, 64 bits in all), else `domain`. */
function checkTile(tile: readonly number[], what: string): void {
  if (tile.length === 0) throw domain(`${what}: the tile must have at least one dim`);
  let bits = 0;
  tile.forEach((t, d) => {
    if (!Number.isSafeInteger(t) || t < 1 || !isPow2(t)) throw domain(`${what}: tile entry ${d} is ${intText(t)}, not a power of two`);
    if (t > 2 ** MAX_DIM_LOG2) throw domain(`${what}: tile entry ${d} is ${t}, beyond 2^${MAX_DIM_LOG2}`);
    bits += bitsOf(t);
  });
  if (bits > MAX_BITS) throw domain(`${what}: the tile has ${bits} bits, beyond ${MAX_BITS}`);
}

/** Split a tile index (below 2^53) into coordinates, dim0 fastest (colexicographic). */
function splitIndex(v: number, tile: readonly number[]): number[] {
  const out: number[] = [];
  let rest = v;
  for (const t of tile) {
    out.push(rest % t);
    rest = Math.floor(rest / t);
  }
  return out;
}

/**
 * to_ll (docs/linear.md, "CuTe to linear layouts"): the linear layout of a linear CuTe layout
 * function C. `function` (default): in-dim `in` of size(C), out-dim `out` of the smallest power
 * of two above every value, basis i = Φ(2^i). `tv`: C = (thread, value) → tile index, in-dims
 * register (value bits), lane (the first log2 lanes thread bits), warp (the next log2 warps, by
 * default all the rest), block (the rest); out-dims dim0 … of the tile's sizes. `shared`: C =
 * tile index → offset must be a bijection onto [0, size) (else `not-representable`); the LL is
 * its inverse, in-dims offset and block (size 1). Errors: `not-linear` naming the witness,
 * `domain` for a bad tile, lanes or warps or an image beyond the tile, `overflow` beyond the
 * limits of a linear layout.
 * @example toLL(parseLayoutFunction('(2,2):(3,4)')) // in = [[3], [4]], out of size 8
 */
export function toLL(c: LayoutFunction, kind: BridgeKind = 'function', opts: ToLLOptions = {}): LinearLayout {
  checkShapeRules(c, kind, opts);
  const check = checkLinear(c);
  if (!check.linear) throw notLinear(c, check);
  const images = linearImages(c);
  if (kind === 'function') return functionLL(images);
  if (kind === 'tv') return tvLL(c, images, opts);
  return sharedLL(c, images, opts.tile);
}

/** The rules on the arguments' shapes (rank, tile, lanes, warps, the options of each kind), each `domain`, checked
 *  before C's linearity so that a request breaking one answers it before any later question (a rank-3 `tv` layout
 *  is `domain`, never `not-linear`). */
function checkShapeRules(c: LayoutFunction, kind: BridgeKind, opts: ToLLOptions): void {
  if (kind !== 'tv' && (opts.lanes !== undefined || opts.warps !== undefined)) throw domain(`to_ll: lanes and warps are only for the tv kind, not ${kind}`);
  if (kind === 'function' && opts.tile !== undefined) throw domain('to_ll: the function kind takes no tile');
  if (kind === 'shared' && opts.tile !== undefined) checkSharedTile(innerLayout(c), opts.tile);
  if (kind !== 'tv') return;
  const inner = innerLayout(c);
  if (rank(inner) !== 2 || typeof inner.shape === 'number') {
    throw domain(`to_ll tv: ${formatLayoutFunction(c)} must have rank 2 (thread, value), not ${rank(inner)}`);
  }
  const tile = opts.tile;
  if (tile === undefined) throw domain('to_ll tv: the tile (its dim sizes) is required');
  checkTile(tile, 'to_ll tv');
  const lanes = opts.lanes ?? 32;
  if (!isPow2(lanes) || lanes > 2 ** MAX_DIM_LOG2) throw domain(`to_ll tv: lanes = ${intText(lanes)} is not a power of two`);
  if (opts.warps !== undefined && (!isPow2(opts.warps) || opts.warps > 2 ** MAX_DIM_LOG2)) {
    throw domain(`to_ll tv: warps = ${intText(opts.warps)} is not a power of two`);
  }
}

/** A shared LL's tile: a valid tile (checkTile) of size(C) elements. */
function checkSharedTile(inner: Layout, given: readonly number[]): void {
  checkTile(given, 'to_ll shared');
  const n = size(inner);
  const p = given.reduce((a, t) => a * t, 1);
  if (p !== n) throw domain(`to_ll shared: the tile [${given.join(', ')}] has ${p} elements, not size(C) = ${n}`);
}

function functionLL(images: readonly number[]): LinearLayout {
  if (images.length > MAX_DIM_LOG2) throw new LayoutError('overflow', `to_ll: in-dim 'in' would have 2^${images.length} elements, beyond 2^${MAX_DIM_LOG2}`);
  let all = 0;
  for (const v of images) all = or53(all, v);
  const outBits = all === 0 ? 0 : highBit(all) + 1;
  if (outBits > MAX_DIM_LOG2) throw new LayoutError('overflow', `to_ll: out-dim 'out' would have 2^${outBits} elements, beyond 2^${MAX_DIM_LOG2}`);
  return makeLinearLayout([{ name: 'in', bases: images.map((v) => [v]) }], [{ name: 'out', size: 2 ** outBits }], 'overflow');
}

/** The tv LL of a linear C whose arguments passed checkShapeRules. */
function tvLL(c: LayoutFunction, images: readonly number[], opts: ToLLOptions): LinearLayout {
  const inner = innerLayout(c);
  const tile = opts.tile!;
  const lanes = opts.lanes ?? 32;
  const tileBits = tile.reduce((s, t) => s + bitsOf(t), 0);
  images.forEach((v, i) => {
    if (tileBits <= 52 && v >= 2 ** tileBits) {
      throw domain(`to_ll tv: index ${2 ** i} maps to ${v}, beyond the tile's ${2 ** tileBits} elements`);
    }
  });
  const tBits = bitsOf(size(mode(inner, 1)));
  const laneBits = Math.min(tBits, bitsOf(lanes));
  const warpBits = opts.warps === undefined ? tBits - laneBits : Math.min(tBits - laneBits, bitsOf(opts.warps));
  const coords = images.map((v) => splitIndex(v, tile));
  const inDims: InDim[] = [
    { name: 'register', bases: coords.slice(tBits) },
    { name: 'lane', bases: coords.slice(0, laneBits) },
    { name: 'warp', bases: coords.slice(laneBits, laneBits + warpBits) },
    { name: 'block', bases: coords.slice(laneBits + warpBits, tBits) },
  ];
  for (const d of inDims) {
    if (d.bases.length > MAX_DIM_LOG2) {
      throw new LayoutError('overflow', `to_ll tv: in-dim '${d.name}' would have 2^${d.bases.length} elements, beyond 2^${MAX_DIM_LOG2}`);
    }
  }
  return makeLinearLayout(
    inDims,
    tile.map((t, d) => ({ name: `dim${d}`, size: t })),
    'overflow',
  );
}

function sharedLL(c: LayoutFunction, images: readonly number[], given?: readonly number[]): LinearLayout {
  const inner = innerLayout(c);
  const n = size(inner);
  let tile: readonly number[];
  if (given === undefined) {
    tile = typeof inner.shape === 'number' ? [n] : Array.from({ length: rank(inner) }, (_, i) => size(mode(inner, i + 1)));
  } else tile = given; // checked by checkSharedTile
  const k = images.length;
  if (k > MAX_DIM_LOG2) throw new LayoutError('overflow', `to_ll shared: in-dim 'offset' would have 2^${k} elements, beyond 2^${MAX_DIM_LOG2}`);
  // a bijection onto [0, 2^k): every image below 2^k and the images independent
  const inv = images.every((v) => v < 2 ** k) ? invertBits(images) : null;
  if (inv === null) {
    throw new LayoutError(
      'not-representable',
      `to_ll shared: the layout does not hit every offset in [0, ${n}) exactly once, so no shared linear layout (offset -> coordinate) has it as its inverse`,
    );
  }
  const bases = inv.map((x) => splitIndex(x, tile));
  return makeLinearLayout(
    [
      { name: 'offset', bases },
      { name: 'block', bases: [] },
    ],
    tile.map((t, d) => ({ name: `dim${d}`, size: t })),
    'overflow',
  );
}

/** The inverse of the F2-linear bijection on k ≤ 30 bits with the given images of the unit
 *  vectors: entry j = the input whose image is 2^j; null when the images are dependent. */
function invertBits(images: readonly number[]): number[] | null {
  const k = images.length;
  // rows (image, input) reduced to one pivot per image bit
  const rowImg: number[] = [];
  const rowIn: number[] = [];
  const pivotRow = new Array<number>(k).fill(-1);
  for (let i = 0; i < k; i++) {
    let v = images[i]!;
    let x = 2 ** i;
    for (let b = k - 1; b >= 0 && v !== 0; b--) {
      if ((v & (1 << b)) !== 0 && pivotRow[b]! >= 0) {
        v ^= rowImg[pivotRow[b]!]!;
        x ^= rowIn[pivotRow[b]!]!;
      }
    }
    if (v === 0) return null;
    const top = 31 - Math.clz32(v);
    pivotRow[top] = rowImg.length;
    rowImg.push(v);
    rowIn.push(x);
  }
  // back-substitute, lowest pivot first, so each row's image is a single bit
  for (let b = 0; b < k; b++) {
    const r = pivotRow[b]!;
    for (let c = b - 1; c >= 0; c--) {
      if ((rowImg[r]! & (1 << c)) !== 0) {
        const rc = pivotRow[c]!;
        rowImg[r] = rowImg[r]! ^ rowImg[rc]!;
        rowIn[r] = rowIn[r]! ^ rowIn[rc]!;
      }
    }
  }
  return pivotRow.map((r) => rowIn[r]!);
}

// ---------------------------------------------------------------------------------------------
// from_ll (docs/linear.md, "Linear layouts to CuTe")

const REGISTER_DIMS = new Set(['register', 'lane', 'warp', 'block']);

/** The out-dims are exactly dim0 … dim(k−1), in any order (k ≥ 1): their sizes by index, or null. */
function standardOuts(l: LinearLayout): number[] | null {
  const k = l.outDims.length;
  if (k === 0) return null;
  const sizes = new Array<number>(k).fill(0);
  for (const o of l.outDims) {
    const m = /^dim(0|[1-9][0-9]*)$/.exec(o.name);
    const d = m ? Number(m[1]) : -1;
    if (d < 0 || d >= k) return null;
    sizes[d] = o.size;
  }
  return sizes;
}

const isTvLL = (l: LinearLayout): boolean => l.inDims.length > 0 && l.inDims.every((d) => REGISTER_DIMS.has(d.name)) && standardOuts(l) !== null;
const isSharedLL = (l: LinearLayout): boolean =>
  l.inDims.some((d) => d.name === 'offset') && l.inDims.every((d) => d.name === 'offset' || d.name === 'block') && standardOuts(l) !== null;

/**
 * The kind `from_ll` takes by default (docs/linear.md): `tv` when the out-dims are exactly
 * dim0 … dim(k−1) and the in-dims a non-empty subset of register, lane, warp, block; `shared`
 * when the out-dims are so and the in-dims are offset (and block); else `function`.
 */
export function defaultKind(l: LinearLayout): BridgeKind {
  return isTvLL(l) ? 'tv' : isSharedLL(l) ? 'shared' : 'function';
}

/** What from_ll turns into a CuTe layout: the images of the index bits, the guide's modes
 *  (their bit counts and the guide tuple) and the number of output bits. */
interface BitMap {
  readonly images: number[];
  readonly modeBits: readonly number[];
  readonly guide: Tuple;
  readonly outBits: number;
}

/** The flattened value of a basis over the out-dims in the given order (first lowest); BigInt
 *  where the out-bits pass 53, `overflow` when a value does not fit an exact integer. */
function flatValue(basis: readonly number[], order: readonly number[], shifts: readonly number[], wide: boolean, scales: readonly number[]): number {
  if (!wide) {
    let v = 0;
    for (let q = 0; q < order.length; q++) v += basis[order[q]!]! * scales[q]!;
    return v;
  }
  let v = 0n;
  order.forEach((j, q) => (v += BigInt(basis[j]!) << BigInt(shifts[q]!)));
  if (v > BigInt(Number.MAX_SAFE_INTEGER)) throw new LayoutError('overflow', `from_ll: an image ${v} is beyond 2^53-1, so no CuTe stride holds it exactly`);
  return Number(v);
}

/** Out-dim indices in flattening order and their bit shifts. */
function outOrder(l: LinearLayout, byName: boolean): { order: number[]; shifts: number[]; scales: number[]; bits: number } {
  const order = l.outDims.map((_, j) => j);
  if (byName) order.sort((a, b) => Number(l.outDims[a]!.name.slice(3)) - Number(l.outDims[b]!.name.slice(3)));
  const shifts: number[] = [];
  const scales: number[] = [];
  let bits = 0;
  for (const j of order) {
    shifts.push(bits);
    scales.push(2 ** bits);
    bits += log2(l.outDims[j]!.size);
  }
  return { order, shifts, scales, bits };
}

/** The flattened images of the bases of the in-dims named, in that order (a missing dim has none). */
function imagesOf(l: LinearLayout, names: readonly string[] | null, byName: boolean): { images: number[]; counts: number[]; bits: number } {
  const { order, shifts, scales, bits } = outOrder(l, byName);
  const images: number[] = [];
  const counts: number[] = [];
  for (const name of names ?? l.inDims.map((d) => d.name)) {
    const d = dimNamed(l.inDims, name);
    const bases = d === undefined ? [] : d.bases;
    for (let i = 0; i < bases.length; i++) images.push(flatValue(bases[i]!, order, shifts, bits > 53, scales));
    counts.push(bases.length);
  }
  return { images, counts, bits };
}

function functionMap(l: LinearLayout): BitMap {
  const { images, counts: modeBits, bits } = imagesOf(l, null, false);
  const guide: Tuple = modeBits.length === 1 ? 2 ** modeBits[0]! : modeBits.map((k) => 2 ** k);
  return { images, modeBits, guide, outBits: bits };
}

/** Threads (lane, warp, block bits) first, then values (register bits). */
const TV_ORDER = ['lane', 'warp', 'block', 'register'];

function tvMap(l: LinearLayout): BitMap {
  const { images, counts, bits } = imagesOf(l, TV_ORDER, true);
  const t = counts[0]! + counts[1]! + counts[2]!;
  const v = counts[3]!;
  return { images, modeBits: [t, v], guide: [2 ** t, 2 ** v], outBits: bits };
}

function sharedMap(l: LinearLayout): BitMap {
  const block = l.inDims.find((d) => d.name === 'block');
  if (block !== undefined && block.bases.length > 0) {
    throw domain(`from_ll shared: the block in-dim has size ${2 ** block.bases.length}; several CTAs have no single CuTe layout (block must have size 1)`);
  }
  const offset = l.inDims.find((d) => d.name === 'offset')!;
  // a surjective LL has no more out-bits than offset bits (so its tile indices are below 2^30)
  const { order, bits } = outOrder(l, true);
  if (bits > offset.bases.length) throw notSurjective();
  const f = smallestPreimages(imagesOf(l, ['offset'], true).images, bits);
  if (f === null) throw notSurjective();
  const sizes = order.map((j) => l.outDims[j]!.size);
  return { images: f, modeBits: sizes.map(log2), guide: sizes.length === 1 ? sizes[0]! : sizes, outBits: offset.bases.length };
}

const notSurjective = (): LayoutError =>
  new LayoutError(
    'not-representable',
    'from_ll shared: the linear layout is not surjective, so some element is stored at no offset and no CuTe layout (coordinate -> offset) has it',
  );

/**
 * For a map given by the images of its n in-bits (integers below 2^bits, bits ≤ 30): for each
 * out-bit j the smallest input o with image 2^j (Triton's pseudo-inverse: the solution on the
 * pivot in-bits, those whose image is not in the span of the images before them); null when
 * some out-bit is not reached (not surjective).
 */
export function smallestPreimages(images: readonly number[], bits: number): number[] | null {
  const rowImg: number[] = [];
  const rowIn: number[] = [];
  const pivotRow = new Array<number>(bits).fill(-1);
  images.forEach((img, i) => {
    let v = img;
    let x = 2 ** i;
    for (let b = bits - 1; b >= 0 && v !== 0; b--) {
      if ((v & (1 << b)) !== 0 && pivotRow[b]! >= 0) {
        v ^= rowImg[pivotRow[b]!]!;
        x ^= rowIn[pivotRow[b]!]!;
      }
    }
    if (v === 0) return; // not a pivot in-bit
    pivotRow[31 - Math.clz32(v)] = rowImg.length;
    rowImg.push(v);
    rowIn.push(x);
  });
  if (pivotRow.some((r) => r < 0)) return null;
  for (let b = 0; b < bits; b++) {
    const r = pivotRow[b]!;
    for (let c = b - 1; c >= 0; c--) {
      if ((rowImg[r]! & (1 << c)) !== 0) {
        rowImg[r] = rowImg[r]! ^ rowImg[pivotRow[c]!]!;
        rowIn[r] = rowIn[r]! ^ rowIn[pivotRow[c]!]!;
      }
    }
  }
  return pivotRow.map((r) => rowIn[r]!);
}

/** P(b): one entry 2:b_i per bit, grouped by the guide's modes (a mode without bits is 1:0). */
function bitLayout(images: readonly number[], modeBits: readonly number[], single: boolean): Layout {
  let at = 0;
  const shapes: Tuple[] = [];
  const strides: Tuple[] = [];
  for (const k of modeBits) {
    if (k === 0) {
      shapes.push(1);
      strides.push(0);
      continue;
    }
    const sh: number[] = [];
    const st: number[] = [];
    for (let i = 0; i < k; i++) {
      sh.push(2);
      st.push(images[at + i]!);
    }
    shapes.push(sh);
    strides.push(st);
    at += k;
  }
  return single ? makeLayout(shapes[0]!, strides[0]!) : makeLayout(shapes, strides);
}

const noForm = (): LayoutError =>
  new LayoutError('not-representable', 'from_ll: the map is not a CuTe layout with integer strides and not Sw<B,M,S> o (one), for any B, M, S');

/** Whether an LL whose flattened images pass 2^53 − 1 has a CuTe form (function or tv, as fromLL reads it),
 *  decided on its exact BigInt images (hasFormBig); where none does the answer is `not-representable`. */
function wideHasForm(l: LinearLayout, tv: boolean): boolean {
  const { order, shifts, bits } = outOrder(l, tv);
  const images: bigint[] = [];
  for (const name of tv ? TV_ORDER : l.inDims.map((d) => d.name)) {
    for (const basis of dimNamed(l.inDims, name)?.bases ?? []) {
      let v = 0n;
      order.forEach((j, q) => (v += BigInt(basis[j]!) << BigInt(shifts[q]!)));
      images.push(v);
    }
  }
  return hasFormBig(images, bits);
}

/**
 * from_ll (docs/linear.md, "Linear layouts to CuTe"): the simplest exact CuTe layout function
 * of a linear layout. `kind` defaults by names (defaultKind); a kind whose conditions fail is
 * `domain`. With b_i the images of the index bits: disjoint supports give the layout of the
 * entries 2:b_i grouped by the guide and relatively coalesced over it; else the first
 * Sw<B,M,S> under which they are disjoint gives `Sw<B,M,S> o` that layout of Sw(b); else
 * `not-representable` (also a non-surjective shared LL); `overflow` past exact integers.
 * @example formatLayoutFunction(fromLL(mmaAccumulatorLL)) // '((4,8),(2,2)):((32,1),(16,8))'
 */
export function fromLL(l: LinearLayout, kind?: BridgeKind): LayoutFunction {
  const tv = isTvLL(l);
  const shared = !tv && isSharedLL(l);
  const k = kind ?? (tv ? 'tv' : shared ? 'shared' : 'function');
  if (k === 'tv' && !tv) {
    throw domain('from_ll tv: the out-dims must be exactly dim0 … dim(k-1) and the in-dims a non-empty subset of register, lane, warp, block');
  }
  if (k === 'shared' && !shared) throw domain('from_ll shared: the out-dims must be exactly dim0 … dim(k-1) and the in-dims offset (and block)');
  if (k === 'function' && l.inDims.length === 0) return makeLayout(1, 0);
  let map: BitMap;
  try {
    map = k === 'function' ? functionMap(l) : k === 'tv' ? tvMap(l) : sharedMap(l);
  } catch (e) {
    // an image beyond 2^53 − 1: overflow only where a CuTe form exists (decided on BigInt), else no form at all
    if (e instanceof LayoutError && e.kind === 'overflow' && k !== 'shared' && !wideHasForm(l, k === 'tv')) throw noForm();
    throw e;
  }
  const single = typeof map.guide === 'number';
  if (firstCarry(map.images) === null) return coalesceRelative(bitLayout(map.images, map.modeBits, single), map.guide);
  const sw = firstSwizzle(map.images, map.outBits);
  if (sw === null) throw noForm();
  const inner = coalesceRelative(
    bitLayout(
      map.images.map((v) => applySwizzle(sw, v)),
      map.modeBits,
      single,
    ),
    map.guide,
  );
  // every value of Sw o inner is below 2^m: exact when m ≤ 53 (else the bounds are checked)
  return makeComposed(sw, 0, inner, map.outBits > 53);
}

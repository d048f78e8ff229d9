/**
 * The layout Triton's `optimalSwizzlingLdSt` (lib/Tools/GenericSwizzling.cpp; the paper "Linear
 * Layouts", §5.4) builds for a pair of register layouts, in our words over linear/f2.ts
 * (docs/planner.md, "Triton's algorithm, in our words"). Both sides are F2-linear maps onto a power-of-two
 * tile of 2^d elements; a basis vector is a tile index (dim0 fastest, Triton's flattened index).
 * The shared layout it builds maps offset bits to tile indices in four groups, lowest first:
 *
 * 1. vector: register bases both sides share (at most 128 bits' worth); when they fill less
 *    than a 4-byte word, registers of one side that are warps of the other, then warps of both,
 *    then warps of either, up to one word;
 * 2. bank: enough further bits to cover the 32 banks × 4 bytes, the complement of the rest
 *    (for vectors under 8 bytes, those that are registers of one side first);
 * 3. segment: the bits that pick the bank row, chosen so that the lanes of one phase of either
 *    side do not meet a bank on two rows: unit bits used by neither side's vector and phase
 *    lanes first, then sums a ⊕ b of a lane basis of one side and one of the other, then (when
 *    still short) the lanes themselves, which cost conflicts;
 * 4. reps: the segment bits that are registers of both sides (moved last).
 *
 * Triton's AMD variant (triton-lang/triton#9662, `numBanks`; TritonTarget): a bank row is the machine's banks × 32
 * bits, a phase of a side's instruction holds 64·bits / (banks·32) of its lanes' worth (its high lane bases
 * dropped), and a 16-byte read's phase is the lanes Triton's caller names for ds_read_b128 (SwizzleTest's
 * `dstTile` laneAddr: lane bases 0, 1, 4 on gfx942's 32 banks, 0, 1, 3, 4 on gfx950's 64).
 */
import { checkDeadline } from '../algebra/deadline.js';
import { columnsOf, rref, type Bits } from '../linear/f2.js';
import { makeLinearLayout, type LinearLayout } from '../linear/value.js';
import type { Tile } from './families.js';

/** The machine as Triton's construction sees it: its banks, and the lane bases of one phase of a 16-byte read (else null). */
export interface TritonTarget {
  readonly banks: number;
  /** lane-basis indices of one phase of ds_read_b128 (Triton's LocalMemOpTile laneAddr), or null: the low lanes */
  readonly read128: readonly number[] | null;
}

/** NVIDIA's 32 banks and warps (Triton's default). */
export const NVIDIA_TARGET: TritonTarget = { banks: 32, read128: null };

/**
 * Triton's target of a machine (#9662): NVIDIA's 32 banks; on AMD its banks and the ds_read_b128 phase lanes that Triton's
 * SwizzleTest passes for them (gfx942: lane bases 0, 1, 4; gfx950: 0, 1, 3, 4).
 * @example tritonTarget({vendor: 'amd', banks: 64}).read128 // [0, 1, 3, 4]
 */
export function tritonTarget(m: { readonly vendor: 'nvidia' | 'amd'; readonly banks: number }): TritonTarget {
  if (m.vendor === 'nvidia') return NVIDIA_TARGET;
  return { banks: m.banks, read128: m.banks === 64 ? [0, 1, 3, 4] : [0, 1, 4] };
}

/** A register layout as Triton's construction sees it: its register and lane bases as tile indices. */
export interface RegisterBases {
  /** register bases without zeros (Triton removes register broadcasting first) */
  readonly reg: readonly number[];
  readonly lane: readonly number[];
  /** warp bases without zeros */
  readonly warp: readonly number[];
}

/** The bits of vectors (tile indices below 2^31) as f2.ts columns: column c = bit c across the vectors. */
function rowsAsColumns(vs: readonly number[], dim: number): { lo: Uint32Array; hi: Uint32Array } {
  const cols: Bits[] = [];
  for (let c = 0; c < dim; c++) {
    let lo = 0;
    vs.forEach((v, r) => {
      if (((v >>> c) & 1) === 1) lo = (lo | (1 << r)) >>> 0;
    });
    cols.push({ lo, hi: 0 });
  }
  return columnsOf(cols);
}

/** The reduced row echelon form of the vectors (rows, leading 1 at the lowest bit): each row's pivot bit and its bits. */
function reduced(vs: readonly number[], dim: number): { pivot: number; row: number }[] {
  if (vs.length > 32) throw new Error('internal: more than 32 vectors');
  const { pivots, rows } = rref(rowsAsColumns(vs, dim));
  // f2.ts's rows are over the columns (the bits): row i has its leading 1 at bit pivots[i]
  return pivots.map((p, i) => ({ pivot: p, row: rows[i]!.lo }));
}

/** The vectors x with ⟨v, x⟩ = 0 for every v (free bits ascending, each with the pivots of the rows it meets). */
function nullspace(vs: readonly number[], dim: number): number[] {
  const r = reduced(vs, dim);
  const piv = new Set(r.map((x) => x.pivot));
  const out: number[] = [];
  for (let f = 0; f < dim; f++) {
    if (piv.has(f)) continue;
    let v = 1 << f;
    for (const { pivot, row } of r) if (((row >>> f) & 1) === 1) v ^= 1 << pivot;
    out.push(v >>> 0);
  }
  return out;
}

const isPow2 = (x: number): boolean => x > 0 && (x & (x - 1)) === 0;

/** A basis of span(b1) ∩ span(b2): b1's own order when every vector is a unit bit, else (null(b1) + null(b2))'s nullspace. */
export function intersection(b1: readonly number[], b2: readonly number[], dim: number): number[] {
  if (b1.every(isPow2) && b2.every(isPow2)) {
    const in2 = new Set(b2);
    return b1.filter((b) => b !== 0 && in2.has(b));
  }
  return nullspace([...nullspace(b1, dim), ...nullspace(b2, dim)], dim);
}

/** The unit bits that are not pivots of the basis: a complement of its span. */
function complement(basis: readonly number[], dim: number): number[] {
  const piv = new Set(reduced(basis, dim).map((x) => x.pivot));
  const out: number[] = [];
  for (let i = 0; i < dim; i++) if (!piv.has(i)) out.push(1 << i);
  return out;
}

/** The segment bases (see the header, step 3): len of them, from the bank-row bases of both sides. */
function segmentBases(bankSrc: readonly number[], bankDst: readonly number[], dim: number, len: number): number[] {
  const src = new Set(bankSrc.filter((b) => b !== 0));
  const dst = new Set(bankDst.filter((b) => b !== 0));
  const seg: number[] = [];
  for (let b = 0; b < dim; b++) if (!src.has(1 << b) && !dst.has(1 << b)) seg.push(1 << b);
  if (seg.length >= len) return seg.slice(0, len);
  let a = [...src].filter((v) => !dst.has(v));
  let b = [...dst].filter((v) => !src.has(v));
  if (a.length > b.length) [a, b] = [b, a];
  a.sort((x, y) => x - y);
  b.sort((x, y) => x - y);
  const conflicts = Math.min(Math.max(0, len - a.length - seg.length), a.length);
  for (let i = conflicts; i < a.length; i++) seg.push(a[i]! ^ b[i]!);
  seg.push(...a.slice(0, conflicts), ...b.slice(0, conflicts));
  return seg.slice(0, len);
}

const log2 = (n: number): number => 31 - Math.clz32(n);

/** Step 1: the vector bases (the header's step 1; Triton's getVecBasisLdSt) and which side filled the bank word, if one did. */
function vectorBases(src: RegisterBases, dst: RegisterBases, bits: number, dim: number): { v: number[]; srcFills: boolean | null } {
  const v = intersection(src.reg, dst.reg, dim).slice(0, log2(128 / bits));
  if (2 ** v.length * bits >= 32) return { v, srcFills: null };
  const perBank = log2(32 / bits);
  const notV = (xs: readonly number[]): number[] => xs.filter((x) => !v.includes(x));
  // registers of one side that are warps of the other: a wider vector on one side, no conflict on the other
  const srcWarp = intersection(notV(src.reg), dst.warp, dim);
  const dstWarp = intersection(notV(dst.reg), src.warp, dim);
  let srcFills: boolean;
  if (srcWarp.length === dstWarp.length && srcWarp.length > 0) srcFills = Math.min(...srcWarp) < Math.min(...dstWarp);
  else srcFills = srcWarp.length > dstWarp.length;
  v.push(...(srcFills ? srcWarp : dstWarp));
  if (v.length < perBank) v.push(...intersection(src.warp, dst.warp, dim));
  // still short of a bank word: warps of either side, alternately
  for (let i = 0; v.length < perBank && (i < src.warp.length || i < dst.warp.length); i++) {
    if (i < src.warp.length && !v.includes(src.warp[i]!)) v.push(src.warp[i]!);
    if (v.length < perBank && i < dst.warp.length && !v.includes(dst.warp[i]!)) v.push(dst.warp[i]!);
  }
  return { v: v.slice(0, perBank), srcFills };
}

/** The lanes of one phase of a side's instruction: the lanes less the top ones that further phases take (Triton's getLaneTile). */
export function laneTile(lanes: readonly number[], vecElems: number, bits: number, banks = 32): number[] {
  const log2Vec = log2(Math.max(1, (vecElems * bits) / 32));
  const log2Phase = Math.max(0, log2Vec + lanes.length - log2(banks));
  return lanes.slice(0, lanes.length - log2Phase);
}

/**
 * The offset bases of Triton's optimalSwizzlingLdSt for write side `src` and read side `dst`
 * (register bases without broadcasting, i.e. no zero register basis; warp bases without zeros)
 * over a tile of 2^dim elements of `bits` bits, on the target's banks (NVIDIA's 32 by default; AMD's: TritonTarget)
 * and one CTA: vector, bank, segment, reps, lowest offset bit first. Null when they are not a basis of the tile.
 * @example tritonBases({reg: [1, 2], lane: [4, 8, 16, 32, 64], warp: []}, {reg: [1, 2], lane: [4, 8, 16, 32, 64], warp: []}, 16, 7)
 */
export function tritonBases(src: RegisterBases, dst: RegisterBases, bits: number, dim: number, target: TritonTarget = NVIDIA_TARGET): TritonLayout | null {
  checkDeadline("Triton's construction");
  const { v, srcFills } = vectorBases(src, dst, bits, dim);
  const vecElems = 2 ** v.length;
  const { banks, read128 } = target;
  const tileSrc = laneTile(src.lane, vecElems, bits, banks);
  // a 16-byte read on AMD: the lanes of one ds_read_b128 phase as Triton's caller names them (#9662's dstTile)
  const tileDst =
    read128 !== null && vecElems * bits === 128 && read128.every((i) => i < dst.lane.length)
      ? read128.map((i) => dst.lane[i]!)
      : laneTile(dst.lane, vecElems, bits, banks);
  const lenBank = Math.min(log2((banks * 32) / (vecElems * bits)), dim - v.length);
  const lenSeg = dim - lenBank - v.length;
  const seg = segmentBases([...v, ...tileSrc], [...v, ...tileDst], dim, lenSeg);
  let bank = complement([...v, ...seg], dim);
  const inSrc = new Set(src.reg);
  const inDst = new Set(dst.reg);
  if (log2(Math.max(1, (vecElems * bits) / 32)) < 2) {
    // narrow vectors: the bank bases that are one side's registers first (the side that filled the word, else the side with more)
    const idxSrc = bank.flatMap((b, i) => (inSrc.has(b) ? [i] : []));
    const idxDst = bank.flatMap((b, i) => (inDst.has(b) ? [i] : []));
    const first = srcFills === true ? idxSrc : srcFills === false ? idxDst : idxSrc.length > idxDst.length ? idxSrc : idxDst;
    const order = [...first, ...bank.map((_, i) => i).filter((i) => !first.includes(i))];
    bank = order.map((i) => bank[i]!);
  }
  const reps = seg.filter((s) => inSrc.has(s) && inDst.has(s));
  const rest = seg.filter((s) => !(inSrc.has(s) && inDst.has(s)));
  const all = [...v, ...bank, ...rest, ...reps];
  if (all.length !== dim || reduced(all, dim).length !== dim) return null;
  return { bases: all, vector: v, bank, segment: rest, reps };
}

/** Triton's layout: its offset bases lowest first, and their groups. */
export interface TritonLayout {
  readonly bases: readonly number[];
  readonly vector: readonly number[];
  readonly bank: readonly number[];
  readonly segment: readonly number[];
  readonly reps: readonly number[];
}

/** The offsets by tile index of the layout with these offset bases (a bijection of 2^dim). */
export function offsetsOfBases(bases: readonly number[]): Int32Array {
  const n = 2 ** bases.length;
  const idx = new Int32Array(n);
  const out = new Int32Array(n);
  for (let k = 0, p = 1; k < bases.length; k++, p *= 2) for (let x = 0; x < p; x++) idx[p + x] = idx[x]! ^ bases[k]!;
  for (let o = 0; o < n; o++) out[idx[o]!] = o;
  return out;
}

/** The shared LL of offset bases over the tile (offset → dim0 …), for printing as `#ttg.shared_linear`. */
export function sharedLL(bases: readonly number[], tile: Tile): LinearLayout {
  const coords = (x: number): number[] =>
    tile.shape.map((n) => {
      const c = x % n;
      x = (x - c) / n;
      return c;
    });
  return makeLinearLayout(
    [
      { name: 'offset', bases: bases.map(coords) },
      { name: 'block', bases: [] },
    ],
    tile.shape.map((n, d) => ({ name: `dim${d}`, size: n })),
  );
}

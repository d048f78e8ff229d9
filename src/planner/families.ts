/**
 * The families of candidate layouts (docs/planner.md, "Families and their counts"): finite, named,
 * enumerated in a fixed order, each candidate once (two candidates of a family with the same
 * function are one: the first is kept). A candidate is a layout function (tile index, column-major
 * in the tile's shape → element offset) with its table of offsets.
 *
 * - `swizzle`: Sw<B,M,S> o L for every base L (the tile's mode orders: for rank r every order of
 *   the r modes, column-major first) and every B ≥ 1, M ≥ 0, S ≥ B with M + S + B ≤ ⌈log2 n⌉
 *   (n the tile's size), after the plain bases.
 * - `padded`: each base with its leading stride (the second mode in its order) padded by p = 1 …
 *   128/e elements; then Triton's `#ttg.padded_shared<[I:+P]>` over each base: offset y ↦ y +
 *   ⌊y / I⌋·P for I = 2^i < n and P = 2^j ≤ 128/e, where that function is a CuTe layout.
 * - `atoms`: CUTLASS's GMMA Layout_{K,MN}_{INTER,SW32,SW64,SW128}_Atom<T> (rank-2 tiles, e ≤ 4), the
 *   descriptors room's (descriptors/atoms.ts), tiled to the shape by tile_to_shape in each mode order.
 */
import { compose } from '../algebra/compose.js';
import { checkDeadline } from '../algebra/deadline.js';
import { isLayoutError } from '../algebra/errors.js';
import { cosize, makeLayout, type Layout } from '../algebra/layout.js';
import { isComposed, makeComposed, type LayoutFunction } from '../cute/composed.js';
import { tileToShape } from '../cute/product.js';
import { makeSwizzle } from '../cute/swizzle.js';
import { atomLayout, atomName, atomTiledTo, SMEM_ATOMS } from '../descriptors/atoms.js';
import { dtypeOf } from '../descriptors/dtype.js';
import { phiTable32, Pool32 } from '../memory/access.js';
import { swizzleBits } from '../memory/phases.js';
import type { SwizzleBits } from './price.js';

/** The tile a plan is for: its mode sizes, their product, the element size. */
export interface Tile {
  readonly shape: readonly number[];
  readonly size: number;
  readonly e: number;
}

/** The family names, in docs/planner.md's order (the ranking's third key). */
export const FAMILIES = ['swizzle', 'linear', 'padded', 'atoms'] as const;
export type FamilyName = (typeof FAMILIES)[number];

/** The families this build enumerates (`linear` by linear-family.ts's search, the others by `candidates`). */
export const BUILT_FAMILIES: readonly FamilyName[] = ['swizzle', 'linear', 'padded', 'atoms'];

/** The families a plan searches when the request names none (docs/planner.md: `linear` is asked for by name). */
export const DEFAULT_FAMILIES: readonly FamilyName[] = ['swizzle', 'padded', 'atoms'];

/** One candidate: its family, its layout function, its GMMA atom (atoms family), its offsets by tile index and cosize. */
export interface Candidate {
  readonly family: FamilyName;
  readonly layout: LayoutFunction;
  /** the CUTLASS atom it was tiled from (`GMMA::Layout_K_SW128_Atom<half_t>`), else null */
  readonly atom: string | null;
  /** Φ over the tile's indices (valid until the family's next candidate) */
  readonly offsets: Int32Array;
  /** the largest offset + 1 */
  readonly cosize: number;
  /** a key of its function (two hashes of the offsets) */
  readonly key: string;
  /** its number among the family's members, before duplicates are left out (the enumeration a shard splits: memberCount) */
  readonly index: number;
  /** for Sw o base of the swizzle family: the base's number and offsets, and the swizzle as 32-bit operations */
  readonly swizzle?: { readonly base: number; readonly baseOffsets: Int32Array; readonly bits: SwizzleBits };
}

/** A part of a family's enumeration: members lo … hi − 1 (hi may be Infinity: to the end). */
export interface MemberRange {
  readonly lo: number;
  readonly hi: number;
}

/** Every order of the modes 0 … r−1 (column-major, i.e. the identity order, first; row-major second for r = 2). */
export function modeOrders(r: number): number[][] {
  if (r <= 1) return [[0]];
  const out: number[][] = [];
  const walk = (prefix: number[], rest: number[]): void => {
    if (rest.length === 0) out.push(prefix);
    for (const x of rest)
      walk(
        [...prefix, x],
        rest.filter((y) => y !== x),
      );
  };
  walk(
    [],
    Array.from({ length: r }, (_, i) => i),
  );
  return out;
}

/** The compact layout of the tile's shape whose strides grow in `order`, the stride of order[1] padded by p. */
export function baseLayout(shape: readonly number[], order: readonly number[], p = 0): Layout {
  const stride = new Array<number>(shape.length).fill(0);
  let run = 1;
  order.forEach((i, k) => {
    const d = k === 1 ? run + p : run;
    stride[i] = d;
    run = d * shape[i]!;
  });
  return makeLayout([...shape], stride);
}

/** ⌈log2 n⌉ */
const ceilLog2 = (n: number): number => (n <= 1 ? 0 : 32 - Math.clz32(n - 1));

/** The offsets of a layout function over [0, size), into `pool` (null when an offset reaches 2^30). */
function offsetsOf(l: LayoutFunction, pool: Pool32): { offsets: Int32Array; cosize: number } | null {
  const inner = isComposed(l) ? l.inner : l;
  if (cosize(inner) >= 2 ** 30) return null;
  const t = phiTable32(inner, pool)!;
  let max = 0;
  if (isComposed(l) && l.swizzle.bits > 0) {
    const sw = l.swizzle;
    const mask = ((1 << sw.bits) - 1) << (sw.base + Math.max(0, sw.shift));
    const r = Math.max(0, sw.shift);
    const s = Math.max(0, -sw.shift);
    for (let x = 0; x < t.length; x++) {
      const y = t[x]!;
      const o = y ^ (((y & mask) >>> r) << s);
      t[x] = o;
      if (o > max) max = o;
    }
  } else for (let x = 0; x < t.length; x++) if (t[x]! > max) max = t[x]!;
  return { offsets: t, cosize: t.length === 0 ? 0 : max + 1 };
}

/** Two 32-bit hashes of a table (FNV-1a and a position-weighted sum), as one key (equal keys are compared in full). */
function tableKey(t: Int32Array): string {
  let a = 0x811c9dc5;
  let b = 0x9e3779b9;
  for (let x = 0; x < t.length; x++) {
    const v = t[x]!;
    a = Math.imul(a ^ v, 0x01000193);
    b = (b + Math.imul(v + 1, x | 1)) | 0;
  }
  return `${a >>> 0}:${b >>> 0}`;
}

/** y ↦ y + ⌊y/I⌋·P over the base's offsets into `out`, with tableKey's key and the cosize, in one pass. */
function paddedTable(base: Int32Array, interval: number, pad: number, out: Int32Array): { key: string; cosize: number } {
  let a = 0x811c9dc5;
  let b = 0x9e3779b9;
  let max = 0;
  for (let x = 0; x < base.length; x++) {
    const y = base[x]!;
    const v = y + ((y / interval) | 0) * pad;
    out[x] = v;
    if (v > max) max = v;
    a = Math.imul(a ^ v, 0x01000193);
    b = (b + Math.imul(v + 1, x | 1)) | 0;
  }
  return { key: `${a >>> 0}:${b >>> 0}`, cosize: base.length === 0 ? 0 : max + 1 };
}

/** Sw o base's offsets from the base's (Sw as 32-bit operations) into `out`, with tableKey's key and the cosize, in one pass. */
function swizzledTable(base: Int32Array, bits: SwizzleBits, out: Int32Array): { key: string; cosize: number } {
  const { mask, r, l } = bits;
  let a = 0x811c9dc5;
  let b = 0x9e3779b9;
  let max = 0;
  for (let x = 0; x < base.length; x++) {
    const y = base[x]!;
    const v = y ^ (((y & mask) >>> r) << l);
    out[x] = v;
    if (v > max) max = v;
    a = Math.imul(a ^ v, 0x01000193);
    b = (b + Math.imul(v + 1, x | 1)) | 0;
  }
  return { key: `${a >>> 0}:${b >>> 0}`, cosize: base.length === 0 ? 0 : max + 1 };
}

/** A family's raw members: its layouts, each with its atom name or null. */
type Member = { layout: LayoutFunction; atom: string | null; base?: number; pad?: { order: number; interval: number; pad: number } };

function* swizzleMembers(tile: Tile): Generator<Member> {
  const orders = modeOrders(tile.shape.length);
  const bases = orders.map((o) => baseLayout(tile.shape, o));
  for (const [i, b] of bases.entries()) yield { layout: b, atom: null, base: i };
  const nb = ceilLog2(tile.size);
  for (const [i, b] of bases.entries()) {
    for (let bits = 1; bits <= nb; bits++) {
      for (let shift = bits; bits + shift <= nb; shift++) {
        for (let m = 0; m + shift + bits <= nb; m++) yield { layout: makeComposed(makeSwizzle(bits, m, shift), 0, b, false), atom: null, base: i };
      }
    }
  }
}

/** y ↦ y + ⌊y / I⌋·P over a base of size n, as a layout (I a power of two): (I, ⌈n/I⌉):(1, I + P) o base; null when not composable. */
function paddedShared(base: Layout, n: number, interval: number, pad: number): Layout | null {
  const outer = makeLayout([interval, Math.ceil(n / interval)], [1, interval + pad]);
  try {
    return compose(outer, base);
  } catch (e) {
    if (isLayoutError(e) && (e.kind === 'not-composable' || e.kind === 'domain')) return null;
    throw e;
  }
}

function* paddedMembers(tile: Tile): Generator<Member> {
  const orders = modeOrders(tile.shape.length);
  const pmax = 128 / tile.e;
  // a padded stride is y ↦ y + ⌊y/n⌋·p over the base (n the size of its first mode), like an interval pad
  if (tile.shape.length >= 2) {
    for (const [k, o] of orders.entries()) {
      for (let p = 1; p <= pmax; p++) yield { layout: baseLayout(tile.shape, o, p), atom: null, pad: { order: k, interval: tile.shape[o[0]!]!, pad: p } };
    }
  }
  for (const [k, o] of orders.entries()) {
    const base = baseLayout(tile.shape, o);
    for (let i = 1; i < tile.size; i *= 2) {
      for (let p = 1; p <= pmax; p *= 2) {
        const l = paddedShared(base, tile.size, i, p);
        if (l !== null) yield { layout: l, atom: null, pad: { order: k, interval: i, pad: p } };
      }
    }
  }
}

/**
 * The atoms family's members: the descriptors room's GMMA atoms (descriptors/atoms.ts SMEM_ATOMS, CUTLASS's
 * `GMMA::Layout_{K,MN}_{INTER,SW32,SW64,SW128}_Atom<T>` in elements), tiled to the shape by tile_to_shape in
 * column-major order (atomTiledTo, CuTe's) and in row-major order, where the atom divides the tile; an INTER atom's
 * swizzle (B = 0, the identity) is left out of its layout.
 */
function* atomMembers(tile: Tile, dtype: string): Generator<Member> {
  if (tile.shape.length !== 2 || tile.e > 4) return;
  const dt = dtypeOf(dtype);
  for (const a of SMEM_ATOMS) {
    if (a.namespace !== 'GMMA') continue;
    const atom = atomLayout(a, dt);
    const [a0, a1] = atom.inner.shape as number[];
    if (tile.shape[0]! % a0! !== 0 || tile.shape[1]! % a1! !== 0) continue;
    for (const order of ['col', 'row'] as const) {
      const t = order === 'col' ? atomTiledTo(a, dt, [...tile.shape]) : makeComposed(atom.swizzle, 0, tileToShape(atom.inner, [...tile.shape], 'row'));
      yield { layout: a.b === 0 ? t.inner : t, atom: `${a.namespace}::${atomName(a, dt)}` };
    }
  }
}

/** A family's raw members over a tile (null for a family this build does not enumerate). */
function membersOf(family: FamilyName, tile: Tile, dtype: string): Generator<Member> | null {
  return family === 'swizzle' ? swizzleMembers(tile) : family === 'padded' ? paddedMembers(tile) : family === 'atoms' ? atomMembers(tile, dtype) : null;
}

/**
 * The number of a family's members over a tile, duplicates included: the length of the
 * enumeration whose numbers `Candidate.index` are (a split plan's ranges are over it). A walk of
 * the members without their offsets.
 * @example memberCount('swizzle', {shape: [8, 8], size: 64, e: 2}, 'half_t') // 46 = 2·(1 + 22): two bases and their swizzles
 */
export function memberCount(family: FamilyName, tile: Tile, dtype: string): number {
  const members = membersOf(family, tile, dtype);
  let n = 0;
  if (members !== null) for (const _ of members) n++;
  return n;
}

/** The layouts of a family's members in enumeration order (Candidate.index: member i is the i-th), without their offsets. */
export function memberLayouts(family: FamilyName, tile: Tile, dtype: string): LayoutFunction[] {
  return [...(membersOf(family, tile, dtype) ?? [])].map((m) => m.layout);
}

/**
 * The candidates of a family over a tile, each once (by function) within `range` of its members (default: all of
 * them; a split plan compares keys across ranges itself, plan.ts planFromSlices). The offsets of a candidate are
 * valid until the next one is drawn. `dtype` names the atoms (the `linear` family is searched, not listed: linear-family.ts's
 * searchLinear; here it has no candidates). Members outside the range cost no offsets (the plain
 * bases' are computed all the same: their swizzles are priced from them).
 * @example [...candidates('swizzle', {shape: [8, 8], size: 64, e: 2}, 'half_t')].length
 */
export function* candidates(family: FamilyName, tile: Tile, dtype: string, range: MemberRange = { lo: 0, hi: Infinity }): Generator<Candidate> {
  const members = membersOf(family, tile, dtype);
  if (members === null) return;
  const pool = new Pool32();
  const seen = new Map<string, LayoutFunction[]>();
  const bases: Int32Array[] = [];
  const padBases: Int32Array[] = [];
  const buf = new Int32Array(tile.size);
  let index = -1;
  for (const mbr of members) {
    index++;
    if (index >= range.hi) return;
    const plainBase = mbr.base !== undefined && !isComposed(mbr.layout);
    if (index < range.lo && !plainBase) continue;
    checkDeadline('the planner');
    let offsets: Int32Array;
    let cosize: number;
    let key: string;
    let swizzle: Candidate['swizzle'];
    const baseOffsets = mbr.base === undefined ? undefined : bases[mbr.base];
    const bits = baseOffsets !== undefined && isComposed(mbr.layout) ? swizzleBits(mbr.layout.swizzle) : null;
    if (mbr.pad !== undefined) {
      // a padded layout: one pass over its base's offsets (the compact base of its order, made once)
      const { order, interval, pad } = mbr.pad;
      let own = padBases[order];
      if (own === undefined) padBases[order] = own = offsetsOf(baseLayout(tile.shape, modeOrders(tile.shape.length)[order]!), new Pool32())!.offsets.slice();
      ({ key, cosize } = paddedTable(own, interval, pad, buf));
      offsets = buf;
    } else if (baseOffsets !== undefined && bits !== null) {
      // Sw o base: one pass over the base's offsets
      ({ key, cosize } = swizzledTable(baseOffsets, bits, buf));
      offsets = buf;
      swizzle = { base: mbr.base!, baseOffsets, bits };
    } else {
      const t = offsetsOf(mbr.layout, pool);
      if (t === null) continue;
      ({ offsets, cosize } = t);
      key = tableKey(offsets);
      if (plainBase) {
        // a plain base (they come first): its offsets serve its swizzles and their phase tables
        const own = offsets.slice();
        bases[mbr.base!] = own;
        swizzle = { base: mbr.base!, baseOffsets: own, bits: { mask: 0, r: 0, l: 0 } };
      }
    }
    if (index < range.lo) continue;
    const earlier = seen.get(key);
    if (earlier !== undefined && earlier.some((l) => sameFunction(l, offsets))) continue;
    if (earlier === undefined) seen.set(key, [mbr.layout]);
    else earlier.push(mbr.layout);
    yield { family, layout: mbr.layout, atom: mbr.atom, offsets, cosize, key, index, ...(swizzle ? { swizzle } : {}) };
  }
}

/** Whether layout l's offsets equal the table (recomputed: collisions of the hashes are rare). */
function sameFunction(l: LayoutFunction, t: Int32Array): boolean {
  const o = offsetsOf(l, new Pool32());
  if (o === null || o.offsets.length !== t.length) return false;
  for (let x = 0; x < t.length; x++) if (o.offsets[x] !== t[x]) return false;
  return true;
}

export { offsetsOf, tableKey };

/**
 * The accesses of a thread-value layout to a memory layout (SPEC §9.2): the element offset of
 * value j of thread t is Φ_M(Φ_TV(t, j)), and the vectors each instruction moves. Shared by
 * the bank model (banks.ts), the sector count (sectors.ts) and the swizzle search.
 */
import { LayoutError } from '../algebra/errors.js';
import { flat, mode, rank, size, type Layout } from '../algebra/layout.js';
import { formatLayout } from '../algebra/notation.js';
import { applySwizzle, sourceLow, type Swizzle } from '../cute/swizzle.js';
import { formatLayoutFunction, innerLayout, isComposed, type LayoutFunction } from '../cute/composed.js';

/** The element sizes of shared-memory accesses, in bytes. */
export const ELEMENT_SIZES: readonly number[] = [1, 2, 4, 8, 16];

/** The most (thread, value) pairs one analysis takes (beyond: `overflow`). */
export const MAX_ACCESSES = 1 << 24;

/** The threads and values of a TV layout, and Φ_TV over [0, threads·values) (index t + T·j). */
export interface ThreadValues {
  readonly threads: number;
  readonly values: number;
  /** tile index of (t, j) at t + threads·j */
  readonly index: Float64Array;
}

/** Φ_L over [0, size(L)) by an odometer over L's entries (Construction 2.3.1.17). */
export function phiTable(l: Layout): Float64Array {
  const { shapes, strides } = flat(l);
  const n = size(l);
  const out = new Float64Array(n);
  const x = new Array<number>(shapes.length).fill(0);
  let v = 0;
  for (let i = 0; i < n; i++) {
    out[i] = v;
    for (let k = 0; k < shapes.length; k++) {
      if (++x[k]! < shapes[k]!) {
        v += strides[k]!;
        break;
      }
      v -= strides[k]! * (shapes[k]! - 1);
      x[k] = 0;
    }
  }
  return out;
}

/**
 * Check a TV layout (SPEC §9.2: plain, rank 2, at most MAX_ACCESSES values) and tabulate it.
 * Errors: `domain` for a composed or non-rank-2 TV, `overflow` beyond MAX_ACCESSES.
 */
export function threadValues(tv: LayoutFunction): ThreadValues {
  if (isComposed(tv)) throw new LayoutError('domain', `the TV layout must be a plain layout; ${formatLayoutFunction(tv)} is a composed layout`);
  if (rank(tv) !== 2 || typeof tv.shape === 'number') {
    throw new LayoutError('domain', `the TV layout ${formatLayout(tv)} must have rank 2 (threads, values), not ${rank(tv)}`);
  }
  const n = size(tv);
  if (n > MAX_ACCESSES) throw new LayoutError('overflow', `the TV layout ${formatLayout(tv)} has ${n} values; at most 2^24 are analysed`);
  return { threads: size(mode(tv, 1)), values: size(mode(tv, 2)), index: phiTable(tv) };
}

/** y ↦ Sw(K + y) as a fast function (32-bit bit operations while the offsets fit). */
export function outerFunction(sw: Swizzle, k: number, maxY: number): (y: number) => number {
  if (sw.bits === 0) return (y) => y + k;
  const top = Math.max(sourceLow(sw), sw.base + Math.max(0, -sw.shift)) + sw.bits;
  if (maxY + k < 2 ** 30 && top <= 30) {
    const mask = ((1 << sw.bits) - 1) << sourceLow(sw);
    const s = sw.shift;
    return s >= 0 ? (y) => ((y + k) ^ (((y + k) & mask) >>> s)) : (y) => ((y + k) ^ (((y + k) & mask) << -s));
  }
  return (y) => applySwizzle(sw, y + k);
}

/**
 * The element offsets Φ_M(Φ_TV(t, j)) at t + T·j. Every Φ_TV value must be below size(M),
 * else `domain` naming the thread and value.
 */
export function accessOffsets(m: LayoutFunction, tvs: ThreadValues): Float64Array {
  const inner = innerLayout(m);
  const n = size(inner);
  const { index, threads } = tvs;
  let max = 0;
  for (let x = 0; x < index.length; x++) {
    const i = index[x]!;
    if (i >= n) {
      throw new LayoutError('domain', `TV value ${i} of thread ${x % threads}, value ${Math.floor(x / threads)} is beyond size(M) = ${n}`);
    }
    if (i > max) max = i;
  }
  const out = new Float64Array(index.length);
  // Φ_M by table when M is not much larger than what is accessed, else point by point
  const { shapes, strides } = flat(inner);
  if (n <= Math.max(4 * index.length, 1 << 16)) {
    const t = phiTable(inner);
    for (let x = 0; x < index.length; x++) out[x] = t[index[x]!]!;
  } else {
    for (let x = 0; x < index.length; x++) {
      let rest = index[x]!;
      let off = 0;
      for (let k = 0; k < shapes.length && rest > 0; k++) {
        const s = shapes[k]!;
        off += (rest % s) * strides[k]!;
        rest = Math.floor(rest / s);
      }
      out[x] = off;
    }
  }
  if (isComposed(m)) {
    let maxY = 0;
    for (let x = 0; x < out.length; x++) if (out[x]! > maxY) maxY = out[x]!;
    const f = outerFunction(m.swizzle, m.offset, maxY);
    for (let x = 0; x < out.length; x++) out[x] = f(out[x]!);
  }
  return out;
}

/**
 * The first thread whose vectors of v values are not contiguous in memory or not aligned to
 * v·e bytes (offset ≡ 0 mod v), with the reason; null when every vector is. Pre-condition:
 * v divides the value count.
 */
export function vectorFault(offsets: Float64Array, tvs: ThreadValues, v: number): { thread: number; value: number; reason: string } | null {
  const { threads: T, values: V } = tvs;
  for (let t = 0; t < T; t++) {
    for (let j = 0; j < V; j += v) {
      const a = offsets[t + T * j]!;
      if (a % v !== 0) return { thread: t, value: j, reason: `starts at element offset ${a}, not a multiple of ${v}` };
      for (let i = 1; i < v; i++) {
        const b = offsets[t + T * (j + i)]!;
        if (b !== a + i) return { thread: t, value: j, reason: `value ${j + i} is at offset ${b}, not ${a + i}` };
      }
    }
  }
  return null;
}

const isPow2 = (v: number): boolean => Number.isInteger(v) && v >= 1 && (v & (v - 1)) === 0;

/**
 * The vector width (SPEC §9.2): an explicit v must be a power of two with v·e ≤ 16 that divides
 * the value count and keeps every thread's vectors contiguous and aligned (else `domain`
 * naming the thread); the default tries 16/e, 8/e, …, 1 and takes the first that does.
 */
export function vectorWidth(offsets: Float64Array, tvs: ThreadValues, e: number, v?: number): number {
  if (v !== undefined) {
    if (!isPow2(v) || v * e > 16) throw new LayoutError('domain', `vector width v = ${v}: v must be a power of two with v*e <= 16 (e = ${e})`);
    if (tvs.values % v !== 0) throw new LayoutError('domain', `vector width v = ${v} does not divide the ${tvs.values} values of each thread`);
    const f = vectorFault(offsets, tvs, v);
    if (f) {
      throw new LayoutError('domain', `thread ${f.thread}: the vector of values ${f.value}..${f.value + v - 1} is not contiguous and aligned in memory (${f.reason}; v = ${v}, e = ${e})`);
    }
    return v;
  }
  for (let w = 16 / e; w > 1; w /= 2) if (tvs.values % w === 0 && vectorFault(offsets, tvs, w) === null) return w;
  return 1;
}

/** e must be one of 1, 2, 4, 8, 16 (bytes), else `domain`. */
export function checkElementSize(e: number): void {
  if (!ELEMENT_SIZES.includes(e)) throw new LayoutError('domain', `element size must be 1, 2, 4, 8 or 16 bytes (got ${e})`);
}

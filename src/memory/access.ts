/**
 * The accesses of a thread-value layout to a memory layout (docs/semantics.md §9.2): the element offset of
 * value j of thread t is Φ_M(Φ_TV(t, j)), and the vectors each instruction moves. Shared by
 * the bank model (banks.ts), the sector count (sectors.ts) and the swizzle search.
 */
import { intText } from '../algebra/int-text.js';
import { checkDeadline } from '../algebra/deadline.js';
import { LayoutError, counted } from '../algebra/errors.js';
import { cosize, flat, mode, rank, size, type Layout } from '../algebra/layout.js';
import { formatLayout } from '../algebra/notation.js';
import { applySwizzle, sourceLow, topBit, type Swizzle } from '../cute/swizzle.js';
import { formatLayoutFunction, innerLayout, isComposed, type LayoutFunction } from '../cute/composed.js';

/** What the search needs of one access pattern: the addresses, per instruction, in lane order. */
export interface Instructions {
  /** bytes moved per thread per instruction */
  readonly width: number;
  readonly vector: number;
  readonly threads: number;
  readonly warps: number;
  /** instructions per warp (values / v) */
  readonly perWarp: number;
  /** byte address of (warp g, instruction k, lane) at ((g·perWarp + k)·32 + lane) */
  readonly addr: Float64Array;
  /** per thread t (32g + lane), whether it accesses memory (absent: every thread does); a thread that does not (a
   *  copy atom's lane whose row repeats a lower lane's) is left out of every count, and a phase of none is no phase */
  readonly live?: Uint8Array;
}

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

/** Φ_L over [0, size(L)) (Construction 2.3.1.17), built entry by entry: with the table of the
 *  first k entries at [0, P), entry s:d fills [j·P, (j+1)·P) with it plus j·d. */
export function phiTable(l: Layout, pool?: Pool): Float64Array {
  return fillTable(l, pool ? pool.get(size(l)) : new Float64Array(size(l)));
}

/**
 * phiTable in 32-bit integers (half the memory, integer operations for the fast path of
 * bank_conflicts), or null when some value could reach 2^31 (cosize(L) > 2^31).
 */
export function phiTable32(l: Layout, pool: Pool32): Int32Array | null {
  return cosize(l) > 2 ** 31 ? null : fillTable32(l, pool.get(size(l)));
}

/** phiTable's construction into `out` (size(L) entries), made once per array type: each copy of the
 *  loop sees one type and compiles to plain stores (one shared loop was the bank analyses' hot spot). */
const tableFiller = <A extends Float64Array | Int32Array>() =>
  function fillTable(l: Layout, out: A): A {
    const { shapes, strides } = flat(l);
    // the first mode directly (p = 1 would make the copy loop below one element long)
    const s0 = shapes[0] ?? 1;
    const d0 = strides[0] ?? 0;
    for (let j = 0; j < s0; j++) {
      if ((j & 0xffff) === 0xffff) checkDeadline('the table of a layout');
      out[j] = j * d0;
    }
    let p = s0;
    for (let k = 1; k < shapes.length; k++) {
      const s = shapes[k]!;
      const d = strides[k]!;
      for (let j = 1; j < s; j++) {
        if (p >= 1 << 12 || (j & 0xfff) === 0) checkDeadline('the table of a layout');
        const add = j * d;
        const at = j * p;
        for (let i = 0; i < p; i++) out[at + i] = out[i]! + add;
      }
      p *= s;
    }
    return out;
  };
const fillTable = tableFiller<Float64Array>();
const fillTable32 = tableFiller<Int32Array>();

/** Pool's Int32Array twin (phiTable32). */
export class Pool32 {
  private buf = new Int32Array(0);
  get(n: number): Int32Array {
    if (this.buf.length < n) this.buf = new Int32Array(Math.max(n, 2 * this.buf.length));
    return this.buf.subarray(0, n);
  }
}

/** A grow-only scratch buffer: analyses reuse their tables instead of allocating (and zeroing)
 *  them each time. A view from `get` is valid until the next `get` of the same pool. */
export class Pool {
  private buf = new Float64Array(0);
  get(n: number): Float64Array {
    if (this.buf.length < n) this.buf = new Float64Array(Math.max(n, 2 * this.buf.length));
    return this.buf.subarray(0, n);
  }
}

/**
 * Check a TV layout (docs/semantics.md §9.2: plain, rank 2, at most MAX_ACCESSES values) and tabulate it.
 * Errors: `domain` for a composed or non-rank-2 TV, `overflow` beyond MAX_ACCESSES.
 */
export function threadValues(tv: LayoutFunction, pool?: Pool): ThreadValues {
  const { threads, values } = threadShape(tv);
  return { threads, values, index: phiTable(tv as Layout, pool) };
}

/** threadValues without the table: the checks, threads and values. Errors as threadValues. */
export function threadShape(tv: LayoutFunction): { threads: number; values: number } {
  if (isComposed(tv)) throw new LayoutError('domain', `the TV layout must be a plain layout; ${formatLayoutFunction(tv)} is a composed layout`);
  if (rank(tv) !== 2 || typeof tv.shape === 'number') {
    throw new LayoutError('domain', `the TV layout ${formatLayout(tv)} must have rank 2 (threads, values), not ${rank(tv)}`);
  }
  const n = size(tv);
  if (n > MAX_ACCESSES) throw new LayoutError('overflow', `the TV layout ${formatLayout(tv)} has ${counted(n, 'value')}; at most 2^24 are analysed`);
  return { threads: size(mode(tv, 1)), values: size(mode(tv, 2)) };
}

/** y ↦ Sw(K + y) on every element of `a` (all ≤ maxY): 32-bit operations while they fit. */
export function swizzleInPlace(a: Float64Array, sw: Swizzle, k: number, maxY: number): void {
  const n = a.length;
  if (sw.bits === 0) {
    if (k !== 0) for (let x = 0; x < n; x++) a[x] = a[x]! + k;
    return;
  }
  checkDeadline('the swizzle');
  const top = Math.max(sourceLow(sw), sw.base + Math.max(0, -sw.shift)) + sw.bits;
  if (maxY + k < 2 ** 30 && top <= 30) {
    const mask = ((1 << sw.bits) - 1) << sourceLow(sw);
    const s = sw.shift;
    if (s >= 0) {
      for (let x = 0; x < n; x++) {
        if ((x & 0xffff) === 0xffff) checkDeadline('the swizzle');
        const y = a[x]! + k;
        a[x] = y ^ ((y & mask) >>> s);
      }
    } else {
      for (let x = 0; x < n; x++) {
        if ((x & 0xffff) === 0xffff) checkDeadline('the swizzle');
        const y = a[x]! + k;
        a[x] = y ^ ((y & mask) << -s);
      }
    }
    return;
  }
  for (let x = 0; x < n; x++) {
    if ((x & 0xffff) === 0xffff) checkDeadline('the swizzle');
    a[x] = applySwizzle(sw, a[x]! + k);
  }
}

/**
 * The element offsets Φ_M(Φ_TV(t, j)) at t + T·j. Every Φ_TV value must be below size(M),
 * else `domain` naming the thread and value.
 */
export function accessOffsets(m: LayoutFunction, tvs: ThreadValues, pools?: { table: Pool; out: Pool }): Float64Array {
  const inner = innerLayout(m);
  const n = size(inner);
  const { index, threads } = tvs;
  const out = pools ? pools.out.get(index.length) : new Float64Array(index.length);
  const fault = (x: number): never => beyond(index, threads, n, x);
  if (n <= Math.max(4 * index.length, 1 << 16)) {
    // Φ_M by table when M is not much larger than what is accessed, fused with the check
    const t = phiTable(inner, pools?.table);
    const sw = isComposed(m) ? m.swizzle : null;
    const k = isComposed(m) ? m.offset : 0;
    if (sw && sw.bits > 0 && k + cosize(inner) < 2 ** 30 && topBit(sw) <= 30) {
      const mask = ((1 << sw.bits) - 1) << sourceLow(sw);
      const s = sw.shift;
      const r = s >= 0 ? s : 0;
      const l = s >= 0 ? 0 : -s;
      return swizzledGather(t, index, out, n, k, mask, r, l, threads);
    }
    for (let x = 0; x < index.length; x++) {
      if ((x & 0xffff) === 0xffff) checkDeadline('the offsets of an access');
      const i = index[x]!;
      if (i >= n) fault(x);
      out[x] = t[i]!;
    }
  } else {
    const { shapes, strides } = flat(inner);
    for (let x = 0; x < index.length; x++) {
      if ((x & 0xffff) === 0xffff) checkDeadline('the offsets of an access');
      let rest = index[x]!;
      if (rest >= n) fault(x);
      let off = 0;
      for (let q = 0; q < shapes.length && rest > 0; q++) {
        const s = shapes[q]!;
        off += (rest % s) * strides[q]!;
        rest = Math.floor(rest / s);
      }
      out[x] = off;
    }
  }
  if (isComposed(m)) {
    let maxY = 0;
    for (let x = 0; x < out.length; x++) if (out[x]! > maxY) maxY = out[x]!;
    swizzleInPlace(out, m.swizzle, m.offset, maxY);
  }
  return out;
}

/** The `domain` error of a TV value beyond size(M) at x = t + T·j. */
function beyond(index: Float64Array, threads: number, n: number, x: number): never {
  throw new LayoutError('domain', `TV value ${index[x]} of thread ${x % threads}, value ${Math.floor(x / threads)} is beyond size(M) = ${n}`);
}

/** out[x] = Sw(K + t[index[x]]) with the swizzle as 32-bit mask and shifts (all fit), checking
 *  each index against n (hot loop kept free of closures). */
function swizzledGather(
  t: Float64Array,
  index: Float64Array,
  out: Float64Array,
  n: number,
  k: number,
  mask: number,
  r: number,
  l: number,
  threads: number,
): Float64Array {
  const len = index.length;
  checkDeadline('the offsets of an access');
  for (let x = 0; x < len; x++) {
    if ((x & 0xffff) === 0xffff) checkDeadline('the offsets of an access');
    const i = index[x]!;
    if (i >= n) beyond(index, threads, n, x);
    const y = t[i]! + k;
    out[x] = y ^ (((y & mask) >>> r) << l);
  }
  return out;
}

/**
 * The first thread whose vectors of v values are not contiguous in memory or not aligned to
 * v·e bytes (offset ≡ 0 mod v), with the reason; null when every vector is. Pre-condition:
 * v divides the value count.
 */
export function vectorFault(offsets: Float64Array, tvs: ThreadValues, v: number, name = true): { thread: number; value: number; reason: string } | null {
  const { threads: T, values: V } = tvs;
  // a sequential pass (value-major, as the table is laid out) decides; the thread-ordered scan
  // below only runs to name the first failing thread
  let bad = false;
  for (let j = 0; j < V && !bad; j += v) {
    if (T >= 1 << 12 || ((j / v) & 0xfff) === 0) checkDeadline('the vector check');
    const row = T * j;
    for (let t = 0; t < T; t++) {
      const a = offsets[row + t]!;
      if (a % v !== 0) {
        bad = true;
        break;
      }
    }
    for (let i = 1; i < v && !bad; i++) {
      const r2 = T * (j + i);
      for (let t = 0; t < T; t++) {
        if (offsets[r2 + t] !== offsets[row + t]! + i) {
          bad = true;
          break;
        }
      }
    }
  }
  if (!bad) return null;
  if (!name) return { thread: -1, value: -1, reason: 'not contiguous and aligned' };
  for (let t = 0; t < T; t++) {
    if ((t & 0xfff) === 0xfff) checkDeadline('the vector check');
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
 * The vector width (docs/semantics.md §9.2): an explicit v must be a power of two with v·e ≤ 16 that divides
 * the value count and keeps every thread's vectors contiguous and aligned (else `domain`
 * naming the thread); the default tries 16/e, 8/e, …, 1 and takes the first that does.
 */
export function vectorWidth(offsets: Float64Array, tvs: ThreadValues, e: number, v?: number): number {
  if (v !== undefined) {
    if (!isPow2(v) || v * e > 16) throw new LayoutError('domain', `vector width v = ${intText(v)}: v must be a power of two with v*e <= 16 (e = ${e})`);
    if (tvs.values % v !== 0) throw new LayoutError('domain', `vector width v = ${v} does not divide the ${counted(tvs.values, 'value')} of each thread`);
    const f = vectorFault(offsets, tvs, v);
    if (f) {
      throw new LayoutError(
        'domain',
        `thread ${f.thread}: the vector of values ${f.value}..${f.value + v - 1} is not contiguous and aligned in memory (${f.reason}; v = ${v}, e = ${e})`,
      );
    }
    return v;
  }
  for (let w = 16 / e; w > 1; w /= 2) if (tvs.values % w === 0 && vectorFault(offsets, tvs, w, false) === null) return w;
  return 1;
}

/** e must be one of 1, 2, 4, 8, 16 (bytes), else `domain`. */
export function checkElementSize(e: number): void {
  if (!ELEMENT_SIZES.includes(e)) throw new LayoutError('domain', `element size must be 1, 2, 4, 8 or 16 bytes (got ${intText(e)})`);
}

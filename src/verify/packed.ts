/**
 * Candidates in bulk: many flat layouts side by side in typed arrays (no Layout objects on
 * the hot paths). Candidate i has the entries [start[i], start[i+1]) of `shapes`/`strides`
 * (its flattening L♭: Φ depends on nothing else). All values are exact integers below 2^53
 * (they come from validated layouts or from bounded generators).
 */
import type { Layout } from '../algebra/layout.js';
import type { Tuple } from '../algebra/tuple.js';
import { applySwizzle, topBit, type Swizzle } from '../cute/swizzle.js';
import type { ComposedLayout } from '../cute/composed.js';

export interface FlatBatch {
  readonly count: number;
  /** count + 1 entry boundaries */
  readonly start: Uint32Array;
  readonly shapes: Float64Array;
  readonly strides: Float64Array;
  /** composed candidates Sw<B,M,S> o K o L (docs/semantics.md §9.1), Φ(x) = Sw(K + Φ_L(x)); absent: every
   *  candidate is plain (Sw = identity, K = 0) */
  readonly outer?: OuterFunctions;
}

/**
 * The outer functions of a FlatBatch's candidates: candidate i's swizzle is
 * swizzle[3i..3i+3) = (B, M, S) (B = 0: the identity) and its offset K = offset[i] ≥ 0.
 */
export interface OuterFunctions {
  readonly swizzle: Int32Array;
  readonly offset: Float64Array;
}

const IDENTITY: Swizzle = { bits: 0, base: 0, shift: 0 };

/** The swizzle Sw of candidate i (the identity Sw<0,0,0> for a plain candidate).
 *  @example swizzleAt(batchOfFunctions([c]), 0) // c.swizzle */
export function swizzleAt(b: FlatBatch, i: number): Swizzle {
  const o = b.outer;
  if (!o || o.swizzle[3 * i] === 0) return IDENTITY;
  return { bits: o.swizzle[3 * i]!, base: o.swizzle[3 * i + 1]!, shift: o.swizzle[3 * i + 2]! };
}

/** The offset K of candidate i (0 for a plain candidate). */
export const offsetAt = (b: FlatBatch, i: number): number => (b.outer ? b.outer.offset[i]! : 0);

/** Whether candidate i is composed with a non-identity outer function (Sw ≠ id or K > 0). */
export const isComposedAt = (b: FlatBatch, i: number): boolean => !!b.outer && (b.outer.swizzle[3 * i] !== 0 || b.outer.offset[i] !== 0);

/** The outer function of candidate i on an inner value y: Sw(K + y) (docs/semantics.md §9.1).
 *  @example outerAt(b, i, phi(L, x)) // Φ(x) of Sw o K o L */
export function outerAt(b: FlatBatch, i: number, y: number): number {
  if (!b.outer) return y;
  return applySwizzle(swizzleAt(b, i), b.outer.offset[i]! + y);
}

/**
 * An upper bound (exclusive) of Φ over candidate i: cosize for a plain candidate; for a
 * composed one 2^max(bitlength(K + cosize(L) − 1), top bit of Sw), since Sw changes only bits
 * of its target field, which lies below its top bit.
 */
export function valueBoundAt(b: FlatBatch, i: number): number {
  const co = cosizeAt(b, i);
  if (!isComposedAt(b, i)) return co;
  const sw = swizzleAt(b, i);
  const top = offsetAt(b, i) + co - 1;
  if (sw.bits === 0) return top + 1;
  let bits = 0;
  while (2 ** bits <= top) bits++;
  return 2 ** Math.max(bits, topBit(sw));
}

/** A FlatBatch of layout functions, plain or composed (each composed one's inner L♭ and its
 *  outer function). @example batchOfFunctions([parseLayout('4:1')]).count // 1 */
export function batchOfFunctions(fs: readonly (Layout | ComposedLayout)[]): FlatBatch {
  const b = new FlatBatchBuilder(fs.length, fs.length * 6);
  const sw = new Int32Array(3 * fs.length);
  const off = new Float64Array(fs.length);
  let any = false;
  fs.forEach((f, i) => {
    if ((f as ComposedLayout).kind === 'composed') {
      const c = f as ComposedLayout;
      b.pushLayout(c.inner);
      sw[3 * i] = c.swizzle.bits;
      sw[3 * i + 1] = c.swizzle.base;
      sw[3 * i + 2] = c.swizzle.shift;
      off[i] = c.offset;
      any = true;
    } else b.pushLayout(f as Layout);
  });
  const flatB = b.finish();
  return any ? { ...flatB, outer: { swizzle: sw, offset: off } } : flatB;
}

/** Builds a FlatBatch by appending candidates. */
export class FlatBatchBuilder {
  count = 0;
  private start: Uint32Array;
  private shapes: Float64Array;
  private strides: Float64Array;
  private n = 0;

  constructor(capacity = 1024, entries = capacity * 4) {
    this.start = new Uint32Array(Math.max(2, capacity + 1));
    this.shapes = new Float64Array(Math.max(4, entries));
    this.strides = new Float64Array(Math.max(4, entries));
  }

  private reserve(extra: number): void {
    if (this.count + 2 > this.start.length) {
      const s = new Uint32Array(this.start.length * 2);
      s.set(this.start);
      this.start = s;
    }
    if (this.n + extra > this.shapes.length) {
      const cap = Math.max(this.shapes.length * 2, this.n + extra);
      const a = new Float64Array(cap);
      a.set(this.shapes);
      this.shapes = a;
      const b = new Float64Array(cap);
      b.set(this.strides);
      this.strides = b;
    }
  }

  push(shapes: ArrayLike<number>, strides: ArrayLike<number>): void {
    const m = shapes.length;
    this.reserve(m);
    for (let k = 0; k < m; k++) {
      this.shapes[this.n + k] = shapes[k]!;
      this.strides[this.n + k] = strides[k]!;
    }
    this.n += m;
    this.count++;
    this.start[this.count] = this.n;
  }

  private walk(s: Tuple, d: Tuple): void {
    if (typeof s === 'number') {
      if (this.n + 1 > this.shapes.length) this.reserve(1);
      this.shapes[this.n] = s;
      this.strides[this.n] = d as number;
      this.n++;
      return;
    }
    const dd = d as readonly Tuple[];
    for (let i = 0; i < s.length; i++) this.walk(s[i]!, dd[i]!);
  }

  /** appends one entry to the candidate being built (close it with endCandidate) */
  pushEntry(s: number, d: number): void {
    if (this.n + 1 > this.shapes.length) this.reserve(1);
    this.shapes[this.n] = s;
    this.strides[this.n] = d;
    this.n++;
  }

  endCandidate(): void {
    if (this.count + 2 > this.start.length) this.reserve(0);
    this.count++;
    this.start[this.count] = this.n;
  }

  /** appends L♭ walking the tuples directly into the arrays (no intermediate objects) */
  pushLayout(l: Layout): void {
    const sh = l.shape;
    if (typeof sh === 'number') {
      this.reserve(1);
      this.shapes[this.n] = sh;
      this.strides[this.n] = l.stride as number;
      this.n++;
    } else if (isFlatTuple(sh)) {
      const st = l.stride as readonly number[];
      const m = sh.length;
      this.reserve(m);
      for (let k = 0; k < m; k++) {
        this.shapes[this.n + k] = sh[k] as number;
        this.strides[this.n + k] = st[k]!;
      }
      this.n += m;
    } else this.walk(sh, l.stride);
    // the walk reserves entries only: the boundary needs room too (a typed array drops it else)
    if (this.count + 2 > this.start.length) this.reserve(0);
    this.count++;
    this.start[this.count] = this.n;
  }

  /** the concatenation of two flat entry lists as one candidate: (A, B)♭ = A♭ ++ B♭ */
  pushConcat(as: ArrayLike<number>, ad: ArrayLike<number>, bs: ArrayLike<number>, bd: ArrayLike<number>): void {
    const m = as.length + bs.length;
    this.reserve(m);
    let k = this.n;
    for (let i = 0; i < as.length; i++, k++) {
      this.shapes[k] = as[i]!;
      this.strides[k] = ad[i]!;
    }
    for (let i = 0; i < bs.length; i++, k++) {
      this.shapes[k] = bs[i]!;
      this.strides[k] = bd[i]!;
    }
    this.n = k;
    this.count++;
    this.start[this.count] = this.n;
  }

  /** empties the builder, keeping its arrays (a batch finished before refers to them: it is
   *  overwritten by the next one) */
  reset(): void {
    this.count = 0;
    this.n = 0;
    this.start[0] = 0;
  }

  finish(): FlatBatch {
    return {
      count: this.count,
      start: this.start.subarray(0, this.count + 1),
      shapes: this.shapes.subarray(0, this.n),
      strides: this.strides.subarray(0, this.n),
    };
  }
}

function isFlatTuple(t: readonly Tuple[]): boolean {
  for (let i = 0; i < t.length; i++) if (typeof t[i] !== 'number') return false;
  return true;
}

export function batchOf(layouts: readonly Layout[]): FlatBatch {
  const b = new FlatBatchBuilder(layouts.length, layouts.length * 6);
  for (const l of layouts) b.pushLayout(l);
  return b.finish();
}

/** size of candidate i (product of its shape entries) */
export function sizeAt(b: FlatBatch, i: number): number {
  let p = 1;
  for (let k = b.start[i]!, e = b.start[i + 1]!; k < e; k++) p *= b.shapes[k]!;
  return p;
}

/** cosize of candidate i: 1 + Σ (s − 1)·d */
export function cosizeAt(b: FlatBatch, i: number): number {
  let c = 1;
  for (let k = b.start[i]!, e = b.start[i + 1]!; k < e; k++) c += (b.shapes[k]! - 1) * b.strides[k]!;
  return c;
}

/** the flat layout (s1..sr):(d1..dr) of candidate i, canonically printed */
export function formatFlatAt(b: FlatBatch, i: number): string {
  const s: number[] = [];
  const d: number[] = [];
  for (let k = b.start[i]!, e = b.start[i + 1]!; k < e; k++) {
    s.push(b.shapes[k]!);
    d.push(b.strides[k]!);
  }
  return `(${s.join(',')}):(${d.join(',')})`;
}

/** the entries of candidate i as plain arrays */
export function entriesAt(b: FlatBatch, i: number): { shapes: number[]; strides: number[] } {
  const s: number[] = [];
  const d: number[] = [];
  for (let k = b.start[i]!, e = b.start[i + 1]!; k < e; k++) {
    s.push(b.shapes[k]!);
    d.push(b.strides[k]!);
  }
  return { shapes: s, strides: d };
}

/** coal♭ of an entry list (drop shape-1 entries, merge d(i+1) = s_i·d_i) into out arrays;
 *  returns the number of modes written */
export function coalesceInto(
  shapes: ArrayLike<number>,
  strides: ArrayLike<number>,
  lo: number,
  hi: number,
  outS: number[] | Float64Array,
  outD: number[] | Float64Array,
): number {
  let m = 0;
  for (let k = lo; k < hi; k++) {
    const s = shapes[k]!;
    if (s === 1) continue;
    const d = strides[k]!;
    if (m > 0 && d === outS[m - 1]! * outD[m - 1]!) outS[m - 1] = outS[m - 1]! * s;
    else {
      outS[m] = s;
      outD[m] = d;
      m++;
    }
  }
  return m;
}

/**
 * Equality jobs: for job i, Φ_B(Φ_A(x)) = Φ_C(x) for every x < size(A), with size(C) = size(A)
 * and cosize(A) ≤ size(B) (a job that breaks those preconditions is false). B null: the
 * identity. A batch of count 1 is shared by every job.
 */
export interface EqualJobs {
  readonly a: FlatBatch;
  readonly b: FlatBatch | null;
  readonly c: FlatBatch;
}

export const jobIndex = (b: FlatBatch, i: number): number => (b.count === 1 ? 0 : i);

/**
 * What both backends do to a layout before running Φ in bulk, and the closed forms of the
 * digest (docs/protocol.md, "Bulk checks"). Pure, no I/O, exact.
 *
 * `prepare(L)` reduces L to the shortest flat list of modes with the same function:
 * entries of shape 1 contribute nothing to Φ (their coordinate is always 0) and neighbours
 * with d(i+1) = s_i·d_i merge (docs/semantics.md §3, coal♭). The generated code runs on that list.
 */
import { cosize, flat, size, type Layout } from '../algebra/layout.js';
import { formatLayout } from '../algebra/notation.js';
import { LayoutError } from '../algebra/errors.js';
import { currentDeadline } from '../algebra/deadline.js';
import { isComposed, reachedSwizzle, type LayoutFunction } from '../cute/composed.js';
import { applySwizzle, bitsBelow, swizzleWithin, targetLow, type Swizzle } from '../cute/swizzle.js';
import { swizzledDigest } from './swizzle-digest.js';

export { bitsBelow, swizzleWithin };

export const TWO32 = 2 ** 32;
export const MAX_EXACT = Number.MAX_SAFE_INTEGER;
/** digest_range enumerates up to this many indices; beyond, the closed form answers */
export const ENUMERATE_LIMIT = 2 ** 36;
/** the bulk checks (compact, complement, compose) enumerate at most this many indices
 *  (docs/protocol.md, "Bulk checks": beyond, `overflow` at once) */
export const CHECK_LIMIT = 2 ** 40;

export interface Prepared {
  /** the layout as given, canonically printed (for headers and messages) */
  readonly text: string;
  /** coal♭(L♭): shapes > 1, no mergeable neighbours */
  readonly shapes: readonly number[];
  readonly strides: readonly number[];
  readonly size: number;
  /** cosize(L) of a plain layout (exact); of a composed one an upper bound of 1 + max Φ
   *  (see `swizzleBound`; `exactCosize` tells which) */
  readonly cosize: number;
  readonly exactCosize: boolean;
  /** offsets need 64 bits (cosize > 2^32) */
  readonly wideOffset: boolean;
  /** a composed layout Sw o K o L (docs/semantics.md §9.1): Φ(x) = Sw(K + Φ_L(x)); the modes above are L's */
  readonly swizzle?: Swizzle;
  /** K (0 for a plain layout) */
  readonly koff: number;
}

/**
 * An exclusive upper bound of Sw(y) over 0 ≤ y ≤ ymax, from the offsets reached, not the mask:
 * below 2^w (w the bits of ymax) Sw is the swizzle of B' = min(B, w − sourceLow) bits
 * (swizzleWithin), which changes only the bits [targetLow, targetLow + B'), so Sw(y) stays in
 * y's aligned block of 2^(targetLow + B'); with B' = 0 (the field it reads lies above ymax's
 * bits) it is the identity there. Example: swizzleBound(Sw<3,30,3>, 2^26 − 1) = 2^26.
 */
export function swizzleBound(sw: Swizzle, ymax: number): number {
  const eff = swizzleWithin(sw, bitsBelow(ymax + 1));
  if (eff.bits === 0) return ymax + 1;
  const block = 2 ** (targetLow(eff) + eff.bits);
  return (Math.floor(ymax / block) + 1) * block;
}

/** The evaluator's view of a layout function: a plain layout or Sw o K o L (docs/semantics.md §9.1).
 *  `overflow` when Φ may reach 2^53 (offsets are exact doubles below it). */
export function prepare(l: LayoutFunction): Prepared {
  if (!isComposed(l)) return preparePlain(l);
  const p = preparePlain(l.inner);
  const ymax = l.offset + p.cosize - 1;
  // the swizzle as it acts on the offsets reached (equal to Sw on each), so that a field no offset sets is not a reach
  const sw = Number.isSafeInteger(ymax) ? reachedSwizzle(l.swizzle, l.offset, l.inner) : l.swizzle;
  const bound = swizzleBound(sw, ymax);
  if (!Number.isSafeInteger(ymax) || !(bound <= MAX_EXACT + 1)) {
    throw new LayoutError('overflow', `the offsets of ${composedText(l.swizzle, l.offset, p.text)} may reach 2^53: beyond exact integers`);
  }
  return {
    ...p,
    text: composedText(l.swizzle, l.offset, p.text),
    cosize: bound,
    exactCosize: false,
    wideOffset: bound > TWO32,
    swizzle: sw,
    koff: l.offset,
  };
}

function composedText(sw: Swizzle, k: number, inner: string): string {
  return `Sw<${sw.bits},${sw.base},${sw.shift}> o ${k} o ${inner}`;
}

/** Sw(K + v) of a prepared layout function (v an offset of the inner layout). */
export function outerPrepared(p: Prepared, v: number): number {
  return p.swizzle ? applySwizzle(p.swizzle, p.koff + v) : v;
}

/** coal♭ of L♭ (docs/semantics.md §3): drop shape-1 entries, merge d(i+1) = s_i·d_i. */
function preparePlain(l: Layout): Prepared {
  const f = flat(l);
  const shapes: number[] = [];
  const strides: number[] = [];
  for (let i = 0; i < f.shapes.length; i++) {
    const s = f.shapes[i]!;
    const d = f.strides[i]!;
    if (s === 1) continue;
    const k = shapes.length - 1;
    if (k >= 0 && d === shapes[k]! * strides[k]!) {
      shapes[k] = shapes[k]! * s; // exact: the product is a divisor of size(L) ≤ 2^53 − 1
    } else {
      shapes.push(s);
      strides.push(d);
    }
  }
  const co = cosize(l);
  return { text: formatLayout(l), shapes, strides, size: size(l), cosize: co, exactCosize: true, wideOffset: co > TWO32, koff: 0 };
}

/** The bulk checks enumerate their domain: beyond CHECK_LIMIT indices, `overflow` at once. */
export function checkEnumerable(n: number, what: string): void {
  if (!(n <= CHECK_LIMIT)) {
    throw new LayoutError('overflow', `${what} would enumerate ${n} indices, beyond the 2^40 the bulk checks enumerate`);
  }
}

/**
 * The absolute time (Date.now() clock) at which a run must stop: RunOptions.timeoutMs from now,
 * or the batch request's deadline (`currentDeadline()`, read synchronously at the call: it is
 * not in force across awaits), whichever comes first.
 */
export function runDeadline(timeoutMs: number | undefined): number {
  const own = timeoutMs !== undefined ? Date.now() + timeoutMs : Infinity;
  const req = currentDeadline();
  return Math.min(own, Number.isFinite(req) ? Date.now() + (req - performance.now()) : Infinity);
}

/** The `timeout` error of a bulk run, with what completed. */
export function timeoutError(done: number, total: number, where: string): LayoutError {
  return new LayoutError('timeout', `ran past its deadline: completed ${done} of ${total} indices ${where}`);
}

/** Φ on the prepared form (a division per mode; for single values and checks), the outer
 *  function of a composed layout included. */
export function phiPrepared(p: Prepared, x: number): number {
  return outerPrepared(p, phiInner(p, x));
}

/** Φ of the inner layout on the prepared form. */
function phiInner(p: Prepared, x: number): number {
  let off = 0;
  let r = x;
  const n = p.shapes.length;
  for (let i = 0; i < n; i++) {
    const s = p.shapes[i]!;
    if (i === n - 1) {
      off += r * p.strides[i]!;
    } else {
      const q = Math.floor(r / s);
      off += (r - q * s) * p.strides[i]!;
      r = q;
    }
  }
  return off;
}

/** Validate a range [lo, hi) of indices of a layout of size n (protocol: domain error). */
export function checkRange(lo: number, hi: number, n: number): void {
  if (!Number.isSafeInteger(lo) || !Number.isSafeInteger(hi) || lo < 0 || lo > hi || hi > n) {
    throw new LayoutError('domain', `range ${lo}:${hi} is not within 0 ≤ lo ≤ hi ≤ size = ${n}`);
  }
}

// ---------------------------------------------------------------------------------------------
// Closed forms (used beyond ENUMERATE_LIMIT, and by the tests as an independent oracle).

/** Σ_{x < n} c_i(x) where c_i(x) = ⌊x / P⌋ mod s (BigInt, exact). */
function coordPrefixSum(n: bigint, P: bigint, s: bigint): bigint {
  const block = P * s;
  const q = n / block;
  const r = n % block;
  const t = r / P;
  return q * P * ((s * (s - 1n)) / 2n) + P * ((t * (t - 1n)) / 2n) + t * (r % P);
}

/** Σ Φ(x) over [lo, hi): Σ over modes of stride × Σ of that coordinate over the range. */
export function closedSum(p: Prepared, lo: number, hi: number): bigint {
  let sum = 0n;
  let P = 1n;
  const L = BigInt(lo);
  const H = BigInt(hi);
  for (let i = 0; i < p.shapes.length; i++) {
    const s = BigInt(p.shapes[i]!);
    const d = BigInt(p.strides[i]!);
    if (d !== 0n) sum += d * (coordPrefixSum(H, P, s) - coordPrefixSum(L, P, s));
    P *= s;
  }
  return sum;
}

/** min / max of Φ over the inclusive index interval [a, b] of the sub-layout of modes 0..k. */
function extreme(p: Prepared, k: number, a: number, b: number, wantMax: boolean, prefix: number[], full: number[]): number {
  if (k < 0) return 0;
  const P = prefix[k]!; // product of shapes 0..k−1
  const d = p.strides[k]!;
  const ta = Math.floor(a / P);
  const tb = Math.floor(b / P);
  const ra = a - ta * P;
  const rb = b - tb * P;
  if (ta === tb) return ta * d + extreme(p, k - 1, ra, rb, wantMax, prefix, full);
  if (!wantMax) {
    // strides are ≥ 0: among the upper candidates (ta+1)·d + 0 is least
    return Math.min(ta * d + extreme(p, k - 1, ra, P - 1, false, prefix, full), (ta + 1) * d);
  }
  let m = Math.max(tb * d + extreme(p, k - 1, 0, rb, true, prefix, full), ta * d + extreme(p, k - 1, ra, P - 1, true, prefix, full));
  if (tb - 1 > ta) m = Math.max(m, (tb - 1) * d + full[k]!);
  return m;
}

/**
 * The digest of [lo, hi) without enumerating (beyond ENUMERATE_LIMIT), or null where none is
 * known: with K alone (or a swizzle that is the identity below the bound), Φ = K + Φ_L in closed
 * form; a swizzle that moves bits within the range of the offsets goes by its period
 * (swizzle-digest.ts), null past its limits.
 */
export function closedDigest(p: Prepared, lo: number, hi: number): { sum: bigint; min: number; max: number } | null {
  const identity = !p.swizzle || p.swizzle.bits === 0 || swizzleIsIdentityBelow(p.swizzle, p.koff + maxInner(p));
  // a swizzle that moves bits: by its period (swizzle-digest.ts), null past its enumeration limits
  if (!identity) return lo < hi ? swizzledDigest(p, lo, hi) : null;
  const mm = closedMinMax(p, lo, hi);
  return { sum: closedSum(p, lo, hi) + BigInt(p.koff) * BigInt(hi - lo), min: mm.min + p.koff, max: mm.max + p.koff };
}

function maxInner(p: Prepared): number {
  let m = 0;
  for (let i = 0; i < p.shapes.length; i++) m += (p.shapes[i]! - 1) * p.strides[i]!;
  return m;
}

/** Sw reads the field [M + max(0,S), +B): below 2^(M + max(0,S)) it changes nothing. */
function swizzleIsIdentityBelow(sw: Swizzle, ymax: number): boolean {
  return ymax < 2 ** (sw.base + Math.max(0, sw.shift));
}

/** min and max of Φ over [lo, hi), lo < hi, without enumerating. */
export function closedMinMax(p: Prepared, lo: number, hi: number): { min: number; max: number } {
  const m = p.shapes.length;
  if (m === 0) return { min: 0, max: 0 };
  const prefix: number[] = [];
  const full: number[] = []; // full[k] = max Φ over modes 0..k−1 = Σ (s_i − 1)·d_i
  let P = 1;
  let F = 0;
  for (let i = 0; i < m; i++) {
    prefix.push(P);
    full.push(F);
    P *= p.shapes[i]!;
    F += (p.shapes[i]! - 1) * p.strides[i]!;
  }
  return {
    min: extreme(p, m - 1, lo, hi - 1, false, prefix, full),
    max: extreme(p, m - 1, lo, hi - 1, true, prefix, full),
  };
}

/**
 * What both backends do to a layout before running Φ in bulk, and the closed forms of the
 * digest (BATCH-PROTOCOL.md "Bulk checks"). Pure, no I/O, exact.
 *
 * `prepare(L)` reduces L to the shortest flat list of modes with the same function:
 * entries of shape 1 contribute nothing to Φ (their coordinate is always 0) and neighbours
 * with d(i+1) = s_i·d_i merge (SPEC §3, coal♭). The generated code runs on that list.
 */
import { cosize, flat, size, type Layout } from '../algebra/layout.js';
import { formatLayout } from '../algebra/notation.js';
import { LayoutError } from '../algebra/errors.js';

export const TWO32 = 2 ** 32;
export const MAX_EXACT = Number.MAX_SAFE_INTEGER;
/** digest_range enumerates up to this many indices; beyond, the closed form answers */
export const ENUMERATE_LIMIT = 2 ** 36;

export interface Prepared {
  /** the layout as given, canonically printed (for headers and messages) */
  readonly text: string;
  /** coal♭(L♭): shapes > 1, no mergeable neighbours */
  readonly shapes: readonly number[];
  readonly strides: readonly number[];
  readonly size: number;
  readonly cosize: number;
  /** offsets need 64 bits (cosize > 2^32) */
  readonly wideOffset: boolean;
}

/** coal♭ of L♭ (SPEC §3): drop shape-1 entries, merge d(i+1) = s_i·d_i. */
export function prepare(l: Layout): Prepared {
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
  return { text: formatLayout(l), shapes, strides, size: size(l), cosize: co, wideOffset: co > TWO32 };
}

/** Φ on the prepared form (a division per mode; for single values and checks). */
export function phiPrepared(p: Prepared, x: number): number {
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

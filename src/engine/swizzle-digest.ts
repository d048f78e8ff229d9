/**
 * The digest (count, exact sum, min, max) of a composed layout Sw o K o L over an index range of
 * any length, without visiting every index (docs/semantics.md §9.1, docs/protocol.md: digest_range
 * takes any range). Used past the enumeration limit, where the plain layouts have closed forms.
 *
 * With t = topBit(Sw) (Sw taken as it acts on the offsets reached: swizzleWithin) and T = 2^t,
 * Sw(a + c·T) = Sw(a) + c·T. Split every mode s:d of L into a low part m:d and a high part
 * (s/m):(m·d), m = T / gcd(d, T) the period of c·d mod T, when m divides s (else the whole mode
 * is low; a mode with m = 1 is all high). The high strides are multiples of T, so with u the low
 * coordinates and v the high ones, Φ = Sw(A(u)) + H(v), A(u) = K + Σ u_j·d_j, H(v) = Σ v_j·d'_j.
 * The range [lo, hi) is a union of boxes in the mixed radix of the split shapes (digits above
 * one position fixed, that position in an interval, those below free): in a box u and v vary
 * independently, so its sum is (#v)·Σ_u Sw(A(u)) + (#u)·Σ_v H(v), its extremes are the extremes
 * of Sw(A(u)) plus those of H(v) (strides ≥ 0: a digit's least and largest values). Only the
 * low coordinates are enumerated: at most LOW_LIMIT per box, TOTAL_LIMIT in all, beyond which the
 * digest is refused (`overflow`, naming the limit), never guessed.
 */
import { gcd } from '../algebra/arith.js';
import { checkDeadline } from '../algebra/deadline.js';
import { applySwizzle, bitsBelow, type Swizzle, swizzleWithin, topBit } from '../cute/swizzle.js';

/** What the digest reads of a prepared composed layout (prep.ts's Prepared): coal♭ of L, K and the swizzle. */
export interface SwizzledFlat {
  readonly shapes: readonly number[];
  readonly strides: readonly number[];
  readonly koff: number;
  readonly swizzle?: Swizzle;
}

/** low coordinates of one box enumerated at most */
export const LOW_LIMIT = 2 ** 22;
/** low coordinates enumerated at most over all boxes of one range */
export const TOTAL_LIMIT = 2 ** 26;

/** one digit of the split mixed radix: its shape, stride, and whether it is low */
interface Digit {
  s: number;
  d: number;
  low: boolean;
}

/** the split digits, least significant first (see the header) */
function splitDigits(p: SwizzledFlat, T: number): Digit[] {
  const out: Digit[] = [];
  for (let i = 0; i < p.shapes.length; i++) {
    const s = p.shapes[i]!;
    const d = p.strides[i]!;
    const m = d === 0 ? 1 : T / gcd(d % T, T);
    if (m === 1) out.push({ s, d, low: false });
    else if (m < s && s % m === 0) out.push({ s: m, d, low: true }, { s: s / m, d: m * d, low: false });
    else out.push({ s, d, low: true });
  }
  return out;
}

/** a box: per digit the interval [a, b) of its values */
type Box = [number, number][];

/** the boxes whose union is the indices [lo, hi) (lo < hi), in the mixed radix of `ds` */
function boxes(ds: readonly Digit[], lo: number, hi: number): Box[] {
  const n = ds.length;
  const digitsOf = (x: number): number[] => {
    const out: number[] = [];
    for (const g of ds) {
      out.push(x % g.s);
      x = Math.floor(x / g.s);
    }
    return out;
  };
  const full = (k: number): [number, number] => [0, ds[k]!.s];
  const result: Box[] = [];
  // [lo, hi − 1] inclusive: walk from the top digit while lo and hi − 1 agree
  const a = digitsOf(lo);
  const b = digitsOf(hi - 1);
  let top = n - 1;
  while (top >= 0 && a[top] === b[top]) top--;
  if (top < 0) return [a.map((v) => [v, v + 1] as [number, number])];
  const fixedAbove = (k: number, v: readonly number[]): [number, number][] => v.slice(k + 1).map((x) => [x, x + 1] as [number, number]);
  // the lower side: lo's digits above k, digit k above lo's, below free; from k = 0 up to top − 1
  for (let k = 0; k < top; k++) {
    if (a[k]! + 1 < ds[k]!.s) result.push([...Array.from({ length: k }, (_, i) => full(i)), [a[k]! + 1, ds[k]!.s], ...fixedAbove(k, a)]);
  }
  // lo itself, then the middle of the top digit, then the upper side
  result.push(a.map((v) => [v, v + 1] as [number, number]));
  if (a[top]! + 1 < b[top]!) result.push([...Array.from({ length: top }, (_, i) => full(i)), [a[top]! + 1, b[top]!], ...fixedAbove(top, a)]);
  for (let k = top - 1; k >= 0; k--) {
    if (b[k]! > 0) result.push([...Array.from({ length: k }, (_, i) => full(i)), [0, b[k]!], ...fixedAbove(k, b)]);
  }
  result.push(b.map((v) => [v, v + 1] as [number, number]));
  // lo and hi − 1 differ at `top`, so the two single points are distinct
  return result;
}

/**
 * count, Σ, min and max of Φ = Sw(K + Φ_L) over [lo, hi) (lo < hi) by the period of the swizzle,
 * or null when the low coordinates to enumerate pass LOW_LIMIT in a box or TOTAL_LIMIT in all.
 * Pre: p composed. Example: swizzledDigest(prepare(Sw<3,3,3> o 2^40:1), 0, 2^40) enumerates
 * 512 low coordinates.
 */
export function swizzledDigest(p: SwizzledFlat, lo: number, hi: number): { sum: bigint; min: number; max: number } | null {
  let ymax = p.koff;
  for (let i = 0; i < p.shapes.length; i++) ymax += (p.shapes[i]! - 1) * p.strides[i]!;
  const sw = swizzleWithin(p.swizzle!, bitsBelow(ymax + 1));
  const T = 2 ** topBit(sw);
  const ds = splitDigits(p, T);
  let sum = 0n;
  let min = Infinity;
  let max = -Infinity;
  let budget = TOTAL_LIMIT;
  for (const box of boxes(ds, lo, hi)) {
    // the low digits enumerated, the high ones in closed form
    const lowIdx: number[] = [];
    let lowCount = 1;
    let highCount = 1;
    let hMin = 0;
    let hMax = 0;
    let hSum = 0n; // Σ of H over the high digits of the box: Σ_j d_j · (Σ of digit j's values) · (#other high values)
    ds.forEach((g, k) => {
      const [a, b] = box[k]!;
      if (g.low) {
        lowIdx.push(k);
        lowCount *= b - a;
      } else {
        highCount *= b - a;
        hMin += a * g.d;
        hMax += (b - 1) * g.d;
      }
    });
    ds.forEach((g, k) => {
      if (g.low) return;
      const [a, b] = box[k]!;
      const values = (BigInt(a + b - 1) * BigInt(b - a)) / 2n; // a + (a+1) + … + (b−1)
      hSum += BigInt(g.d) * values * BigInt(highCount / (b - a));
    });
    if (lowCount > LOW_LIMIT || lowCount > budget) return null;
    budget -= lowCount;
    // Σ_u Sw(A(u)), its least and largest, by an odometer over the low digits
    const u = lowIdx.map((k) => box[k]![0]);
    let A = p.koff;
    lowIdx.forEach((k, i) => (A += u[i]! * ds[k]!.d));
    let part = 0; // a partial sum kept below 2^53, flushed into lowSum
    let lowSum = 0n;
    let lMin = Infinity;
    let lMax = -Infinity;
    for (let step = 1; ; step++) {
      if ((step & 0xffff) === 0) checkDeadline('digest_range');
      const v = applySwizzle(sw, A);
      if (v < lMin) lMin = v;
      if (v > lMax) lMax = v;
      part += v;
      if (part >= 2 ** 52) {
        lowSum += BigInt(part);
        part = 0;
      }
      let i = 0;
      for (; i < lowIdx.length; i++) {
        const k = lowIdx[i]!;
        const [a, b] = box[k]!;
        if (u[i]! + 1 < b) {
          u[i]!++;
          A += ds[k]!.d;
          break;
        }
        A -= (u[i]! - a) * ds[k]!.d;
        u[i] = a;
      }
      if (i === lowIdx.length) break;
    }
    lowSum += BigInt(part);
    sum += BigInt(highCount) * lowSum + BigInt(lowCount) * hSum;
    if (lMin + hMin < min) min = lMin + hMin;
    if (lMax + hMax > max) max = lMax + hMax;
  }
  return { sum, min, max };
}

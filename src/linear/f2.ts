/**
 * Linear algebra over F2 on bit vectors of up to 64 bits (docs/linear.md, "Bits"): the one place
 * where rank, pivots, reduced row echelon form, solving and span membership are computed, for
 * every linear-layout operation.
 *
 * A vector is two unsigned 32-bit words (lo = bits 0..31, hi = bits 32..63). A matrix is given by
 * its columns (one per in-bit, in in-bit order); row r is out-bit r. `echelon` walks the columns
 * in order and keeps a basis keyed by lowest set bit, so that a column is a **pivot** exactly when
 * its image is not in the span of the columns before it (the pivot columns of the reduced row
 * echelon form), and every vector in the span has one combination of pivot columns.
 */

/** A vector of up to 64 bits over F2. */
export interface Bits {
  readonly lo: number;
  readonly hi: number;
}

/** The columns of a matrix with at most 64 rows and 64 columns: column c is (lo[c], hi[c]). */
export interface Columns {
  readonly lo: Uint32Array;
  readonly hi: Uint32Array;
}

/**
 * The echelon basis of a list of columns: `pivots` are the pivot column indices in increasing
 * order; `rank` their number. Use `solve` and `inSpan` on it.
 */
export interface Echelon {
  readonly rank: number;
  readonly pivots: readonly number[];
  /** pivotMask.lo/hi: bit c set when column c is a pivot */
  readonly pivotMask: Bits;
  /**
   * The basis, keyed by lowest set bit k (64 slots, slot k used when bit k of `has` is set): at
   * 4k, 4k+1 the basis vector (lo, hi); at 4k+2, 4k+3 the combination of pivot columns giving it.
   */
  readonly slots: Uint32Array;
  readonly has: Bits;
}

/** The lowest set bit of (lo, hi), or -1 for zero. */
export function lowestBit(lo: number, hi: number): number {
  if (lo !== 0) return 31 - Math.clz32(lo & -lo);
  if (hi !== 0) return 63 - Math.clz32(hi & -hi);
  return -1;
}

/** Whether bit k of (lo, hi) is set. */
export const testBit = (v: Bits, k: number): boolean => (k < 32 ? ((v.lo >>> k) & 1) === 1 : ((v.hi >>> (k - 32)) & 1) === 1);

/** The vector with the single bit k. */
export const unit = (k: number): Bits => (k < 32 ? { lo: (1 << k) >>> 0, hi: 0 } : { lo: 0, hi: (1 << (k - 32)) >>> 0 });

/** The number of set bits. */
export function popcount(v: Bits): number {
  const pc = (x: number): number => {
    let n = x - ((x >>> 1) & 0x55555555);
    n = (n & 0x33333333) + ((n >>> 2) & 0x33333333);
    return (((n + (n >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
  };
  return pc(v.lo) + pc(v.hi);
}

/** Columns from vectors. */
export function columnsOf(vs: readonly Bits[]): Columns {
  const lo = new Uint32Array(vs.length);
  const hi = new Uint32Array(vs.length);
  vs.forEach((v, i) => {
    lo[i] = v.lo;
    hi[i] = v.hi;
  });
  return { lo, hi };
}

/** Conversions to and from BigInt (for callers that prefer it; not on hot paths). */
export const toBigInt = (v: Bits): bigint => (BigInt(v.hi) << 32n) | BigInt(v.lo);
export const fromBigInt = (x: bigint): Bits => ({ lo: Number(x & 0xffffffffn), hi: Number((x >> 32n) & 0xffffffffn) });

/**
 * The echelon basis of the columns (in order): column c is a pivot when it is independent of the
 * columns before it. `rows` bounds the set bits of the columns (64 at most). O(columns × rows).
 */
export function echelon(cols: Columns, rows = 64): Echelon {
  const n = cols.lo.length;
  const slots = new Uint32Array(4 * rows);
  let hasLo = 0;
  let hasHi = 0;
  let pmLo = 0;
  let pmHi = 0;
  const pivots: number[] = [];
  for (let c = 0; c < n; c++) {
    let lo = cols.lo[c]!;
    let hi = cols.hi[c]!;
    let kLo = 0;
    let kHi = 0;
    for (;;) {
      const b = lowestBit(lo, hi);
      if (b < 0) break;
      const at = 4 * b;
      const used = b < 32 ? (hasLo >>> b) & 1 : (hasHi >>> (b - 32)) & 1;
      if (used === 0) {
        if (c < 32) kLo = (kLo ^ (1 << c)) >>> 0;
        else kHi = (kHi ^ (1 << (c - 32))) >>> 0;
        slots[at] = lo;
        slots[at + 1] = hi;
        slots[at + 2] = kLo;
        slots[at + 3] = kHi;
        if (b < 32) hasLo = (hasLo | (1 << b)) >>> 0;
        else hasHi = (hasHi | (1 << (b - 32))) >>> 0;
        if (c < 32) pmLo = (pmLo | (1 << c)) >>> 0;
        else pmHi = (pmHi | (1 << (c - 32))) >>> 0;
        pivots.push(c);
        break;
      }
      lo = (lo ^ slots[at]!) >>> 0;
      hi = (hi ^ slots[at + 1]!) >>> 0;
      kLo = (kLo ^ slots[at + 2]!) >>> 0;
      kHi = (kHi ^ slots[at + 3]!) >>> 0;
    }
  }
  return { rank: pivots.length, pivots, pivotMask: { lo: pmLo, hi: pmHi }, slots, has: { lo: hasLo, hi: hasHi } };
}

/** The basis of `independentColumns`, keyed by lowest set bit (lo, hi at 2k, 2k + 1): reused, read only where set. */
const RANK_SLOTS = new Uint32Array(128);

/**
 * The number of columns c < n of (lo[c], hi[c]) found independent of the columns before them, walked
 * in order as `echelon` walks them, without allocating: the rank when nothing stops the walk. It
 * stops at the first dependent column when `toFirstDependent` (so the count is n exactly when the
 * columns are independent), and once the count reaches `enough`.
 */
export function independentColumns(lo: Uint32Array, hi: Uint32Array, n: number, enough: number, toFirstDependent: boolean): number {
  const s = RANK_SLOTS;
  let hasLo = 0;
  let hasHi = 0;
  let rank = 0;
  for (let c = 0; c < n && rank < enough; c++) {
    let l = lo[c]!;
    let h = hi[c]!;
    for (;;) {
      if (l === 0 && h === 0) {
        if (toFirstDependent) return rank;
        break;
      }
      const b = l !== 0 ? 31 - Math.clz32(l & -l) : 63 - Math.clz32(h & -h);
      const used = b < 32 ? (hasLo >>> b) & 1 : (hasHi >>> (b - 32)) & 1;
      if (used === 0) {
        s[2 * b] = l;
        s[2 * b + 1] = h;
        if (b < 32) hasLo = (hasLo | (1 << b)) >>> 0;
        else hasHi = (hasHi | (1 << (b - 32))) >>> 0;
        rank++;
        break;
      }
      l = (l ^ s[2 * b]!) >>> 0;
      h = (h ^ s[2 * b + 1]!) >>> 0;
    }
  }
  return rank;
}

/**
 * The combination of pivot columns whose sum is (lo, hi) (bit c set = column c used), the unique
 * solution that uses pivot columns only; null when it is not in the span.
 */
export function solveWords(e: Echelon, tLo: number, tHi: number): Bits | null {
  let lo = tLo;
  let hi = tHi;
  let kLo = 0;
  let kHi = 0;
  const s = e.slots;
  for (;;) {
    const b = lowestBit(lo, hi);
    if (b < 0) return { lo: kLo, hi: kHi };
    const used = b < 32 ? (e.has.lo >>> b) & 1 : (e.has.hi >>> (b - 32)) & 1;
    if (used === 0) return null;
    const at = 4 * b;
    lo = (lo ^ s[at]!) >>> 0;
    hi = (hi ^ s[at + 1]!) >>> 0;
    kLo = (kLo ^ s[at + 2]!) >>> 0;
    kHi = (kHi ^ s[at + 3]!) >>> 0;
  }
}

/** `solveWords` on a vector. */
export const solve = (e: Echelon, target: Bits): Bits | null => solveWords(e, target.lo, target.hi);

/** The rank over F2 of the columns. */
export const rank = (cols: Columns): number => echelon(cols).rank;

/**
 * The reduced row echelon form of the matrix with these columns and `rows` rows (Triton's
 * f2reduce `inplace_rref_strided`): row i has its leading 1 in column pivots[i]; each row is a
 * vector over the columns (bit c = entry in column c). Rows beyond the rank are zero and omitted.
 * Column c's entries are its coordinates in terms of the pivot columns, so `solve` gives them.
 */
export function rref(cols: Columns): { readonly pivots: readonly number[]; readonly rows: readonly Bits[] } {
  const e = echelon(cols);
  const rowLo = new Uint32Array(e.rank);
  const rowHi = new Uint32Array(e.rank);
  const n = cols.lo.length;
  for (let c = 0; c < n; c++) {
    const coords = solve(e, { lo: cols.lo[c]!, hi: cols.hi[c]! })!;
    e.pivots.forEach((p, i) => {
      if (testBit(coords, p)) {
        if (c < 32) rowLo[i] = (rowLo[i]! | (1 << c)) >>> 0;
        else rowHi[i] = (rowHi[i]! | (1 << (c - 32))) >>> 0;
      }
    });
  }
  return { pivots: e.pivots, rows: e.pivots.map((_, i) => ({ lo: rowLo[i]!, hi: rowHi[i]! })) };
}

/** Reads `k` ≤ 31 bits at bit `shift` of (lo, hi). */
export function readBits(lo: number, hi: number, shift: number, k: number): number {
  if (k === 0) return 0;
  const mask = k >= 31 ? 0x7fffffff : (1 << k) - 1;
  if (shift >= 32) return (hi >>> (shift - 32)) & mask;
  if (shift + k <= 32) return (lo >>> shift) & mask;
  return ((lo >>> shift) | (hi << (32 - shift))) & mask;
}

/**
 * The bit-level searches of the bridge (docs/linear.md, "The bridge to CuTe"): exact bit operations on integers below
 * 2^53, the first carry between the images of index bits, and the first swizzle under which they are disjoint
 * (`firstSwizzle`, and `hasFormBig` for images past 2^53 − 1, on BigInt).
 */
import { checkDeadline } from '../algebra/deadline.js';
import { applySwizzle, applySwizzleBig, makeSwizzle, type Swizzle } from '../cute/swizzle.js';

// Exact bit operations on integers below 2^53 (JS bit operators are 32-bit)

const TWO32 = 4294967296;
const hi32 = (a: number): number => Math.floor(a / TWO32);
/** whether a and b (exact integers in [0, 2^53)) share a set bit */
const overlaps = (a: number, b: number): boolean => ((a >>> 0) & (b >>> 0)) !== 0 || (hi32(a) & hi32(b)) !== 0;
/** a XOR b for exact integers in [0, 2^53) */
export const xor53 = (a: number, b: number): number => ((hi32(a) ^ hi32(b)) >>> 0) * TWO32 + (((a >>> 0) ^ (b >>> 0)) >>> 0);
/** a AND b for exact integers in [0, 2^53) */
export const and53 = (a: number, b: number): number => ((hi32(a) & hi32(b)) >>> 0) * TWO32 + (((a >>> 0) & (b >>> 0)) >>> 0);
/** a OR b for exact integers in [0, 2^53) */
export const or53 = (a: number, b: number): number => ((hi32(a) | hi32(b)) >>> 0) * TWO32 + (((a >>> 0) | (b >>> 0)) >>> 0);
/** the index of the lowest / highest set bit of a > 0 (below 2^53) */
const lowBit = (a: number): number => (a >>> 0 !== 0 ? 31 - Math.clz32((a >>> 0) & -(a >>> 0)) : 32 + lowBit(hi32(a)));
export const highBit = (a: number): number => (hi32(a) !== 0 ? 32 + 31 - Math.clz32(hi32(a)) : 31 - Math.clz32(a >>> 0));

/** whether every value is below 2^31 (32-bit operations are exact on them) */
function below31(b: readonly number[]): boolean {
  for (let i = 0; i < b.length; i++) if (b[i]! >= 2147483648) return false;
  return true;
}

/** The first pair i < j of images that share a bit (a carry), or null when they are disjoint. */
export function firstCarry(b: readonly number[]): [number, number] | null {
  if (below31(b)) {
    // the common case in 32-bit operations
    let acc = 0;
    let j = 0;
    for (; j < b.length && (acc & b[j]!) === 0; j++) acc |= b[j]!;
    if (j === b.length) return null;
  }
  let seen = 0;
  for (let j = 0; j < b.length; j++) {
    const v = b[j]!;
    if (overlaps(seen, v)) {
      for (let i = 0; i < j; i++) if (overlaps(b[i]!, v)) return [i, j];
    }
    seen = or53(seen, v);
  }
  return null;
}

/** The images' bits set in more than one image (their OR ignoring the first occurrence). */
function sharedBits(images: readonly number[]): number {
  let seen = 0;
  let dup = 0;
  if (below31(images)) {
    for (const v of images) {
      dup |= seen & v;
      seen |= v;
    }
    return dup;
  }
  for (const v of images) {
    dup = or53(dup, and53(seen, v));
    seen = or53(seen, v);
  }
  return dup;
}

/** Whether BigInt images have pairwise disjoint supports. */
function disjointBig(images: readonly bigint[]): boolean {
  let acc = 0n;
  for (const v of images) {
    if ((acc & v) !== 0n) return false;
    acc |= v;
  }
  return true;
}

/**
 * Whether BigInt images (an LL's flattened images past 2^53 − 1) have a CuTe form: disjoint supports, or disjoint
 * under one of firstSwizzle's candidates, in its order and with its pruning, on exact BigInt.
 */
export function hasFormBig(images: readonly bigint[], m: number): boolean {
  if (disjointBig(images)) return true;
  let seen = 0n;
  let dup = 0n;
  for (const v of images) {
    dup |= seen & v;
    seen |= v;
  }
  const hi = dup.toString(2).length - 1;
  const lo = (dup & -dup).toString(2).length - 1;
  const nz = images.filter((v) => v !== 0n);
  const ordered = [...nz.filter((v) => (v & dup) !== 0n), ...nz.filter((v) => (v & dup) === 0n)];
  return firstCandidate(m, lo, hi, (B, M, S) => {
    const sw = makeSwizzle(B, M, S);
    return disjointBig(ordered.map((v) => applySwizzleBig(sw, v)));
  });
}

/**
 * firstSwizzle's candidates Sw<B,M,S> in its documented order (B = 1, 2, …; M = 0, 1, …; S = B, −B, B+1, …;
 * M + |S| + B ≤ m), those whose target field [M + max(0, −S), +B) misses a shared bit (lo … hi) skipped: true at the
 * first that `ok` accepts, false when none does. Checks the deadline per (B, M).
 */
function firstCandidate(m: number, lo: number, hi: number, ok: (B: number, M: number, S: number) => boolean): boolean {
  for (let B = Math.max(1, hi - lo + 1); 2 * B <= m; B++) {
    for (let M = 0; M + 2 * B <= m; M++) {
      checkDeadline('the swizzle search of from_ll');
      for (let a = B; M + a + B <= m; a++) {
        for (let sign = 1; sign >= -1; sign -= 2) {
          const S = sign * a;
          const t = M + (S < 0 ? a : 0);
          if (t > lo || t + B - 1 < hi) continue;
          if (ok(B, M, S)) return true;
        }
      }
    }
  }
  return false;
}

/**
 * The first Sw<B,M,S> in the documented order (B = 1, 2, …; M = 0, 1, …; S = B, −B, B+1, …;
 * M + |S| + B ≤ m) under which the images have disjoint supports, or null. A swizzle changes
 * only the bits of its target field [M + max(0, −S), +B), so every bit shared by two images must
 * lie there: candidates whose field misses one are skipped without changing the order.
 */
export function firstSwizzle(images: readonly number[], m: number): Swizzle | null {
  const dup = sharedBits(images);
  if (dup === 0) return null;
  const lo = lowBit(dup);
  const hi = highBit(dup);
  // the images that can collide (nonzero), those holding a shared bit first: a failing candidate fails early
  const nz = images.filter((v) => v !== 0);
  const order = [...nz.filter((v) => overlaps(v, dup)), ...nz.filter((v) => !overlaps(v, dup))];
  const small = m <= 31;
  let found: Swizzle | null = null;
  firstCandidate(m, lo, hi, (B, M, S) => {
    const ok = small ? disjointUnder32(order, B, M, S) : firstCarry(order.map((v) => applySwizzle(makeSwizzle(B, M, S), v))) === null;
    if (ok) found = makeSwizzle(B, M, S);
    return ok;
  });
  return found;
}

/** Whether Sw<B,M,S>(v) of the images (all below 2^31) have disjoint supports, with 32-bit operations. */
function disjointUnder32(images: readonly number[], B: number, M: number, S: number): boolean {
  const mask = ((1 << B) - 1) << (M + (S > 0 ? S : 0));
  const r = S > 0 ? S : 0;
  const l = S > 0 ? 0 : -S;
  let acc = 0;
  for (let i = 0; i < images.length; i++) {
    const v = images[i]!;
    const w = v ^ (((v & mask) >>> r) << l);
    if ((acc & w) !== 0) return false;
    acc |= w;
  }
  return true;
}

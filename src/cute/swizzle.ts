/**
 * CuTe's swizzle functor Sw<B,M,S> (SPEC §9.1, CuTe `swizzle.hpp`): on offsets,
 *   y ↦ y XOR ((y AND Ymask) >> S),  Ymask = (2^B − 1) << (M + max(0, S)),
 * a right shift by a negative S read as a left shift by −S. With |S| ≥ B the source field
 * [M + max(0,S), +B) and the target field [M + max(0,−S), +B) do not overlap, so Sw is an
 * involution (its own inverse) and a permutation of the integers.
 */
export interface Swizzle {
  /** B: the number of bits XORed */
  readonly bits: number;
  /** M: the number of low bits left alone (the element vector within a unit) */
  readonly base: number;
  /** S: the distance the source field is shifted (negative: left) */
  readonly shift: number;
}

/** The lowest bit of the field that is read (the "yyy" bits). */
export const sourceLow = (sw: Swizzle): number => sw.base + Math.max(0, sw.shift);
/** The lowest bit of the field that is XORed into (the "zzz" bits). */
export const targetLow = (sw: Swizzle): number => sw.base + Math.max(0, -sw.shift);

/** Sw(y) for an exact non-negative integer y < 2^53 (plain arithmetic: JS bit operators are
 *  32-bit, offsets are not). */
export function applySwizzle(sw: Swizzle, y: number): number {
  const b = sw.bits;
  if (b === 0) return y;
  if (b > 30) return Number(applySwizzleBig(sw, BigInt(y)));
  const field = 2 ** b;
  const src = Math.floor(y / 2 ** sourceLow(sw)) % field;
  if (src === 0) return y;
  const unit = 2 ** targetLow(sw);
  const dst = Math.floor(y / unit) % field;
  return y + ((dst ^ src) - dst) * unit;
}

/** Sw(y) on BigInt, for any y. */
export function applySwizzleBig(sw: Swizzle, y: bigint): bigint {
  if (sw.bits === 0) return y;
  const mask = ((1n << BigInt(sw.bits)) - 1n) << BigInt(sourceLow(sw));
  const moved = sw.shift >= 0 ? (y & mask) >> BigInt(sw.shift) : (y & mask) << BigInt(-sw.shift);
  return y ^ moved;
}

/**
 * CuTe's swizzle functor Sw<B,M,S> (docs/semantics.md §9.1, CuTe `swizzle.hpp`): on offsets,
 *   y ↦ y XOR ((y AND Ymask) >> S),  Ymask = (2^B − 1) << (M + max(0, S)),
 * a right shift by a negative S read as a left shift by −S. With |S| ≥ B the source field
 * [M + max(0,S), +B) and the target field [M + max(0,−S), +B) do not overlap, so Sw is an
 * involution (its own inverse) and a permutation of the integers.
 */
import { LayoutError } from '../algebra/errors.js';

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

/**
 * A validated Sw<B,M,S> (docs/semantics.md §9.1): B ≥ 0, M ≥ 0 and |S| ≥ B, else `domain` naming the
 * swizzle. Example: makeSwizzle(3, 3, 3) is the 128-byte swizzle of 2-byte elements.
 */
export function makeSwizzle(bits: number, base: number, shift: number): Swizzle {
  const name = `Sw<${bits},${base},${shift}>`;
  if (bits < 0) throw new LayoutError('domain', `${name}: B must be >= 0`);
  if (base < 0) throw new LayoutError('domain', `${name}: M must be >= 0`);
  if (Math.abs(shift) < bits) throw new LayoutError('domain', `${name}: |S| must be >= B`);
  return { bits, base, shift: shift === 0 ? 0 : shift };
}

/** `Sw<B,M,S>`, CuTe's print of a swizzle. */
export const formatSwizzle = (sw: Swizzle): string => `Sw<${sw.bits},${sw.base},${sw.shift}>`;

/** One past the highest bit that Sw reads or writes (0 for B = 0): Sw(y) = y on every bit at
 *  or above it, so Sw(a + c·2^top) = Sw(a) + c·2^top. */
export const topBit = (sw: Swizzle): number => (sw.bits === 0 ? 0 : Math.max(sourceLow(sw), targetLow(sw)) + sw.bits);

/**
 * The swizzle that agrees with Sw<B,M,S> on every y < 2^width (docs/semantics.md §9.1: Sw
 * reads the B bits from sourceLow on): the bits it reads at or above `width` are zero there, so
 * B shrinks to the bits below `width`, and a swizzle that reads only bits at or above `width` is the
 * identity there (B = 0). The generated code runs on values below 2^32 (u32) or below the
 * layout's offset bound (< 2^53, u64): any shift and mask the CPU accepts becomes one that fits.
 * Example: swizzleWithin({bits: 1, base: 40, shift: 1}, 32) is {bits: 0, base: 40, shift: 1}.
 */
export function swizzleWithin(sw: Swizzle, width: number): Swizzle {
  const room = width - sourceLow(sw);
  return room >= sw.bits ? sw : { ...sw, bits: Math.max(0, room) };
}

/** the number of bits of the values below `bound` (bound ≥ 1): the least w with bound ≤ 2^w */
export function bitsBelow(bound: number): number {
  let w = 0;
  while (2 ** w < bound) w++;
  return w;
}

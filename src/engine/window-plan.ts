/**
 * The pruned walk of the windowed compactness check (check_compact / check_complement): for a
 * bitmap window of offsets [w0, w0 + wn), the blocks of indices whose offsets can land in it.
 *
 * Within a window only Σ (hits − 1) per offset and the least colliding offset are counted, and
 * both depend on the multiset of offsets alone, not on the order of the indices. So a window
 * may walk any permutation of the modes: `sortedByStride(p)` puts the largest strides
 * outermost, and `windowBlocks` enumerates the outer coordinates, skipping every branch whose
 * reachable offset interval [b, b + Σ (s_i − 1)·d_i] misses the window (strides are ≥ 0).
 * Every index whose offset lies in the window is in exactly one block; the windows together
 * walk about size(L) indices (plus the blocks that straddle a window's edge) instead of
 * size(L) per window.
 */
import { targetLow } from '../cute/swizzle.js';
import type { Prepared } from './prep.js';

/** a window pass walks blocks of at least this many indices (fewer calls, fewer dispatches) */
export const MIN_BLOCK = 2 ** 16;

/**
 * The same layout function with its modes in order of increasing stride (stable): the
 * multiset of offsets of Φ is unchanged (a permutation of the index space, paper Def. of the
 * layout function as Σ c_i·d_i). Pre: p as from `prepare`. @example (2,4):(4,1) → (4,2):(1,4)
 */
export function sortedByStride(p: Prepared): Prepared {
  const order = p.shapes.map((_, i) => i).sort((a, b) => p.strides[a]! - p.strides[b]! || a - b);
  return { ...p, shapes: order.map((i) => p.shapes[i]!), strides: order.map((i) => p.strides[i]!) };
}

/**
 * The index blocks [lo, lo + n) of `p` (walked in its own mode order) outside which no offset
 * Φ(x) lies in the window [w0, w0 + wn): a list [lo0, n0, lo1, n1, …], ascending, adjacent
 * blocks merged. For a composed p (Φ = Sw(K + Φ_L)), Sw keeps K + v within its aligned block
 * of 2^(targetLow + B), so the window is widened to whole such blocks before subtracting K.
 * Pre: strides ≥ 0 (a negative stride gives the whole domain, unpruned); `minBlock` ≥ 1.
 * @example windowBlocks(prepare((4,4):(1,4)), 4, 4, 1) → [4, 4]
 */
export function windowBlocks(p: Prepared, w0: number, wn: number, minBlock = MIN_BLOCK): number[] {
  const n = p.shapes.length;
  if (n === 0 || p.strides.some((d) => d < 0)) return [0, p.size];
  let W0 = w0;
  let W1 = w0 + wn - 1;
  if (p.swizzle && p.swizzle.bits > 0) {
    const blk = 2 ** (targetLow(p.swizzle) + p.swizzle.bits);
    W0 = Math.floor(W0 / blk) * blk;
    W1 = (Math.floor(W1 / blk) + 1) * blk - 1;
  }
  W0 -= p.koff;
  W1 -= p.koff;
  // P[j] = Π_{i<j} s_i (index weight of mode j); R[j] = Σ_{i<j} (s_i − 1)·d_i (reach of modes < j)
  const P = [1];
  const R = [0];
  for (let j = 0; j < n; j++) {
    P.push(P[j]! * p.shapes[j]!);
    R.push(R[j]! + (p.shapes[j]! - 1) * p.strides[j]!);
  }
  const out: number[] = [];
  const emit = (lo: number, len: number): void => {
    const k = out.length;
    if (k > 0 && out[k - 2]! + out[k - 1]! === lo) out[k - 1]! += len;
    else out.push(lo, len);
  };
  // visit(j, b, lo): the modes above j are fixed (offset b, first index lo); modes 0..j reach
  // R[j + 1]. A sub-block of at most minBlock indices is walked whole; otherwise the coordinates
  // c of mode j whose interval [b + c·d, b + c·d + R[j]] meets the window form a range, walked
  // as one block once the modes below j are small, else visited one by one.
  const visit = (j: number, b: number, lo: number): void => {
    if (b > W1 || b + R[j + 1]! < W0) return;
    if (P[j + 1]! <= minBlock) {
      emit(lo, P[j + 1]!);
      return;
    }
    const d = p.strides[j]!;
    const s = p.shapes[j]!;
    let c0 = 0;
    let c1 = s - 1;
    if (d > 0) {
      c0 = Math.max(0, Math.ceil((W0 - b - R[j]!) / d));
      c1 = Math.min(s - 1, Math.floor((W1 - b) / d));
    }
    if (c0 > c1) return;
    if (P[j]! <= minBlock) {
      emit(lo + c0 * P[j]!, (c1 - c0 + 1) * P[j]!);
      return;
    }
    for (let c = c0; c <= c1; c++) visit(j - 1, b + c * d, lo + c * P[j]!);
  };
  visit(n - 1, 0, 0);
  return out;
}

/** Σ of the block lengths of a `windowBlocks` list */
export function blocksLength(bl: readonly number[]): number {
  let s = 0;
  for (let i = 1; i < bl.length; i += 2) s += bl[i]!;
  return s;
}

/**
 * Right and left inverses (docs/semantics.md §8.5; CuTe `right_inverse`, `left_inverse` of
 * include/cute/layout.hpp, C++'s algorithm, not pycute's). Both work on coal(L): its entries,
 * sorted stably by stride, and the prefix products p_i of its shapes (the strides of the
 * compact column-major layout of coal(L)'s shape).
 */
import { add, mul } from '../algebra/arith.js';
import { coalesceFlat, coalesceNested, fromCoalescedFlat } from '../algebra/coalesce.js';
import { domainError } from '../algebra/errors.js';
import type { Layout } from '../algebra/layout.js';

interface Sorted {
  /** coal(L)'s entries in stable stride order: shapes, strides, prefix products */
  s: number[];
  d: number[];
  p: number[];
}

/** coal(L)♭ sorted stably by stride, each entry with the prefix product of the shapes before
 *  it in coal(L) (insertion sort: few entries, and stable). */
function sortedCoalesced(l: Layout): Sorted {
  const c = coalesceNested(l.shape, l.stride);
  const s: number[] = [];
  const d: number[] = [];
  const p: number[] = [];
  let prefix = 1;
  for (let i = 0; i < c.shapes.length; i++) {
    const si = c.shapes[i]!;
    const di = c.strides[i]!;
    let k = s.length;
    s.push(si);
    d.push(di);
    p.push(prefix);
    while (k > 0 && d[k - 1]! > di) {
      s[k] = s[k - 1]!;
      d[k] = d[k - 1]!;
      p[k] = p[k - 1]!;
      k--;
    }
    s[k] = si;
    d[k] = di;
    p[k] = prefix;
    prefix *= si; // ≤ size(L)
  }
  return { s, d, p };
}

/**
 * CuTe's `right_inverse(L)` (docs/semantics.md §8.5): in coal(L) sorted stably by stride, starting from
 * stride 1, take every entry whose stride equals the running product (then multiply it by
 * the entry's shape); R = coal((those shapes):(their prefix products p_i)). Φ_L(Φ_R(i)) = i
 * for every i < size(R); R = 1:0 when no entry has stride 1. Not necessarily the largest such
 * R where strides repeat. Pre: a plain layout. Errors: none beyond L's own.
 * Example: rightInverse(parseLayout('(2,4,6):(4,1,8)')) is (4,2,6):(2,1,8).
 */
export function rightInverse(l: Layout): Layout {
  const { s, d, p } = sortedCoalesced(l);
  const rs: number[] = [];
  const rd: number[] = [];
  let curr = 1;
  for (let i = 0; i < s.length; i++) {
    if (d[i] !== curr) continue;
    rs.push(s[i]!);
    rd.push(p[i]!);
    curr = s[i]! * d[i]!; // ≤ cosize(L) + d_i: an exact integer
  }
  return fromCoalescedFlat(coalesceFlat(rs, rd));
}

/**
 * CuTe C++'s `left_inverse(L)` (docs/semantics.md §8.5): coal(L) sorted stably by stride, stride-0 entries
 * skipped; each non-zero stride d_j must be divisible by the previous one d_(j−1) (d_0 = 1).
 * R = coal((d_1/d_0, …, d_k/d_(k−1), s_k):(0, p_1, …, p_k)), or s:0 when every stride is 0.
 * For an injective L, Φ_R(Φ_L(i)) = i for every i < size(L).
 * Errors: `domain` naming the stride that breaks divisibility; `overflow` if size(R) exceeds
 * 2^53 − 1. Example: leftInverse(parseLayout('(4,8):(1,5)')) is (5,8):(1,4).
 */
export function leftInverse(l: Layout): Layout {
  const { s, d, p } = sortedCoalesced(l);
  const rs: number[] = [];
  const rd: number[] = [0];
  let prev = 1;
  for (let i = 0; i < s.length; i++) {
    const di = d[i]!;
    if (di === 0) continue;
    if (di % prev !== 0) {
      throw domainError(`left_inverse: stride ${di} (entry ${s[i]}:${di} of the coalesced layout) is not divisible by ${prev}`);
    }
    rs.push(di / prev);
    rd.push(p[i]!);
    prev = di;
  }
  rs.push(s.length === 0 ? 1 : s[s.length - 1]!);
  const c = coalesceFlat(rs, rd);
  // size(R) = d_k·s_k may exceed 2^53 − 1: overflow (makeLayout's checks, in its order)
  let sz = 1;
  let co = 0;
  for (let i = 0; i < c.shapes.length; i++) {
    sz = mul(sz, c.shapes[i]!, 'size');
    co = add(co, mul(c.shapes[i]! - 1, c.strides[i]!, 'cosize'), 'cosize');
  }
  add(co, 1, 'cosize');
  return fromCoalescedFlat(c);
}

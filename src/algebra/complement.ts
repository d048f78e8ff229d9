/**
 * Complement (SPEC §4; paper 2.1.6, 2.3.6).
 * Entries of shape 1 take no part in complementability or in the complement (as in CuTe).
 */
import { MAX_EXACT, mul } from './arith.js';
import { LayoutError, domainError } from './errors.js';
import { flat, type Layout } from './layout.js';
import { coalesceFlat, fromCoalescedFlat } from './coalesce.js';
import { formatLayout } from './notation.js';

export interface SortedEntries {
  shapes: number[];
  strides: number[];
}

/** Sorting a flat layout: order its entries by stride, then by shape (Def. 2.1.6.x). */
export function sortEntries(shapes: readonly number[], strides: readonly number[], dropUnit = true): SortedEntries {
  // insertion sort of parallel arrays: layouts have few entries, and this is hot
  const s: number[] = [];
  const d: number[] = [];
  for (let i = 0; i < shapes.length; i++) {
    const si = shapes[i]!;
    if (dropUnit && si === 1) continue;
    const di = strides[i]!;
    let k = s.length;
    s.push(si);
    d.push(di);
    while (k > 0 && (d[k - 1]! > di || (d[k - 1] === di && s[k - 1]! > si))) {
      s[k] = s[k - 1]!;
      d[k] = d[k - 1]!;
      k--;
    }
    s[k] = si;
    d[k] = di;
  }
  return { shapes: s, strides: d };
}

/** Why A is not complementable, or null when it is (Defs. 2.1.6.x, 2.3.6.3). */
function complementabilityFailure(s: readonly number[], d: readonly number[]): string | null {
  for (let i = 0; i < s.length; i++) {
    if (d[i] === 0) return `entry ${s[i]}:0 has stride 0`;
    // s·d may exceed 2^53 only when it exceeds every stride, so it cannot divide the next
    if (i + 1 < s.length && (s[i]! * d[i]! > MAX_EXACT || d[i + 1]! % (s[i]! * d[i]!) !== 0)) {
      return `s·d = ${s[i]! * d[i]!} of entry ${s[i]}:${d[i]} does not divide the next stride ${d[i + 1]}`;
    }
  }
  return null;
}

/** A's entries of shape > 1, sorted, or the `not-complementable` error naming why
 *  (Defs. 2.1.6.x, 2.3.6.3). */
function complementableEntries(a: Layout): SortedEntries {
  const f = flat(a);
  const sorted = sortEntries(f.shapes, f.strides);
  const why = complementabilityFailure(sorted.shapes, sorted.strides);
  if (why !== null) throw new LayoutError('not-complementable', `${formatLayout(a)} is not complementable: ${why}`);
  return sorted;
}

/** The span s_m·d_m of sorted A (1 when A has no entry of shape > 1); A must be
 *  complementable (its error otherwise: the span of anything else means nothing). */
export function span(a: Layout): number {
  const { shapes, strides } = complementableEntries(a);
  const m = shapes.length;
  return m === 0 ? 1 : mul(shapes[m - 1]!, strides[m - 1]!, 'span');
}

/** Def. 2.3.6.3: A is complementable. */
export function isComplementable(a: Layout): boolean {
  const f = flat(a);
  const { shapes, strides } = sortEntries(f.shapes, f.strides);
  return complementabilityFailure(shapes, strides) === null;
}

function checkN(n: number): void {
  if (!Number.isSafeInteger(n) || n < 1) throw domainError(`N = ${n} must be a positive integer`);
}

/** Def. 2.3.6.8: A is N-complementable. */
export function isNComplementable(a: Layout, n: number): boolean {
  checkN(n);
  const f = flat(a);
  const { shapes, strides } = sortEntries(f.shapes, f.strides);
  if (complementabilityFailure(shapes, strides) !== null) return false;
  const m = shapes.length;
  const sp = m === 0 ? 1 : shapes[m - 1]! * strides[m - 1]!;
  return n % sp === 0;
}

/** Defs. 2.3.6.5 and 2.3.6.7 with Remark 2.3.6.6: comp(A), or comp(A, N) when N is given.
 *  For sorted A = (s1..sm):(d1..dm): d1:1, d2/(s1·d1):s1·d1, …, and N/(sm·dm):sm·dm,
 *  dropping shape-1 entries, then coalesced. */
export function complement(a: Layout, n?: number): Layout {
  if (n !== undefined) checkN(n);
  const { shapes, strides } = complementableEntries(a);
  const cs: number[] = [];
  const cd: number[] = [];
  let reach = 1; // s_{i-1}·d_{i-1}, the span covered so far
  for (let i = 0; i < shapes.length; i++) {
    cs.push(strides[i]! / reach);
    cd.push(reach);
    reach = shapes[i]! * strides[i]!;
  }
  if (n !== undefined) {
    if (n % reach !== 0) {
      throw new LayoutError(
        'not-complementable',
        `${formatLayout(a)} is not ${n}-complementable: s·d = ${reach} does not divide N = ${n}`,
      );
    }
    cs.push(n / reach);
    cd.push(reach);
  }
  return fromCoalescedFlat(coalesceFlat(cs, cd));
}

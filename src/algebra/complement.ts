/**
 * Complement (docs/semantics.md §4; paper 2.1.6, 2.3.6).
 * Entries of shape 1 take no part in complementability or in the complement (as in CuTe).
 */
import { MAX_EXACT, mul } from './arith.js';
import { LayoutError, domainError } from './errors.js';
import { flat, type Flat, type Layout } from './layout.js';
import { fromCoalescedFlat } from './coalesce.js';
import { formatLayout } from './notation.js';

export interface SortedEntries {
  shapes: number[];
  strides: number[];
}

/** Sorting a flat layout: its entries ordered by stride, then by shape (Def. 2.1.6.x), with
 *  the shape-1 entries dropped unless `dropUnit` is false. O(n log n).
 *  Example: sortEntries([4,2,1], [2,1,5]) = { shapes: [2,4], strides: [1,2] }. */
export function sortEntries(shapes: readonly number[], strides: readonly number[], dropUnit = true): SortedEntries {
  return sortedEntries(shapes, strides, dropUnit);
}

/** Below this many entries an insertion sort (no allocation beyond the result) is fastest. */
const INSERTION_SORT_MAX = 24;

/** sortEntries with every argument explicit (the hot callers: no optional parameter). */
export function sortedEntries(shapes: readonly number[], strides: readonly number[], dropUnit: boolean): SortedEntries {
  if (shapes.length > INSERTION_SORT_MAX) return indexSortedEntries(shapes, strides, dropUnit);
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

/** The same order for many entries: a sort of the entries' indices (the engine's O(n log n)
 *  sort; differences of integers below 2^53 are exact, so the comparison is). */
function indexSortedEntries(shapes: readonly number[], strides: readonly number[], dropUnit: boolean): SortedEntries {
  const idx: number[] = [];
  for (let i = 0; i < shapes.length; i++) if (!dropUnit || shapes[i] !== 1) idx.push(i);
  idx.sort((i, j) => strides[i]! - strides[j]! || shapes[i]! - shapes[j]!);
  const s = new Array<number>(idx.length);
  const d = new Array<number>(idx.length);
  for (let k = 0; k < idx.length; k++) {
    s[k] = shapes[idx[k]!]!;
    d[k] = strides[idx[k]!]!;
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
 *  (Defs. 2.1.6.x, 2.3.6.3). Example: (4,2):(2,1) gives 2:1, 4:2. */
export function complementableEntries(a: Layout): SortedEntries {
  return sortedComplementable(a, flat(a));
}

/** complementableEntries from A's flattening f = A♭ (A itself only names A in the error). */
export function sortedComplementable(a: Layout, f: Flat): SortedEntries {
  const sorted = sortedEntries(f.shapes, f.strides, true);
  const why = complementabilityFailure(sorted.shapes, sorted.strides);
  if (why !== null) throw new LayoutError('not-complementable', `${formatLayout(a)} is not complementable: ${why}`);
  return sorted;
}

/** The span s_m·d_m of sorted complementable entries (1 when there are none). */
export function spanOfSorted(shapes: readonly number[], strides: readonly number[]): number {
  const m = shapes.length;
  return m === 0 ? 1 : mul(shapes[m - 1]!, strides[m - 1]!, 'span');
}

/** The span s_m·d_m of sorted A (1 when A has no entry of shape > 1); A must be
 *  complementable (its error otherwise: the span of anything else means nothing).
 *  Example: span((4,2):(2,1)) = 8. */
export function span(a: Layout): number {
  const { shapes, strides } = complementableEntries(a);
  return spanOfSorted(shapes, strides);
}

/** Def. 2.3.6.3: A is complementable. */
export function isComplementable(a: Layout): boolean {
  const f = flat(a);
  const { shapes, strides } = sortedEntries(f.shapes, f.strides, true);
  return complementabilityFailure(shapes, strides) === null;
}

function checkN(n: number): void {
  if (!Number.isSafeInteger(n) || n < 1) throw domainError(`N = ${n} must be a positive integer`);
}

/** Def. 2.3.6.8: A is N-complementable. */
export function isNComplementable(a: Layout, n: number): boolean {
  checkN(n);
  const f = flat(a);
  const { shapes, strides } = sortedEntries(f.shapes, f.strides, true);
  if (complementabilityFailure(shapes, strides) !== null) return false;
  const m = shapes.length;
  const sp = m === 0 ? 1 : shapes[m - 1]! * strides[m - 1]!;
  return n % sp === 0;
}

/** Defs. 2.3.6.5 and 2.3.6.7 with Remark 2.3.6.6: comp(A), or comp(A, N) when N is given.
 *  For sorted A = (s1..sm):(d1..dm): d1:1, d2/(s1·d1):s1·d1, …, and N/(sm·dm):sm·dm,
 *  dropping shape-1 entries, then coalesced. Example: complement((4,2):(1,8), 64) = (2,4):(4,16). */
export function complement(a: Layout, n?: number): Layout {
  if (n !== undefined) checkN(n);
  const { shapes, strides } = complementableEntries(a);
  return fromCoalescedFlat(complementOfSorted(a, shapes, strides, n));
}

/** comp(A) (n undefined) or comp(A, n), coalesced and flat, from A's sorted complementable
 *  entries (Defs. 2.3.6.5, 2.3.6.7); `not-complementable` when s_m·d_m does not divide n.
 *  Neighbours are merged as they are made (coal♭, Def. 2.1.4.x). */
export function complementOfSorted(a: Layout, shapes: readonly number[], strides: readonly number[], n: number | undefined): Flat {
  const cs: number[] = [];
  const cd: number[] = [];
  let reach = 1; // s_{i-1}·d_{i-1}, the span covered so far
  for (let i = 0; i < shapes.length; i++) {
    pushCoalesced(cs, cd, strides[i]! / reach, reach);
    reach = shapes[i]! * strides[i]!;
  }
  if (n !== undefined) {
    if (n % reach !== 0) {
      throw new LayoutError('not-complementable', `${formatLayout(a)} is not ${n}-complementable: s·d = ${reach} does not divide N = ${n}`);
    }
    pushCoalesced(cs, cd, n / reach, reach);
  }
  return { shapes: cs, strides: cd };
}

/** Append the entry s:d to a coalesced flat list, merging it into the last entry when
 *  d = s_last·d_last and dropping it when s = 1 (coal♭). The products stay below N. */
function pushCoalesced(cs: number[], cd: number[], s: number, d: number): void {
  if (s === 1) return;
  const k = cs.length - 1;
  if (k >= 0 && d === cs[k]! * cd[k]!) cs[k] = cs[k]! * s;
  else {
    cs.push(s);
    cd.push(d);
  }
}

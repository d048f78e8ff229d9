/**
 * Nested tuples (docs/semantics.md §1, paper §2.2): a positive integer or a finite tuple of nested tuples.
 * Values are immutable: functions here never mutate their arguments.
 */
import { mul } from './arith.js';
import { domainError } from './errors.js';

/**
 * A nested tuple (docs/semantics.md §1): a positive integer, or a finite tuple of nested tuples.
 * @example const t: Tuple = [4, [9, 25]]; // (4,(9,25))
 */
export type Tuple = number | readonly Tuple[];
/** A profile: `*` for each entry, with the nesting of the tuple. */
export type Profile = '*' | readonly Profile[];

/**
 * Whether the nested tuple is an integer (depth 0).
 * @example isInt([4]) // false
 */
export const isInt = (t: Tuple): t is number => typeof t === 'number';

/** The entries (integers) of t, left to right. */
export function entries(t: Tuple): number[] {
  if (typeof t === 'number') return [t];
  const out: number[] = [];
  pushEntries(t, out);
  return out;
}

/** Append the entries of t to out (no closure, no intermediate arrays: this is hot). */
export function pushEntries(t: Tuple, out: number[]): void {
  if (typeof t === 'number') {
    out.push(t);
    return;
  }
  for (let i = 0; i < t.length; i++) {
    const u = t[i]!;
    if (typeof u === 'number') out.push(u);
    else pushEntries(u, out);
  }
}

/** rank: 1 for an integer, the number of top-level members for a tuple. */
/** Whether some entry of t is x (no array made). Example: hasEntry([4, [1, 8]], 1) is true. */
export function hasEntry(t: Tuple, x: number): boolean {
  if (typeof t === 'number') return t === x;
  for (let i = 0; i < t.length; i++) if (hasEntry(t[i]!, x)) return true;
  return false;
}

export const rank = (t: Tuple): number => (typeof t === 'number' ? 1 : t.length);

/** len: the number of entries. */
export const len = (t: Tuple): number => entries(t).length;

/** depth: 0 for an integer, 1 + the largest member depth for a tuple (depth(()) = 1). */
export function depth(t: Tuple): number {
  if (typeof t === 'number') return 0;
  let d = 0;
  for (const u of t) d = Math.max(d, depth(u));
  return 1 + d;
}

/** size: the product of the entries, checked against overflow. */
export function size(t: Tuple): number {
  if (typeof t === 'number') return t;
  let p = 1;
  for (const u of t) p = mul(p, size(u), 'size');
  return p;
}

/**
 * The profile of t: t with every integer replaced by `*` (docs/semantics.md §1).
 * @example profile([4, [9, 25]]) // ['*', ['*', '*']]
 */
export function profile(t: Tuple): Profile {
  return typeof t === 'number' ? '*' : t.map(profile);
}

/**
 * The number of `*` in a profile (the length of any tuple of that profile).
 * @example profileLength(['*', ['*', '*']]) // 3
 */
export function profileLength(p: Profile): number {
  if (p === '*') return 1;
  let n = 0;
  for (const q of p) n += profileLength(q);
  return n;
}

/** Two nested tuples are congruent when their profiles are equal. */
export function congruent(a: Tuple, b: Tuple): boolean {
  if (typeof a === 'number' || typeof b === 'number') return typeof a === typeof b;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (!congruent(a[i]!, b[i]!)) return false;
  return true;
}

/**
 * Whether two profiles are equal (same nesting, entry for entry).
 * @example profilesEqual(['*', '*'], '*') // false
 */
export function profilesEqual(a: Profile, b: Profile): boolean {
  if (a === '*' || b === '*') return a === b;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (!profilesEqual(a[i]!, b[i]!)) return false;
  return true;
}

/** X♭: the tuple of its entries. */
export const flatten = (t: Tuple): readonly number[] => entries(t);

/** Substitution (X1..Xk)_P: put Xi in place of the i-th `*` of P (Def. 2.2.1.8). */
export function substitute<T>(p: Profile, xs: readonly T[]): T | readonly unknown[] {
  if (profileLength(p) !== xs.length) {
    throw domainError(`substitution needs ${profileLength(p)} item(s) for the profile, got ${xs.length}`);
  }
  let i = 0;
  const go = (q: Profile): unknown => (q === '*' ? xs[i++] : q.map(go));
  return go(p) as T | readonly unknown[];
}

/** Substitution of nested tuples into a profile. */
export const substituteTuples = (p: Profile, xs: readonly Tuple[]): Tuple => substitute(p, xs) as Tuple;

/** size(s) when it is at most `bound`, else -1 (no overflow error: a size beyond any integer
 *  S̄ simply does not match it). */
function sizeUpTo(s: Tuple, bound: number): number {
  if (typeof s === 'number') return s <= bound ? s : -1;
  let p = 1;
  for (let i = 0; i < s.length; i++) {
    const q = sizeUpTo(s[i]!, bound);
    if (q < 0) return -1;
    p *= q;
    if (p > bound) return -1;
  }
  return p;
}

function modesRelative(s: Tuple, bar: Tuple, out: Tuple[]): boolean {
  if (typeof bar === 'number') {
    // docs/semantics.md §1: an integer S̄ has profile *, so X1 = S itself: every S of size S̄ refines it,
    // at any depth ((4), ((2,2)) and (((7,7))) refine 4, 4 and 49).
    if (sizeUpTo(s, bar) !== bar) return false;
    out.push(s);
    return true;
  }
  // A tuple S̄ needs a tuple S of the same length (4 does not refine the 1-tuple (4)).
  if (typeof s === 'number' || s.length !== bar.length) return false;
  for (let i = 0; i < s.length; i++) if (!modesRelative(s[i]!, bar[i]!, out)) return false;
  return true;
}

/** Whether S refines S̄ (docs/semantics.md §1): S = (X1..Xm)_{prof(S̄)} with size(Xi) = the i-th entry of S̄.
 *  Example: `refines([[7, 7]], 49)` and `refines([7, [4], 2], [7, 4, 2])` are true,
 *  `refines(4, [4])` is false. */
export function refines(s: Tuple, bar: Tuple): boolean {
  return modesRelative(s, bar, []);
}

/** The modes X1..Xm of S relative to S̄ (m = len(S̄)), or null when S does not refine S̄. */
export function relativeModes(s: Tuple, bar: Tuple): Tuple[] | null {
  const out: Tuple[] = [];
  return modesRelative(s, bar, out) ? out : null;
}

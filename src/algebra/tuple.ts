/**
 * Nested tuples (SPEC §1, paper §2.2): a positive integer or a finite tuple of nested tuples.
 * Values are immutable: functions here never mutate their arguments.
 */
import { mul } from './arith.js';
import { domainError } from './errors.js';

export type Tuple = number | readonly Tuple[];
/** A profile: `*` for each entry, with the nesting of the tuple. */
export type Profile = '*' | readonly Profile[];

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

export function profile(t: Tuple): Profile {
  return typeof t === 'number' ? '*' : t.map(profile);
}

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

function modesRelative(s: Tuple, bar: Tuple, out: Tuple[]): boolean {
  if (typeof bar === 'number') {
    // Refinement keeps the outer structure: an integer is refined by itself or by a tuple of
    // rank ≥ 2 of that size, never by a 1-tuple or the empty tuple (SPEC §1).
    if (typeof s === 'number') {
      if (s !== bar) return false;
    } else if (s.length < 2 || size(s) !== bar) return false;
    out.push(s);
    return true;
  }
  if (typeof s === 'number' || s.length !== bar.length) return false;
  for (let i = 0; i < s.length; i++) if (!modesRelative(s[i]!, bar[i]!, out)) return false;
  return true;
}

/** Whether S refines S̄ (SPEC §1). */
export function refines(s: Tuple, bar: Tuple): boolean {
  return modesRelative(s, bar, []);
}

/** The modes X1..Xm of S relative to S̄ (m = len(S̄)), or null when S does not refine S̄. */
export function relativeModes(s: Tuple, bar: Tuple): Tuple[] | null {
  const out: Tuple[] = [];
  return modesRelative(s, bar, out) ? out : null;
}

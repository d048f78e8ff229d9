/**
 * Composition B∘A (SPEC §5; paper Def. 2.3.7.1).
 *
 * B∘A is the unique layout C with (1) shape(C) refining shape(A), (2) C coalesced over
 * shape(A), (3) Φ_C(x) = Φ_B(Φ_A(x)) for every x < size(A). It needs cosize(A) ≤ size(B).
 *
 * The existence argument implemented here.
 *  Work on coal(B) = (b_1..b_n):(e_1..e_n) (same function, every b_j > 1, no mergeable
 *  neighbours). Write every y < size(B) in the mixed radix (b_1..b_n): Φ_B(y) = Σ_j y_j·e_j.
 *  For an entry s:d of A let f(t) = Φ_B(t·d), t < s.
 *  (a) Per entry. By (1)–(3), the relative mode of C over that entry is a layout of size s
 *      whose function is f, and it is coalesced, so it is coal of any layout with function f:
 *      C exists only if every f is a layout function, and then C's relative modes are forced.
 *      The coalesced form of a layout function is recovered greedily (next stride g = f(P),
 *      next shape the longest run f(q·P) = q·g), which is exact because coalesced neighbours
 *      never satisfy g_{i+1} = c_i·g_i; the recovered layout is then verified at every t.
 *      Fast path (CuTe's divisible case, made exact): divide d through b_1, b_2, … while b_j
 *      divides it, leaving d = b_1⋯b_{j−1}·r with b_j ∤ r. If r < b_j and s·r ≤ b_j, t·d never
 *      carries out of digit j and f = s : r·e_j, with no divisibility needed. If r | b_j with
 *      c = b_j/r dividing s, f walks digit j in steps of r (c values), then whole digits
 *      j+1, … while the remaining count is divisible by b_k, then a final partial digit:
 *      f = (c, b_{j+1}, …, s_last):(r·e_j, e_{j+1}, …, e_last). Anything else (for instance
 *      (4,3):(1,10) ∘ 2:3, refused by CuTe, which exists) is decided by evaluating f at every
 *      t < s.
 *  (b) Across entries. C is then determined, and it exists iff Φ_B(Σ_i t_i·d_i) = Σ_i f_i(t_i)
 *      for all coordinates (additivity). Each entry's values t·d have a largest digit M_ij in
 *      every position j (known in closed form on the fast path, measured otherwise). If
 *      Σ_i M_ij ≤ b_j − 1 for every j, adding the entries' digit vectors never carries, so
 *      Φ_B, linear in the digits, is additive: C exists (sufficient, and the common case).
 *      Carries do not imply failure (for B = (2,2,2):(1,3,5), A = (2,2):(1,3) two carries cancel
 *      and B∘A = (2,2):(1,4)), so otherwise additivity is decided by evaluating both sides at
 *      every coordinate of A's entries with s > 1 and d > 0 (the others contribute 0), stopping
 *      at the first x that fails, which the error names.
 *  CuTe's by-mode rule is wrong in both directions: (2,2):(1,10) ∘ (2,2):(1,1) has no composite
 *  (x = 3 fails additivity) although CuTe returns (2,2):(1,1).
 *      Only entries with a digit in the carry zone (the positions whose digit sums can reach
 *      b_j, closed upward under receiving a carry) take part: the other entries' digits never
 *      carry nor receive a carry, so Φ_B is additive on them whatever the zone does.
 *  Evaluation is lazy and bounded (ENTRY_LIMIT points per entry, ADDITIVITY_LIMIT points in
 *  all): a failure found within the bound is an answer; a question that needs more points and
 *  finds no failure within them is refused with an `overflow` error, never guessed.
 */
import { LayoutError } from './errors.js';
import { flat, type Layout } from './layout.js';
import { coalesceFlat, fromCoalescedFlat } from './coalesce.js';
import * as T from './tuple.js';

export const ENTRY_LIMIT = 1 << 24;
export const ADDITIVITY_LIMIT = 1 << 26;

/** f for one entry: its layout (flat, uncoalesced) and the largest digit it puts in each
 *  position of B's mixed radix. */
interface EntryMap {
  shapes: number[];
  strides: number[];
  /** pairs (digit position j, max digit) */
  digits: number[];
}

const notComposable = (msg: string): LayoutError => new LayoutError('not-composable', msg);

/** The fast path of (a): null when the divisible structure does not apply. */
function entryByDivision(s: number, d: number, bs: readonly number[], es: readonly number[]): EntryMap | null {
  const n = bs.length;
  let rem = d;
  let j = 0;
  while (j < n && rem % bs[j]! === 0) {
    rem /= bs[j]!;
    j++;
  }
  if (j >= n) return null;
  const bj = bs[j]!;
  if (rem >= bj) return null;
  if (s * rem <= bj) return { shapes: [s], strides: [rem * es[j]!], digits: [j, (s - 1) * rem] };
  if (bj % rem !== 0) return null;
  const c = bj / rem;
  if (s % c !== 0) return null;
  const shapes = [c];
  const strides = [rem * es[j]!];
  const digits = [j, bj - rem];
  let rest = s / c;
  for (let k = j + 1; rest > 1; k++) {
    if (k >= n) return null;
    const bk = bs[k]!;
    if (rest >= bk) {
      if (rest % bk !== 0) return null;
      shapes.push(bk);
      strides.push(es[k]!);
      digits.push(k, bk - 1);
      rest /= bk;
    } else {
      shapes.push(rest);
      strides.push(es[k]!);
      digits.push(k, rest - 1);
      rest = 1;
    }
  }
  return { shapes, strides, digits };
}

/** Φ of coal(B) at y < size(B), by its mixed-radix digits. */
function phiB(y: number, bs: readonly number[], es: readonly number[]): number {
  let off = 0;
  for (let j = 0; j < bs.length && y > 0; j++) {
    const b = bs[j]!;
    off += (y % b) * es[j]!;
    y = Math.floor(y / b);
  }
  return off;
}

/** Refusal when a question needs more evaluations than the limit (never a guess). */
function tooLarge(what: string, points: number, limit: number): LayoutError {
  return new LayoutError(
    'overflow',
    `deciding ${what} needs ${points} evaluations and none of the first ${limit} rules it out; refused above that limit`,
  );
}

/** The coalesced layout whose function is f on [0, s), or the first t where none can be
 *  (greedy recovery, exact: see the header). f is evaluated lazily, within `budget` points;
 *  a failure found within the budget is an answer, exhausting it is a refusal (null). */
export function recoverLayoutFunction(
  f: (t: number) => number,
  s: number,
  budget = Infinity,
): { shapes: number[]; strides: number[] } | { failsAt: number } | null {
  const shapes: number[] = [];
  const strides: number[] = [];
  let p = 1;
  let spent = 0;
  while (p < s) {
    const g = f(p);
    let q = 2;
    while (q * p < s && f(q * p) === q * g) {
      q++;
      if (++spent > budget) return null;
    }
    if (s % (q * p) !== 0) return { failsAt: Math.min(q * p, s - 1) };
    shapes.push(q);
    strides.push(g);
    p *= q;
  }
  // verify every point with an odometer
  const k = shapes.length;
  const coord = new Array<number>(k).fill(0);
  let off = 0;
  for (let t = 0; t < s; t++) {
    if (f(t) !== off) return { failsAt: t };
    if (++spent > budget) return null;
    for (let i = 0; i < k; i++) {
      if (++coord[i]! < shapes[i]!) {
        off += strides[i]!;
        break;
      }
      off -= (shapes[i]! - 1) * strides[i]!;
      coord[i] = 0;
    }
  }
  return { shapes, strides };
}

/** (a) by evaluation: f(t) = Φ_B(t·d) for t < s. */
function entryByEvaluation(
  s: number,
  d: number,
  index: number,
  bs: readonly number[],
  es: readonly number[],
): EntryMap {
  const rec = recoverLayoutFunction((t) => phiB(t * d, bs, es), s, ENTRY_LIMIT);
  if (rec === null) {
    throw tooLarge(`whether entry ${index} (${s}:${d}) of A maps to a layout function`, s, ENTRY_LIMIT);
  }
  if ('failsAt' in rec) {
    throw notComposable(
      `entry ${index} (${s}:${d}) of A: t -> Phi_B(t*${d}) is not a layout function (it fails at t = ${rec.failsAt})`,
    );
  }
  // the entry is a layout function on s ≤ ENTRY_LIMIT points: measure its largest digits
  const n = bs.length;
  const maxDigit = new Array<number>(n).fill(0);
  for (let t = 1; t < s; t++) {
    let y = t * d;
    for (let j = 0; j < n && y > 0; j++) {
      const b = bs[j]!;
      const digit = y % b;
      if (digit > maxDigit[j]!) maxDigit[j] = digit;
      y = Math.floor(y / b);
    }
  }
  const digits: number[] = [];
  for (let j = 0; j < n; j++) if (maxDigit[j]! > 0) digits.push(j, maxDigit[j]!);
  return { shapes: rec.shapes, strides: rec.strides, digits };
}

/** f of an entry at t, from its layout. */
function entryValue(m: EntryMap, t: number): number {
  let off = 0;
  for (let i = 0; i < m.shapes.length && t > 0; i++) {
    const c = m.shapes[i]!;
    off += (t % c) * m.strides[i]!;
    t = Math.floor(t / c);
  }
  return off;
}

/** The digit positions that can take part in a carry: those whose digit sum can reach b_j,
 *  and every position a carry can land in (closed upward; carries may exceed 1). */
function carryZone(digitSum: readonly number[], bs: readonly number[]): boolean[] {
  const zone = new Array<boolean>(bs.length).fill(false);
  let carry = 0;
  for (let j = 0; j < bs.length; j++) {
    const total = digitSum[j]! + carry;
    zone[j] = carry > 0 || total >= bs[j]!;
    carry = Math.floor(total / bs[j]!);
  }
  return zone;
}

/** (b) by evaluation: the first x < size(A) where additivity fails, or -1. Only the entries
 *  with a digit in the carry zone take part: the others' digits never carry and never receive
 *  a carry, so Φ_B is additive on them (see the header). */
function firstNonAdditive(
  sa: readonly number[],
  maps: readonly (EntryMap | null)[],
  da: readonly number[],
  digitSum: readonly number[],
  bs: readonly number[],
  es: readonly number[],
): number {
  const zone = carryZone(digitSum, bs);
  const live: number[] = [];
  let total = 1;
  for (let i = 0; i < sa.length; i++) {
    const m = maps[i];
    if (!m) continue;
    let touches = false;
    for (let k = 0; k < m.digits.length; k += 2) if (zone[m.digits[k]!]) touches = true;
    if (touches) {
      live.push(i);
      total *= sa[i]!;
    }
  }
  const k = live.length;
  const shapes = live.map((i) => sa[i]!);
  const strides = live.map((i) => da[i]!);
  const entryMaps = live.map((i) => maps[i]!);
  const indexStride: number[] = [];
  let acc = 1;
  for (let i = 0, li = 0; i < sa.length; i++) {
    if (li < k && live[li] === i) {
      indexStride.push(acc);
      li++;
    }
    acc *= sa[i]!;
  }
  const coord = new Array<number>(k).fill(0);
  const fval = new Array<number>(k).fill(0);
  let y = 0;
  let f = 0;
  const steps = Math.min(total, ADDITIVITY_LIMIT);
  for (let step = 0; step < steps; step++) {
    if (phiB(y, bs, es) !== f) {
      let x = 0;
      for (let i = 0; i < k; i++) x += coord[i]! * indexStride[i]!;
      return x;
    }
    for (let i = 0; i < k; i++) {
      const c = coord[i]!;
      if (c + 1 < shapes[i]!) {
        coord[i] = c + 1;
        y += strides[i]!;
        const v = entryValue(entryMaps[i]!, c + 1);
        f += v - fval[i]!;
        fval[i] = v;
        break;
      }
      y -= c * strides[i]!;
      f -= fval[i]!;
      fval[i] = 0;
      coord[i] = 0;
    }
  }
  if (total > ADDITIVITY_LIMIT) throw tooLarge('additivity of Phi_B o Phi_A', total, ADDITIVITY_LIMIT);
  return -1;
}

/** B∘A (Def. 2.3.7.1): the composite, or a `not-composable` error naming the entry (or the x)
 *  that rules it out. Argument order: outer first, as in CuTe's composition(B, A). */
export function compose(b: Layout, a: Layout): Layout {
  const { shapes: sa, strides: da } = flat(a);
  const fb = flat(b);
  let ca = 1;
  for (let i = 0; i < sa.length; i++) ca += (sa[i]! - 1) * da[i]!; // exact: A is a valid layout
  let sb = 1;
  for (let i = 0; i < fb.shapes.length; i++) sb *= fb.shapes[i]!; // exact: B is a valid layout
  if (ca > sb) {
    throw notComposable(`cosize(A) = ${ca} exceeds size(B) = ${sb}: Phi_B is defined only below size(B)`);
  }
  const cb = coalesceFlat(fb.shapes, fb.strides);
  const bs = cb.shapes;
  const es = cb.strides;
  const m = sa.length;
  const maps: (EntryMap | null)[] = new Array(m);
  const digitSum = new Array<number>(bs.length).fill(0);
  let carries = false;
  for (let i = 0; i < m; i++) {
    const s = sa[i]!;
    const d = da[i]!;
    if (s === 1 || d === 0) {
      maps[i] = null;
      continue;
    }
    const em = entryByDivision(s, d, bs, es) ?? entryByEvaluation(s, d, i + 1, bs, es);
    maps[i] = em;
    const dg = em.digits;
    for (let k = 0; k < dg.length; k += 2) {
      const j = dg[k]!;
      const sum = digitSum[j]! + dg[k + 1]!;
      digitSum[j] = sum;
      if (sum >= bs[j]!) carries = true;
    }
  }
  if (carries) {
    const x = firstNonAdditive(sa, maps, da, digitSum, bs, es);
    if (x >= 0) throw notComposable(`Phi_B o Phi_A is not additive over the entries of A (x = ${x})`);
  }
  const relModes: Layout[] = new Array(m);
  for (let i = 0; i < m; i++) {
    const em = maps[i];
    const s = sa[i]!;
    relModes[i] = em ? fromCoalescedFlat(coalesceFlat(em.shapes, em.strides)) : { shape: s, stride: 0 };
  }
  return substituteModes(a.shape, relModes);
}

/** The layout with A's nesting whose i-th entry is replaced by the layout ms[i]
 *  (the substitution into prof(A) of Def. 2.3.2.12, in one walk). */
export function substituteModes(shape: T.Tuple, ms: readonly Layout[]): Layout {
  if (typeof shape === 'number') return ms[0]!;
  let k = 0;
  const strideOut: T.Tuple[] = [];
  const walk = (t: readonly T.Tuple[], out: T.Tuple[]): T.Tuple[] => {
    const res: T.Tuple[] = new Array(t.length);
    for (let i = 0; i < t.length; i++) {
      const u = t[i]!;
      if (typeof u === 'number') {
        const mi = ms[k++]!;
        res[i] = mi.shape;
        out[i] = mi.stride;
      } else {
        const sub: T.Tuple[] = new Array(u.length);
        res[i] = walk(u, sub);
        out[i] = sub;
      }
    }
    return res;
  };
  const shapeOut = walk(shape, strideOut);
  return { shape: shapeOut, stride: strideOut };
}

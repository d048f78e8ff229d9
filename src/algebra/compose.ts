/**
 * Composition B∘A (docs/semantics.md §5; paper Def. 2.3.7.1).
 *
 * B∘A is the unique layout C with (1) shape(C) refining shape(A), (2) C coalesced over
 * shape(A), (3) Φ_C(x) = Φ_B(Φ_A(x)) for every x < size(A). It needs cosize(A) ≤ size(B).
 *
 * The existence argument implemented here.
 *  Work on coal(B) = (b_1..b_n):(e_1..e_n) (same function, every b_j > 1, no mergeable
 *  neighbours). Write every y < size(B) in the mixed radix (b_1..b_n): Φ_B(y) = Σ_j y_j·e_j,
 *  and let P_j = b_1⋯b_j. For an entry s:d of A let f(t) = Φ_B(t·d), t < s.
 *  (a) Per entry. By (1)–(3), the relative mode of C over that entry is a layout of size s
 *      whose function is f, and it is coalesced, so it is coal of any layout with function f:
 *      C exists only if every f is a layout function, and then C's relative modes are forced.
 *      f is decided by the first of these that applies; each proves what it answers.
 *      - Division (CuTe's divisible case, made exact): divide d through b_1, b_2, … while b_j
 *        divides it, leaving d = P_{j−1}·r with b_j ∤ r. If r < b_j and s·r ≤ b_j, t·d never
 *        carries out of digit j and f = s : r·e_j, with no divisibility needed. If r | b_j with
 *        c = b_j/r dividing s, f walks digit j in steps of r (c values), then whole digits
 *        j+1, … while the remaining count is divisible by b_k, then a final partial digit:
 *        f = (c, b_{j+1}, …, s_last):(r·e_j, e_{j+1}, …, e_last).
 *      - Split (large entries, decided without evaluating them): t·d mod P_j has period
 *        m = P_j / gcd(d, P_j). When m | s, write t = m·u + r (r < m): t·d = u·(m·d) + r·d,
 *        and m·d is a multiple of P_j. If the largest digits of u·(m·d) (u < s/m: the entry
 *        (s/m):(m·d), decided recursively) and of r·d (r < m, evaluated) add up to at most
 *        b_k − 1 in every position k, the two never carry into each other, so
 *        f(m·u + r) = f(r) + Φ_B(u·m·d): f is the layout (f on [0, m), the recursive entry).
 *        (Example: (2,2^30):(1,5) ∘ 2^25:3 = (2,2^24):(6,15), from m = 2.)
 *      - Evaluation, otherwise (for instance (4,3):(1,10) ∘ 2:3, refused by CuTe, which
 *        exists): the coalesced form of a layout function is recovered greedily (next stride
 *        g = f(P), next shape the longest run f(q·P) = q·g), which is exact because coalesced
 *        neighbours never satisfy g_{i+1} = c_i·g_i; the recovered layout is then verified at
 *        every t. A run is skipped structurally while q·(P·d) carries in no digit (then
 *        f(q·P) = q·g exactly), so a failure at the end of a long run costs few evaluations.
 *  (b) Across entries. C is then determined, and it exists iff Φ_B(Σ_i t_i·d_i) = Σ_i f_i(t_i)
 *      for all coordinates (additivity). Each entry's values t·d have a largest digit M_ij in
 *      every position j (known in closed form on the division and split paths, measured on
 *      the evaluated ones). If Σ_i M_ij ≤ b_j − 1 for every j, adding the entries' digit
 *      vectors never carries, so Φ_B, linear in the digits, is additive: C exists
 *      (sufficient, and the common case).
 *      Carries do not imply failure (for B = (2,2,2):(1,3,5), A = (2,2):(1,3) two carries cancel
 *      and B∘A = (2,2):(1,4)), so otherwise additivity is decided by evaluation, stopping at the
 *      first x that fails, which the error names.
 *      Only entries with a digit in a carrying position take part: bound the carry into each
 *      position j from below (c_1 = 0, c_{j+1} = ⌊(Σ_i M_ij + c_j)/b_j⌋); j carries when
 *      Σ_i M_ij + c_j ≥ b_j. In any other position the digits of a partial sum of the entries'
 *      values are their digits plus the carry in, below b_j, so an entry whose digits all lie
 *      in such positions adds f_i(t_i) to Φ_B of whatever the others sum to: it can be left at
 *      0 (the carry it receives goes nowhere, so a large entry above the carries is decided
 *      without enumerating it).
 *      Independent groups are decided separately: join two positions when one live entry puts
      digits in both, and a carrying position to the next (its carry lands there). No carry
      enters or leaves a class of joined positions (the position below it and its last one do
      not carry), so the partial sum of a group's values has its digits in the group's class
      only, Φ_B of the whole sum is the sum of Φ_B over the groups (linear in disjoint digits),
      and additivity holds iff it holds in every group with the other entries at 0 (a failure
      there is a failure of A). The work is the sum of the groups' sizes, not their product
      (17 blocks of (2,2):(1,3)·8^k into (2,2,2):(1,3,5)·8^k: 17 questions of 4 points).
      Cheap witnesses come first: every pair of entries at a few telling coordinates each
 *      (1, the last, and the corners of the entry's own layout, where its digits peak), and
 *      the running maxima of the entries; then every coordinate, in order.
 *  CuTe's by-mode rule is wrong in both directions: (2,2):(1,10) ∘ (2,2):(1,1) has no composite
 *  (x = 3 fails additivity) although CuTe returns (2,2):(1,1).
 *  Evaluation is bounded (ENTRY_LIMIT points per entry, ADDITIVITY_LIMIT points in all): a
 *  failure found within the bound is an answer; a question that needs more points and finds
 *  no failure within them is refused with an error that names the bound (kind `overflow`,
 *  the protocol's kind for work beyond a documented limit), never guessed. Long loops honour
 *  the request's deadline (deadline.ts).
 */
import { gcd } from './arith.js';
import { checkDeadline } from './deadline.js';
import { LayoutError, notComposableError } from './errors.js';
import { flat, type Layout } from './layout.js';
import { coalesceFlat, coalesceNested } from './coalesce.js';
import type * as T from './tuple.js';

/** Evaluation bound for one entry of A (points of t ↦ Φ_B(t·d)). */
export const ENTRY_LIMIT = 1 << 24;
/** Evaluation bound for the additivity of Φ_B∘Φ_A across A's entries. */
export const ADDITIVITY_LIMIT = 1 << 26;
/** The split path evaluates f on the period m of the low digits: at most this many points. */
const SPLIT_LOW_LIMIT = 1 << 16;
/** Additivity questions of at most this many points are enumerated at once (no probes). */
const ENUMERATE_AT_ONCE = 1 << 10;
/** The cheap witnesses of additivity are tried at most this many times before enumeration. */
const PROBE_LIMIT = 1 << 20;
/** Loops check the deadline every this many steps (a power of two, minus one, as a mask). */
const DEADLINE_MASK = (1 << 14) - 1;

/** f for one entry: its layout (flat, not necessarily coalesced) and the largest digit it
 *  puts in each position of B's mixed radix. */
interface EntryMap {
  shapes: number[];
  strides: number[];
  /** pairs (digit position j, max digit), positions distinct */
  digits: number[];
}

/** Refusal when a question needs more evaluations than the bound (never a guess). */
function beyondBound(what: string, points: number, bound: number): LayoutError {
  return new LayoutError(
    'overflow',
    `deciding ${what} needs ${points} evaluations, beyond the composition's evaluation bound of ${bound} (2^${Math.log2(bound)}), and none of the first ${bound} rules it out`,
  );
}

/** The division path of (a): null when the divisible structure does not apply. */
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
    const q = Math.floor(y / b);
    off += (y - q * b) * es[j]!;
    y = q;
  }
  return off;
}

/** Raise maxDigit[j] to the digits of y (y < size(B)). */
function raiseDigits(y: number, bs: readonly number[], maxDigit: number[]): void {
  for (let j = 0; j < bs.length && y > 0; j++) {
    const b = bs[j]!;
    const q = Math.floor(y / b);
    const digit = y - q * b;
    if (digit > maxDigit[j]!) maxDigit[j] = digit;
    y = q;
  }
}

/** The largest digits of t·d over 0 < t < s, as (position, digit) pairs; s·d-ish points. */
function measuredDigits(s: number, d: number, bs: readonly number[]): number[] {
  const maxDigit = new Array<number>(bs.length).fill(0);
  for (let t = 1; t < s; t++) {
    if ((t & DEADLINE_MASK) === 0) checkDeadline('composition');
    raiseDigits(t * d, bs, maxDigit);
  }
  return digitPairs(maxDigit);
}

function digitPairs(maxDigit: readonly number[]): number[] {
  const out: number[] = [];
  for (let j = 0; j < maxDigit.length; j++) if (maxDigit[j]! > 0) out.push(j, maxDigit[j]!);
  return out;
}

/** The q < qEnd from which q·D may carry in some digit of B: below it q·D's digits are q
 *  times D's (so Φ_B(q·D) = q·Φ_B(D) exactly). At least 2. */
function noCarryRun(dd: number, bs: readonly number[]): number {
  let run = Number.MAX_SAFE_INTEGER;
  for (let j = 0; j < bs.length && dd > 0; j++) {
    const b = bs[j]!;
    const q = Math.floor(dd / b);
    const digit = dd - q * b;
    if (digit > 0) run = Math.min(run, Math.floor((b - 1) / digit) + 1);
    dd = q;
  }
  return Math.max(run, 2);
}

/** Greedy recovery of the coalesced layout whose function is t ↦ Φ_B(t·d) on [0, s), or the
 *  first t where none can be (exact: see the header). Evaluation is lazy, within `budget`
 *  points; a failure found within the budget is an answer, exhausting it is a refusal (null). */
function recoverEntry(
  s: number,
  d: number,
  bs: readonly number[],
  es: readonly number[],
  budget: number,
): { shapes: number[]; strides: number[] } | { failsAt: number } | null {
  const shapes: number[] = [];
  const strides: number[] = [];
  let p = 1;
  let spent = 0;
  while (p < s) {
    const g = phiB(p * d, bs, es);
    // f(q·p) = q·g holds without evaluation while q·(p·d) carries in no digit of B
    let q = Math.min(noCarryRun(p * d, bs), Math.ceil(s / p));
    while (q * p < s && phiB(q * p * d, bs, es) === q * g) {
      q++;
      if (++spent > budget) return null;
      if ((spent & DEADLINE_MASK) === 0) checkDeadline('composition');
    }
    if (s % (q * p) !== 0) return { failsAt: Math.min(q * p, s - 1) };
    shapes.push(q);
    strides.push(g);
    p *= q;
  }
  // verify every point with an odometer
  if (s > budget) return null;
  const k = shapes.length;
  const coord = new Array<number>(k).fill(0);
  let off = 0;
  for (let t = 0; t < s; t++) {
    if (phiB(t * d, bs, es) !== off) return { failsAt: t };
    if ((t & DEADLINE_MASK) === 0) checkDeadline('composition');
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

/** The split path of (a): f(m·u + r) = f(r) + Φ_B(u·m·d) when the two parts never carry into
 *  each other (see the header). null when no split applies. */
function entryBySplit(s: number, d: number, bs: readonly number[], es: readonly number[]): EntryMap | null {
  let p = 1;
  for (let j = 0; j < bs.length; j++) {
    p *= bs[j]!; // P_j ≤ size(B) ≤ 2^53 − 1: exact
    const m = p / gcd(d, p); // the period of t·d mod P_j, non-decreasing in j
    if (m >= s || m > SPLIT_LOW_LIMIT) return null;
    if (m === 1 || s % m !== 0) continue;
    const low = recoverEntry(m, d, bs, es, SPLIT_LOW_LIMIT);
    if (low === null || 'failsAt' in low) return null; // evaluation decides (and names the t)
    const high = entryStructural(s / m, m * d, bs, es);
    if (high === null) continue;
    const maxDigit = new Array<number>(bs.length).fill(0);
    for (let r = 1; r < m; r++) raiseDigits(r * d, bs, maxDigit);
    const hd = high.digits;
    let carries = false;
    for (let k = 0; k < hd.length; k += 2) {
      const sum = maxDigit[hd[k]!]! + hd[k + 1]!;
      if (sum >= bs[hd[k]!]!) carries = true;
      maxDigit[hd[k]!] = sum;
    }
    if (carries) continue;
    return {
      shapes: low.shapes.concat(high.shapes),
      strides: low.strides.concat(high.strides),
      digits: digitPairs(maxDigit),
    };
  }
  return null;
}

/** (a) without evaluating the whole entry: the division path, then the split path. */
function entryStructural(s: number, d: number, bs: readonly number[], es: readonly number[]): EntryMap | null {
  return entryByDivision(s, d, bs, es) ?? entryBySplit(s, d, bs, es);
}

/** (a) for entry `index` (1-based) of A: its map, or the not-composable / bound error. */
function entryMap(s: number, d: number, index: number, bs: readonly number[], es: readonly number[]): EntryMap {
  const structural = entryStructural(s, d, bs, es);
  if (structural !== null) return structural;
  const rec = recoverEntry(s, d, bs, es, ENTRY_LIMIT);
  if (rec === null) {
    throw beyondBound(`whether entry ${index} (${s}:${d}) of A maps to a layout function`, s, ENTRY_LIMIT);
  }
  if ('failsAt' in rec) {
    throw notComposableError(`entry ${index} (${s}:${d}) of A: t -> Phi_B(t*${d}) is not a layout function (it fails at t = ${rec.failsAt})`);
  }
  return { shapes: rec.shapes, strides: rec.strides, digits: measuredDigits(s, d, bs) };
}

/** f of an entry at t, from its layout. */
function entryValue(m: EntryMap, t: number): number {
  let off = 0;
  const cs = m.shapes;
  for (let i = 0; i < cs.length && t > 0; i++) {
    const c = cs[i]!;
    const q = Math.floor(t / c);
    off += (t - q * c) * m.strides[i]!;
    t = q;
  }
  return off;
}

/** The positions that can carry (see the header): digit sum plus the largest carry in
 *  reaches b_j. */
function carryingPositions(digitSum: readonly number[], bs: readonly number[]): boolean[] {
  const carrying = new Array<boolean>(bs.length).fill(false);
  let carry = 0;
  for (let j = 0; j < bs.length; j++) {
    const total = digitSum[j]! + carry;
    carrying[j] = total >= bs[j]!;
    carry = Math.floor(total / bs[j]!);
  }
  return carrying;
}

/** The entries of A that take part in additivity (b), with what the search needs. */
interface Live {
  shapes: number[];
  strides: number[];
  maps: EntryMap[];
  /** the index stride of each live entry in A's colexicographic order */
  indexStrides: number[];
  total: number;
}

function liveEntries(sa: readonly number[], da: readonly number[], maps: readonly (EntryMap | null)[], carrying: readonly boolean[]): Live {
  const live: Live = { shapes: [], strides: [], maps: [], indexStrides: [], total: 1 };
  let acc = 1;
  for (let i = 0; i < sa.length; i++) {
    const m = maps[i];
    let touches = false;
    if (m) for (let k = 0; k < m.digits.length; k += 2) if (carrying[m.digits[k]!]) touches = true;
    if (touches) {
      live.shapes.push(sa[i]!);
      live.strides.push(da[i]!);
      live.maps.push(m!);
      live.indexStrides.push(acc);
      live.total *= sa[i]!;
    }
    acc *= sa[i]!;
  }
  return live;
}

/** Telling coordinates of a live entry: 1, its last, and the corners of its own layout
 *  (c_1⋯c_i, c_1⋯c_i − 1, (c_i − 1)·c_1⋯c_(i−1): where its digits peak). */
function probePoints(s: number, m: EntryMap): number[] {
  const out: number[] = [];
  const add = (t: number): void => {
    if (t >= 1 && t < s && !out.includes(t)) out.push(t);
  };
  add(1);
  add(s - 1);
  let p = 1;
  for (let i = 0; i < m.shapes.length; i++) {
    const c = m.shapes[i]!;
    add((c - 1) * p);
    p *= c;
    add(p);
    add(p - 1);
  }
  return out;
}

/** Additivity at one point of the live entries (coordinates t, others 0): true when it holds. */
function additiveAt(live: Live, t: readonly number[], bs: readonly number[], es: readonly number[]): boolean {
  let y = 0;
  let f = 0;
  for (let i = 0; i < t.length; i++) {
    if (t[i] === 0) continue;
    y += t[i]! * live.strides[i]!;
    f += entryValue(live.maps[i]!, t[i]!);
  }
  return phiB(y, bs, es) === f;
}

const indexOf = (live: Live, t: readonly number[]): number => {
  let x = 0;
  for (let i = 0; i < t.length; i++) x += t[i]! * live.indexStrides[i]!;
  return x;
};

/** The cheap witnesses of (b): pairs of live entries at their probe points (at most
 *  PROBE_LIMIT of them), then the running maxima; the x of the first failure, or -1. */
function probeAdditivity(live: Live, bs: readonly number[], es: readonly number[]): number {
  const k = live.shapes.length;
  const points = live.maps.map((m, i) => probePoints(live.shapes[i]!, m));
  const t = new Array<number>(k).fill(0);
  let steps = 0;
  for (let i = 0; i < k; i++) {
    for (let j = i + 1; j < k; j++) {
      for (const ti of points[i]!) {
        t[i] = ti;
        for (const tj of points[j]!) {
          t[j] = tj;
          if (!additiveAt(live, t, bs, es)) return indexOf(live, t);
          if ((++steps & DEADLINE_MASK) === 0) checkDeadline('composition');
          if (steps > PROBE_LIMIT) return -1;
        }
        t[j] = 0;
      }
      t[i] = 0;
    }
  }
  for (let i = 0; i < k; i++) {
    t[i] = live.shapes[i]! - 1;
    if (!additiveAt(live, t, bs, es)) return indexOf(live, t);
  }
  return -1;
}

/** Every coordinate of the live entries, in order (an odometer): the first failing x, or -1
 *  when none fails; a refusal naming the bound past ADDITIVITY_LIMIT points. */
function enumerateAdditivity(live: Live, bs: readonly number[], es: readonly number[]): number {
  const k = live.shapes.length;
  const { shapes, strides, maps } = live;
  const coord = new Array<number>(k).fill(0);
  const fval = new Array<number>(k).fill(0);
  let y = 0;
  let f = 0;
  const steps = Math.min(live.total, ADDITIVITY_LIMIT);
  for (let step = 0; step < steps; step++) {
    if (phiB(y, bs, es) !== f) return indexOf(live, coord);
    if ((step & DEADLINE_MASK) === DEADLINE_MASK) checkDeadline('composition');
    for (let i = 0; i < k; i++) {
      const c = coord[i]!;
      if (c + 1 < shapes[i]!) {
        coord[i] = c + 1;
        y += strides[i]!;
        const v = entryValue(maps[i]!, c + 1);
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
  if (live.total > ADDITIVITY_LIMIT) {
    throw beyondBound('the additivity of Phi_B o Phi_A over the entries of A', live.total, ADDITIVITY_LIMIT);
  }
  return -1;
}

/**
 * The live entries in independent groups (see the header): positions are joined when one live
 * entry puts digits in both, and a carrying position is joined to the next (its carry goes
 * there); a group is the live entries of one class of positions. No carry leaves a class (its
 * last position does not carry) or enters it, so additivity holds iff it holds in every group,
 * the others at 0. Each group keeps its entries' index strides in A (for the x it names).
 */
function independentGroups(live: Live, carrying: readonly boolean[]): Live[] {
  const parent = carrying.map((_, j) => j);
  const find = (j: number): number => {
    while (parent[j] !== j) {
      parent[j] = parent[parent[j]!]!;
      j = parent[j]!;
    }
    return j;
  };
  const join = (a: number, b: number): void => {
    const ra = find(a);
    const rb = find(b);
    if (ra !== rb) parent[Math.max(ra, rb)] = Math.min(ra, rb);
  };
  for (let j = 0; j + 1 < carrying.length; j++) if (carrying[j]) join(j, j + 1);
  for (const m of live.maps) for (let k = 2; k < m.digits.length; k += 2) join(m.digits[0]!, m.digits[k]!);
  const byRoot = new Map<number, Live>();
  live.maps.forEach((m, i) => {
    const root = find(m.digits[0]!);
    let g = byRoot.get(root);
    if (!g) byRoot.set(root, (g = { shapes: [], strides: [], maps: [], indexStrides: [], total: 1 }));
    g.shapes.push(live.shapes[i]!);
    g.strides.push(live.strides[i]!);
    g.maps.push(m);
    g.indexStrides.push(live.indexStrides[i]!);
    g.total *= live.shapes[i]!;
  });
  return [...byRoot.values()];
}

/** (b): the first x < size(A) found where additivity fails (group by group), or -1. */
function nonAdditiveAt(
  sa: readonly number[],
  da: readonly number[],
  maps: readonly (EntryMap | null)[],
  digitSum: readonly number[],
  bs: readonly number[],
  es: readonly number[],
): number {
  const carrying = carryingPositions(digitSum, bs);
  const live = liveEntries(sa, da, maps, carrying);
  // a live set small enough to enumerate at once is decided at once (the common case: no union-find on the hot
  // path); a larger one group by group, where the work is the sum of the groups' sizes
  // a live set small enough is decided at once (grouping would cost more than it saves)
  if (live.total <= ENUMERATE_AT_ONCE) return enumerateAdditivity(live, bs, es);
  for (const group of independentGroups(live, carrying)) {
    if (group.total > ENUMERATE_AT_ONCE) {
      const x = probeAdditivity(group, bs, es);
      if (x >= 0) return x;
    }
    const x = enumerateAdditivity(group, bs, es);
    if (x >= 0) return x;
  }
  return -1;
}

/** B∘A (Def. 2.3.7.1): the composite, or a `not-composable` error naming the entry (or the x)
 *  that rules it out; `overflow` naming the evaluation bound where a question is beyond it.
 *  Argument order: outer first, as in CuTe's composition(B, A).
 *  Example: compose((100):(7), (3,5):(10,2)) = (3,5):(70,14). */
export function compose(b: Layout, a: Layout): Layout {
  const cb = coalesceNested(b.shape, b.stride);
  const fa = flat(a);
  return composeEntries(cb.shapes, cb.strides, a.shape, fa.shapes, fa.strides);
}

/** B∘A (Def. 2.3.7.1) from coal(B) = (bs):(es) and A given as its shape (for the nesting)
 *  with its flattening (sa):(da); the errors of `compose`. For callers that already hold
 *  these (division and product build their operands flat). */
export function composeEntries(bs: readonly number[], es: readonly number[], aShape: T.Tuple, sa: readonly number[], da: readonly number[]): Layout {
  const m = sa.length;
  let ca = 1;
  for (let i = 0; i < m; i++) ca += (sa[i]! - 1) * da[i]!; // exact: A is a valid layout
  let sb = 1;
  for (let j = 0; j < bs.length; j++) sb *= bs[j]!; // exact: B is a valid layout
  if (ca > sb) {
    throw notComposableError(`cosize(A) = ${ca} exceeds size(B) = ${sb}: Phi_B is defined only below size(B)`);
  }
  // the relative modes: each entry's coalesced layout (s:0 for a stride 0, 1:0 for a shape 1)
  const shapes: T.Tuple[] = new Array(m);
  const strides: T.Tuple[] = new Array(m);
  const n = bs.length;
  const digitSum = new Array<number>(n).fill(0);
  let carries = false;
  let maps: (EntryMap | null)[] | null = null; // the entries off the one-digit path
  for (let i = 0; i < m; i++) {
    const s = sa[i]!;
    const d = da[i]!;
    if (s === 1 || d === 0) {
      shapes[i] = s;
      strides[i] = 0;
      continue;
    }
    // the division path's one-digit case, inline (the common one): d = P_{j−1}·r, s·r ≤ b_j
    let r = d;
    let j = 0;
    while (j < n && r % bs[j]! === 0) {
      r /= bs[j]!;
      j++;
    }
    if (j < n && s * r <= bs[j]!) {
      shapes[i] = s;
      strides[i] = r * es[j]!;
      const sum = digitSum[j]! + (s - 1) * r;
      digitSum[j] = sum;
      if (sum >= bs[j]!) carries = true;
      continue;
    }
    const em = entryMap(s, d, i + 1, bs, es);
    (maps ??= new Array<EntryMap | null>(m).fill(null))[i] = em;
    const dg = em.digits;
    for (let k = 0; k < dg.length; k += 2) {
      const jj = dg[k]!;
      const sum = digitSum[jj]! + dg[k + 1]!;
      digitSum[jj] = sum;
      if (sum >= bs[jj]!) carries = true;
    }
    const c = em.shapes.length === 1 ? em : coalesceFlat(em.shapes, em.strides);
    if (c.shapes.length === 1) {
      shapes[i] = c.shapes[0]!;
      strides[i] = c.strides[0]!;
    } else {
      shapes[i] = c.shapes;
      strides[i] = c.strides;
    }
  }
  if (carries) {
    // the additivity search reads every entry's map: make the one-digit ones too
    const all = new Array<EntryMap | null>(m);
    for (let i = 0; i < m; i++) {
      const s = sa[i]!;
      const d = da[i]!;
      all[i] = s === 1 || d === 0 ? null : (maps?.[i] ?? entryByDivision(s, d, bs, es));
    }
    const x = nonAdditiveAt(sa, da, all, digitSum, bs, es);
    if (x >= 0) throw notComposableError(`Phi_B o Phi_A is not additive over the entries of A (x = ${x})`);
  }
  if (typeof aShape === 'number') return { shape: shapes[0]!, stride: strides[0]! };
  if (isFlatTuple(aShape)) return { shape: shapes, stride: strides };
  const strideOut: T.Tuple[] = new Array(aShape.length);
  const cursor = [0];
  const shapeOut = substituteEntries(aShape, shapes, strides, cursor, strideOut);
  return { shape: shapeOut, stride: strideOut };
}

/** Every member of t is an integer (depth 1, or the empty tuple). */
function isFlatTuple(t: readonly T.Tuple[]): boolean {
  for (let i = 0; i < t.length; i++) if (typeof t[i] !== 'number') return false;
  return true;
}

/** A's nesting with its entries, in order, replaced by the relative modes (shapes[k],
 *  strides[k]) (the substitution into prof(A) of Def. 2.3.2.12, in one walk); writes the
 *  stride tree into strideOut and returns the shape tree. */
function substituteEntries(t: readonly T.Tuple[], shapes: readonly T.Tuple[], strides: readonly T.Tuple[], cursor: number[], strideOut: T.Tuple[]): T.Tuple[] {
  const res: T.Tuple[] = new Array(t.length);
  for (let i = 0; i < t.length; i++) {
    const u = t[i]!;
    if (typeof u === 'number') {
      const k = cursor[0]!++;
      res[i] = shapes[k]!;
      strideOut[i] = strides[k]!;
    } else {
      const sub: T.Tuple[] = new Array(u.length);
      res[i] = substituteEntries(u, shapes, strides, cursor, sub);
      strideOut[i] = sub;
    }
  }
  return res;
}

/**
 * The planner's `linear` family (docs/planner.md, "Families and their counts", "The linear family's
 * search"): F2-linear bijections of a power-of-two tile's n index bits onto its n offset bits, each
 * offset bit the XOR of one or two index bits. With b = min(n, log2(128/e)) (one row of 32 banks of
 * 4 bytes, the bank row of Triton's construction), a member is
 *
 * - a set S of n − b segment bits (index bits), the rest L the own bits of the bank-row group;
 * - offset bits 0 … b−1: offset bit j = x[a_j] ⊕ (x[c_j] or nothing), a_0 … a_{b−1} an order of L,
 *   the partners c_j distinct bits of S;
 * - offset bits b … n−1: the bits of S in some order (σ).
 *
 * Distinct parameters are distinct functions, so |family| = n!·Σ_k C(b,k)·C(n−b,k)·k!. It is
 * enumerated in lexicographic order of (S, (a_0, c_0), …, (a_{b−1}, c_{b−1}), σ), searched by branch
 * and bound over that order with the proved bounds of `sideBound`; a permutation of the offset
 * bits at or above the machine's bank row changes no price (`bankTopBits`), so the members that
 * differ only there are priced once.
 */
import { checkDeadline } from '../algebra/deadline.js';
import { LayoutError } from '../algebra/errors.js';
import { threadsPerPhase, WARP } from '../memory/banks.js';
import { phaseGroups } from '../memory/machines.js';
import { formatLL } from '../linear/forms.js';
import type { Candidate, Tile } from './families.js';
import { tableKey } from './families.js';
import type { Machine } from './machine.js';
import type { AccessPattern, SidePrice } from './price.js';
import type { Side } from './sides.js';
import { sharedLL } from './triton.js';
import { linearPatternBound, linearPatternOf, linearSidePrice, PatternTrack, type LinearPattern, type PartialMember } from './linear-price.js';

const log2 = (x: number): number => 31 - Math.clz32(x);
const isPow2 = (x: number): boolean => x >= 1 && (x & (x - 1)) === 0;

/** The bank-row bits b of the family over the tile: min(n, log2(128 / e)). */
export const linearBankBits = (tile: Tile): number => Math.min(log2(tile.size), log2(128 / tile.e));

const fact = (k: number): bigint => (k <= 1 ? 1n : BigInt(k) * fact(k - 1));
const choose = (n: number, k: number): bigint => (k < 0 || k > n ? 0n : fact(n) / (fact(k) * fact(n - k)));

/** Σ_k C(b,k)·C(m,k)·k!: the partial matchings of b rows to m segment bits (each row one partner or none, no bit twice). */
export const matchings = (b: number, m: number): bigint => {
  let s = 0n;
  for (let k = 0; k <= Math.min(b, m); k++) s += choose(b, k) * choose(m, k) * fact(k);
  return s;
};

/** |family| for n index bits and b bank-row bits: n!·Σ_k C(b,k)·C(n−b,k)·k! (docs/planner.md), exact. */
export const linearFamilySize = (n: number, b: number): bigint => fact(n) * matchings(b, n - b);

/** A priced row of an earlier family or of this one, as the pruning sees it. */
export interface Known {
  readonly write: SidePrice;
  readonly read: SidePrice;
  readonly bytes: number;
}

/** What the search needs of the plan (plan.ts's hooks). */
export interface LinearSearch {
  readonly tile: Tile;
  readonly write: Side;
  readonly read: Side;
  readonly machine: Machine;
  readonly top: number;
  /** the rows priced so far (every one a distinct function), all ranked before any member of this family at equal triples */
  readonly known: readonly Known[];
  /** prices a candidate on both sides (plan.ts priceCandidate) */
  readonly price: (c: Candidate) => { write: SidePrice; read: SidePrice } | null;
  /** whether a function (its key, its offsets) is already a row of an earlier family */
  readonly earlier: (key: string, offsets: Int32Array) => boolean;
  /** a member for the front, in enumeration order */
  readonly emit: (offsets: Int32Array, key: string, p: { write: SidePrice; read: SidePrice }) => void;
  /** whether the walk may visit one order of the rows above the price's cuts (fact 4; default true: the tests compare both) */
  readonly canonical?: boolean;
}

/** The triples seen, with how many distinct functions have each: the two pruning rules of docs/planner.md. */
class Tally {
  private readonly counts = new Map<string, { t: number[]; n: number }>();
  add(t: readonly number[]): void {
    const k = t.join(',');
    const e = this.counts.get(k);
    if (e === undefined) this.counts.set(k, { t: [...t], n: 1 });
    else e.n++;
  }
  /** Whether no member whose triple is ≥ B (each coordinate) can be among the first `top` of the front: a triple
   *  strictly below B, or `top` distinct functions at triples ≤ B (each ranked before every such member). */
  closes(B: readonly number[], top: number): boolean {
    let n = 0;
    for (const { t, n: c } of this.counts.values()) {
      if (t[0]! <= B[0]! && t[1]! <= B[1]! && t[2]! <= B[2]!) {
        if (t[0]! < B[0]! || t[1]! < B[1]! || t[2]! < B[2]!) return true;
        n += c;
        if (n >= top) return true;
      }
    }
    return false;
  }
}

/** The bits of the byte address a bank key and a word key read, in element offsets (memory/banks.ts's phase:
 *  units of max(4, w·e) bytes, grouped by unit mod banks·4/unit). */
function keyBits(w: number, e: number, banks: number): { lo: number; hi: number } {
  const unit = Math.max(4, w * e);
  return { lo: log2(unit) - log2(e), hi: log2(banks * 4) - log2(e) };
}

/** Whether every vector of w values may be contiguous and aligned, on the known bits `known` of the offsets `po`. */
export function mayHold(p: AccessPattern, po: Int32Array, known: number, w: number): boolean {
  if (w === 1) return true;
  const { threads: T, values: V, index } = p;
  const low = w - 1;
  for (let j = 0; j < V; j += w) {
    for (let t = 0; t < T; t++) {
      const o = po[index[T * j + t]!]!;
      if ((o & low & known) !== 0) return false;
      const base = o & ~low;
      for (let i = 1; i < w; i++) if (((po[index[T * (j + i) + t]!]! ^ (base | i)) & known) !== 0) return false;
    }
  }
  return true;
}

/**
 * A lower bound on the wavefronts of the pattern at width w on every completion of a partial layout: `po` holds the
 * offsets' bits that are known for the word key (`wordKnown`), `bankKnown` the known bits of the bank key. Per phase (the
 * live leads of §9.2's phase, or of the machine's phase group), the leads with equal known bank bits lie in at most 2^u
 * banks (u the unknown bank bits) and hold at least as many distinct words as distinct known word keys, so some bank
 * has ⌈that / 2^u⌉ of them. With every bit known it is the phase's wavefronts.
 */
export function boundAt(p: AccessPattern, po: Int32Array, bankKnown: number, wordKnown: number, w: number, e: number, m: Machine): number {
  const g = m.vendor === 'nvidia' ? null : phaseGroups(m, w * e, p.access);
  const banks = g?.banks ?? 32;
  const wave = g?.wave ?? WARP;
  const tpp = g?.perPhase ?? threadsPerPhase(w * e);
  const { lo, hi } = keyBits(w, e, banks);
  const bankMask = ((1 << hi) - 1) & ~((1 << lo) - 1);
  const u = popcount(bankMask & ~bankKnown);
  const div = 2 ** u;
  const { threads: T, values: V, index, live } = p;
  const bk = new Int32Array(64);
  const wk = new Int32Array(64);
  let total = 0;
  for (let q = 0; q * wave < T; q++) {
    for (let j = 0; j < V; j += w) {
      for (let f = 0; f * tpp < wave; f++) {
        let n = 0;
        for (let i = f * tpp; i < (f + 1) * tpp; i++) {
          const t = q * wave + (g === null ? i : g.order[i]!);
          if (t >= T || (live !== undefined && live[t] === 0)) continue;
          const o = po[index[T * j + t]!]!;
          bk[n] = o & bankMask & bankKnown;
          wk[n++] = (o & wordKnown) >>> lo;
        }
        if (n === 0) continue;
        let most = 0;
        for (let a = 0; a < n; a++) {
          // the distinct word keys among the leads of a's bank key, counted at its first lead
          let first = true;
          for (let c = 0; c < a && first; c++) if (bk[c] === bk[a]) first = false;
          if (!first) continue;
          let d = 0;
          for (let c = a; c < n; c++) {
            if (bk[c] !== bk[a]) continue;
            let again = false;
            for (let x = a; x < c && !again; x++) again = bk[x] === bk[a] && wk[x] === wk[c];
            if (!again) d++;
          }
          if (d > most) most = d;
        }
        total += Math.ceil(most / div);
      }
    }
  }
  return total;
}

function popcount(x: number): number {
  let c = 0;
  for (let y = x >>> 0; y !== 0; y &= y - 1) c++;
  return c;
}

/** A side's bound (docs/planner.md): its least wavefronts, or the fewest of boundAt over the patterns and the widths that
 *  may hold, whichever is larger; +∞ when no width may hold on any pattern (no completion is accepted). */
export function sideBound(side: Side, po: Int32Array, bankKnown: number, wordKnown: number, holdKnown: number, tile: Tile, m: Machine): number {
  let best = Number.POSITIVE_INFINITY;
  for (const p of side.patterns) {
    for (const w of p.widths) {
      if (!mayHold(p, po, holdKnown, w)) continue;
      best = Math.min(best, boundAt(p, po, bankKnown, wordKnown, w, tile.e, m));
    }
  }
  return best === Number.POSITIVE_INFINITY ? best : Math.max(best, side.least);
}

/** The machine's bank-row bits (log2 of banks · 4 bytes in elements), at least b, at most n. */
const bankTopBits = (tile: Tile, m: Machine, b: number): number => Math.min(log2(tile.size), Math.max(b, log2(m.banks * 4) - log2(tile.e)));

/** Next permutation (lexicographic) of xs in place; false after the last. */
function nextPermutation(xs: number[]): boolean {
  let i = xs.length - 2;
  while (i >= 0 && xs[i]! >= xs[i + 1]!) i--;
  if (i < 0) return false;
  let j = xs.length - 1;
  while (xs[j]! <= xs[i]!) j--;
  [xs[i], xs[j]] = [xs[j]!, xs[i]!];
  for (let a = i + 1, z = xs.length - 1; a < z; a++, z--) [xs[a], xs[z]] = [xs[z]!, xs[a]!];
  return true;
}

/** The k-subsets of 0 … n−1 in lexicographic order. */
function* subsets(n: number, k: number): Generator<number[]> {
  const c = Array.from({ length: k }, (_, i) => i);
  while (true) {
    yield [...c];
    let i = k - 1;
    while (i >= 0 && c[i] === n - k + i) i--;
    if (i < 0) return;
    c[i]!++;
    for (let j = i + 1; j < k; j++) c[j] = c[j - 1]! + 1;
  }
}

/** Both sides' linear patterns (linear-price.ts), or null when a pattern of either is not linear. */
function linearSides(s: LinearSearch): { write: LinearPattern[]; read: LinearPattern[] } | null {
  const of = (side: Side): LinearPattern[] | null => {
    const lps = side.patterns.map((p) => linearPatternOf(p, s.tile, s.machine));
    return lps.every((x) => x !== null) ? (lps as LinearPattern[]) : null;
  };
  const write = of(s.write);
  const read = write === null ? null : of(s.read);
  return write === null || read === null ? null : { write, read };
}

/** sideBound in closed form: the side's least wavefronts, or the fewest of its patterns' bounds, whichever is larger; +∞ when none may hold. */
function linearBound(ts: readonly PatternTrack[], least: number, pm: PartialMember): number {
  let best = Number.POSITIVE_INFINITY;
  for (const t of ts) best = Math.min(best, linearPatternBound(t, pm));
  return best === Number.POSITIVE_INFINITY ? best : Math.max(best, least);
}

/** The offsets of the member's index bits (col[i]: the offset of index 2^i), as memberOffsets reads them. */
function memberColumns(own: readonly number[], partner: readonly number[], seg: readonly number[], col: Int32Array): void {
  col.fill(0);
  for (let j = 0; j < own.length; j++) {
    col[own[j]!] = col[own[j]!]! | (1 << j);
    if (partner[j]! >= 0) col[partner[j]!] = col[partner[j]!]! | (1 << j);
  }
  for (let i = 0; i < seg.length; i++) col[seg[i]!] = col[seg[i]!]! | (1 << (own.length + i));
}

/** The offsets of the member (own bits, partners (−1 none), segment order) over 2^n indices, into out. */
function memberOffsets(own: readonly number[], partner: readonly number[], seg: readonly number[], out: Int32Array): void {
  const masks = own.map((a, j) => (1 << a) | (partner[j]! >= 0 ? 1 << partner[j]! : 0));
  const b = own.length;
  for (let x = 0; x < out.length; x++) {
    let o = 0;
    for (let j = 0; j < b; j++) o |= (popcount(x & masks[j]!) & 1) << j;
    for (let i = 0; i < seg.length; i++) o |= ((x >>> seg[i]!) & 1) << (b + i);
    out[x] = o;
  }
}

/**
 * The linear family searched by branch and bound (docs/planner.md, "The linear family's search"): every member
 * counted, every member that can be among the first `top` entries of the front emitted. Returns |family|. A side
 * without accesses (tma, wgmma, umma: they take CuTe layouts, which no member is written as) prices none. Errors:
 * `overflow` when |family| exceeds 2^53; `timeout` through the deadline.
 */
export function searchLinear(s: LinearSearch): number {
  const { tile, write, read, machine: m, top } = s;
  if (!isPow2(tile.size)) return 0;
  const n = log2(tile.size);
  const b = linearBankBits(tile);
  const size = linearFamilySize(n, b);
  if (size > BigInt(Number.MAX_SAFE_INTEGER)) {
    throw new LayoutError('overflow', `the linear family of a 2^${n}-element tile has ${size} members, beyond 2^53: plan it without 'linear'`);
  }
  if (write.pattern === null || read.pattern === null) return Number(size);
  const tally = new Tally();
  for (const k of s.known) tally.add([k.write.wavefronts, k.read.wavefronts, k.bytes]);
  const bytes = tile.size * tile.e;
  const top2 = bankTopBits(tile, m, b);
  const N = tile.size;
  // linear sides are priced and bounded in closed form (linear-price.ts), from the offsets of the n index bits; any
  // other side from the tile's offsets (po: the known bits of every offset)
  const lin = linearSides(s);
  const po = new Int32Array(lin === null ? N : 0);
  const full = new Int32Array(N);
  const col = new Int32Array(n);
  const own: number[] = [];
  const partner: number[] = [];
  let S = 0;
  const tracks = lin === null ? null : { write: lin.write.map((lp) => new PatternTrack(lp)), read: lin.read.map((lp) => new PatternTrack(lp)) };
  const allTracks = tracks === null ? [] : [...tracks.write, ...tracks.read];
  const bound = (k: number, wordKnown: number, holdKnown: number): number[] => {
    if (tracks !== null) {
      const pm: PartialMember = { k, b, S, own, free: ((1 << n) - 1) & ~usedMask };
      const w = linearBound(tracks.write, write.least, pm);
      return [w, w === Number.POSITIVE_INFINITY ? w : linearBound(tracks.read, read.least, pm), bytes];
    }
    // the bank-row bits below k are known, and the bits at or above n (zero in every offset)
    const bankKnown = ((1 << Math.min(k, b)) - 1) | ~((1 << n) - 1);
    return [sideBound(write, po, bankKnown, wordKnown, holdKnown, tile, m), sideBound(read, po, bankKnown, wordKnown, holdKnown, tile, m), bytes];
  };
  const dead = (B: number[]): boolean => B[0] === Number.POSITIVE_INFINITY || B[1] === Number.POSITIVE_INFINITY || tally.closes(B, top);
  // the members counted as the search goes: each pruned branch by its size, each leaf by its segment orders
  const fs: bigint[] = [1n];
  for (let i = 1; i <= n; i++) fs.push(fs[i - 1]! * BigInt(i));
  const segOrders = fs[n - b]!;
  // a branch's size by (k, partners used), computed once: (b−k)!·Σ_i C(b−k,i)·C(n−b−used,i)·i!·(n−b)!
  const sizes = Array.from({ length: b + 1 }, (_, k) =>
    Array.from({ length: n - b + 1 }, (_, used) => fs[b - k]! * matchings(b - k, n - b - used) * segOrders),
  );
  const branch = (k: number, used: number): bigint => sizes[k]![used]!;
  // Rows at or above every cut of the price (each width's log2 w and word bit lo, at most b; hi ≥ b always) move no price
  // when reordered (docs/planner.md, fact 4): the walk then visits only their ascending order (the first of each set of
  // rows in the enumeration) and counts the others with it, where every leaf has at least `top` members of one price.
  const cut = lin === null ? b : Math.min(b, Math.max(0, ...[...lin.write, ...lin.read].flatMap((lp) => lp.widths.map((lw) => Math.max(lw.log2w, lw.lo)))));
  const canon = s.canonical !== false && lin !== null && b - cut >= 2 && BigInt(top + s.known.length) <= fs[n - b - (top2 - b)]!;
  let counted = 0n;
  let used = 0;
  let usedMask = 0;
  for (const Sb of subsets(n, n - b)) {
    const inS = new Set(Sb);
    S = Sb.reduce((a, i) => a | (1 << i), 0);
    const L = Array.from({ length: n }, (_, i) => i).filter((i) => !inS.has(i));
    // the segment bits as known word bits (their order changes no price), the bank-row bits unknown
    const high = (1 << n) - 1 - ((1 << b) - 1);
    for (let x = 0; x < po.length; x++) {
      let o = 0;
      for (let i = 0; i < Sb.length; i++) o |= ((x >>> Sb[i]!) & 1) << (b + i);
      po[x] = o;
    }
    const walk = (k: number): void => {
      checkDeadline('the planner');
      // below the cut (canon), a node stands for its ascending order only: the node at the cut counts the whole branch
      const inside = canon && k > cut;
      if (k > 0 && dead(bound(k, high | ((1 << k) - 1), high | ((1 << k) - 1)))) {
        if (!inside) counted += branch(k, used);
        return;
      }
      if (k === b) {
        if (!inside) counted += segOrders;
        leaves(own, partner, Sb);
        return;
      }
      const saved = po.length === 0 ? po : po.slice(); // linear sides keep no tile offsets (po empty)
      const after = inside ? own[k - 1]! : -1;
      for (const a of L) {
        if (a <= after || own.includes(a)) continue;
        for (let c = -1; c < Sb.length; c++) {
          const cb = c < 0 ? -1 : Sb[c]!;
          if (cb >= 0 && partner.includes(cb)) continue;
          const mask = (1 << a) | (cb >= 0 ? 1 << cb : 0);
          for (let x = 0; x < po.length; x++) po[x] = saved[x]! | ((popcount(x & mask) & 1) << k);
          for (const t of allTracks) t.push(k, a, cb);
          if (cb >= 0) used++;
          usedMask |= mask;
          own.push(a);
          partner.push(cb);
          walk(k + 1);
          own.pop();
          partner.pop();
          for (const t of allTracks) t.pop(k);
          if (cb >= 0) used--;
          usedMask &= ~mask;
        }
      }
      po.set(saved);
      if (canon && k === cut) counted += branch(k, used);
    };
    if (!dead(bound(0, high, high))) walk(0);
    else counted += branch(0, 0);
  }
  if (counted !== size) throw new Error(`internal: the linear search counted ${counted} of ${size} members`);
  /** The members of one (S, own, partner): segment orders σ in lexicographic order, those sharing σ's first top2 − b
   *  bits priced once (a permutation of the offset bits at or above the machine's bank row changes no price). */
  function leaves(own: readonly number[], partner: readonly number[], S: readonly number[]): void {
    const seg = [...S];
    const fixed = top2 - b;
    let more = true;
    let priced: { write: SidePrice; read: SidePrice } | null = null;
    let prefix = '';
    let closed = false;
    while (more) {
      checkDeadline('the planner');
      const pre = seg.slice(0, fixed).join(',');
      if (priced === null || pre !== prefix) {
        prefix = pre;
        if (lin !== null) {
          memberColumns(own, partner, seg, col);
          const w = linearSidePrice(lin.write, col);
          const r = w === null ? null : linearSidePrice(lin.read, col);
          priced = w === null || r === null ? null : { write: w, read: r };
        } else {
          memberOffsets(own, partner, seg, full);
          priced = s.price({ family: 'linear', layout: { shape: 1, stride: 0 }, atom: null, offsets: full, cosize: N, key: tableKey(full), index: 0 });
        }
        closed = priced === null || tally.closes([priced.write.wavefronts, priced.read.wavefronts, bytes], top);
      }
      if (!closed && priced !== null) {
        memberOffsets(own, partner, seg, full);
        const key = tableKey(full);
        if (!s.earlier(key, full)) {
          s.emit(full.slice(), key, priced);
          tally.add([priced.write.wavefronts, priced.read.wavefronts, bytes]);
          closed = tally.closes([priced.write.wavefronts, priced.read.wavefronts, bytes], top);
        }
      }
      more = nextPermutation(seg);
      if (closed && fixed === 0) return;
    }
  }
  return Number(size);
}

/** A member's offsets (a bijection of 2^n) as Triton's `#ttg.shared_linear` (offset bit k → the tile index it holds). */
export function linearLayoutText(offsets: Int32Array, tile: Tile): string {
  const bases: number[] = [];
  for (let x = 0; x < offsets.length; x++) {
    const o = offsets[x]!;
    if (isPow2(o)) bases[log2(o)] = x;
  }
  return formatLL(sharedLL(bases, tile), 'mlir');
}

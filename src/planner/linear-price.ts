/**
 * The price of a linear member on a linear side, in closed form (docs/planner.md, "The linear family's search"): where
 * a side's access pattern is F2-linear (the tile index of thread t's value j is the XOR of generators, one per bit of t
 * and of j) and its phases are cosets of one subspace of lanes, the offsets a member gives a phase are a coset of the
 * image of that subspace, so §9.2's count is a matter of ranks:
 *
 * - a phase touches 2^r_W distinct words (units of max(4, w·e) bytes: the offset bits from lo up), r_W the rank of the
 *   phase generators' images above lo, and 2^r_B distinct banks (or groups of banks), r_B the rank of the bits [lo, hi);
 *   each bank holds as many words as every other (they are the cosets of one subspace), so the phase takes 2^(r_W − r_B)
 *   wavefronts, and every phase of every instruction the same;
 * - the width is the widest at which value generator i < log2 w lands on offset bit i and every other generator's image
 *   has its bits below log2 w zero (every vector contiguous and aligned); a width whose first value generators are not
 *   distinct single index bits holds on no member (only an own bit lands on a bank-row bit), and is left out.
 *
 * So a side is priced from a few dozen offsets instead of the whole tile, the same answer as price.ts's counters
 * (test/planner/linear-price.test.ts compares them on random members and sides), and a partial member (the offset
 * bits below k known) gets a bound by the same ranks: the unknown bank bits add at most one rank each.
 */
import { threadsPerPhase, WARP } from '../memory/banks.js';
import { phaseGroups } from '../memory/machines.js';
import { columnsOf, echelon, independentColumns } from '../linear/f2.js';
import type { Tile } from './families.js';
import type { Machine } from './machine.js';
import { phasesAt, type AccessPattern, type SidePrice } from './price.js';

const log2 = (x: number): number => 31 - Math.clz32(x);
const isPow2 = (x: number): boolean => x >= 1 && (x & (x - 1)) === 0;

/** One width of a linear pattern: what the count needs that no member changes. */
interface LinearWidth {
  readonly w: number;
  readonly log2w: number;
  /** the word's lowest offset bit (units of max(4, w·e) bytes, in elements) and the bank key's end (banks · 4 bytes) */
  readonly lo: number;
  readonly hi: number;
  /** tile-index generators of one phase's lanes (a basis of the subspace the phases are cosets of) */
  readonly phaseGens: Int32Array;
  /** per index bit u, the functional x ↦ x[u] on the phase generators (bit i: generator i's bit u) */
  readonly fv: Int32Array;
  readonly phases: number;
  readonly instructions: number;
  readonly instruction: string;
  readonly vectorBytes: number;
}

/** A linear access pattern: its value and thread generators, and per width (widest first) the static parts of the count. */
export interface LinearPattern {
  /** the tile index of value 2^i (thread 0) */
  readonly vgen: Int32Array;
  /** the tile index of thread 2^i (value 0) */
  readonly tgen: Int32Array;
  readonly widths: readonly LinearWidth[];
}

/** The XOR of gens[i] over the set bits i of x: the tile index of thread (or value) x from its generators, and the offset
 *  of tile index x under a member from its columns (col[i]: the offset of index 2^i). */
function xorOf(gens: Int32Array, x: number): number {
  let r = 0;
  for (let i = 0; x !== 0; i++, x >>>= 1) if (x & 1) r ^= gens[i]!;
  return r;
}

/** The phase lanes of width w (bytes we) on the machine as lane numbers, or null when the phases are not cosets of one subspace. */
function phaseLanes(p: AccessPattern, we: number, m: Machine): number[] | null {
  if (m.vendor === 'nvidia') {
    const n = Math.min(threadsPerPhase(we), p.threads, WARP);
    return Array.from({ length: log2(n) }, (_, i) => 1 << i);
  }
  let g: ReturnType<typeof phaseGroups>;
  try {
    g = phaseGroups(m, we, p.access);
  } catch {
    return null; // no published grouping: priced (and refused) by the counters
  }
  if (p.threads % g.wave !== 0) return null;
  const first = Array.from(g.order.subarray(0, g.perPhase));
  const set = new Set(first);
  if (!set.has(0)) return null;
  const e = echelon(columnsOf(first.map((l) => ({ lo: l, hi: 0 }))));
  const gens = e.pivots.map((i) => first[i]!);
  if (1 << gens.length !== g.perPhase) return null;
  for (let f = 0; f * g.perPhase < g.wave; f++) {
    const c = g.order[f * g.perPhase]!;
    for (let i = 0; i < g.perPhase; i++) if (!set.has(g.order[f * g.perPhase + i]! ^ c)) return null;
  }
  return gens;
}

/**
 * The pattern as a linear one, or null when it is not (threads or values not a power of two, a live mask, an index
 * that is not the XOR of its generators, phases that are not cosets of one subspace of lanes).
 */
export function linearPatternOf(p: AccessPattern, tile: Tile, m: Machine): LinearPattern | null {
  const { threads: T, values: V, index } = p;
  if (p.live !== undefined || !isPow2(T) || !isPow2(V)) return null;
  const tgen = Int32Array.from({ length: log2(T) }, (_, i) => index[1 << i]!);
  const vgen = Int32Array.from({ length: log2(V) }, (_, i) => index[T * (1 << i)]!);
  if (index[0] !== 0) return null;
  for (let j = 0; j < V; j++) {
    const vj = xorOf(vgen, j);
    for (let t = 0; t < T; t++) if (index[t + T * j] !== (xorOf(tgen, t) ^ vj)) return null;
  }
  const e = tile.e;
  const widths: LinearWidth[] = [];
  for (const w of p.widths) {
    const we = w * e;
    const lanes = phaseLanes(p, we, m);
    if (lanes === null) return null;
    // a member sends index x to offset bit i < b only if x is one own bit (the only index the member maps to 2^i), so a
    // width whose first log2 w value generators are not distinct single bits holds on no member: it is left out
    const firsts = Array.from(vgen.subarray(0, log2(w)));
    if (!firsts.every((g) => isPow2(g)) || new Set(firsts).size !== firsts.length) continue;
    const banks = m.vendor === 'nvidia' ? 32 : m.banks;
    const wave = m.vendor === 'nvidia' ? WARP : m.wave;
    widths.push({
      w,
      log2w: log2(w),
      lo: log2(Math.max(4, we)) - log2(e),
      hi: log2(banks * 4) - log2(e),
      phaseGens: Int32Array.from(lanes, (l) => xorOf(tgen, l)),
      fv: Int32Array.from({ length: log2(tile.size) }, (_, u) => lanes.reduce((f, l, i) => f | (((xorOf(tgen, l) >>> u) & 1) << i), 0)),
      phases: phasesAt(p, w, e, m),
      instructions: Math.ceil(T / wave) * (V / w),
      instruction: p.instruction(w),
      vectorBytes: p.vectorBytes(w),
    });
  }
  return { vgen, tgen, widths };
}

/** Whether every vector of w values is contiguous and aligned under the member (see the header). */
function holds(lp: LinearPattern, col: Int32Array, lw: LinearWidth): boolean {
  const low = lw.w - 1;
  for (let i = 0; i < lp.vgen.length; i++) {
    const o = xorOf(col, lp.vgen[i]!);
    if (i < lw.log2w ? o !== 1 << i : (o & low) !== 0) return false;
  }
  for (let i = 0; i < lp.tgen.length; i++) if ((xorOf(col, lp.tgen[i]!) & low) !== 0) return false;
  return true;
}

/** The wavefronts of one phase, 2^(r_W − r_B) (see the header). */
function phaseWavefronts(col: Int32Array, lw: LinearWidth): number {
  const bankMask = (1 << (lw.hi - lw.lo)) - 1;
  const m = lw.phaseGens.length;
  for (let i = 0; i < m; i++) vecs[i] = xorOf(col, lw.phaseGens[i]!) >>> lw.lo;
  const rW = rankOf(m);
  for (let i = 0; i < m; i++) vecs[i] = (xorOf(col, lw.phaseGens[i]!) >>> lw.lo) & bankMask;
  return 2 ** (rW - rankOf(m));
}

/** The pattern's price under the member (columns `col`): price.ts priceSide's answer, or null when no width holds. */
export function linearPatternPrice(lp: LinearPattern, col: Int32Array): SidePrice | null {
  for (const lw of lp.widths) {
    if (!holds(lp, col, lw)) continue;
    const wavefronts = lw.phases * phaseWavefronts(col, lw);
    return {
      instruction: lw.instruction,
      vectorBytes: lw.vectorBytes,
      instructions: lw.instructions,
      wavefronts,
      phases: lw.phases,
      conflicts: wavefronts - lw.phases,
    };
  }
  return null;
}

/** A side's price over its linear patterns: the cheapest (fewest wavefronts, then instructions, then the first), as sides.ts accessSide. */
export function linearSidePrice(lps: readonly LinearPattern[], col: Int32Array): SidePrice | null {
  let best: SidePrice | null = null;
  for (const lp of lps) {
    const x = linearPatternPrice(lp, col);
    if (x !== null && (best === null || x.wavefronts < best.wavefronts || (x.wavefronts === best.wavefronts && x.instructions < best.instructions))) best = x;
  }
  return best;
}

/**
 * A pattern followed down the linear family's walk: the known low offset bits of each generator (vector generators,
 * thread generators, each width's phase generators), kept as rows are added and removed, so that a node's bound reads
 * them instead of recomputing offsets. Row k of a member is offset bit k = x[a] ⊕ x[c] (c = −1: none).
 */
export class PatternTrack {
  /** the tracked index vectors: vgen, tgen, then each width's phase generators */
  private readonly xs: Int32Array;
  /** their known offset bits (below the rows added) */
  readonly low: Int32Array;
  /** where each width's phase generators start in xs */
  private readonly at: number[];
  constructor(readonly lp: LinearPattern) {
    const xs = [...lp.vgen, ...lp.tgen];
    this.at = [];
    for (const lw of lp.widths) {
      this.at.push(xs.length);
      xs.push(...lw.phaseGens);
    }
    this.xs = Int32Array.from(xs);
    this.low = new Int32Array(xs.length);
  }
  /** adds row k: offset bit k is index bit a, XOR index bit c when c ≥ 0 */
  push(k: number, a: number, c: number): void {
    const { xs, low } = this;
    const bit = 1 << k;
    for (let i = 0; i < xs.length; i++) {
      const x = xs[i]!;
      if ((((x >>> a) ^ (c >= 0 ? x >>> c : 0)) & 1) !== 0) low[i] = low[i]! | bit;
    }
  }
  /** removes row k */
  pop(k: number): void {
    const { low } = this;
    const keep = ~(1 << k);
    for (let i = 0; i < low.length; i++) low[i] = low[i]! & keep;
  }
  /** where width i's phase generators start among the tracked */
  phaseAt(i: number): number {
    return this.at[i]!;
  }
}

/** What the bound knows of a partial member besides its tracked offsets: the rows added (k), the bank-row bits b of the
 *  family, the segment bits S (a mask), the own bits of rows 0 … k−1 (a_j), and the index bits no row uses yet (`free`:
 *  the own bits of the rows to come and the segment bits still free to be their partners). */
export interface PartialMember {
  readonly k: number;
  readonly b: number;
  readonly S: number;
  readonly own: readonly number[];
  readonly free: number;
}

/**
 * A lower bound on the pattern's wavefronts over every completion of the partial member: +∞ when no width may hold.
 * At a width that may hold (its known bits are those of contiguous aligned vectors): r_W is known once k ≥ lo (the
 * words' subspace is fixed by the own bits below lo: r_W = dim(Λ + span{2^a_j : j < lo}) − lo), the known bank bits
 * [lo, k) give a rank r, and each unknown bank bit (below b, and the segment bits below hi) adds at most one, so the
 * phase takes at least 2^(r_W − r − unknown) wavefronts; below lo the bound is the phases.
 */
export function linearPatternBound(t: PatternTrack, pm: PartialMember): number {
  const { k, b, S, own } = pm;
  const { lp, low } = t;
  const nv = lp.vgen.length;
  const nt = lp.tgen.length;
  let best = Number.POSITIVE_INFINITY;
  for (let wi = 0; wi < lp.widths.length; wi++) {
    const lw = lp.widths[wi]!;
    if (lw.phases >= best) continue;
    // may hold: below min(k, log2 w), vector generator i is bit i and every other generator is 0; a vector generator has no segment bit
    const known = (1 << Math.min(k, lw.log2w)) - 1;
    let may = true;
    for (let i = 0; may && i < nv; i++) {
      const o = low[i]! & known;
      may = i < lw.log2w ? o === ((1 << i) & known) && (lp.vgen[i]! & S) === 0 : o === 0;
    }
    for (let i = 0; may && i < nt; i++) may = (low[nv + i]! & known) === 0;
    if (!may) continue;
    let lb = lw.phases;
    // r_W = dim(Λ + Q) − dim Q, Q = span{2^a_j : j < lo} (the offsets below lo; all of them on a tile within one unit):
    // exact once the rows below lo are known; before, Q lies in the own bits' span E_L and contains the rows known, and
    // dim(Λ + Q) − dim Q only falls as Q grows, so r_W ≥ max(dim(Λ + E_L) − b, dim(Λ + Q_known) − q)
    const q = Math.min(lw.lo, b);
    let n = 0;
    for (let j = 0; j < Math.min(k, q); j++) vecs[n++] = 1 << own[j]!;
    for (const g of lw.phaseGens) vecs[n++] = g;
    let rW = rankOf(n) - q;
    if (k < q) {
      n = 0;
      for (let u = ((1 << lw.fv.length) - 1) & ~S, i = 0; u !== 0; u >>>= 1, i++) if (u & 1) vecs[n++] = 1 << i;
      for (const g of lw.phaseGens) vecs[n++] = g;
      rW = Math.max(rW, rankOf(n) - b);
    }
    if (rW > 0) {
      const kb = Math.min(k, b, lw.hi);
      let r = 0;
      if (kb > lw.lo) {
        const mask = ((1 << kb) - 1) & ~((1 << lw.lo) - 1);
        const at = t.phaseAt(wi);
        const m = lw.phaseGens.length;
        for (let i = 0; i < m; i++) vecs[i] = low[at + i]! & mask;
        r = rankOf(m);
      }
      const rows = Math.max(0, Math.min(b, lw.hi) - Math.max(k, lw.lo));
      const seg = Math.max(0, lw.hi - Math.max(b, lw.lo));
      let rB = r + rows + seg;
      if (rB >= rW && rows + seg > 0) rB = Math.min(rB, spanRank(t, wi, lw, Math.max(kb, lw.lo), rows > 0 ? pm.free : 0, seg > 0 ? S : 0));
      const d = rW - rB;
      if (d > 0) lb = lw.phases * 2 ** d;
    }
    if (lb < best) best = lb;
  }
  return best;
}

/** The rank of the bank rows any completion can have on the phase generators: the known rows [lo, kb) as functionals, and
 *  every functional a row to come can add (x ↦ x[a] ⊕ x[c], a and c free index bits), or a segment bank bit (x ↦ x[s], s ∈ S):
 *  their span holds every completion's bank rows. */
function spanRank(t: PatternTrack, wi: number, lw: LinearWidth, kb: number, free: number, S: number): number {
  const at = t.phaseAt(wi);
  const m = lw.phaseGens.length;
  let n = 0;
  for (let j = lw.lo; j < kb; j++) {
    let f = 0;
    for (let i = 0; i < m; i++) f |= ((t.low[at + i]! >>> j) & 1) << i;
    vecs[n++] = f;
  }
  for (let u = free | S, i = 0; u !== 0; u >>>= 1, i++) if (u & 1) vecs[n++] = lw.fv[i]!;
  return rankOf(n);
}

/** Scratch of the ranks: the vectors (at most 64, each below 2^31) and their zero high words, for f2.ts. */
const vecs = new Uint32Array(64);
const ZERO = new Uint32Array(64);

/** Rank over F2 of vecs[0 … n−1] (linear/f2.ts's independentColumns, which allocates nothing). */
const rankOf = (n: number): number => independentColumns(vecs, ZERO, n, 64, false);

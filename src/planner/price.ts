/**
 * The price of one side on one candidate (docs/planner.md, "The price"): the widest
 * vector the side may use that keeps each thread's values contiguous and aligned, and §9.2's
 * phases and wavefronts of its instructions, counted by memory/banks.ts's countWavefronts (the
 * project's one bank counter) over the instructions laid out as it reads them. A side's accesses
 * are tabulated once (AccessPattern); a candidate is its table of offsets by tile index, so the
 * inner loop is a vector check and one pass writing the leads' addresses, over typed arrays.
 */
import { checkDeadline } from '../algebra/deadline.js';
import { Pool, type Instructions } from '../memory/access.js';
import { BankScratch, countWavefronts, threadsPerPhase } from '../memory/banks.js';
import { type PhaseTable, phaseTable, swizzledWavefronts, swizzleKeepsVectors } from '../memory/phases.js';
import type { Machine } from './machine.js';

/** What one side does to the tile, tabulated once: the tile index of value j of thread t. */
export interface AccessPattern {
  readonly threads: number;
  readonly values: number;
  /** tile index of (t, j) at t + threads·j */
  readonly index: Int32Array;
  /** per thread, whether it accesses memory (absent: every thread; a copy atom's repeated rows do not) */
  readonly live?: Uint8Array;
  /** the vector widths (values per instruction) the side may use, widest first */
  readonly widths: readonly number[];
  /** the instruction's name at a width (docs/protocol.md's names) */
  readonly instruction: (w: number) => string;
  /** bytes one thread moves per instruction at a width (16 per row address for ldmatrix/stmatrix) */
  readonly vectorBytes: (w: number) => number;
}

/** A side's price on one candidate (docs/protocol.md, the entry's side). */
export interface SidePrice {
  readonly instruction: string;
  readonly vectorBytes: number;
  readonly instructions: number;
  readonly wavefronts: number;
  readonly phases: number;
  readonly conflicts: number;
}

/** Scratch of the pricing loop, reused from candidate to candidate. */
export class PriceScratch {
  readonly banks = new BankScratch();
  readonly addr = new Pool();
}

/** A swizzle as 32-bit operations: Sw(y) = y ^ (((y & mask) >>> r) << l) (memory/phases.ts's swizzleBits). */
export interface SwizzleBits {
  readonly mask: number;
  readonly r: number;
  readonly l: number;
}

/** One price at width w from §9.2's counts. */
function sidePrice(p: AccessPattern, w: number, instructions: number, phases: number, wavefronts: number): SidePrice {
  return { instruction: p.instruction(w), vectorBytes: p.vectorBytes(w), instructions, wavefronts, phases, conflicts: wavefronts - phases };
}

/**
 * The side's price on the candidate whose element offsets by tile index are `offsets` (n of
 * them), elements of e bytes: the first width of `p.widths` at which every vector is
 * contiguous and aligned (holdsVectors), and §9.2's counts; null when none is (the side
 * does not accept the candidate). Pre-condition: every index of p is below n, offsets below 2^30.
 * @example priceSide(pattern, rowMajorOffsets, 8192, 2, machineOf('sm90'), new PriceScratch())
 */
export function priceSide(p: AccessPattern, offsets: Int32Array, n: number, e: number, m: Machine, s: PriceScratch): SidePrice | null {
  void n; // every index of p is below n (accessSide checks it once)
  for (const w of p.widths) {
    if (!holdsVectors(p, offsets, w)) continue;
    const ins = leadInstructions(p, offsets, w, e, m, s);
    const { phases, wavefronts } = countWavefronts(ins, s.banks);
    return sidePrice(p, w, ins.warps * ins.perWarp, phases, wavefronts);
  }
  return null;
}

/** Whether every thread's vectors of w values are contiguous and aligned over the offsets (§9.2; the first failure ends it). */
export function holdsVectors(p: AccessPattern, offsets: Int32Array, w: number): boolean {
  if (w === 1) return true;
  const { threads: T, values: V, index } = p;
  for (let j = 0; j < V; j += w) {
    if ((j & 63) === 0) checkDeadline('the planner');
    const row = T * j;
    for (let t = 0; t < T; t++) {
      const o = offsets[index[row + t]!]!;
      if ((o & (w - 1)) !== 0) return false;
      for (let i = 1; i < w; i++) if (offsets[index[row + T * i + t]!]! !== o + i) return false;
    }
  }
  return true;
}

/** The instructions at width w (memory/banks.ts's layout: warp g, instruction q, lane at (g·V/w + q)·32 + lane): the byte
 *  address of each vector's first value. Pre-condition: holdsVectors at w. */
function leadInstructions(p: AccessPattern, offsets: Int32Array, w: number, e: number, m: Machine, s: PriceScratch): Instructions {
  const { threads: T, values: V, index } = p;
  const W = m.warp;
  const warps = Math.ceil(T / W);
  const perWarp = V / w;
  const addr = s.addr.get(warps * perWarp * W);
  for (let q = 0; q < perWarp; q++) {
    const row = T * q * w;
    for (let t = 0; t < T; t++) addr[(((t / W) | 0) * perWarp + q) * W + (t % W)] = e * offsets[index[row + t]!]!;
  }
  return p.live === undefined
    ? { width: w * e, vector: w, threads: T, warps, perWarp, addr }
    : { width: w * e, vector: w, threads: T, warps, perWarp, addr, live: p.live };
}

/**
 * priceSide for the candidates Sw o base of one base, from the base's phase tables (memory/phases.ts): at a width where
 * the base holds the vectors, the candidate holds them iff swizzleKeepsVectors (fact 1), and its wavefronts are the
 * table's re-counted on the phases the swizzle moves (facts 2, 3); at a width where the base does not, the candidate
 * is decided by priceSide's path. The same answers as priceSide on the candidate's offsets, fewer passes. Pre-condition:
 * no live mask (every thread accesses memory).
 */
export class SwizzledSide {
  private readonly tables = new Map<number, (PhaseTable | null | undefined)[]>();
  private readonly buf = new Float64Array(32);
  constructor(
    private readonly p: AccessPattern,
    private readonly e: number,
  ) {}

  /** The table of base `id` (offsets `base` by tile index) at width index k, or null when the base does not hold its vectors. */
  private table(id: number, base: Int32Array, k: number, s: PriceScratch): PhaseTable | null {
    let ts = this.tables.get(id);
    if (ts === undefined) this.tables.set(id, (ts = []));
    const hit = ts[k];
    if (hit !== undefined) return hit;
    const { p, e } = this;
    const w = p.widths[k]!;
    let t: PhaseTable | null = null;
    if (holdsVectors(p, base, w)) {
      const offs = new Float64Array(p.index.length);
      for (let x = 0; x < offs.length; x++) offs[x] = base[p.index[x]!]!;
      t = phaseTable(offs, { threads: p.threads, values: p.values, index: offs }, e, w, s.banks);
    }
    ts[k] = t;
    return t;
  }

  /** The price of Sw o base (offsets `cand`) for base `id` (offsets `base`), or null when no width holds its vectors. */
  price(id: number, base: Int32Array, bits: SwizzleBits, cand: Int32Array, m: Machine, s: PriceScratch): SidePrice | null {
    const { p, e } = this;
    for (let k = 0; k < p.widths.length; k++) {
      const w = p.widths[k]!;
      const t = this.table(id, base, k, s);
      if (t !== null) {
        if (!swizzleKeepsVectors(bits, w, t.union)) continue;
        const warps = Math.ceil(p.threads / m.warp);
        return sidePrice(p, w, warps * (p.values / w), t.phases, swizzledWavefronts(t, bits, s.banks, this.buf));
      }
      if (!holdsVectors(p, cand, w)) continue;
      const ins = leadInstructions(p, cand, w, e, m, s);
      const { phases, wavefronts } = countWavefronts(ins, s.banks);
      return sidePrice(p, w, ins.warps * ins.perWarp, phases, wavefronts);
    }
    return null;
  }
}

/**
 * The phases of the side's instructions at width w (§9.2: per warp and instruction, the groups of
 * threadsPerPhase(w·e) lanes that hold a live thread), which no layout can go below at that width.
 */
export function phasesAt(p: AccessPattern, w: number, e: number, m: Machine): number {
  const tpp = threadsPerPhase(w * e);
  const warps = Math.ceil(p.threads / m.warp);
  let perInstr = 0;
  for (let g = 0; g < warps; g++) {
    if ((g & 255) === 255) checkDeadline('the lower bound');
    const lanes = Math.min(m.warp, p.threads - g * m.warp);
    for (let f = 0; f * tpp < lanes; f++) {
      let any = p.live === undefined;
      for (let i = f * tpp; !any && i < Math.min(lanes, (f + 1) * tpp); i++) any = p.live![g * m.warp + i] !== 0;
      if (any) perInstr++;
    }
  }
  return perInstr * (p.values / w);
}

/**
 * The least wavefronts any layout could cost the side (docs/planner.md's lower bound): the phases at
 * the widest width it allows whose vectors hold distinct tile indices (a vector of repeated
 * elements is never contiguous). Sound since a phase takes at least one wavefront and the phases
 * never grow with the width (halving the lanes per phase at most doubles the phases of an
 * instruction while the instructions halve).
 */
export function leastWavefronts(p: AccessPattern, e: number, m: Machine): number {
  for (const w of p.widths) if (distinctVectors(p, w)) return phasesAt(p, w, e, m);
  return phasesAt(p, p.widths[p.widths.length - 1]!, e, m);
}

/** Whether every vector of w values (values k·w … k·w + w − 1 of a thread) holds distinct tile indices. */
function distinctVectors(p: AccessPattern, w: number): boolean {
  if (w === 1) return true;
  const { threads: T, values: V, index } = p;
  for (let k = 0; k < V; k += w) {
    checkDeadline('the lower bound');
    for (let t = 0; t < T; t++) {
      for (let i = 0; i < w; i++) for (let j = i + 1; j < w; j++) if (index[t + T * (k + i)] === index[t + T * (k + j)]) return false;
    }
  }
  return true;
}

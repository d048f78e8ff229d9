/**
 * The price of one side on one candidate (SPEC §13.3, docs/planner.md "The price"): the widest
 * vector the side may use that keeps each thread's values contiguous and aligned, and §9.2's
 * phases and wavefronts of its instructions, counted by memory/banks.ts (vectorInstructions lays
 * the addresses out and checks the vectors, countWavefronts counts). A side's accesses are
 * tabulated once (AccessPattern); a candidate is its table of offsets by tile index, so the inner
 * loop is two passes over typed arrays.
 */
import { checkDeadline } from '../algebra/deadline.js';
import { Pool } from '../memory/access.js';
import { BankScratch, countWavefronts, threadsPerPhase, vectorInstructions } from '../memory/banks.js';
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
  /** the instruction's name at a width (SPEC §13.3's names) */
  readonly instruction: (w: number) => string;
  /** bytes one thread moves per instruction at a width (16 per row address for ldmatrix/stmatrix) */
  readonly vectorBytes: (w: number) => number;
}

/** A side's price on one candidate (BATCH-PROTOCOL.md, the entry's side). */
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

/**
 * The side's price on the candidate whose element offsets by tile index are `offsets` (n of
 * them), elements of e bytes: the first width of `p.widths` at which every vector is
 * contiguous and aligned (vectorInstructions), and §9.2's counts; null when none is (the side
 * does not accept the candidate). Pre-condition: every index of p is below n, offsets below 2^30.
 * @example priceSide(pattern, rowMajorOffsets, 8192, 2, machineOf('sm90'), new PriceScratch())
 */
export function priceSide(p: AccessPattern, offsets: Int32Array, n: number, e: number, m: Machine, s: PriceScratch): SidePrice | null {
  void m; // every machine of machineOf is §9.2's (memory/banks.ts); an AMD model plugs in here
  for (const w of p.widths) {
    const ins = vectorInstructions(offsets, p.index, n, p, e, w, null, 0, s.addr);
    if (ins === null) continue;
    const counted = p.live === undefined ? ins : { ...ins, live: p.live };
    const { phases, wavefronts } = countWavefronts(counted, s.banks);
    return {
      instruction: p.instruction(w),
      vectorBytes: p.vectorBytes(w),
      instructions: ins.warps * ins.perWarp,
      wavefronts,
      phases,
      conflicts: wavefronts - phases,
    };
  }
  return null;
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
 * The least wavefronts any layout could cost the side (SPEC §13.3's lower bound): the phases at
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

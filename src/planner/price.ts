/**
 * The price of one side on one candidate (docs/planner.md, "The price"): the widest
 * vector the side may use that keeps each thread's values contiguous and aligned, and §9.2's
 * phases and wavefronts of its instructions on the machine's bank model, counted by memory/'s
 * counters (banks.ts countWavefronts for NVIDIA's warps, wave-counts.ts waveCounts over
 * machines.ts's phase groups for AMD's waves) over the instructions laid out as banks.ts reads them. A side's accesses
 * are tabulated once (AccessPattern); a candidate is its table of offsets by tile index, so the
 * inner loop is a vector check and one pass writing the leads' addresses, over typed arrays.
 */
import { checkDeadline } from '../algebra/deadline.js';
import { Pool, type Instructions } from '../memory/access.js';
import { BankScratch, countWavefronts, threadsPerPhase, WARP } from '../memory/banks.js';
import { type Access, type Machine, phaseGroups } from '../memory/machines.js';
import { type PhaseTable, phaseTable, swizzledWavefronts, swizzleKeepsVectors } from '../memory/phases.js';
import { waveCounts, waveInstructions } from '../memory/wave-counts.js';

/** What one side does to the tile, tabulated once: the tile index of value j of thread t. */
export interface AccessPattern {
  readonly threads: number;
  readonly values: number;
  /** tile index of (t, j) at t + threads·j */
  readonly index: Int32Array;
  /** the direction of its accesses (the machine's phase groups may depend on it: AMD's ds_read_b128 and ds_write_b128) */
  readonly access: Access;
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

/** The price at width w of the instructions on the machine: NVIDIA's §9.2 counter, or the waves and phase groups of the
 *  machine's row for the access (docs/memory.md "Machines"). */
function countedPrice(p: AccessPattern, w: number, ins: Instructions, m: Machine, s: PriceScratch): SidePrice {
  if (m.vendor === 'nvidia') {
    const { phases, wavefronts } = countWavefronts(ins, s.banks);
    return sidePrice(p, w, ins.warps * ins.perWarp, phases, wavefronts);
  }
  const g = phaseGroups(m, ins.width, p.access);
  const { phases, wavefronts } = waveCounts(ins, g);
  return sidePrice(p, w, waveInstructions(ins, g), phases, wavefronts);
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
    return countedPrice(p, w, leadInstructions(p, offsets, w, e, s), m, s);
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

/** The instructions at width w (memory/banks.ts's layout of 32-lane rows, whatever the machine's wave: thread t's
 *  instruction q at (⌊t/32⌋·V/w + q)·32 + t mod 32): the byte address of each vector's first value. Pre-condition:
 *  holdsVectors at w. */
function leadInstructions(p: AccessPattern, offsets: Int32Array, w: number, e: number, s: PriceScratch): Instructions {
  const { threads: T, values: V, index } = p;
  const W = WARP;
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
 * is decided by priceSide's path. The same answers as priceSide on the candidate's offsets, fewer passes. Pre-conditions:
 * no live mask (every thread accesses memory), an NVIDIA machine (the tables count §9.2's phases).
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
        const warps = Math.ceil(p.threads / WARP);
        return sidePrice(p, w, warps * (p.values / w), t.phases, swizzledWavefronts(t, bits, s.banks, this.buf));
      }
      if (!holdsVectors(p, cand, w)) continue;
      return countedPrice(p, w, leadInstructions(p, cand, w, e, s), m, s);
    }
    return null;
  }
}

/**
 * The phases of the side's instructions at width w on the machine (§9.2: per warp and instruction,
 * the groups of threadsPerPhase(w·e) lanes that hold a live thread; on AMD the phase groups of the
 * machine's row for the access, per wave), which no layout can go below at that width.
 */
export function phasesAt(p: AccessPattern, w: number, e: number, m: Machine): number {
  const g = m.vendor === 'nvidia' ? null : phaseGroups(m, w * e, p.access);
  const wave = g?.wave ?? WARP;
  const tpp = g?.perPhase ?? threadsPerPhase(w * e);
  const waves = Math.ceil(p.threads / wave);
  let perInstr = 0;
  for (let q = 0; q < waves; q++) {
    if ((q & 255) === 255) checkDeadline('the lower bound');
    for (let f = 0; f * tpp < wave; f++) {
      let any = false;
      for (let i = f * tpp; !any && i < (f + 1) * tpp; i++) {
        const t = q * wave + (g === null ? i : g.order[i]!);
        any = t < p.threads && (p.live === undefined || p.live[t] !== 0);
      }
      if (any) perInstr++;
    }
  }
  return perInstr * (p.values / w);
}

/**
 * The least wavefronts any layout could cost the side (docs/planner.md's lower bound): the fewest
 * phases at a width it allows whose vectors hold distinct tile indices (a vector of repeated
 * elements is never contiguous, so no candidate moves by a wider one). Sound since a phase takes at
 * least one wavefront and a candidate's width is one of those. On NVIDIA's model the widest is the
 * fewest (halving the lanes per phase at most doubles the phases of an instruction while the
 * instructions halve); the minimum is taken on every machine all the same.
 */
export function leastWavefronts(p: AccessPattern, e: number, m: Machine): number {
  let least = Number.POSITIVE_INFINITY;
  for (const w of p.widths) if (least < Number.POSITIVE_INFINITY || distinctVectors(p, w)) least = Math.min(least, phasesAt(p, w, e, m));
  return least < Number.POSITIVE_INFINITY ? least : phasesAt(p, p.widths[p.widths.length - 1]!, e, m);
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

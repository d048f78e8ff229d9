/**
 * Shared-memory bank conflicts (docs/semantics.md §9.2, docs/protocol.md `bank_conflicts`): 32 banks of
 * 4-byte words, word w in bank w mod 32; a warp's instruction moving w = v·e bytes per thread
 * is served in phases of 32, 32, 32, 16, 8 threads (w = 1, 2, 4, 8, 16); in a phase, threads
 * on the same word share it, and the phase takes as many wavefronts as the most distinct words
 * in one bank. This is NVIDIA's documented model; hardware may do better in corner cases.
 */
import { checkDeadline } from '../algebra/deadline.js';
import { LayoutError } from '../algebra/errors.js';
import { size, type Layout } from '../algebra/layout.js';
import { innerLayout, isComposed, type LayoutFunction } from '../cute/composed.js';
import {
  accessOffsets,
  checkElementSize,
  phiTable32,
  Pool,
  Pool32,
  threadShape,
  threadValues,
  vectorWidth,
  type Instructions,
  type ThreadValues,
} from './access.js';
import { sourceLow, topBit, type Swizzle } from '../cute/swizzle.js';
import { sectorCounts } from './sectors.js';
import { isNvidia, phaseGroups, type BankTarget } from './machines.js';
import { waveReport, waveTable, waveWays } from './wave-counts.js';

export type { Instructions } from './access.js';

export const BANKS = 32;
export const WARP = 32;

/** Threads served together by one phase, for w bytes per thread. */
export const threadsPerPhase = (w: number): number => (w <= 4 ? 32 : 128 / w);

/** The worst phase of an analysis (docs/protocol.md: first in (warp, instruction, phase) order
 *  among equals; its lowest bank with that many distinct words; the threads touching it). */
export interface WorstPhase {
  instruction: number;
  warp: number;
  phase: number;
  bank: number;
  wavefronts: number;
  threads: number[];
}

/** The `bank_conflicts` result (docs/protocol.md). */
export interface BankReport {
  vector: number;
  instructions: number;
  phases: number;
  wavefronts: number;
  conflicts: number;
  worst: WorstPhase | null;
  sectors: number;
  minSectors: number;
}

/** Per-phase scratch: the distinct words of each bank (at most 32 word touches per phase),
 *  reset by a generation stamp instead of clearing. */
class BankScratch {
  readonly count = new Int32Array(BANKS);
  readonly stamp = new Int32Array(BANKS);
  readonly words = new Float64Array(BANKS * 32);
  /** the addresses of one phase's live lanes (countWavefronts with Instructions.live) */
  readonly lanes = new Float64Array(WARP);
  gen = 0;

  /** The wavefronts of one phase: the n accesses of w bytes at addr[base …]. Each access is
   *  w-aligned (the vector check), so an access of w ≥ 4 bytes covers the w/4 banks of one
   *  aligned unit of w bytes, and every bank of that group of banks meets the same words:
   *  counting distinct units per group of banks (32·4/w groups) counts distinct words per bank. */
  phase(addr: Float64Array, base: number, n: number, w: number): number {
    const { count, stamp, words } = this;
    const gen = ++this.gen;
    const unit = w <= 4 ? 4 : w;
    const groups = (BANKS * 4) / unit;
    const sh = unit === 4 ? 2 : unit === 8 ? 3 : 4;
    let max = 1;
    for (let i = 0; i < n; i++) {
      const a = addr[base + i]!;
      const u = a < 2 ** 31 ? a >>> sh : Math.floor(a / unit);
      const b = u < 2 ** 31 ? u & (groups - 1) : u % groups;
      let c = stamp[b] === gen ? count[b]! : 0;
      stamp[b] = gen;
      let r = 0;
      const row = b << 5;
      while (r < c && words[row + r] !== u) r++;
      if (r === c) {
        words[row + c] = u;
        count[b] = ++c;
        if (c > max) max = c;
      } else count[b] = c;
    }
    return max;
  }
}

/** Lay out the byte addresses instruction by instruction (docs/semantics.md §9.2: instruction k of warp g
 *  moves values k·v … k·v+v−1 of threads 32g … 32g+31; the address is e·offset). */
export function instructions(offsets: Float64Array, tvs: ThreadValues, e: number, v: number, pool?: Pool): Instructions {
  const { threads: T, values: V } = tvs;
  const warps = Math.ceil(T / WARP);
  const perWarp = V / v;
  const addr = pool ? pool.get(warps * perWarp * WARP) : new Float64Array(warps * perWarp * WARP);
  for (let g = 0; g < warps; g++) {
    for (let k = 0; k < perWarp; k++) {
      const row = (g * perWarp + k) * WARP;
      if ((row & 0xffff) === 0xffe0) checkDeadline('bank_conflicts');
      for (let lane = 0; lane < WARP; lane++) {
        const t = g * WARP + lane;
        if (t < T) addr[row + lane] = e * offsets[t + T * k * v]!;
      }
    }
  }
  return { width: v * e, vector: v, threads: T, warps, perWarp, addr };
}

/** offsets below 2^30 take 32-bit operations (the addresses e·o stay exact doubles) */
const LIMIT = 2 ** 30;

/**
 * The instructions of one pass fused with the vector check (docs/semantics.md §9.2): with y the offset of
 * value k·w + i of thread t, table[x] at x = t + T·(k·w + i), or table[index[x]] when an index
 * is given (then every index must be below n), the candidate offset o = Sw(K + y) of the vector
 * lead (i = 0) must be ≡ 0 (mod w) and every value i at o + i; the byte address e·o goes to
 * the instruction table as `instructions` lays it out. `sw` null: no swizzle (K still added).
 * Null when some vector is not contiguous and aligned at w, an index is ≥ n, or an offset does
 * not fit 32-bit operations: the caller then takes the general path, which names the culprit.
 * Pre-condition: w divides the value count. Example: vectorInstructions(phiTable(M), tvs.index,
 * size(M), tvs, 2, 8, null, 0) for M = (8,64):(64,1) read row-wise by 8-value vectors.
 */
export function vectorInstructions(
  table: Int32Array,
  index: Int32Array | null,
  n: number,
  tvs: { readonly threads: number; readonly values: number },
  e: number,
  w: number,
  sw: Swizzle | null,
  k: number,
  pool?: Pool,
): Instructions | null {
  const { threads: T, values: V } = tvs;
  let mask = 0;
  let r = 0;
  let l = 0;
  if (sw !== null && sw.bits > 0) {
    if (topBit(sw) > 30) return null;
    mask = ((1 << sw.bits) - 1) << sourceLow(sw);
    r = sw.shift >= 0 ? sw.shift : 0;
    l = sw.shift >= 0 ? 0 : -sw.shift;
  }
  const warps = Math.ceil(T / WARP);
  const perWarp = V / w;
  const addr = pool ? pool.get(warps * perWarp * WARP) : new Float64Array(warps * perWarp * WARP);
  for (let q = 0; q < perWarp; q++) {
    const row = T * q * w;
    for (let t = 0; t < T; t++) {
      if ((t & 0xffff) === 0xffff) checkDeadline('bank_conflicts');
      let at = row + t;
      if (index !== null) {
        at = index[at]!;
        if (at >= n) return null;
      }
      const y = table[at]! + k;
      if (!(y >= 0 && y < LIMIT)) return null;
      const o = y ^ (((y & mask) >>> r) << l);
      if ((o & (w - 1)) !== 0) return null;
      for (let i = 1; i < w; i++) {
        let ai = row + T * i + t;
        if (index !== null) {
          ai = index[ai]!;
          if (ai >= n) return null;
        }
        const yi = table[ai]! + k;
        if (!(yi >= 0 && yi < LIMIT)) return null;
        if ((yi ^ (((yi & mask) >>> r) << l)) !== o + i) return null;
      }
      addr[(((t / WARP) | 0) * perWarp + q) * WARP + (t & (WARP - 1))] = e * o;
    }
  }
  return { width: w * e, vector: w, threads: T, warps, perWarp, addr };
}

/** Phases and wavefronts summed, and the worst phase (warp, instruction, phase, wavefronts). */
export function countWavefronts(
  ins: Instructions,
  scratch = new BankScratch(),
  from = 0,
  to = ins.warps,
): {
  phases: number;
  wavefronts: number;
  worst: { warp: number; instruction: number; phase: number; wavefronts: number };
} {
  const { width, threads, perWarp, addr, live } = ins; // read once: callers pass objects of several shapes
  const tpp = threadsPerPhase(width);
  let phases = 0;
  let total = 0;
  const worst = { warp: from, instruction: 0, phase: 0, wavefronts: 0 };
  for (let g = from; g < to; g++) {
    const lanes = Math.min(WARP, threads - g * WARP);
    for (let k = 0; k < perWarp; k++) {
      const row = (g * perWarp + k) * WARP;
      if ((row & 0xffff) === 0xffe0) checkDeadline('bank_conflicts');
      for (let f = 0; f * tpp < lanes; f++) {
        const n = Math.min(tpp, lanes - f * tpp);
        let c: number;
        if (live === undefined) c = scratch.phase(addr, row + f * tpp, n, width);
        else {
          // the live lanes' addresses only; a phase of none is no phase
          const buf = scratch.lanes;
          let m = 0;
          for (let i = f * tpp; i < f * tpp + n; i++) if (live[g * WARP + i] !== 0) buf[m++] = addr[row + i]!;
          if (m === 0) continue;
          c = scratch.phase(buf, 0, m, width);
        }
        phases++;
        total += c;
        if (c > worst.wavefronts) Object.assign(worst, { warp: g, instruction: k, phase: f, wavefronts: c });
      }
    }
  }
  return { phases, wavefronts: total, worst };
}

/** What bank_conflicts counts over the instructions: phases, wavefronts and the worst phase (countWavefronts), sectors
 *  and minSectors (sectorCounts). */
export interface BankCounts {
  phases: number;
  wavefronts: number;
  worst: { warp: number; instruction: number; phase: number; wavefronts: number };
  sectors: number;
  minSectors: number;
}

/**
 * countWavefronts and sectorCounts, a warp at a time: every count is a sum over warps of what that warp's addresses
 * (and live lanes) alone decide, so a warp whose addresses and live lanes are an earlier warp's repeats its counts
 * without counting them again (TV layouts that give several warps the same data: the warps of a tiled MMA along N all
 * read the same A). The worst phase is the first in (warp, instruction, phase) order, as countWavefronts reports it.
 * Earlier warps are found by their first and last addresses (a few per key), then compared lane by lane.
 */
export function bankCounts(ins: Instructions, scratch = new BankScratch()): BankCounts {
  const { warps, threads, perWarp, addr } = ins;
  const rowLen = perWarp * WARP;
  const out: BankCounts = { phases: 0, wavefronts: 0, worst: { warp: 0, instruction: 0, phase: 0, wavefronts: 0 }, sectors: 0, minSectors: 0 };
  const seen = new Map<number, { g: number; lanes: number; counts: BankCounts }[]>();
  for (let g = 0; g < warps; g++) {
    const lanes = Math.min(WARP, threads - g * WARP);
    const base = g * rowLen;
    const key = addr[base]! + addr[base + rowLen - WARP + lanes - 1]! * 0.5;
    let earlier = seen.get(key);
    let counts: BankCounts | undefined;
    if (earlier === undefined) seen.set(key, (earlier = []));
    else for (const w of earlier) if (counts === undefined && w.lanes === lanes && sameWarp(ins, w.g, g, lanes)) counts = w.counts;
    if (counts === undefined) {
      const { phases, wavefronts, worst } = countWavefronts(ins, scratch, g, g + 1);
      const { sectors, minSectors } = sectorCounts(ins, g, g + 1);
      counts = { phases, wavefronts, worst, sectors, minSectors };
      if (earlier.length < 4) earlier.push({ g, lanes, counts });
    }
    out.phases += counts.phases;
    out.wavefronts += counts.wavefronts;
    out.sectors += counts.sectors;
    out.minSectors += counts.minSectors;
    const cw = counts.worst;
    if (cw.wavefronts > out.worst.wavefronts) out.worst = { warp: g, instruction: cw.instruction, phase: cw.phase, wavefronts: cw.wavefronts };
  }
  return out;
}

/** Whether warps a and b (of `lanes` lanes each) have the same live lanes and the same addresses on them. */
function sameWarp(ins: Instructions, a: number, b: number, lanes: number): boolean {
  const { addr, live, perWarp } = ins;
  if (live !== undefined) for (let i = 0; i < lanes; i++) if (live[a * WARP + i] !== live[b * WARP + i]) return false;
  const rowLen = perWarp * WARP;
  for (let r = 0; r < rowLen; r += WARP) {
    if ((r & 0xffff) === 0xffe0) checkDeadline('bank_conflicts');
    for (let i = 0; i < lanes; i++) {
      if ((live === undefined || live[a * WARP + i] !== 0) && addr[a * rowLen + r + i] !== addr[b * rowLen + r + i]) return false;
    }
  }
  return true;
}

/** The lowest bank with `c` distinct words in phase f of instruction k of warp g, and the threads
 *  touching it (the worst phase as `bank_conflicts` reports it, docs/memory.md); bank −1 when none has c. */
export function worstBank(ins: Instructions, g: number, k: number, f: number, c: number): { bank: number; threads: number[] } {
  const tpp = threadsPerPhase(ins.width);
  const row = (g * ins.perWarp + k) * WARP;
  const first = f * tpp;
  const lanes = Math.min(tpp, ins.threads - g * WARP - first);
  const per = ins.width <= 4 ? 1 : ins.width / 4;
  const wordsOf = (lane: number): number[] => {
    const w0 = Math.floor(ins.addr[row + lane]! / 4);
    return Array.from({ length: per }, (_, q) => w0 + q);
  };
  const byBank = new Map<number, Set<number>>();
  for (let i = first; i < first + lanes; i++) {
    for (const w of wordsOf(i)) {
      const b = w % BANKS;
      if (!byBank.has(b)) byBank.set(b, new Set());
      byBank.get(b)!.add(w);
    }
  }
  let bank = -1;
  for (let b = 0; b < BANKS; b++)
    if ((byBank.get(b)?.size ?? 0) === c) {
      bank = b;
      break;
    }
  const threads: number[] = [];
  for (let i = first; i < first + lanes; i++) if (wordsOf(i).some((w) => w % BANKS === bank)) threads.push(g * WARP + i);
  return { bank, threads };
}

const vectorOk = (v: number, e: number): boolean => Number.isInteger(v) && v >= 1 && (v & (v - 1)) === 0 && v * e <= 16;

/** The fast path of bankConflicts: Φ_TV and M's Φ by 32-bit tables (M not much larger than
 *  what is accessed), the widest vector w; null when any of it does not hold. */
function fastInstructions(
  m: LayoutFunction,
  tv: Layout,
  shape: { threads: number; values: number },
  e: number,
  w: number,
  v: number | undefined,
): Instructions | null {
  if (shape.values % w !== 0 || (v !== undefined && !vectorOk(w, e))) return null;
  const inner = innerLayout(m);
  const n = size(inner);
  if (n > Math.max(4 * shape.threads * shape.values, 1 << 16)) return null;
  const index = phiTable32(tv, pools.tv32);
  const table = index && phiTable32(inner, pools.table32);
  if (!index || !table) return null;
  return isComposed(m)
    ? vectorInstructions(table, index, n, shape, e, w, m.swizzle, m.offset, pools.addr)
    : vectorInstructions(table, index, n, shape, e, w, null, 0, pools.addr);
}

// the tables of one analysis, reused by the next (bankConflicts is synchronous)
const pools = { tv: new Pool(), table: new Pool(), out: new Pool(), addr: new Pool(), tv32: new Pool32(), table32: new Pool32() };
const scratch = new BankScratch();

/**
 * bank_conflicts(M, TV, e[, v]) (docs/semantics.md §9.2, docs/protocol.md) on `target` (default §9.2's NVIDIA model; docs/memory.md "Machines"): M a memory layout (plain or
 * composed: tile index → element offset), TV a plain rank-2 thread-value layout, e the
 * element size in bytes (1, 2, 4, 8, 16), v the values per instruction (default: the widest
 * contiguous, aligned vector). Errors: `domain` for a bad e, v, TV, a TV value ≥ size(M), a
 * vector that is not contiguous and aligned (naming the thread), or an access the target's table
 * has no published phases for (machines.ts phaseGroups); `overflow` beyond 2^24 values.
 * Example: bank_conflicts((32,32):(32,1), (32,32):(1,32), 4, 1) has 1024 wavefronts in 32 phases.
 */
export function bankConflicts(m: LayoutFunction, tv: LayoutFunction, e: number, v?: number, target?: BankTarget): BankReport {
  checkElementSize(e);
  const shape = threadShape(tv);
  // the widest width first, fused with Φ_M and the addresses; the general path decides otherwise
  const wide = v ?? 16 / e;
  let ins = fastInstructions(m, tv as Layout, shape, e, wide, v);
  let vector = wide;
  if (ins === null) {
    const tvs = threadValues(tv, pools.tv);
    const offsets = accessOffsets(m, tvs, pools);
    vector = vectorWidth(offsets, tvs, e, v);
    ins = instructions(offsets, tvs, e, vector, pools.addr);
  }
  return bankReportOf(ins, target);
}

/** The bank_conflicts object of instructions however they were built (a TV layout, a tiled copy's tile, an MMA
 *  operand's tile, an LL conversion), on the target's machine (onMachine) or §9.2's NVIDIA model: the counts of
 *  bankCounts and the worst phase's bank and threads. */
export function bankReportOf(ins: Instructions, target?: BankTarget): BankReport {
  const on = onMachine(ins, target);
  if (on) return on;
  const { phases, wavefronts, worst, sectors, minSectors } = bankCounts(ins, scratch);
  let w: WorstPhase | null = null;
  if (wavefronts > phases) {
    const { bank, threads } = worstBank(ins, worst.warp, worst.instruction, worst.phase, worst.wavefronts);
    if (bank < 0) throw new LayoutError('domain', 'internal: the worst bank was not found');
    w = { instruction: worst.instruction, warp: worst.warp, phase: worst.phase, bank, wavefronts: worst.wavefronts, threads };
  }
  return { vector: ins.vector, instructions: ins.warps * ins.perWarp, phases, wavefronts, conflicts: wavefronts - phases, worst: w, sectors, minSectors };
}

export { BankScratch };

/**
 * The report of the instructions on a target other than §9.2's NVIDIA model (docs/memory.md "Machines": its waves and
 * phase groups, wave-counts.ts), or null for NVIDIA's, which the callers count as before. A target names its access
 * (`read`, `write`, an instruction): its row is checked on NVIDIA too (an AMD instruction there is `domain`).
 */
export function onMachine(ins: Instructions, target: BankTarget | undefined): BankReport | null {
  if (target === undefined) return null;
  const g = phaseGroups(target.machine, ins.width, target.access);
  return isNvidia(target) ? null : waveReport(ins, g);
}

/** Per tile index of M: the bank of its element (of its first byte) and the most distinct
 *  words its bank held in a phase that accessed it (0: never accessed, 1: no conflict). */
export interface BankMap {
  readonly report: BankReport;
  readonly bank: Int32Array;
  readonly ways: Int32Array;
}

/**
 * bank_conflicts with, per tile index of M, its bank and the conflict it met (for pictures:
 * `layoutgpu conflicts --svg`, the page). Errors as bankConflicts.
 * Example: bankMap((32,32):(32,1), (32,32):(1,32), 4, 1).ways[0] is 32.
 */
export function bankMap(m: LayoutFunction, tv: LayoutFunction, e: number, v?: number, target?: BankTarget): BankMap {
  const report = bankConflicts(m, tv, e, v, target);
  const tvs = threadValues(tv);
  const n = tvs.index.length === 0 ? 0 : sizeOfM(m);
  const ins = instructions(accessOffsets(m, tvs), tvs, e, report.vector);
  return { report, bank: tileBanks(m, e, n, target), ways: bankWays(ins, tvs.index, n, target) };
}

/** The bank of the element (of its first byte) at every tile index of M below n, e bytes per element. */
export function tileBanks(m: LayoutFunction, e: number, n = sizeOfM(m), target?: BankTarget): Int32Array {
  const bank = new Int32Array(n);
  const all = accessOffsets(m, { threads: n, values: 1, index: Float64Array.from({ length: n }, (_, i) => i) });
  const banks = target?.machine.banks ?? BANKS;
  for (let i = 0; i < n; i++) bank[i] = Math.floor((e * all[i]!) / 4) % banks;
  return bank;
}

/**
 * Per tile index below n, the most distinct words its element's bank held in a phase that accessed it (0: never
 * accessed, 1: no conflict), from the instructions (live lanes only) and `index`, the tile index of (t, j) at t + T·j:
 * the pictures of every side form (a TV layout, a tiled copy, an LL conversion).
 */
export function bankWays(ins: Instructions, index: ArrayLike<number>, n: number, target?: BankTarget): Int32Array {
  const ways = new Int32Array(n);
  const { threads: T, vector: vec, width, perWarp, addr, live } = ins;
  if (!isNvidia(target)) {
    // the machine's phases (wave-counts.ts): each value takes its vector's count
    const per = waveWays(ins, phaseGroups(target!.machine, width, target!.access));
    for (let j = 0; j * T < index.length; j++) {
      for (let t = 0; t < T; t++) {
        const x = index[t + T * j]!;
        if (x < n) ways[x] = Math.max(ways[x]!, per[t + T * Math.floor(j / vec)]!);
      }
    }
    return ways;
  }
  const e = width / vec;
  const per = width <= 4 ? 1 : width / 4;
  const tpp = threadsPerPhase(width);
  const words = new Map<number, Set<number>>();
  for (let g = 0; g < ins.warps; g++) {
    if ((g & 15) === 15) checkDeadline('the bank map');
    const lanes = Math.min(WARP, T - g * WARP);
    for (let k = 0; k < perWarp; k++) {
      const row = (g * perWarp + k) * WARP;
      for (let f = 0; f * tpp < lanes; f++) {
        const first = f * tpp;
        const last = Math.min(first + tpp, lanes);
        const on = (i: number): boolean => live === undefined || live[g * WARP + i] !== 0;
        words.clear();
        for (let i = first; i < last; i++) {
          if (!on(i)) continue;
          const w0 = Math.floor(addr[row + i]! / 4);
          for (let q = 0; q < per; q++) {
            const b = (w0 + q) % BANKS;
            if (!words.has(b)) words.set(b, new Set());
            words.get(b)!.add(w0 + q);
          }
        }
        for (let i = first; i < last; i++) {
          if (!on(i)) continue;
          const t = g * WARP + i;
          for (let u = 0; u < vec; u++) {
            const x = index[t + T * (k * vec + u)]!;
            const c = words.get(Math.floor((addr[row + i]! + u * e) / 4) % BANKS)!.size;
            if (x < n && c > ways[x]!) ways[x] = c;
          }
        }
      }
    }
  }
  return ways;
}

const sizeOfM = (m: LayoutFunction): number => size(innerLayout(m));

/** One row of the per-instruction table: its phases and their wavefronts. */
export interface InstructionRow {
  warp: number;
  instruction: number;
  phases: number;
  wavefronts: number;
}

/** The phases and wavefronts of every instruction, in (warp, instruction) order (the CLI's
 *  table). Errors as bankConflicts. */
export function instructionTable(m: LayoutFunction, tv: LayoutFunction, e: number, v?: number, target?: BankTarget): InstructionRow[] {
  checkElementSize(e);
  const tvs = threadValues(tv);
  const offsets = accessOffsets(m, tvs);
  return instructionRows(instructions(offsets, tvs, e, vectorWidth(offsets, tvs, e, v)), target);
}

/** The phases and wavefronts of every instruction of `ins`, in (warp, instruction) order, counted as
 *  countWavefronts counts them (live lanes only, a phase of none no phase), on the target's machine: every side
 *  form's table. */
export function instructionRows(ins: Instructions, target?: BankTarget): InstructionRow[] {
  if (target !== undefined) {
    const g = phaseGroups(target.machine, ins.width, target.access);
    if (!isNvidia(target)) return waveTable(ins, g);
  }
  const rows: InstructionRow[] = [];
  const sc = new BankScratch();
  for (let g = 0; g < ins.warps; g++) {
    for (let k = 0; k < ins.perWarp; k++) {
      // instruction k of warp g alone: one warp of one instruction, its lanes' liveness with it
      const at = (g * ins.perWarp + k) * WARP;
      const live = ins.live?.subarray(g * WARP, (g + 1) * WARP);
      const one: Instructions = {
        width: ins.width,
        vector: ins.vector,
        threads: Math.min(WARP, ins.threads - g * WARP),
        warps: 1,
        perWarp: 1,
        addr: ins.addr.subarray(at, at + WARP),
        ...(live ? { live } : {}),
      };
      const { phases, wavefronts } = countWavefronts(one, sc);
      rows.push({ warp: g, instruction: k, phases, wavefronts });
    }
  }
  return rows;
}

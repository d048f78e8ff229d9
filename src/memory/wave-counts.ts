/**
 * The bank counts on any machine of the model (docs/memory.md "Machines", src/memory/machines.ts):
 * the instructions as every builder lays them out (banks.ts `instructions`: thread t's address of
 * instruction k at ((t ÷ 32)·perWarp + k)·32 + t mod 32), counted by waves of `wave` threads and
 * the machine's phase groups. Instruction k of wave g moves values k·v … k·v+v−1 of threads
 * W·g … W·g+W−1; phase f serves the lanes of the machine's row; in a phase, threads on one word
 * share it and the phase takes as many wavefronts as the most distinct words in one of the B banks
 * (word w in bank w mod B). NVIDIA's machines take banks.ts's own loops (the same answers, tested);
 * this is the path of the others.
 */
import { checkDeadline } from '../algebra/deadline.js';
import type { Instructions } from './access.js';
import type { PhaseGroups } from './machines.js';
import { SECTOR_BYTES } from './sectors.js';

/** What is counted (banks.ts BankCounts, declared here again: banks.ts imports this file). */
export interface WaveCounts {
  phases: number;
  wavefronts: number;
  worst: { warp: number; instruction: number; phase: number; wavefronts: number };
  sectors: number;
  minSectors: number;
}

/** The worst phase of a report (banks.ts WorstPhase). */
export interface WaveWorst {
  instruction: number;
  warp: number;
  phase: number;
  bank: number;
  wavefronts: number;
  threads: number[];
}

/** The address of thread t's instruction k in banks.ts's layout of 32-lane rows. */
const at = (ins: Instructions, t: number, k: number): number => ins.addr[((t >>> 5) * ins.perWarp + k) * 32 + (t & 31)]!;

/** Instructions on the machine: waves × instructions per wave. */
export const waveInstructions = (ins: Instructions, g: PhaseGroups): number => Math.ceil(ins.threads / g.wave) * ins.perWarp;

/** Per-phase scratch for up to 64 lanes over up to 64 banks (distinct units per group of banks, stamped). */
class WaveScratch {
  readonly count = new Int32Array(64);
  readonly stamp = new Int32Array(64);
  readonly units = new Float64Array(64 * 64);
  gen = 0;

  /** The wavefronts of n accesses of w ≥ 4 bytes (each w-aligned) at a[0 …]: the most distinct
   *  w-byte units in one group of w/4 banks (B·4/w groups), which is the most distinct words in one bank. */
  phase(a: Float64Array, n: number, w: number, banks: number): number {
    const { count, stamp, units } = this;
    const gen = ++this.gen;
    const groups = (banks * 4) / w;
    let max = 1;
    for (let i = 0; i < n; i++) {
      const u = Math.floor(a[i]! / w);
      const b = u % groups;
      let c = stamp[b] === gen ? count[b]! : 0;
      stamp[b] = gen;
      let r = 0;
      while (r < c && units[b * 64 + r] !== u) r++;
      if (r === c) {
        units[b * 64 + c] = u;
        c++;
        if (c > max) max = c;
      }
      count[b] = c;
    }
    return max;
  }
}

const scratch = new WaveScratch();
const buf = new Float64Array(64);

/** The live lanes' addresses of phase f of instruction k of wave g into buf; their count. */
function gather(ins: Instructions, g: PhaseGroups, wave: number, k: number, f: number, out: Float64Array, threadsOut?: number[]): number {
  const { order, perPhase } = g;
  let m = 0;
  for (let i = f * perPhase; i < (f + 1) * perPhase; i++) {
    const t = wave * g.wave + order[i]!;
    if (t >= ins.threads || (ins.live !== undefined && ins.live[t] === 0)) continue;
    out[m++] = at(ins, t, k);
    threadsOut?.push(t);
  }
  return m;
}

/**
 * Phases, wavefronts, the worst phase (first in (wave, instruction, phase) order among equals), and the 32-byte
 * sectors per wave instruction, of the instructions on the machine's phase groups. Pre-condition: ins.width is
 * g.bytes (≥ 4: the rows with phases are b32, b64, b128).
 */
export function waveCounts(ins: Instructions, g: PhaseGroups): WaveCounts {
  const waves = Math.ceil(ins.threads / g.wave);
  const nPhases = g.wave / g.perPhase;
  const w = ins.width;
  const out: WaveCounts = { phases: 0, wavefronts: 0, worst: { warp: 0, instruction: 0, phase: 0, wavefronts: 0 }, sectors: 0, minSectors: 0 };
  const addrs = new Set<number>();
  const secs = new Set<number>();
  for (let q = 0; q < waves; q++) {
    for (let k = 0; k < ins.perWarp; k++) {
      if (((q * ins.perWarp + k) & 0x3ff) === 0x3ff) checkDeadline('bank_conflicts');
      addrs.clear();
      secs.clear();
      for (let f = 0; f < nPhases; f++) {
        const m = gather(ins, g, q, k, f, buf);
        if (m === 0) continue; // a phase of none is no phase
        const c = scratch.phase(buf, m, w, g.banks);
        out.phases++;
        out.wavefronts += c;
        if (c > out.worst.wavefronts) out.worst = { warp: q, instruction: k, phase: f, wavefronts: c };
        for (let i = 0; i < m; i++) {
          addrs.add(buf[i]!);
          secs.add(Math.floor(buf[i]! / SECTOR_BYTES));
        }
      }
      out.sectors += secs.size;
      out.minSectors += Math.ceil((addrs.size * w) / SECTOR_BYTES);
    }
  }
  return out;
}

/** The worst phase as `bank_conflicts` reports it (docs/protocol.md): its lowest bank with c distinct words and the
 *  live threads touching that bank, ascending; null when c does not exceed 1 (no conflict). */
export function waveWorst(ins: Instructions, g: PhaseGroups, worst: WaveCounts['worst']): WaveWorst | null {
  const { warp: q, instruction: k, phase: f, wavefronts: c } = worst;
  const a = new Float64Array(64);
  const threads: number[] = [];
  const m = gather(ins, g, q, k, f, a, threads);
  const per = ins.width / 4;
  const byBank = new Map<number, Set<number>>();
  for (let i = 0; i < m; i++) {
    for (let j = 0; j < per; j++) {
      const word = Math.floor(a[i]! / 4) + j;
      const b = word % g.banks;
      if (!byBank.has(b)) byBank.set(b, new Set());
      byBank.get(b)!.add(word);
    }
  }
  let bank = -1;
  for (let b = 0; b < g.banks && bank < 0; b++) if ((byBank.get(b)?.size ?? 0) === c) bank = b;
  const touching = threads.filter((_, i) => Array.from({ length: per }, (__, j) => (Math.floor(a[i]! / 4) + j) % g.banks).includes(bank)).sort((x, y) => x - y);
  return { instruction: k, warp: q, phase: f, bank, wavefronts: c, threads: touching };
}

/**
 * The `bank_conflicts` object (docs/protocol.md) of the instructions on the machine's phase groups: `instructions` =
 * waves × values / v, `warp` the wave, `phase` the phase's number in the machine's row (docs/memory.md "Machines").
 */
export function waveReport(
  ins: Instructions,
  g: PhaseGroups,
): {
  vector: number;
  instructions: number;
  phases: number;
  wavefronts: number;
  conflicts: number;
  worst: WaveWorst | null;
  sectors: number;
  minSectors: number;
} {
  const c = waveCounts(ins, g);
  const worst = c.wavefronts > c.phases ? waveWorst(ins, g, c.worst) : null;
  return {
    vector: ins.vector,
    instructions: waveInstructions(ins, g),
    phases: c.phases,
    wavefronts: c.wavefronts,
    conflicts: c.wavefronts - c.phases,
    worst,
    sectors: c.sectors,
    minSectors: c.minSectors,
  };
}

/** Per instruction in (wave, instruction) order, its phases and wavefronts on the machine (the CLI's table). */
export function waveTable(ins: Instructions, g: PhaseGroups): { warp: number; instruction: number; phases: number; wavefronts: number }[] {
  const rows: { warp: number; instruction: number; phases: number; wavefronts: number }[] = [];
  const waves = Math.ceil(ins.threads / g.wave);
  for (let q = 0; q < waves; q++) {
    for (let k = 0; k < ins.perWarp; k++) {
      const row = { warp: q, instruction: k, phases: 0, wavefronts: 0 };
      for (let f = 0; f < g.wave / g.perPhase; f++) {
        const m = gather(ins, g, q, k, f, buf);
        if (m === 0) continue;
        row.phases++;
        row.wavefronts += scratch.phase(buf, m, ins.width, g.banks);
      }
      rows.push(row);
    }
  }
  return rows;
}

/**
 * Per thread t and instruction k, the most distinct words one bank held in the phase that served it (banks.ts bankMap's
 * `ways`, on the machine): at t + threads·k. Every word of a w-byte access is in a bank of the same group, so the
 * phase's count for its group is that of each of its banks.
 */
export function waveWays(ins: Instructions, g: PhaseGroups): Int32Array {
  const out = new Int32Array(ins.threads * ins.perWarp);
  const waves = Math.ceil(ins.threads / g.wave);
  const groups = (g.banks * 4) / ins.width;
  const threads: number[] = [];
  for (let q = 0; q < waves; q++) {
    for (let k = 0; k < ins.perWarp; k++) {
      checkDeadline('the bank map');
      for (let f = 0; f < g.wave / g.perPhase; f++) {
        threads.length = 0;
        const m = gather(ins, g, q, k, f, buf, threads);
        const per = new Map<number, Set<number>>();
        for (let i = 0; i < m; i++) {
          const u = Math.floor(buf[i]! / ins.width);
          if (!per.has(u % groups)) per.set(u % groups, new Set());
          per.get(u % groups)!.add(u);
        }
        for (let i = 0; i < m; i++) out[threads[i]! + ins.threads * k] = per.get(Math.floor(buf[i]! / ins.width) % groups)!.size;
      }
    }
  }
  return out;
}

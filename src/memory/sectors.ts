/**
 * Global-memory sectors (docs/semantics.md §9.2, docs/protocol.md `bank_conflicts`): per instruction, the
 * distinct 32-byte sectors its bytes touch, against ⌈distinct bytes ÷ 32⌉, summed over the
 * instructions. Each thread's w-byte access is w-aligned (w ≤ 16), so it lies in one sector,
 * and two accesses of one instruction are equal or disjoint.
 */
import { checkDeadline } from '../algebra/deadline.js';
import type { Instructions } from './access.js';

export const SECTOR_BYTES = 32;

/** A set of at most 32 numbers, cleared by a generation stamp (open addressing over 64 slots). */
class SmallSet {
  private readonly key = new Float64Array(64);
  private readonly stamp = new Int32Array(64);
  private gen = 0;
  size = 0;
  clear(): void {
    this.gen++;
    this.size = 0;
  }
  /** add x (a non-negative integer); h is its hash */
  add(x: number, h: number): void {
    const { key, stamp, gen } = this;
    let i = h & 63;
    while (stamp[i] === gen) {
      if (key[i] === x) return;
      i = (i + 1) & 63;
    }
    stamp[i] = gen;
    key[i] = x;
    this.size++;
  }
}

const addrs = new SmallSet();
const secs = new SmallSet();

/** sectors and minSectors of the instructions (of warps from … to − 1). */
export function sectorCounts(ins: Instructions, from = 0, to = ins.warps): { sectors: number; minSectors: number } {
  let sectors = 0;
  let minSectors = 0;
  const { width: w, threads, perWarp, addr, live } = ins; // read once: callers pass objects of several shapes
  for (let g = from; g < to; g++) {
    const lanes = Math.min(32, threads - g * 32);
    for (let k = 0; k < perWarp; k++) {
      const row = (g * perWarp + k) * 32;
      if ((row & 0xffff) === 0xffe0) checkDeadline('the sector count');
      addrs.clear();
      secs.clear();
      // distinct addresses and distinct sectors of the instruction's lanes
      for (let i = 0; i < lanes; i++) {
        if (live !== undefined && live[g * 32 + i] === 0) continue;
        const a = addr[row + i]!;
        const s = Math.floor(a / SECTOR_BYTES);
        addrs.add(a, Math.floor(a / w) % 64);
        secs.add(s, s % 64);
      }
      sectors += secs.size;
      minSectors += Math.ceil((addrs.size * w) / SECTOR_BYTES);
    }
  }
  return { sectors, minSectors };
}

/**
 * Global-memory sectors (SPEC §9.2, BATCH-PROTOCOL `bank_conflicts`): per instruction, the
 * distinct 32-byte sectors its bytes touch, against ⌈distinct bytes ÷ 32⌉, summed over the
 * instructions. Each thread's w-byte access is w-aligned (w ≤ 16), so it lies in one sector,
 * and two accesses of one instruction are equal or disjoint.
 */
import type { Instructions } from './banks.js';

export const SECTOR_BYTES = 32;

/** sectors and minSectors of the instructions. */
export function sectorCounts(ins: Instructions): { sectors: number; minSectors: number } {
  let sectors = 0;
  let minSectors = 0;
  const a = new Float64Array(32);
  for (let g = 0; g < ins.warps; g++) {
    const lanes = Math.min(32, ins.threads - g * 32);
    const view = a.subarray(0, lanes);
    for (let k = 0; k < ins.perWarp; k++) {
      const row = (g * ins.perWarp + k) * 32;
      view.set(ins.addr.subarray(row, row + lanes));
      view.sort();
      // distinct addresses and distinct sectors, counted along the sorted addresses
      let na = 1;
      let ns = 1;
      for (let i = 1; i < lanes; i++) {
        if (view[i] !== view[i - 1]) na++;
        if (Math.floor(view[i]! / SECTOR_BYTES) !== Math.floor(view[i - 1]! / SECTOR_BYTES)) ns++;
      }
      sectors += ns;
      minSectors += Math.ceil((na * ins.width) / SECTOR_BYTES);
    }
  }
  return { sectors, minSectors };
}

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
  const seenAddr = new Float64Array(32);
  const seenSector = new Float64Array(32);
  for (let g = 0; g < ins.warps; g++) {
    const lanes = Math.min(32, ins.threads - g * 32);
    for (let k = 0; k < ins.perWarp; k++) {
      const row = (g * ins.perWarp + k) * 32;
      let na = 0;
      let ns = 0;
      for (let i = 0; i < lanes; i++) {
        const a = ins.addr[row + i]!;
        const s = Math.floor(a / SECTOR_BYTES);
        let r = 0;
        while (r < na && seenAddr[r] !== a) r++;
        if (r === na) seenAddr[na++] = a;
        r = 0;
        while (r < ns && seenSector[r] !== s) r++;
        if (r === ns) seenSector[ns++] = s;
      }
      sectors += ns;
      minSectors += Math.ceil((na * ins.width) / SECTOR_BYTES);
    }
  }
  return { sectors, minSectors };
}

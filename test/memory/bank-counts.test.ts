/**
 * bankCounts (memory/banks.ts): the counts of bank_conflicts a warp at a time, a warp equal to an earlier one counted
 * once, lanes that access nothing (Instructions.live) left out. Held to a brute-force count from the definition
 * (docs/memory.md: per phase, the most distinct 4-byte words in one bank; per instruction, the distinct 32-byte
 * sectors and ⌈distinct addresses · w / 32⌉) on random instructions built to repeat warps, with partial last warps.
 */
import { describe, expect, it } from 'vitest';
import { mulberry32, pick, randInt } from '../helpers/brute.js';
import { bankCounts, threadsPerPhase, type BankCounts } from '../../src/memory/banks.js';
import type { Instructions } from '../../src/memory/access.js';

function brute(ins: Instructions): BankCounts {
  const out: BankCounts = { phases: 0, wavefronts: 0, worst: { warp: 0, instruction: 0, phase: 0, wavefronts: 0 }, sectors: 0, minSectors: 0 };
  const tpp = threadsPerPhase(ins.width);
  const live = (t: number): boolean => ins.live === undefined || ins.live[t] === 1;
  for (let g = 0; g < ins.warps; g++) {
    const lanes = Math.min(32, ins.threads - 32 * g);
    for (let k = 0; k < ins.perWarp; k++) {
      const at = (i: number): number => ins.addr[(g * ins.perWarp + k) * 32 + i]!;
      const liveLanes = Array.from({ length: lanes }, (_, i) => i).filter((i) => live(32 * g + i));
      out.sectors += new Set(liveLanes.map((i) => Math.floor(at(i) / 32))).size;
      out.minSectors += Math.ceil((new Set(liveLanes.map(at)).size * ins.width) / 32);
      for (let f = 0; f * tpp < lanes; f++) {
        const inPhase = liveLanes.filter((i) => i >= f * tpp && i < (f + 1) * tpp);
        if (inPhase.length === 0) continue;
        const words = new Map<number, Set<number>>();
        for (const i of inPhase) {
          for (let b = at(i); b < at(i) + Math.max(ins.width, 1); b++) {
            const w = Math.floor(b / 4);
            if (!words.has(w % 32)) words.set(w % 32, new Set());
            words.get(w % 32)!.add(w);
          }
        }
        const c = Math.max(...[...words.values()].map((s) => s.size));
        out.phases++;
        out.wavefronts += c;
        if (c > out.worst.wavefronts) out.worst = { warp: g, instruction: k, phase: f, wavefronts: c };
      }
    }
  }
  return out;
}

describe('bankCounts', () => {
  it('equals the count from the definition on random instructions with repeated warps and left-out lanes', () => {
    const rng = mulberry32(0xba4c);
    let repeated = 0;
    for (let n = 0; n < 300; n++) {
      const width = pick(rng, [1, 2, 4, 8, 16]);
      const warps = randInt(rng, 1, 5);
      const threads = 32 * warps - (rng() < 0.3 ? randInt(rng, 1, 31) : 0);
      const perWarp = randInt(rng, 1, 3);
      const span = pick(rng, [64, 512, 4096]);
      const addr = new Float64Array(warps * perWarp * 32);
      for (let g = 0; g < warps; g++) {
        const copyOf = g > 0 && rng() < 0.5 ? randInt(rng, 0, g - 1) : -1;
        for (let j = 0; j < perWarp * 32; j++) {
          const a = g * perWarp * 32 + j;
          addr[a] = copyOf >= 0 ? addr[copyOf * perWarp * 32 + j]! : width * randInt(rng, 0, span / width - 1);
        }
        if (copyOf >= 0) {
          repeated++;
          if (rng() < 0.3) addr[g * perWarp * 32 + randInt(rng, 0, perWarp * 32 - 1)] = width * randInt(rng, 0, span / width - 1);
        }
      }
      const live = rng() < 0.5 ? undefined : Uint8Array.from({ length: threads }, (_, t) => (t % 32 < 16 || rng() < 0.3 ? 1 : 0));
      const ins: Instructions = { width, vector: 1, threads, warps, perWarp, addr, ...(live ? { live } : {}) };
      expect(bankCounts(ins), `case ${n}`).toEqual(brute(ins));
    }
    expect(repeated).toBeGreaterThan(100);
  });
});

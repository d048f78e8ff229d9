/**
 * An independent brute-force bank counter for the tests (docs/semantics.md §9.2), written from the model
 * and not from src/memory: enumerate threads, bytes, words and banks with Maps and Sets.
 */
export interface BruteReport {
  vector: number;
  instructions: number;
  phases: number;
  wavefronts: number;
  conflicts: number;
  worst: { instruction: number; warp: number; phase: number; bank: number; wavefronts: number; threads: number[] } | null;
  sectors: number;
  minSectors: number;
}

/** A machine as the brute force sees it: threads per warp (wave), banks, and the phase of a lane for w bytes. */
export interface BruteMachine {
  wave: number;
  banks: number;
  phase: (lane: number, bytes: number) => number;
}

/** §9.2's NVIDIA model: 32-thread warps, 32 banks, phases of 32, 32, 32, 16, 8 consecutive threads. */
export const NVIDIA_BRUTE: BruteMachine = {
  wave: 32,
  banks: 32,
  phase: (lane, bytes) => Math.floor(lane / { 1: 32, 2: 32, 4: 32, 8: 16, 16: 8 }[bytes as 1 | 2 | 4 | 8 | 16]!),
};

const bit = (l: number, i: number): number => (l >> i) & 1;

/**
 * gfx942's and gfx950's phases (docs/memory.md "Machines"), read (`read`) or write: 16-byte reads in triton#11365's
 * affine forms of the lane bits, every other width in #9662's consecutive groups of 4·banks / w lanes.
 */
export const amdBrute = (n: 'gfx942' | 'gfx950', read: boolean): BruteMachine => ({
  wave: 64,
  banks: n === 'gfx942' ? 32 : 64,
  phase: (l, w) => {
    if (w === 16 && read) return n === 'gfx942' ? bit(l, 5) + 2 * (bit(l, 2) ^ bit(l, 4)) + 4 * bit(l, 3) : bit(l, 5) + 2 * (bit(l, 2) ^ bit(l, 3) ^ bit(l, 4));
    return Math.floor(l / Math.min(64, (4 * (n === 'gfx942' ? 32 : 64)) / w));
  },
});

/** offset(t, j): the element offset of value j of thread t; T threads, V values each; on machine `mc` (default NVIDIA). */
export function bruteBanks(
  offset: (t: number, j: number) => number,
  T: number,
  V: number,
  e: number,
  v?: number,
  mc: BruteMachine = NVIDIA_BRUTE,
): BruteReport | 'bad-vector' {
  const ok = (w: number): boolean => {
    if (V % w !== 0) return false;
    for (let t = 0; t < T; t++)
      for (let k = 0; k < V / w; k++) {
        const a = offset(t, k * w);
        if ((a * e) % (w * e) !== 0) return false;
        for (let i = 0; i < w; i++) if (offset(t, k * w + i) !== a + i) return false;
      }
    return true;
  };
  let vec = v ?? 1;
  if (v === undefined) {
    for (const w of [16, 8, 4, 2, 1].map((b) => b / e).filter((w) => w >= 1))
      if (ok(w)) {
        vec = w;
        break;
      }
  } else if (!ok(v)) return 'bad-vector';
  const bytes = vec * e;
  const W = mc.wave;
  const warps = Math.ceil(T / W);
  let phases = 0;
  let wavefronts = 0;
  let sectors = 0;
  let minSectors = 0;
  let worst: BruteReport['worst'] = null;
  let worstC = 0;
  for (let g = 0; g < warps; g++) {
    for (let k = 0; k < V / vec; k++) {
      const allBytes = new Set<number>();
      const secs = new Set<number>();
      const phaseOf = new Map<number, number[]>();
      for (let t = W * g; t < Math.min(T, W * g + W); t++) {
        const f = mc.phase(t - W * g, bytes);
        if (!phaseOf.has(f)) phaseOf.set(f, []);
        phaseOf.get(f)!.push(t);
        for (let i = 0; i < vec; i++)
          for (let b = 0; b < e; b++) {
            const byte = e * offset(t, k * vec + i) + b;
            allBytes.add(byte);
            secs.add(Math.floor(byte / 32));
          }
      }
      sectors += secs.size;
      minSectors += Math.ceil(allBytes.size / 32);
      for (const [f, ts] of [...phaseOf.entries()].sort((a, b) => a[0] - b[0])) {
        phases++;
        const bankWords = new Map<number, Set<number>>();
        const touches = new Map<number, Set<number>>(); // bank → threads
        for (const t of ts)
          for (let i = 0; i < vec; i++)
            for (let b = 0; b < e; b++) {
              const word = Math.floor((e * offset(t, k * vec + i) + b) / 4);
              const bank = word % mc.banks;
              if (!bankWords.has(bank)) bankWords.set(bank, new Set());
              bankWords.get(bank)!.add(word);
              if (!touches.has(bank)) touches.set(bank, new Set());
              touches.get(bank)!.add(t);
            }
        let c = 0;
        let bank = -1;
        for (let b = 0; b < mc.banks; b++) {
          const n = bankWords.get(b)?.size ?? 0;
          if (n > c) [c, bank] = [n, b];
        }
        wavefronts += c;
        if (c > worstC) {
          worstC = c;
          worst = { instruction: k, warp: g, phase: f, bank, wavefronts: c, threads: [...touches.get(bank)!].sort((a, b) => a - b) };
        }
      }
    }
  }
  return {
    vector: vec,
    instructions: warps * (V / vec),
    phases,
    wavefronts,
    conflicts: wavefronts - phases,
    worst: wavefronts > phases ? worst : null,
    sectors,
    minSectors,
  };
}

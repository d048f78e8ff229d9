/**
 * The conflict-free search: the CPU path against a loop of bank_conflicts, the GPU kernel
 * (shaders/conflicts.wgsl, on the real adapter) against the CPU, the ranking, and the README's
 * worked example (an fp16 128×64 K-major tile, 128-bit row-wise write + ldmatrix-style read).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeLayout } from '../../src/algebra/layout.js';
import { parseLayout } from '../../src/algebra/notation.js';
import { makeComposed, parseLayoutFunction, type LayoutFunction } from '../../src/cute/composed.js';
import { makeSwizzle } from '../../src/cute/swizzle.js';
import type { NodeDevice } from '../../src/engine/node/device-node.js';
import { GpuConflictSearch } from '../../src/engine/conflicts-gpu.js';
import { rankResults, searchCpu, swizzleCandidates, type AccessPattern } from '../../src/memory/search.js';
import { verifyTestDevice } from '../verify/device.js';
import { loop, strip } from './_search.js';

// the 8×64 fp16 tile: ldmatrix-style read, and a 128-bit row-wise write by 64 threads
const SMALL: AccessPattern[] = [
  { tv: parseLayout('((8,4),(8,2)):((1,64),(8,256))'), e: 2 },
  { tv: parseLayout('((8,8),8):((64,1),8)'), e: 2 },
];
// the README's 128×64 tile (tile index row + 128·col)
const WRITE = parseLayout('((8,16),(8,8)):((1024,1),(128,16))');
const READ = parseLayout('((8,4,4),(8,2,4)):((1,1024,8),(128,4096,32))');
const BIG: AccessPattern[] = [
  { tv: WRITE, e: 2 },
  { tv: READ, e: 2 },
];

describe('the swizzle source', () => {
  it('enumerates every Sw<B,M,S> with 1 ≤ B ≤ 5, M ≤ 7, B ≤ |S| ≤ 10', () => {
    const c = swizzleCandidates(makeLayout(8, 1));
    expect(c.length).toBe(8 * [1, 2, 3, 4, 5].reduce((a, b) => a + 2 * (11 - b), 0));
    expect(new Set(c.map((x) => `${x.swizzle.bits},${x.swizzle.base},${x.swizzle.shift}`)).size).toBe(c.length);
  });
});

describe('the search on the CPU', () => {
  it('equals a loop of bank_conflicts, candidate by candidate (swizzles, offsets, plain layouts)', () => {
    const base = parseLayout('(8,64):(64,1)');
    const cands: LayoutFunction[] = [
      ...swizzleCandidates(base),
      base,
      parseLayout('(8,64):(1,8)'),
      makeComposed(makeSwizzle(2, 3, -4), 8, base),
      parseLayoutFunction('Sw<3,3,3> o (8,64):(72,1)'),
    ];
    expect(strip(searchCpu(cands, SMALL))).toEqual(loop(cands, SMALL));
    const explicit: AccessPattern[] = [{ ...SMALL[0]!, v: 8 }];
    expect(strip(searchCpu(cands, explicit))).toEqual(loop(cands, explicit));
  });
  it('ranks by total wavefronts: Sw<3,3,3> is conflict-free for the 8×64 tile, the plain layout is not', () => {
    const base = parseLayout('(8,64):(64,1)');
    const cands = [base, ...swizzleCandidates(base)];
    const ranked = rankResults(cands, searchCpu(cands, SMALL));
    expect(ranked[0]!.conflictFree).toBe(true);
    expect(ranked.find((r) => r.layout === 'Sw<3,3,3> o (8,64):(64,1)')!.conflictFree).toBe(true);
    expect(ranked.find((r) => r.index === 0)!.conflictFree).toBe(false);
    // wavefronts ascend among candidates level on (vector kept, instructions) (search-rank.test.ts checks the whole order)
    for (let i = 1; i < ranked.length; i++) {
      const [a, b] = [ranked[i - 1]!, ranked[i]!];
      if (a.kept === b.kept && a.instructions === b.instructions) expect((a.wavefronts ?? Infinity) <= (b.wavefronts ?? Infinity)).toBe(true);
    }
  });
  it("the README's example: Sw<3,3,3> o (128,64):(64,1) is conflict-free for the write and the ldmatrix read", () => {
    const base = parseLayout('(128,64):(64,1)');
    const plain = searchCpu([base], BIG)[0]!;
    expect(plain.conflictFree).toBe(false);
    const found = rankResults(swizzleCandidates(base), searchCpu(swizzleCandidates(base), BIG)).filter((r) => r.conflictFree);
    expect(found.map((r) => r.layout)).toContain('Sw<3,3,3> o (128,64):(64,1)');
  });
});

describe('the search on the GPU (shaders/conflicts.wgsl)', () => {
  let dev: NodeDevice;
  beforeAll(async () => {
    dev = await verifyTestDevice();
  });
  afterAll(() => dev?.release());
  it('answers exactly as the CPU: every swizzle of the 8×64 and 128×64 tiles, other candidates, explicit vectors', async () => {
    // with the phase classes (main_classes) for the candidates they price, and with the two
    // passes alone for every candidate
    for (const gpu of [new GpuConflictSearch(dev.device), new GpuConflictSearch(dev.device, { classes: false })]) {
      const small = parseLayout('(8,64):(64,1)');
      const cands: LayoutFunction[] = [...swizzleCandidates(small), small, parseLayout('(8,64):(1,8)'), makeComposed(makeSwizzle(2, 3, -4), 8, small)];
      expect(strip(await gpu.search(cands, SMALL))).toEqual(strip(searchCpu(cands, SMALL)));
      const explicit: AccessPattern[] = [
        { ...SMALL[0]!, v: 8 },
        { tv: parseLayout('(32,16):(1,32)'), e: 4, v: 1 },
      ];
      expect(strip(await gpu.search(cands, explicit))).toEqual(strip(searchCpu(cands, explicit)));
      const big = swizzleCandidates(parseLayout('(128,64):(64,1)')).filter((_, i) => i % 8 === 0); // a slice: lavapipe is slow
      expect(strip(await gpu.search(big, BIG))).toEqual(strip(searchCpu(big, BIG)));
    }
    // the whole 128×64 search, through the classes
    const all = swizzleCandidates(parseLayout('(128,64):(64,1)'));
    expect(strip(await new GpuConflictSearch(dev.device).search(all, BIG))).toEqual(strip(searchCpu(all, BIG)));
  }, 180_000);
  it('takes any swizzle the CPU takes, with the same answer (issue 18 item 4): fields far above the tile, masks past 2^64, shifts past 32', async () => {
    const tile = parseLayout('(64,64):(64,1)');
    const pattern: AccessPattern[] = [{ tv: parseLayout('(32,4):(64,1)'), e: 4 }];
    const named = ['Sw<1,0,32>', 'Sw<3,1000,3>', 'Sw<1,40,1>', 'Sw<1,0,-33>', 'Sw<33,0,33>', 'Sw<5,28,-5>'].map((sw) =>
      parseLayoutFunction(`${sw} o (64,64):(64,1)`),
    );
    // random swizzles whose fields lie anywhere from bit 0 to bit 60
    let seed = 1809;
    const rnd = (n: number): number => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
    const random: LayoutFunction[] = [];
    while (random.length < 120) {
      const b = 1 + rnd(6);
      const s = (rnd(3) === 0 ? -1 : 1) * (b + rnd(30));
      try {
        random.push(makeComposed(makeSwizzle(b, rnd(40), s), rnd(4) === 0 ? rnd(1 << 12) : 0, tile));
      } catch {
        // offsets past 2^53 (a left shift into high bits): no layout, on either side
      }
    }
    const cands = [...named, ...random, tile];
    const cpu = searchCpu(cands, pattern);
    expect(strip(await new GpuConflictSearch(dev.device).search(cands, pattern))).toEqual(strip(cpu));
    // Sw<1,40,1> and Sw<3,1000,3> leave the tile unchanged: conflict-free there as the tile itself
    expect(cpu.slice(1, 3).map((r) => r.conflictFree)).toEqual([cpu[cands.length - 1]!.conflictFree, cpu[cands.length - 1]!.conflictFree]);
  }, 180_000);
});

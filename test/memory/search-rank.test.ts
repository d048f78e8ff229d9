/**
 * The swizzle search recommends what a kernel can use (issue 18): a memory layout that is not
 * injective is excluded; every candidate reports its vector width and instructions (the oracle:
 * bank_conflicts' report of the same candidate); the ranking is (vector kept, instructions,
 * wavefronts), so Sw<4,2,4>, which splits every 128-bit access of the 8×64 fp16 tile in two,
 * ranks below Sw<3,3,3>. The GPU search answers the same.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { size } from '../../src/algebra/layout.js';
import { parseLayout } from '../../src/algebra/notation.js';
import { innerLayout, parseLayoutFunction, type LayoutFunction } from '../../src/cute/composed.js';
import type { NodeDevice } from '../../src/engine/node/device-node.js';
import { bankConflicts } from '../../src/memory/banks.js';
import { GpuConflictSearch } from '../../src/engine/conflicts-gpu.js';
import { rankResults, searchCpu, swizzleCandidates, targetVectors, type AccessPattern, type CandidateResult } from '../../src/memory/search.js';
import { phi } from '../../src/algebra/layout.js';
import { verifyTestDevice } from '../verify/device.js';
import { conflictFreeVerify } from '../../src/ops/verify-conflicts.js';
import { CpuBackend } from '../../src/engine/cpu.js';
import type { OpContext } from '../../src/ops/spec.js';

const READ: AccessPattern = { tv: parseLayout('((8,4),(8,2)):((1,64),(8,256))'), e: 2 };
const WRITE: AccessPattern = { tv: parseLayout('((8,8),8):((64,1),8)'), e: 2 };
const BASE = parseLayout('(8,64):(64,1)');

/** injective by the definition: Φ at every index, no value twice */
function injectiveBrute(l: LayoutFunction): boolean {
  const inner = innerLayout(l);
  const seen = new Set<number>();
  for (let x = 0; x < size(inner); x++) {
    const v = phi(inner, x);
    if (seen.has(v)) return false;
    seen.add(v);
  }
  return true;
}

/** vectors and instructions of a candidate from bank_conflicts, pattern by pattern (null: an error) */
function oracle(c: LayoutFunction, patterns: readonly AccessPattern[]): { vectors: number[]; instructions: number } | null {
  try {
    const rs = patterns.map((p) => bankConflicts(c, p.tv, p.e, p.v));
    return { vectors: rs.map((r) => r.vector), instructions: rs.reduce((a, r) => a + r.instructions, 0) };
  } catch {
    return null;
  }
}

const CANDS: LayoutFunction[] = [
  ...swizzleCandidates(BASE),
  BASE,
  parseLayout('(8,64):(0,1)'),
  parseLayout('(8,64):(1,0)'),
  parseLayoutFunction('Sw<3,3,3> o (8,64):(8,1)'),
  parseLayout('(8,64):(1,8)'),
  parseLayout('(8,64):(64,2)'),
];

function checkAgainstOracle(got: readonly CandidateResult[], patterns: readonly AccessPattern[]): void {
  CANDS.forEach((c, i) => {
    const r = got[i]!;
    if (!injectiveBrute(c)) {
      expect(r.excluded, String(i)).toBe('not-injective');
      expect(r.conflictFree).toBe(false);
      return;
    }
    expect(r.excluded).toBeUndefined();
    const o = oracle(c, patterns);
    if (o === null) expect(r.wavefronts).toBeNull();
    else expect({ vectors: r.vectors, instructions: r.instructions }, String(i)).toEqual(o);
  });
}

describe('the search on the CPU: what a kernel can use', () => {
  it('excludes a memory layout that is not injective, never conflict-free', () => {
    const rs = searchCpu(CANDS, [READ]);
    expect(rs[CANDS.length - 5]).toMatchObject({ conflictFree: false, excluded: 'not-injective' });
    expect(rs[CANDS.length - 4]).toMatchObject({ conflictFree: false, excluded: 'not-injective' });
    checkAgainstOracle(rs, [READ]);
    checkAgainstOracle(searchCpu(CANDS, [READ, WRITE]), [READ, WRITE]);
  });
  it('the target vector width: the widest the base and the TV allow', () => {
    expect(targetVectors([READ], BASE)).toEqual([8]);
    expect(targetVectors([READ])).toEqual([8]);
    expect(targetVectors([READ], parseLayout('(8,64):(1,8)'))).toEqual([1]);
    expect(targetVectors([{ ...READ, v: 2 }], BASE)).toEqual([2]);
    expect(targetVectors([{ tv: parseLayout('(32,4):(4,1)'), e: 1 }])).toEqual([4]);
  });
  it('ranks by (vector kept, instructions, wavefronts): Sw<4,2,4> below Sw<3,3,3> (both conflict-free for the write)', () => {
    const cands = swizzleCandidates(BASE);
    const patterns = [WRITE];
    const ranked = rankResults(cands, searchCpu(cands, patterns), targetVectors(patterns, BASE));
    const at = (t: string): number => ranked.findIndex((r) => r.layout === t);
    const s424 = ranked[at('Sw<4,2,4> o (8,64):(64,1)')]!;
    const s333 = ranked[at('Sw<3,3,3> o (8,64):(64,1)')]!;
    expect(s333).toMatchObject({ kept: true, vectors: [8], conflictFree: true });
    expect(s424).toMatchObject({ kept: false, vectors: [4], conflictFree: true });
    expect(s424.wavefronts).toBe(s333.wavefronts); // level on wavefronts: the vector decides
    expect(at('Sw<3,3,3> o (8,64):(64,1)')).toBeLessThan(at('Sw<4,2,4> o (8,64):(64,1)'));
    // the order, checked pairwise from the oracle's vectors, instructions and wavefronts
    const key = (r: (typeof ranked)[number]): number[] => {
      const o = oracle(cands[r.index]!, patterns);
      if (o === null) return [1, 0, 0, 0, r.index];
      const w = patterns.reduce((a, p) => a + bankConflicts(cands[r.index]!, p.tv, p.e).wavefronts, 0);
      return [0, o.vectors[0]! >= 8 ? 0 : 1, o.instructions, w, r.index];
    };
    const keys = ranked.map(key);
    for (let i = 1; i < keys.length; i++) {
      const a = keys[i - 1]!;
      const b = keys[i]!;
      const k = a.findIndex((v, j) => v !== b[j]);
      expect(k === -1 || a[k]! < b[k]!, `${ranked[i - 1]!.layout} before ${ranked[i]!.layout}`).toBe(true);
    }
  });
});

describe('verify ["conflict-free", …] in batch', () => {
  it('answers false for a memory layout that is not injective (it was true: every access hit one bank word)', async () => {
    const ctx: OpContext = { backendChoice: 'cpu', backend: async () => new CpuBackend() };
    const got = await conflictFreeVerify(['conflict-free', '((8,8),8):((64,1),8)', 2], ['(8,64):(0,1)', '(8,64):(64,0)', 'Sw<3,3,3> o (8,64):(64,1)'], ctx);
    expect(got).toEqual([false, false, true]);
    expect(injectiveBrute(parseLayout('(8,64):(0,1)'))).toBe(false);
  });
});

describe('the search on the GPU reports the same vectors, instructions and exclusions', () => {
  let dev: NodeDevice;
  beforeAll(async () => {
    dev = await verifyTestDevice();
  });
  afterAll(() => dev?.release());
  it('with the phase classes and with the two passes alone', async () => {
    for (const gpu of [new GpuConflictSearch(dev.device), new GpuConflictSearch(dev.device, { classes: false })]) {
      const got = await gpu.search(CANDS, [READ, WRITE]);
      checkAgainstOracle(got, [READ, WRITE]);
    }
  }, 120_000);
});

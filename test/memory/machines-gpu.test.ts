/**
 * The conflict-free search on every machine (docs/memory.md "Machines"): the CPU path against bank_conflicts on the
 * machine per candidate, and the GPU (shaders/conflicts.wgsl: the machine's lane tables and banks) against the CPU,
 * field by field, error texts and instruction counts included.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LayoutError } from '../../src/algebra/errors.js';
import { parseLayout } from '../../src/algebra/notation.js';
import { makeComposed, parseLayoutFunction, type LayoutFunction } from '../../src/cute/composed.js';
import { makeSwizzle } from '../../src/cute/swizzle.js';
import type { NodeDevice } from '../../src/engine/node/device-node.js';
import { GpuConflictSearch } from '../../src/engine/conflicts-gpu.js';
import { bankConflicts } from '../../src/memory/banks.js';
import { MACHINE_NAMES, MACHINES } from '../../src/memory/machines.js';
import { searchCpu, swizzleCandidates, type AccessPattern, type CandidateResult } from '../../src/memory/search.js';
import { verifyTestDevice } from '../verify/device.js';

/** bank_conflicts on each candidate and pattern, summed (the loop the search replaces), on the patterns' targets. */
function loop(
  cands: readonly LayoutFunction[],
  patterns: readonly AccessPattern[],
): { wavefronts: number | null; phases: number | null; conflictFree: boolean }[] {
  return cands.map((c) => {
    let wavefronts = 0;
    let phases = 0;
    let free = true;
    try {
      for (const p of patterns) {
        const r = bankConflicts(c, p.tv, p.e, p.v, p.target);
        wavefronts += r.wavefronts;
        phases += r.phases;
        if (r.conflicts > 0) free = false;
      }
    } catch (e) {
      if (e instanceof LayoutError) return { wavefronts: null, phases: null, conflictFree: false };
      throw e;
    }
    return { wavefronts, phases, conflictFree: free };
  });
}
const verdicts = (rs: readonly CandidateResult[]) => rs.map(({ wavefronts, phases, conflictFree }) => ({ wavefronts, phases, conflictFree }));

/** The worked pair of docs/memory.md (128×64 fp16: a 128-bit row-wise write, an ldmatrix-style read) on a machine. */
const pair = (arch: (typeof MACHINE_NAMES)[number]): AccessPattern[] => [
  { tv: parseLayout('((8,16),(8,8)):((1024,1),(128,16))'), e: 2, target: { machine: MACHINES.get(arch)!, access: 'write' } },
  { tv: parseLayout('((8,4,4),(8,2,4)):((1,1024,8),(128,4096,32))'), e: 2, target: { machine: MACHINES.get(arch)!, access: 'read' } },
];
/** 64 threads reading 4- and 8-byte values of a 64×64 fp32 tile by columns, with a ragged last wave (96 threads). */
const narrow = (arch: (typeof MACHINE_NAMES)[number]): AccessPattern[] => [
  { tv: parseLayout('(64,64):(64,1)'), e: 4, target: { machine: MACHINES.get(arch)! } },
  { tv: parseLayout('(96,(2,16)):(2,(1,192))'), e: 4, target: { machine: MACHINES.get(arch)! } },
];

describe('the conflict-free search on every machine', () => {
  it('the CPU equals bank_conflicts on the machine, candidate by candidate', () => {
    const cands = swizzleCandidates(parseLayout('(128,64):(64,1)')).filter((_, i) => i % 5 === 0);
    for (const arch of MACHINE_NAMES) expect(verdicts(searchCpu(cands, pair(arch)))).toEqual(loop(cands, pair(arch)));
    const tile = parseLayout('(64,64):(64,1)');
    const more = [tile, ...swizzleCandidates(tile).filter((_, i) => i % 9 === 0)];
    for (const arch of MACHINE_NAMES) expect(verdicts(searchCpu(more, narrow(arch)))).toEqual(loop(more, narrow(arch)));
  }, 120_000);
});

describe('the conflict-free search on the GPU on every machine (shaders/conflicts.wgsl)', () => {
  let dev: NodeDevice;
  beforeAll(async () => {
    dev = await verifyTestDevice();
  });
  afterAll(() => dev?.release());
  it('answers exactly as the CPU: every field, error texts and instruction counts included', async () => {
    const gpu = new GpuConflictSearch(dev.device);
    const big = swizzleCandidates(parseLayout('(128,64):(64,1)')).filter((_, i) => i % 4 === 0);
    const tile = parseLayout('(64,64):(64,1)');
    const more: LayoutFunction[] = [tile, ...swizzleCandidates(tile).filter((_, i) => i % 3 === 0), makeComposed(makeSwizzle(2, 3, -4), 8, tile)];
    more.push(parseLayoutFunction('Sw<1,0,3> o (64,64):(64,1)')); // breaks 8-byte vectors: narrower widths
    for (const arch of MACHINE_NAMES) {
      expect(await gpu.search(big, pair(arch))).toEqual(searchCpu(big, pair(arch)));
      expect(await gpu.search(more, narrow(arch))).toEqual(searchCpu(more, narrow(arch)));
      // a 16-byte access with no direction on AMD: every candidate that reaches it answers the model's error
      const both = pair(arch).map(({ target, ...p }) => ({ ...p, target: { machine: target!.machine } }));
      expect(await gpu.search(big, both)).toEqual(searchCpu(big, both));
    }
  }, 300_000);
});

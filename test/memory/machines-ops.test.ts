/**
 * The machine through every bank analysis (docs/memory.md "Machines", docs/protocol.md): copy_bank_conflicts (its side
 * is the direction) against the brute-force counter over the copy's own accesses, ll_bank_conflicts against
 * bank_conflicts on the CuTe forms, verify conflict-free through batch's property, and the refusals.
 */
import { describe, expect, it } from 'vitest';
import { parseLayout } from '../../src/algebra/notation.js';
import { phi } from '../../src/algebra/layout.js';
import { makeComposed, parseLayoutFunction, phiComposed, type LayoutFunction } from '../../src/cute/composed.js';
import { makeSwizzle } from '../../src/cute/swizzle.js';
import { makeTiledCopy } from '../../src/atoms/tiled-copy.js';
import { copyBankConflicts, tileAccesses } from '../../src/atoms/conflicts.js';
import { llBankConflicts } from '../../src/linear/banks.js';
import { llFromEncoding } from '../../src/linear/encodings.js';
import { bankConflicts } from '../../src/memory/banks.js';
import { MACHINES, type MachineName } from '../../src/memory/machines.js';
import { searchCpu } from '../../src/memory/search.js';
import { runOp } from '../../src/ops/table.js';
import type { OpContext } from '../../src/ops/spec.js';
import { kindOfAsync } from '../helpers/kind.js';
import { amdBrute, bruteBanks } from './brute-banks.js';

const ctx = { backendChoice: 'cpu', backend: async () => Promise.reject(new Error('no backend')) } as unknown as OpContext;
const machine = (n: MachineName) => MACHINES.get(n)!;
const phiFn = (m: LayoutFunction, x: number): number => ('swizzle' in m ? phiComposed(m, x) : phi(m, x));
const brute = amdBrute;

describe('copy_bank_conflicts on a machine', () => {
  const copy = makeTiledCopy({ atom: 'UniversalCopy<uint128_t>', bits: 16, thr: parseLayout('(16,8):(8,1)'), val: parseLayout('(1,8)') });
  const layouts: LayoutFunction[] = [
    parseLayout('(128,64):(64,1)'),
    makeComposed(makeSwizzle(3, 3, 3), 0, parseLayout('(128,64):(64,1)')),
    parseLayout('(128,64):(72,1)'),
  ];
  it('equals the brute-force count over the copy’s own accesses, the side giving the direction', () => {
    for (const n of ['gfx942', 'gfx950'] as const)
      for (const m of layouts)
        for (const side of ['src', 'dst'] as const) {
          const acc = tileAccesses(copy, side, m);
          const off = (t: number, j: number): number => phiFn(m, acc.index[t + acc.threads * j]!);
          const want = bruteBanks(off, acc.threads, acc.values, 2, 8, brute(n, side === 'src'));
          expect(copyBankConflicts(copy, m, side, machine(n))).toEqual(want);
        }
  });
  it("NVIDIA's machines answer as before, and an NVIDIA-only atom on AMD is domain", async () => {
    for (const m of layouts) expect(copyBankConflicts(copy, m, 'dst', machine('sm80'))).toEqual(copyBankConflicts(copy, m, 'dst'));
    const ldsm = { atom: 'SM75_U32x4_LDSM_N', bits: 16, thr: '32:1', val: '(1,8)' };
    expect(await kindOfAsync(runOp('copy_bank_conflicts', [ldsm, '(32,64):(64,1)', { arch: 'gfx942' }], ctx))).toBe('domain');
    await expect(runOp('copy_bank_conflicts', [ldsm, '(32,64):(64,1)', { arch: 'gfx950' }], ctx)).rejects.toThrow(/is an NVIDIA instruction; gfx950/);
    const universal = { atom: 'UniversalCopy<uint128_t>', bits: 16, thr: '(16,8):(8,1)', val: '(1,8)' };
    const viaOp = await runOp('copy_bank_conflicts', [universal, '(128,64):(64,1)', 'src', { arch: 'gfx950' }], ctx);
    expect(viaOp).toEqual(copyBankConflicts(copy, layouts[0]!, 'src', machine('gfx950')));
    // an atom newer than the machine: stmatrix (sm90) on sm80
    const stsm = { atom: 'SM90_U32x4_STSM_N', bits: 16, thr: '32:1', val: '(1,8)' };
    await expect(runOp('copy_bank_conflicts', [stsm, '(32,64):(64,1)', { arch: 'sm80' }], ctx)).rejects.toThrow(/needs sm90 or later; sm80/);
    // the direction is the side's: an access option is refused
    expect(await kindOfAsync(runOp('copy_bank_conflicts', [universal, '(128,64):(64,1)', 'src', { arch: 'gfx950', access: 'write' }], ctx))).toBe(
      'bad-request',
    );
  });
});

describe('ll_bank_conflicts on a machine', () => {
  it('equals bank_conflicts on the CuTe forms of the worked conversion, on every machine', async () => {
    const r = llFromEncoding('#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 1], instrShape = [16, 8]}>', [32, 8]);
    const s = llFromEncoding('#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>', [32, 8]);
    const m = parseLayoutFunction('(32,8):(8,1)');
    const tv = parseLayoutFunction('((4,8,2),(2,2)):((64,1,8),(32,16))');
    for (const n of ['sm90', 'gfx942', 'gfx950'] as const)
      for (const access of ['read', 'write'] as const) {
        const target = { machine: machine(n), access };
        expect(llBankConflicts(r, s, 4, 1, target)).toEqual(bankConflicts(m, tv, 4, 1, target));
        expect(llBankConflicts(r, s, 4, 2, target)).toEqual(bankConflicts(m, tv, 4, 2, target));
      }
  });
});

describe('verify conflict-free with the options object', () => {
  it('equals the search with the target; a bad option is bad-request', async () => {
    const cands = ['(128,64):(64,1)', 'Sw<3,3,3> o (128,64):(64,1)', 'Sw<2,3,3> o (128,64):(64,1)'];
    const tv = '((8,4,4),(8,2,4)):((1,1024,8),(128,4096,32))';
    for (const n of ['gfx942', 'gfx950', 'sm100'] as const) {
      const got = await runOp('verify', [['conflict-free', tv, 2, { arch: n, access: 'read' }], cands], ctx);
      const want = searchCpu(
        cands.map((c) => parseLayoutFunction(c)),
        [{ tv: parseLayout(tv), e: 2, target: { machine: machine(n), access: 'read' } }],
      ).map((x) => x.conflictFree);
      expect(got).toEqual(want);
    }
    expect(await kindOfAsync(runOp('verify', [['conflict-free', tv, 2, { arch: 'mi300' }], cands], ctx))).toBe('bad-request');
    expect(await kindOfAsync(runOp('verify', [['conflict-free', tv, 2, 8, { arch: 'gfx942', lanes: 64 }], cands], ctx))).toBe('bad-request');
  });
});

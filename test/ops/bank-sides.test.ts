/**
 * The side forms of a bank analysis read by one function (src/ops/bank-sides.ts; issue 25, item 5): a TV layout, a
 * tiled copy, an MMA operand and an LL conversion each price what their own op prices, the MMA operand against a
 * brute-force count over every thread's partition, and the per-instruction rows add up to the report.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { phi, size } from '../../src/algebra/layout.js';
import { parseLayout } from '../../src/algebra/notation.js';
import { copyBankConflicts } from '../../src/atoms/conflicts.js';
import { partitionMma } from '../../src/atoms/partition.js';
import { makeTiledCopyFromMma } from '../../src/atoms/tiled-copy.js';
import { makeTiledMma } from '../../src/atoms/tiled-mma.js';
import { parseTiler } from '../../src/cute/tiler.js';
import { innerLayout, parseLayoutFunction, phiLayoutFunctionBig } from '../../src/cute/composed.js';
import { llBankConflicts } from '../../src/linear/banks.js';
import { parseLL, toCanonicalJson } from '../../src/linear/forms.js';
import { toLL } from '../../src/linear/bridge.js';
import { bankConflicts, bankMap } from '../../src/memory/banks.js';
import { bankSide, loadBankSides, mmaOperandBits, type BankSide } from '../../src/ops/bank-sides.js';
import { bruteBanks } from '../memory/brute-banks.js';

beforeAll(() => loadBankSides());

const MMA = 'SM80_16x8x16_F32F16F16F32_TN';
const sum = (a: BankSide): { phases: number; wavefronts: number } =>
  a.rows.reduce((s, r) => ({ phases: s.phases + r.phases, wavefronts: s.wavefronts + r.wavefronts }), { phases: 0, wavefronts: 0 });

describe('bankSide', () => {
  it('a TV layout: bank_conflicts, its rows, and the picture of bankMap', () => {
    const form = { form: 'tv', m: 'Sw<2,3,3> o (8,64):(64,1)', tv: '((8,4),(8,2)):((1,64),(8,256))', elem: 2 } as const;
    const a = bankSide(form, true);
    const m = parseLayoutFunction(form.m);
    expect(a.report).toEqual(bankConflicts(m, parseLayout(form.tv), 2));
    expect(sum(a)).toEqual({ phases: a.report.phases, wavefronts: a.report.wavefronts });
    const map = bankMap(m, parseLayout(form.tv), 2);
    expect([...a.picture!.bank]).toEqual([...map.bank]);
    expect([...a.picture!.ways]).toEqual([...map.ways]);
  });

  it('a tiled copy: copy_bank_conflicts, the side named, and a side that is not shared memory refused', () => {
    const mma = makeTiledMma(MMA, parseLayout('(2,2,1)'), parseTiler('(32,32,16)'));
    for (const m of ['(32,64):(64,1)', 'Sw<3,3,3> o (32,64):(64,1)']) {
      const copy = { atom: 'SM75_U32x4_LDSM_N', bits: 16, mma: { atom: MMA, layout: '(2,2,1)', permutation: '(32,32,16)' }, operand: 'A' };
      const a = bankSide({ form: 'copy', copy, m }, true);
      const c = makeTiledCopyFromMma({ atom: 'SM75_U32x4_LDSM_N', bits: 16, mma, operand: 'A' });
      expect(a.report).toEqual(copyBankConflicts(c, parseLayoutFunction(m)));
      expect(a.heading).toMatch(/the source side \(shared memory, read\)/);
      expect(sum(a)).toEqual({ phases: a.report.phases, wavefronts: a.report.wavefronts });
      // every cell of the 32×64 tile is read once: each has a bank and met a phase
      expect(a.picture!.ways.every((w) => w >= 1)).toBe(true);
    }
    const cp = { atom: 'SM80_CP_ASYNC_CACHEALWAYS<uint128_t>', bits: 16, thr: '(32,8):(8,1)', val: '(1,8)' };
    expect(bankSide({ form: 'copy', copy: cp, m: '(32,64):(64,1)' }).heading).toMatch(/destination side/);
    expect(() => bankSide({ form: 'copy', copy: cp, m: '(32,64):(64,1)', side: 'src' })).toThrowError(
      expect.objectContaining({ kind: 'domain', message: expect.stringMatching(/global memory/) }),
    );
    expect(() =>
      copyBankConflicts(makeTiledCopyFromMma({ atom: 'SM75_U32x4_LDSM_N', bits: 16, mma, operand: 'A' }), parseLayoutFunction('(32,64):(64,1)'), 'dst'),
    ).toThrowError(/registers, not shared memory/);
  });

  it('an MMA operand over the whole tile: the brute-force count over every thread partition_A/B/C', () => {
    const cases: [string, 'A' | 'B' | 'C', string][] = [
      ['(2,2,1)', 'A', '(32,16):(16,1)'],
      ['(2,2,1)', 'A', 'Sw<1,3,3> o (32,16):(16,1)'],
      ['(1,2,1)', 'B', '(16,16):(1,16)'],
      ['(2,1,1)', 'C', '(32,8):(8,1)'],
    ];
    for (const [layout, x, mText] of cases) {
      const a = bankSide({ form: 'mma', mma: { atom: MMA, layout }, operand: x, m: mText });
      const tiled = makeTiledMma(MMA, parseLayout(layout));
      const m = parseLayoutFunction(mText);
      const identity = parseLayoutFunction(`(${(innerLayout(m).shape as number[]).join(',')})`);
      const parts = Array.from({ length: tiled.threads }, (_, t) => partitionMma(tiled, x, t, identity));
      const e = x === 'C' ? 4 : 2;
      const off = (t: number, j: number): number => Number(phiLayoutFunctionBig(m, parts[t]!.offset + phi(innerLayout(parts[t]!.layout), j)));
      const want = bruteBanks(off, tiled.threads, size(innerLayout(parts[0]!.layout)), e);
      expect(want).not.toBe('bad-vector');
      expect(a.report, `${x} ${mText}`).toEqual(want);
      expect(a.elem).toBe(e);
    }
  });

  it("the MMA operand's element size from the atom's name; none said: the option is asked for", () => {
    expect([mmaOperandBits(MMA, 'A'), mmaOperandBits(MMA, 'C'), mmaOperandBits('SM90_64x128x16_F32BF16BF16_SS', 'C')]).toEqual([16, 32, 32]);
    expect(mmaOperandBits('SM80_16x8x32_S32S8S8S32_TN', 'B')).toBe(8);
    expect(mmaOperandBits('UniversalFMA', 'A')).toBeNull();
  });

  it('an LL conversion: ll_bank_conflicts, from LLs or from #ttg encodings over a tensor type that gives e', () => {
    const r = toLL(parseLayoutFunction('((4,8),(2,2)):((32,1),(16,8))'), 'tv', { tile: [16, 8] });
    const s = toLL(parseLayoutFunction('(16,8):(8,1)'), 'shared', { tile: [16, 8] });
    const rText = JSON.stringify(toCanonicalJson(r));
    const sText = JSON.stringify(toCanonicalJson(s));
    const a = bankSide({ form: 'll', r: rText, s: sText, elem: 4 });
    expect(a.report).toEqual(llBankConflicts(parseLL(rText), parseLL(sText), 4));
    expect(sum(a)).toEqual({ phases: a.report.phases, wavefronts: a.report.wavefronts });
    const blocked = '#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>';
    const shared = '#ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>';
    const b = bankSide({ form: 'll', r: blocked, s: shared, shape: 'tensor<64x64xf16>' });
    expect(b.elem).toBe(2);
    expect(() => bankSide({ form: 'll', r: blocked, s: shared })).toThrowError(/give the tensor shape/);
  });
});

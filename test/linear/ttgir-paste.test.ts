/**
 * Pastes from real dumps (issue 25, item 7): TTGIR as Triton prints it — alias lines resolved, `#triton_gpu.` read as
 * `#ttg.`, the pre-3.8 CTA layout keys read when they describe one CTA and refused otherwise, `tensor<128x64xf16>` as
 * a shape — and C++ spellings of the atoms (`Copy_Atom<Op, T>`, `MMA_Atom<Op>`), with "did you mean" for a templated
 * atom written without its argument and "1 value", not "1 values".
 */
import { describe, expect, it } from 'vitest';
import { parseLayout } from '../../src/algebra/notation.js';
import { copyAtom, mmaAtom } from '../../src/atoms/atom.js';
import { atomSpelling, copyAtomData, mmaAtomData } from '../../src/atoms/registry.js';
import { makeTiledCopy } from '../../src/atoms/tiled-copy.js';
import { parseAttr, parseShapeText } from '../../src/linear/attr.js';
import { llFromEncoding } from '../../src/linear/encodings.js';
import { parseLL, toCanonicalJson } from '../../src/linear/forms.js';
import { formatBankReport } from '../../src/ops/memory.js';
import { tiledCopyArg, loadTiled } from '../../src/ops/tiled.js';
import { runOp } from '../../src/ops/table.js';

const MMA = '#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>';
const ll = (attr: string, shape: number[]): unknown => toCanonicalJson(llFromEncoding(attr, shape));

describe('TTGIR as printed', () => {
  it('alias lines pasted with the attribute are resolved (parent = #mma), and alone the last one is the answer', () => {
    const inline = `#ttg.dot_op<{opIdx = 0, parent = ${MMA}, kWidth = 2}>`;
    const dump = `#mma = ${MMA}\n#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>\n#ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>`;
    expect(ll(dump, [64, 32])).toEqual(ll(inline, [64, 32]));
    expect(ll(`#mma = ${MMA}\n#dot = #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>`, [32, 64])).toEqual(
      ll(`#ttg.dot_op<{opIdx = 1, parent = ${MMA}, kWidth = 2}>`, [32, 64]),
    );
    expect(ll(`#mma = ${MMA}`, [32, 32])).toEqual(ll(MMA, [32, 32]));
    expect(ll(`#mma = ${MMA}\n#mma`, [32, 32])).toEqual(ll(MMA, [32, 32]));
    expect(() => parseAttr('#ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>')).toThrowError(
      expect.objectContaining({ kind: 'parse', message: expect.stringMatching(/'#mma' is no alias defined above it/) }),
    );
  });

  it('#triton_gpu. is read as #ttg., in an LL attribute and an encoding alike', () => {
    expect(ll(MMA.replace('#ttg.', '#triton_gpu.'), [32, 32])).toEqual(ll(MMA, [32, 32]));
    const lin = '#ttg.linear<{register = [[1]], lane = [], warp = [], block = []}>';
    expect(toCanonicalJson(parseLL(lin.replace('#ttg.', '#triton_gpu.')))).toEqual(toCanonicalJson(parseLL(lin)));
  });

  it('the pre-3.8 CTA layout of one CTA reads as none; of more it is refused, saying what 3.8 writes', () => {
    const blocked = (extra: string): string => `#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]${extra}}>`;
    const plain = ll(blocked(''), [64, 64]);
    expect(ll(blocked(', CTAsPerCGA = [1, 1], CTASplitNum = [1, 1], CTAOrder = [1, 0]'), [64, 64])).toEqual(plain);
    expect(ll(blocked(', CTAsPerCGA = [1, 1], CTASplitNum = [1, 1], CTAOrder = [0, 1]'), [64, 64])).toEqual(plain);
    for (const extra of [', CTAsPerCGA = [2, 1], CTASplitNum = [2, 1], CTAOrder = [1, 0]', ', CTAsPerCGA = [1, 1], CTASplitNum = [1, 1], CTAOrder = [1, 1]']) {
      expect(() => ll(blocked(extra), [64, 64])).toThrowError(
        expect.objectContaining({
          kind: 'domain',
          message: expect.stringMatching(/pre-3\.8 CTA layout .*CGALayout = \[\[…\], …\], one vector per bit of the block in-dim/),
        }),
      );
    }
  });

  it('one shape syntax: 128x64, [128, 64] and tensor<128x64xf16> (with the element type and its bits)', async () => {
    expect(parseShapeText('128x64', 's')).toEqual({ shape: [128, 64] });
    expect(parseShapeText(' [128, 64] ', 's')).toEqual({ shape: [128, 64] });
    expect(parseShapeText('tensor<128x64xf16>', 's')).toEqual({ shape: [128, 64], elementBits: 16, elementType: 'f16' });
    expect(parseShapeText('tensor<64x32xbf16, #blocked>', 's')).toEqual({ shape: [64, 32], elementBits: 16, elementType: 'bf16' });
    expect(parseShapeText('tensor<16xf8E4M3FN>', 's')).toEqual({ shape: [16], elementBits: 8, elementType: 'f8E4M3FN' });
    // the ops take it too (batch and the page): a string shape reads as the CLI's
    const ctx = { backendChoice: 'cpu', backend: () => Promise.reject(new Error('no backend')) } as const;
    const enc = '#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>';
    const viaArray = await runOp('ll_from_encoding', [enc, [64, 64]], ctx);
    expect(await runOp('ll_from_encoding', [enc, 'tensor<64x64xf16>'], ctx)).toEqual(viaArray);
    expect(await runOp('ll_from_encoding', [enc, '64x64'], ctx)).toEqual(viaArray);
    expect(() => parseShapeText('128 by 64', 'the tile')).toThrowError(
      expect.objectContaining({ kind: 'bad-request', message: expect.stringMatching(/^the tile must be like/) }),
    );
  });
});

describe('C++ spellings of the atoms', () => {
  it('Copy_Atom<Op, T> and MMA_Atom<Op> name the atom (and T its bits)', () => {
    expect(atomSpelling('Copy_Atom<SM75_U32x4_LDSM_N, half_t>')).toEqual({ kind: 'copy', name: 'SM75_U32x4_LDSM_N', valueType: 'half_t', valueBits: 16 });
    expect(atomSpelling('cute::Copy_Atom< SM80_CP_ASYNC_CACHEALWAYS<cute::uint128_t> , cute::bfloat16_t >')).toEqual({
      kind: 'copy',
      name: 'SM80_CP_ASYNC_CACHEALWAYS<uint128_t>',
      valueType: 'bfloat16_t',
      valueBits: 16,
    });
    expect(atomSpelling('MMA_Atom<MMA_Traits<SM80_16x8x16_F32F16F16F32_TN>>')).toEqual({ kind: 'mma', name: 'SM80_16x8x16_F32F16F16F32_TN' });
    expect(atomSpelling('SM75_U32x4_LDSM_N')).toBeNull();
    expect(mmaAtomData('MMA_Atom<SM80_16x8x16_F32F16F16F32_TN>')?.name).toBe('SM80_16x8x16_F32F16F16F32_TN');
    expect(copyAtomData('MMA_Atom<SM80_16x8x16_F32F16F16F32_TN>')).toBeUndefined();
    expect(mmaAtom('MMA_Atom<SM80_16x8x16_F32F16F16F32_TN>').name).toBe('SM80_16x8x16_F32F16F16F32_TN');
    expect(copyAtom('Copy_Atom<SM75_U32x4_LDSM_N, half_t>', 16)).toEqual(copyAtom('SM75_U32x4_LDSM_N', 16));
  });

  it('a tiled copy of Copy_Atom<Op, T> takes its bits from T', async () => {
    await loadTiled();
    const spelled = tiledCopyArg({ atom: 'Copy_Atom<SM75_U32x4_LDSM_N, half_t>', thr: '(32,1)', val: '(1,8)' });
    const plain = tiledCopyArg({ atom: 'SM75_U32x4_LDSM_N', bits: 16, thr: '(32,1)', val: '(1,8)' });
    expect([spelled.atom.name, spelled.atom.bits, spelled.layoutS_TV]).toEqual([plain.atom.name, 16, plain.layoutS_TV]);
    expect(() => tiledCopyArg({ atom: 'Copy_Atom<SM75_U32x4_LDSM_N, foo_t>', thr: '(32,1)' })).toThrowError(/unknown value type 'foo_t'/);
  });

  it('a templated atom without its argument: did you mean one of its instances', () => {
    expect(() => copyAtom('SM80_CP_ASYNC_CACHEALWAYS', 16)).toThrowError(
      /did you mean one of 'SM80_CP_ASYNC_CACHEALWAYS<uint128_t>', 'SM80_CP_ASYNC_CACHEALWAYS<uint32_t>', 'SM80_CP_ASYNC_CACHEALWAYS<uint64_t>'\?/,
    );
    expect(() => copyAtom('Copy_Atom<UniversalCopy, half_t>', 16)).toThrowError(/did you mean one of 'UniversalCopy<uint128_t>'/);
    expect(() => copyAtom('SM75_U32x4_LDSM', 16)).toThrowError(/did you mean 'SM75_U32x4_LDSM_N'\?/);
  });

  it('"1 value", not "1 values"', () => {
    expect(() => makeTiledCopy({ atom: 'SM75_U32x1_LDSM_N', bits: 16, thr: parseLayout('(32,1)') })).toThrowError(/has 1 value per thread,/);
    expect(() => makeTiledCopy({ atom: 'SM75_U32x4_LDSM_N', bits: 16, thr: parseLayout('(1,1)') })).toThrowError(/has 1 thread,/);
    const one = { vector: 1, instructions: 1, phases: 1, wavefronts: 1, conflicts: 0, worst: null, sectors: 1, minSectors: 1 };
    expect(formatBankReport(one)).toMatch(/^vector\s+1 value per instruction$/m);
    expect(formatBankReport({ ...one, vector: 8 })).toMatch(/^vector\s+8 values per instruction$/m);
  });
});

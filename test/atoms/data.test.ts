/**
 * The atoms as data (docs/atoms.md, "Atoms"): every entry's invariants checked by brute force from the definitions
 * (test/helpers/brute.ts), the required set of names written out here from the rule (independently of src/), the
 * value-size recast against its meaning on bits, and the worked pairs of test/fixtures/atoms-examples.jsonl through runOp.
 */
import { describe, expect, it } from 'vitest';
import { imageB, parseL, phiB, sizeB, sizeT, showL, type BL, type Tup } from '../helpers/brute.js';
import { readPairs } from '../helpers/fixtures.js';
import { mismatch } from '../helpers/match.js';
import { COPY_ATOMS, MMA_ATOMS, copyAtomData, copyAtomNames, mmaAtomData, mmaAtomNames } from '../../src/atoms/registry.js';
import { copyAtom, mmaAtom } from '../../src/atoms/atom.js';
import { formatLayout, parseLayout } from '../../src/algebra/notation.js';
import { LayoutError } from '../../src/algebra/errors.js';
import { runOp, type OpContext } from '../../src/ops/table.js';
import { formatAtomsList } from '../../src/ops/atoms.js';
import { kindOfAsync } from '../helpers/kind.js';
import { requiredTmem, requiredUmma } from './_sm100.js';

const ctx: OpContext = {
  backendChoice: 'cpu',
  backend: async () => {
    throw new Error('the atoms need no backend');
  },
};

/** The sizes of the top-level modes of a layout. */
const modeSizes = (l: BL): number[] => (typeof l.shape === 'number' ? [l.shape] : l.shape.map((s: Tup) => sizeT(s)));
const maxOf = (xs: Int32Array): number => xs.reduce((a, b) => (b > a ? b : a), -1);
/** The number of distinct values of xs (all in [0, bound)). */
function distinct(xs: Int32Array, bound = maxOf(xs) + 1): number {
  const seen = new Uint8Array(bound);
  let n = 0;
  for (const x of xs) if (!seen[x]) (seen[x] = 1), n++;
  return n;
}

const cross = (...lists: readonly (readonly string[])[]): string[] => lists.reduce<string[]>((acc, l) => acc.flatMap((a) => l.map((b) => a + b)), ['']);

/** the semantics' required MMA names, written out from the rule. */
function requiredMma(): string[] {
  const int8 = cross(['SM80_'], ['8x8x16', '16x8x16', '16x8x32'], ['_S32'], ['S8', 'U8'], ['S8', 'U8'], ['S32_TN'], ['', '_SATURATE']);
  const int4 = cross(['SM80_'], ['8x8x32', '16x8x32', '16x8x64'], ['_S32'], ['S4', 'U4'], ['S4', 'U4'], ['S32_TN'], ['', '_SATURATE']);
  const sm80 = [
    ...cross(['SM80_'], ['16x8x8', '16x8x16'], ['_'], ['F16F16F16F16', 'F32F16F16F32', 'F32BF16BF16F32'], ['_TN']),
    'SM80_16x8x4_F32TF32TF32F32_TN',
    'SM80_16x8x8_F32TF32TF32F32_TN',
    'SM80_8x8x4_F64F64F64F64_TN',
    'SM80_8x8x4_C64C64C64C64_TN',
    'SM80_8x8x4_GC64C64C64GC64_TN',
    ...int8,
    ...int4,
    ...cross(['SM80_'], ['16x8x256', '8x8x128', '16x8x128'], ['_S32U1U1S32_TN_'], ['XORPOPC', 'ANDPOPC']),
  ];
  const n = ['8', '16', '32', '64', '96', '128', '192', '256'];
  const gmma = [
    ...cross(['SM90_64x'], n, ['x16_'], ['F16F16F16', 'F32F16F16', 'F32BF16BF16'], ['_SS', '_RS']),
    ...cross(['SM90_64x'], n, ['x8_F32TF32TF32'], ['_SS_TN', '_RS_TN']),
    ...cross(['SM90_64x'], n, ['x32_S32'], ['S8', 'U8'], ['S8', 'U8'], ['_SS_TN', '_RS_TN'], ['', '_SATURATE']),
    ...cross(['SM90_64x'], n, ['x32_'], ['F16', 'F32'], ['E4M3', 'E5M2'], ['E4M3', 'E5M2'], ['_SS_TN', '_RS_TN']),
  ];
  return [
    'SM61_DP4A',
    'SM61_DP2A',
    ...cross(['SM70_8x8x4_'], ['F16F16F16F16', 'F32F16F16F32'], ['_'], ['TN', 'NT', 'NN', 'TT']),
    'SM75_16x8x8_F32F16F16F32_TN',
    'SM75_16x8x8_F16F16F16F16_TN',
    'SM75_8x8x16_S32S8S8S32_TN',
    ...sm80,
    ...cross(['SM89_16x8x32_'], ['F32', 'F16'], ['E4M3', 'E5M2'], ['E4M3', 'E5M2'], ['F32', 'F16'])
      .filter((s) => s.slice(13, 16) === s.slice(-3))
      .map((s) => `${s}_TN`),
    ...cross(['SM90_16x8x'], ['4', '8', '16'], ['_'], ['F64F64F64F64', 'C64C64C64C64'], ['_TN']),
    ...gmma,
    'UniversalFMA',
    'SM120_16x8x32_TN',
  ];
}

/** the semantics' 43 required copy names. */
function requiredCopy(): string[] {
  return [
    ...cross(['UniversalCopy<uint'], ['8', '16', '32', '64', '128'], ['_t>']),
    'DefaultCopy',
    'AutoVectorizingCopy',
    ...cross(['SM80_CP_ASYNC_CACHEALWAYS'], ['', '_ZFILL'], ['<uint'], ['32', '64', '128'], ['_t>']),
    'SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>',
    'SM80_CP_ASYNC_CACHEGLOBAL_ZFILL<uint128_t>',
    'SM50_Shuffle_U32_2x2Trans_XOR1',
    'SM50_Shuffle_U32_2x2Trans_XOR4',
    'SM75_U32x1_LDSM_N',
    'SM75_U32x2_LDSM_N',
    'SM75_U32x4_LDSM_N',
    'SM75_U16x2_LDSM_T',
    'SM75_U16x4_LDSM_T',
    'SM75_U16x8_LDSM_T',
    'SM75_U32x1_MOVM_T',
    ...cross(['SM90_U32x'], ['1', '2', '4'], ['_STSM_N']),
    ...cross(['SM90_U16x'], ['2', '4', '8'], ['_STSM_T']),
    'SM100_U8x8_LDSM_T',
    'SM100_U8x16_LDSM_T',
    ...cross(['SM100_'], ['SU4', 'SU6'], ['_DU8x16_x'], ['1', '2', '4'], ['_LDSM_N']),
    ...cross(['SM100_U8x'], ['4', '8', '16'], ['_STSM_T']),
    'SM100_LOAD_256bit_CACHE_NOALLOCATION',
    'SM100_STORE_256bit_CACHE_NOALLOCATION',
  ];
}

const sortedCodePoint = (xs: readonly string[]): string[] => [...xs].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

describe('the names', () => {
  it('are the required set (65 SM80, 320 GMMA, 414 MMA in all; 43 copy) and SM100 (692 UMMA, 2 FMA, 150 TMEM), each once', () => {
    const mma = [...requiredMma(), ...requiredUmma().map((u) => u.name), 'SM100_2x1x1_F32F32F32F32', 'SM100_1x2x1_F32F32F32F32'];
    const copy = [...requiredCopy(), ...requiredTmem()];
    expect(mma.filter((n) => n.startsWith('SM80_'))).toHaveLength(65);
    expect(mma.filter((n) => n.startsWith('SM90_64x'))).toHaveLength(320);
    expect(mma.filter((n) => n.startsWith('SM100_MMA_'))).toHaveLength(692);
    expect(copy).toHaveLength(43 + 150);
    expect(new Set(mma).size).toBe(mma.length);
    expect(mmaAtomNames()).toEqual(sortedCodePoint(mma));
    expect(copyAtomNames()).toEqual(sortedCodePoint(copy));
    expect(MMA_ATOMS).toHaveLength(414 + 692 + 2);
    expect(COPY_ATOMS).toHaveLength(43 + 150);
  });

  it('look up exactly (case-sensitive, no other spelling)', () => {
    expect(mmaAtomData('SM80_16x8x16_F32F16F16F32_TN')?.shapeMNK).toEqual([16, 8, 16]);
    expect(mmaAtomData('sm80_16x8x16_f32f16f16f32_tn')).toBeUndefined();
    expect(mmaAtomData('SM90_64x128x16_F32F16F16_SS<GMMA::Major::K,GMMA::Major::K>')).toBeUndefined();
    expect(copyAtomData('UniversalCopy<uint128_t>')?.src).toBe('(1,128):(0,1)');
    expect(copyAtomData('UniversalCopy<uint128_t >')).toBeUndefined();
  });

  it('each entry cites the CuTe header it comes from', () => {
    for (const a of [...MMA_ATOMS, ...COPY_ATOMS]) expect(a.source, a.name).toMatch(/^include\/cute\/atom\/(mma|copy)_traits(_sm\d+(_gmma)?)?\.hpp$/);
  });
});

describe('every MMA atom', () => {
  /** The int4 16x8x32 family, whose B older CUTLASS headers strode by 32 (CUTLASS aeba0d372 corrected it to 64). */
  const int4x16x32 = cross(['SM80_16x8x32_S32'], ['S4', 'U4'], ['S4', 'U4'], ['S32_TN'], ['', '_SATURATE']);

  for (const a of MMA_ATOMS) {
    it(a.name, () => {
      for (const s of [a.thrID, a.A, a.B, a.C]) expect(formatLayout(parseLayout(s)), `${s} is canonical`).toBe(s);
      const thr = parseL(a.thrID);
      const threads = sizeB(thr);
      expect(distinct(imageB(thr)), 'thrID is injective').toBe(threads);
      const [m, n, k] = a.shapeMNK;
      const tiles: Array<[string, string, number]> = [
        ['A', a.A, m * k],
        ['B', a.B, n * k],
        ['C', a.C, m * n],
      ];
      for (const [what, text, cells] of tiles) {
        const l = parseL(text);
        const sizes = modeSizes(l);
        expect(sizes, `${what} ${showL(l)} is (thread, value)`).toHaveLength(2);
        expect(sizes[0], `${what}: thread mode of size(thrID)`).toBe(threads);
        const im = imageB(l);
        for (const x of new Set([0, im.length >> 1, im.length - 1])) expect(im[x], `the walk is Φ at ${x}`).toBe(phiB(l, x));
        expect(maxOf(im), `${what} inside its tile`).toBeLessThan(cells);
        expect(distinct(im, cells), `${what} covers its tile`).toBe(cells);
        if (what === 'C') expect(im, 'C is injective: every element once').toHaveLength(cells);
      }
    });
  }

  it("the int4 16x8x32 B is the hardware's: thread t holds k = 8·(t mod 4) + v of column n = ⌊t/4⌋", () => {
    expect(int4x16x32).toHaveLength(8);
    for (const name of int4x16x32) {
      const b = parseL(mmaAtomData(name)!.B);
      for (let t = 0; t < 32; t++) {
        for (let v = 0; v < 8; v++) expect(phiB(b, t + 32 * v), `${name} (t ${t}, v ${v})`).toBe(Math.floor(t / 4) + 8 * (8 * (t % 4) + v));
      }
    }
  });
});

/** The tensor-memory atoms: their TMEM side is a broadcast (every lane addresses the whole block), checked with their
 *  own invariants in test/atoms/sm100.test.ts. */
const isTmem = (name: string): boolean => name.startsWith('SM100_TMEM_');

describe('every copy atom', () => {
  for (const a of COPY_ATOMS.filter((x) => !isTmem(x.name))) {
    it(a.name, () => {
      for (const s of [a.thrID, a.src, a.dst, a.ref]) expect(formatLayout(parseLayout(s)), `${s} is canonical`).toBe(s);
      const threads = sizeB(parseL(a.thrID));
      const sides = [a.src, a.dst, a.ref].map(parseL);
      for (const l of sides) {
        expect(modeSizes(l), `${showL(l)} is (thread, value)`).toHaveLength(2);
        expect(modeSizes(l)[0]).toBe(threads);
      }
      expect([a.src, a.dst], 'Ref is Src or Dst').toContain(a.ref);
      const [src, dst, ref] = sides.map((l) => imageB(l)) as [Int32Array, Int32Array, Int32Array];
      const block = new Set(src);
      expect(new Set(dst), 'Src and Dst cover the same bits').toEqual(block);
      expect(maxOf(src) + 1, 'the block is [0, bits)').toBe(block.size);
      expect(distinct(ref), 'Ref is injective').toBe(ref.length);
    });
  }
});

describe('a copy atom at a value size (upcast)', () => {
  /** Brute force: value v of thread t at b bits holds the b bits Φ_L(t, v·b + j), j < b, which are [b·Φ_U(t, v), b·Φ_U(t, v) + b). */
  function holdsBits(bitsL: BL, up: BL, b: number): boolean {
    const [t, vBits] = modeSizes(bitsL) as [number, number];
    const [tU, vU] = modeSizes(up) as [number, number];
    if (tU !== t || vU * b !== vBits) return false;
    const bitsImage = imageB(bitsL);
    const upImage = imageB(up);
    for (let th = 0; th < t; th++) {
      for (let v = 0; v < vU; v++) {
        const base = b * upImage[th + t * v]!;
        const got = Array.from({ length: b }, (_, j) => bitsImage[th + t * (v * b + j)]!).sort((x, y) => x - y);
        if (got.some((x, j) => x !== base + j)) return false;
      }
    }
    return true;
  }

  // the TMEM atoms by their smallest blocks (the larger ones repeat the pattern and cost seconds each here); one test
  // per atom (the unit project's 10 s a test), and one that the widths checked over all of them are many
  let checkedInAll = 0;
  for (const a of COPY_ATOMS.filter((x) => !isTmem(x.name) || sizeB(parseL(x.src)) <= 1 << 16)) {
    it(`${a.name} holds the bits it says, wherever the value size divides the atom width; else domain`, () => {
      let checked = 0;
      for (const b of [2, 4, 8, 16, 32, 64, 128]) {
        const width = modeSizes(parseL(a.src))[1]!;
        let at: ReturnType<typeof copyAtom>;
        try {
          at = copyAtom(a.name, b);
        } catch (e) {
          expect(e, `${a.name} at ${b}`).toBeInstanceOf(LayoutError);
          expect((e as LayoutError).kind).toBe('domain');
          continue;
        }
        if (width % b !== 0) continue;
        for (const [bitsText, up] of [
          [a.src, at.src],
          [a.dst, at.dst],
        ] as const) {
          expect(holdsBits(parseL(bitsText), parseL(formatLayout(up)), b), `${a.name} at ${b}: ${formatLayout(up)}`).toBe(true);
        }
        checked++;
      }
      checkedInAll += checked;
      // every width was checked, skipped (it does not divide the atom's) or refused with domain above
      expect(checked).toBeLessThanOrEqual(7);
    });
  }
  it('checks the bits of more than 100 (atom, value size) pairs in all', () => {
    expect(checkedInAll).toBeGreaterThan(100);
  });

  it('is domain where the thread mode would shrink or the strides do not divide', () => {
    expect(() => copyAtom('SM75_U32x4_LDSM_N', 64)).toThrow(/has 16 threads, the atom 32/);
    expect(() => copyAtom('SM75_U32x4_LDSM_N', 6)).toThrow(LayoutError);
    expect(() => copyAtom('SM75_U32x4_LDSM_N', 0)).toThrow(/positive integer/);
    expect(formatLayout(copyAtom('UniversalCopy<uint32_t>', 64).src)).toBe('(1,1):(0,1)');
    expect(formatLayout(copyAtom('SM80_CP_ASYNC_CACHEALWAYS<uint128_t>', 6).src)).toBe('(1,22):(0,1)');
  });

  it('is the traits themselves at 1 bit, and the same object on a second lookup', () => {
    const a = copyAtom('SM90_U16x8_STSM_T');
    expect(formatLayout(a.ref)).toBe(copyAtomData('SM90_U16x8_STSM_T')!.src);
    expect(copyAtom('SM90_U16x8_STSM_T', 16)).toBe(copyAtom('SM90_U16x8_STSM_T', 16));
    expect(mmaAtom('UniversalFMA')).toBe(mmaAtom('UniversalFMA'));
  });
});

describe('errors', () => {
  const kindOf = (op: string, args: unknown[]): Promise<string> => kindOfAsync(runOp(op, args, ctx));

  it('unknown names are domain, with a suggestion for a close name', async () => {
    expect(() => mmaAtom('SM80_16x8x16_F32F16F16F32')).toThrow(/did you mean 'SM80_16x8x16_F32F16F16F32_TN'/);
    expect(() => copyAtom('UniversalCopy<uint128>')).toThrow(/did you mean 'UniversalCopy<uint128_t>'/);
    expect(() => mmaAtom('SM75_U32x4_LDSM_N')).toThrow(/is a copy atom/);
    expect(() => copyAtom('x'.repeat(100_000))).toThrow(LayoutError);
    expect(await kindOf('mma_atom', ['nope'])).toBe('domain');
    expect(await kindOf('copy_atom', ['nope', 16])).toBe('domain');
  });

  it('arguments of the wrong JSON type are bad-request; a kind other than mma or copy is domain', async () => {
    expect(await kindOf('mma_atom', [5])).toBe('bad-request');
    expect(await kindOf('mma_atom', [])).toBe('bad-request');
    expect(await kindOf('copy_atom', ['SM75_U32x4_LDSM_N', '16'])).toBe('bad-request');
    expect(await kindOf('copy_atom', ['SM75_U32x4_LDSM_N', 16.5])).toBe('bad-request');
    expect(await kindOf('atoms', [['mma']])).toBe('bad-request');
    expect(await kindOf('atoms', ['mma', 'copy'])).toBe('bad-request');
    expect(await kindOf('atoms', ['MMA'])).toBe('domain');
    expect(await kindOf('copy_atom', ['SM75_U32x4_LDSM_N', -8])).toBe('domain');
  });
});

describe("the CLI's list of atoms", () => {
  it('names every atom once, under its architecture, the architectures in ascending order', () => {
    const text = formatAtomsList({ mma: mmaAtomNames(), copy: copyAtomNames() });
    const words = text.split(/\s+/).filter((w) => w !== '');
    for (const n of [...mmaAtomNames(), ...copyAtomNames()])
      expect(
        words.filter((w) => w === n),
        n,
      ).toHaveLength(1);
    const heads = [...text.matchAll(/^ {2}(\w+) \((\d+)\)$/gm)].map((m) => [m[1]!, Number(m[2])] as const);
    expect(heads.map(([a]) => a)).toEqual([
      'universal',
      'SM61',
      'SM70',
      'SM75',
      'SM80',
      'SM89',
      'SM90',
      'SM100',
      'SM120',
      'universal',
      'SM50',
      'SM75',
      'SM80',
      'SM90',
      'SM100',
    ]);
    expect(heads.reduce((a, [, n]) => a + n, 0)).toBe(414 + 694 + 43 + 150);
    expect(text.split('\n')[0]).toBe('MMA atoms (1108)');
    expect(formatAtomsList({ copy: copyAtomNames() }).split('\n')[0]).toBe('copy atoms (193)');
  });
});

describe('test/fixtures/atoms-examples.jsonl (atoms, mma_atom, copy_atom) through runOp', () => {
  const pairs = readPairs('atoms-examples.jsonl').filter((p) => ['atoms', 'mma_atom', 'copy_atom'].includes(p.request.op));

  it('has the worked pairs of each op', () => {
    expect(new Set(pairs.map((p) => p.request.op))).toEqual(new Set(['atoms', 'mma_atom', 'copy_atom']));
  });
  for (const p of pairs) {
    it(String(p.request.id), async () => {
      let got: unknown;
      let kind = 'ok';
      try {
        got = await runOp(p.request.op, p.request.args, ctx);
      } catch (e) {
        kind = e instanceof LayoutError ? e.kind : 'crash';
      }
      if (p.response.ok) {
        expect(kind).toBe('ok');
        expect(mismatch(got, p.response.result, p.match)).toBeNull();
      } else {
        expect(kind).toBe(p.response.error!.kind);
      }
    });
  }
});

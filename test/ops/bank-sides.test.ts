/**
 * The side forms of a bank analysis read by one function (src/ops/bank-sides.ts; issue 25, item 5), the one the CLI
 * and the page read: a TV layout, a tiled copy, an MMA operand and an LL conversion each price what their own op
 * prices (through the ops table, as batch answers), the MMA operand against a brute-force count over every thread's
 * partition (each thread's elements enumerated here from the operand's TV layout, tile by tile), a Triton encoding
 * as its CuTe TV form; the per-instruction rows add up to the report; the pictures' cells come from the same
 * accesses (bankMap's, and for an ldmatrix .x1 only its live lanes'); the swizzle search prices each candidate as
 * the form does; sm90 is the default machine.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { mode, phi, size } from '../../src/algebra/layout.js';
import { parseLayout } from '../../src/algebra/notation.js';
import { copyBankConflicts } from '../../src/atoms/conflicts.js';
import { partitionMma } from '../../src/atoms/partition.js';
import { makeTiledCopyFromMma } from '../../src/atoms/tiled-copy.js';
import { makeTiledMma } from '../../src/atoms/tiled-mma.js';
import { parseTiler } from '../../src/cute/tiler.js';
import { innerLayout, isComposed, parseLayoutFunction, phiComposed, phiLayoutFunctionBig, type LayoutFunction } from '../../src/cute/composed.js';
import { llBankConflicts } from '../../src/linear/banks.js';
import { parseLL, toCanonicalJson } from '../../src/linear/forms.js';
import { fromLL, toLL } from '../../src/linear/bridge.js';
import { llFromEncoding } from '../../src/linear/encodings.js';
import { bankConflicts, bankMap } from '../../src/memory/banks.js';
import { machineByName } from '../../src/memory/machines.js';
import { swizzleCandidates, type CandidateResult } from '../../src/memory/search.js';
import {
  bankSide,
  loadBankSides,
  mmaOperandBits,
  searchSide,
  sideOver,
  SIDE_FORMS,
  type BankPatternForm,
  type BankSide,
  type BankSideForm,
} from '../../src/ops/bank-sides.js';
import { runOpDirect, type Json, type OpContext } from '../../src/ops/table.js';
import { bruteBanks } from '../memory/brute-banks.js';

beforeAll(async () => {
  expect(loadBankSides('tv')).toBeUndefined(); // a TV layout needs neither room
  await loadBankSides();
  expect(loadBankSides('copy')).toBeUndefined();
});

const MMA = 'SM80_16x8x16_F32F16F16F32_TN';
const ctx: OpContext = { backendChoice: 'cpu', backend: async () => Promise.reject(new Error('no bulk check here')) };
const op = async (name: string, args: unknown[]): Promise<Json> => await runOpDirect(name, args, ctx, true);
const fields = (r: object): Record<string, unknown> => JSON.parse(JSON.stringify(r)) as Record<string, unknown>;
const phiM = (m: LayoutFunction, x: number): number => (isComposed(m) ? phiComposed(m, x) : phi(m, x));
/** the error a call throws, as its kind and message ('ok' when it throws none) */
const thrown = async (f: () => unknown): Promise<string> => {
  try {
    await f();
    return 'ok';
  } catch (e) {
    return `${(e as { kind?: string }).kind ?? 'internal'}: ${(e as Error).message}`;
  }
};

const TILED = { atom: MMA, layout: '(2,2,1)' };
const COPY = JSON.stringify({ atom: 'SM75_U32x4_LDSM_N', bits: 16, mma: { ...TILED, permutation: '(32,32,16)' }, operand: 'A' });
const TILE = '(128,64):(64,1)';
const BLOCKED = '#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>';
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

describe('bankSide, against the ops the CLI and batch answer with', () => {
  it('prices a TV layout as bank_conflicts does, M given as text or as the layout read', async () => {
    for (const m of ['Sw<3,3,3> o (8,64):(64,1)', '(8,64):(64,1)']) {
      const tv = '((8,4),(8,2)):((1,64),(8,256))';
      const want = await op('bank_conflicts', [m, tv, 2]);
      expect(fields(bankSide({ form: 'tv', m, tv, elem: 2 }).report)).toEqual(want);
      expect(fields(bankSide({ form: 'tv', m: parseLayoutFunction(m), tv, elem: 2 }).report)).toEqual(want);
    }
  });

  it('prices a tiled copy over the whole 128×64 tile as copy_bank_conflicts does: 8-way at vector 8, none under Sw<3,3,3>', async () => {
    const plain = bankSide({ form: 'copy', copy: COPY, m: TILE }, true);
    expect(fields(plain.report)).toEqual(await op('copy_bank_conflicts', [COPY, TILE]));
    expect(plain.report.vector).toBe(8);
    expect(plain.report.worst?.wavefronts).toBe(8);
    expect(plain.elem).toBe(2); // the atom's value size
    // every element of the tile, each read by the same number of threads (A is shared by the MMA's threads along N)
    const times = new Map<number, number>();
    for (const x of plain.picture!.accesses.index) times.set(x, (times.get(x) ?? 0) + 1);
    expect(times.size).toBe(128 * 64);
    expect(new Set(times.values())).toEqual(new Set([2]));
    const fixed = bankSide({ form: 'copy', copy: COPY, m: `Sw<3,3,3> o ${TILE}` });
    expect(fields(fixed.report)).toEqual(await op('copy_bank_conflicts', [COPY, `Sw<3,3,3> o ${TILE}`]));
    expect([fixed.report.conflicts, fixed.report.vector]).toEqual([0, 8]);
    // the side asked for explicitly is refused as copy_bank_conflicts refuses it: the same kind and message
    const dst = await thrown(() => bankSide({ form: 'copy', copy: COPY, m: TILE, side: 'dst' }));
    expect(dst).not.toBe('ok');
    expect(dst).toBe(await thrown(() => op('copy_bank_conflicts', [COPY, TILE, 'dst'])));
  });

  it("leaves out an ldmatrix .x1's threads that repeat a lower thread's row, in the report and in the picture", async () => {
    const x1 = JSON.stringify({ atom: 'SM75_U32x1_LDSM_N', bits: 16, thr: '(32,1):(1,0)', val: '(1,8)' });
    // the 8×8 tile of 16-bit values whose rows threads 0-7 read: each row's 8 values contiguous
    const mText = '(32,(2,4)):(2,(1,64))';
    const m = parseLayoutFunction(mText);
    const r = bankSide({ form: 'copy', copy: x1, m }, true);
    expect(fields(r.report)).toEqual(await op('copy_bank_conflicts', [x1, mText]));
    const { ways, accesses } = r.picture!;
    const { threads: T, values: V, index } = accesses;
    // .x1 takes the addresses of threads 0–7 only: the report is the brute-force count over them alone (one 128-byte
    // phase per instruction, where all 32 lanes would make four), and exactly their cells met a phase
    const live = bruteBanks((t, j) => phiM(m, index[t + T * j]!), 8, V, 2, 8);
    expect(live).not.toBe('bad-vector');
    const b = live as Exclude<typeof live, 'bad-vector'>;
    expect([r.report.vector, r.report.instructions, r.report.phases, r.report.wavefronts, r.report.sectors]).toEqual([
      b.vector,
      b.instructions,
      b.phases,
      b.wavefronts,
      b.sectors,
    ]);
    expect(r.report.phases).toBe(r.report.instructions);
    const byLive = new Set<number>();
    for (let x = 0; x < index.length; x++) if (x % T < 8) byLive.add(index[x]!);
    for (let c = 0; c < ways.length; c++) expect(ways[c], `cell ${c}`).toBe(byLive.has(c) ? 1 : 0);
  });

  it("prices an MMA operand as every thread's partition of the whole 128×64 tile, by brute force", () => {
    const mma = makeTiledMma(TILED.atom, parseLayout(TILED.layout));
    const [tM, , tK] = mma.tileShape;
    for (const mText of [TILE, `Sw<3,3,3> o ${TILE}`]) {
      const m = parseLayoutFunction(mText);
      const r = bankSide({ form: 'mma', mma: JSON.stringify(TILED), operand: 'A', m, elem: 2 }, true);
      const { threads: T, values: V, index } = r.picture!.accesses;
      expect(T).toBe(mma.T);
      // thread t holds, in every (tM × tK) tile (i, k) of the 128×64 tile, the elements its A TV layout names there
      const [rows, cols] = [128, 64];
      const tv = mma.layoutA_TV;
      const W = size(mode(tv, 2));
      for (let t = 0; t < T; t++) {
        const want = new Set<number>();
        for (let i = 0; i < rows / tM; i++)
          for (let k = 0; k < cols / tK; k++)
            for (let w = 0; w < W; w++) {
              const a = phi(tv, t + T * w);
              want.add(i * tM + (a % tM) + rows * (k * tK + Math.floor(a / tM)));
            }
        const got = new Set(Array.from({ length: V }, (_, j) => index[t + T * j]!));
        expect(got, `thread ${t}`).toEqual(want);
      }
      const brute = bruteBanks((t, j) => phiM(m, index[t + T * j]!), T, V, 2);
      expect(brute).not.toBe('bad-vector');
      expect(r.report, mText).toEqual(brute);
    }
  });

  it('prices a Triton encoding writing M as ll_bank_conflicts does, and as its CuTe TV form does', async () => {
    for (const mText of [TILE, `Sw<3,3,3> o ${TILE}`]) {
      const m = parseLayoutFunction(mText);
      // the page's form: S is M's shared LL, the encoding over M's shape, drawn over M itself
      const r = bankSide({ form: 'll', r: BLOCKED, s: m, shape: '128x64', elem: 2 }, true);
      const s = await op('to_ll', [mText, 'shared']);
      const reg = await op('ll_from_encoding', [BLOCKED, [128, 64]]);
      expect(fields(r.report)).toEqual(await op('ll_bank_conflicts', [reg, s, 2]));
      const tv = fromLL(llFromEncoding(BLOCKED, [128, 64]), 'tv');
      expect(fields(r.report)).toEqual(fields(bankConflicts(m, tv, 2)));
      const map = bankMap(m, tv, 2);
      expect(r.picture!.memory).toBe(m);
      expect([...r.picture!.bank]).toEqual([...map.bank]);
      expect([...r.picture!.ways]).toEqual([...map.ways]);
      // the CLI's form (S as the LL's text) and the LL's own printed form of R read the same
      const cli = bankSide({ form: 'll', r: BLOCKED, s: JSON.stringify(s), shape: '128x64', elem: 2 });
      expect(fields(cli.report)).toEqual(fields(r.report));
      const again = bankSide({ form: 'll', r: JSON.stringify(reg), s: m, elem: 2 });
      expect(fields(again.report)).toEqual(fields(r.report));
    }
  });

  it('names what it cannot read', () => {
    const kinds = (f: BankSideForm): string => {
      try {
        bankSide(f);
        return 'ok';
      } catch (e) {
        return (e as { kind?: string }).kind ?? 'internal';
      }
    };
    expect(kinds({ form: 'tv', m: TILE, tv: '(32,8', elem: 2 })).toBe('parse');
    expect(kinds({ form: 'tv', m: '(8,64', tv: '(32,8):(8,1)', elem: 2 })).toBe('parse');
    expect(kinds({ form: 'tv', m: TILE, tv: 'Sw<3,3,3> o (32,8):(8,1)', elem: 2 })).toBe('domain');
    expect(kinds({ form: 'tv', m: TILE, tv: '(32,8):(8,1)' })).toBe('bad-request');
    expect(kinds({ form: 'copy', copy: '{"atom":"SM75_U32x4_LDSM_N"}', m: TILE })).toBe('bad-request');
    expect(kinds({ form: 'copy', copy: COPY, m: TILE })).toBe('ok');
    expect(kinds({ form: 'mma', mma: '{"atom":"NOPE"}', operand: 'A', m: TILE, elem: 2 })).not.toBe('ok');
    expect(kinds({ form: 'mma', mma: JSON.stringify(TILED), operand: 'D', m: TILE })).toBe('bad-request');
    expect(kinds({ form: 'll', r: '#ttg.blocked<{sizePerThread = [1', s: parseLayoutFunction(TILE), shape: '128x64', elem: 2 })).toBe('parse');
    expect(kinds({ form: 'll', r: BLOCKED, s: parseLayoutFunction(TILE), elem: 2 })).toBe('bad-request');
  });

  it("answers on sm90, the default machine, as without one, in every form (the page's default --arch)", () => {
    const sm90 = { machine: machineByName('sm90') };
    const m = parseLayoutFunction(TILE);
    const forms: BankSideForm[] = [
      { form: 'tv', m, tv: '((8,4),(8,2)):((1,64),(8,256))', elem: 2 },
      { form: 'copy', copy: COPY, m },
      { form: 'mma', mma: JSON.stringify(TILED), operand: 'B', m },
      { form: 'll', r: BLOCKED, s: m, shape: '128x64', elem: 2 },
    ];
    expect(forms.map((f) => f.form)).toEqual(SIDE_FORMS);
    for (const f of forms) expect(fields(bankSide(f, false, sm90).report), f.form).toEqual(fields(bankSide(f).report));
    // another machine answers its own model (gfx942: 64-lane waves, half the instructions of 32-thread warps)
    const wide = { form: 'tv', m, tv: '(64,8):(8,1)', elem: 4 } as const;
    const amd = bankSide(wide, false, { machine: machineByName('gfx942') });
    expect([amd.report.instructions, bankSide(wide).report.instructions]).toEqual([8, 16]);
  });
});

describe('searchSide', () => {
  const cands = swizzleCandidates(innerLayout(parseLayoutFunction(TILE)));
  /** searchSide over every candidate (or, `some`, over the candidates ks alone), each checked against bankSide */
  const check = (form: BankPatternForm, ks: readonly number[], some = false): ((k: number) => CandidateResult) => {
    const all = searchSide(some ? ks.map((k) => cands[k]!) : cands, form);
    expect(all.length).toBe(some ? ks.length : cands.length);
    const result = (k: number): CandidateResult => all[some ? ks.indexOf(k) : k]!;
    for (const k of ks) {
      let want: BankSide['report'] | null = null;
      try {
        want = bankSide(sideOver(form, cands[k]!)).report;
      } catch {
        want = null;
      }
      const got = result(k);
      expect([got.wavefronts, got.phases, got.instructions], `${form.form} candidate ${k}`).toEqual(
        want === null ? [null, null, undefined] : [want.wavefronts, want.phases, want.instructions],
      );
      expect(got.conflictFree).toBe(want !== null && want.wavefronts === want.phases);
      if (want !== null) expect(got.vectors).toEqual([want.vector]);
    }
    return result;
  };
  const sw333 = cands.findIndex((c) => isComposed(c) && c.swizzle.bits === 3 && c.swizzle.base === 3 && c.swizzle.shift === 3);

  it('prices every candidate as the form does: a tiled copy (Sw<3,3,3> conflict-free at vector 8)', () => {
    expect(sw333).toBeGreaterThanOrEqual(0);
    const result = check({ form: 'copy', copy: COPY }, [0, 1, 17, 100, 333, sw333, cands.length - 1]);
    expect(result(sw333).conflictFree).toBe(true);
    expect(result(sw333).vectors).toEqual([8]);
  });

  it('prices every candidate as the form does: an MMA operand and a Triton encoding', () => {
    const ks = [0, 5, sw333, cands.length - 1];
    check({ form: 'mma', mma: JSON.stringify(TILED), operand: 'A', elem: 2 }, ks, true);
    check({ form: 'll', r: BLOCKED, shape: '128x64', elem: 2 }, ks, true);
  });
});

describe('the picture of a TV layout', () => {
  it("is bankMap's, and its report the brute-force count", () => {
    const cases: [string, string, number, number?][] = [
      ['Sw<3,3,3> o (8,64):(64,1)', '((8,4),(8,2)):((1,64),(8,256))', 2],
      ['(32,32):(32,1)', '(32,32):(1,32)', 4, 1],
      ['(16,16):(1,16)', '(32,8):(8,1)', 4],
      ['Sw<2,2,3> o (16,32):(32,1)', '((4,8),(4,4)):((4,64),(1,16))', 2],
    ];
    for (const [mt, tvt, e, v] of cases) {
      const m = parseLayoutFunction(mt);
      const tv = parseLayout(tvt);
      const a = bankSide({ form: 'tv', m, tv: tvt, elem: e, ...(v !== undefined ? { vec: v } : {}) }, true);
      expect(fields(a.report), `${mt} ${tvt}`).toEqual(fields(bankConflicts(m, tv, e, v)));
      const brute = bruteBanks((t, j) => phiM(m, phi(tv, t + size(mode(tv, 1)) * j)), size(mode(tv, 1)), size(mode(tv, 2)), e, v);
      expect(fields(a.report), `${mt} ${tvt} by brute force`).toEqual(fields(brute as object));
      const map = bankMap(m, tv, e, v);
      expect(Array.from(a.picture!.ways)).toEqual(Array.from(map.ways));
      expect(Array.from(a.picture!.bank)).toEqual(Array.from(map.bank));
    }
  });
});

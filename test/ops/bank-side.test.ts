/**
 * A side of a bank analysis in each of its forms (src/ops/bank-side.ts), against the ops the CLI and batch answer
 * with and against brute force: a TV layout is `bank_conflicts`; a tiled copy is `copy_bank_conflicts` over the
 * whole memory tile (the 128×64 tile's 8-way at vector 8 of issue 25, conflict-free under Sw<3,3,3>); an MMA operand
 * is every thread's partition of make_layout(shape(M)), each thread's elements enumerated here from the TV layout of
 * the operand tile by tile, priced by the independent brute-force counter; a Triton encoding is `ll_bank_conflicts`,
 * and where its register layout has a CuTe TV form, the TV form's answer; the swizzle search prices each candidate
 * as the form does; the picture's cells come from the same accesses.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { mode, phi, size } from '../../src/algebra/layout.js';
import { parseLayout } from '../../src/algebra/notation.js';
import { innerLayout, isComposed, parseLayoutFunction, phiComposed, type LayoutFunction } from '../../src/cute/composed.js';
import { threadValues } from '../../src/memory/access.js';
import { bankCells, bankConflicts, bankConflictsOf, bankMap } from '../../src/memory/banks.js';
import { swizzleCandidates } from '../../src/memory/search.js';
import { bankSide, loadBankSide, searchSide, SIDE_FORMS, type SideRequest } from '../../src/ops/bank-side.js';
import { runOpDirect, type Json, type OpContext } from '../../src/ops/table.js';
import { makeTiledMma } from '../../src/atoms/tiled-mma.js';
import { fromLL } from '../../src/linear/bridge.js';
import { llFromEncoding } from '../../src/linear/encodings.js';
import { bruteBanks } from '../memory/brute-banks.js';

const ctx: OpContext = { backendChoice: 'cpu', backend: async () => Promise.reject(new Error('no bulk check here')) };
const op = async (name: string, args: unknown[]): Promise<Json> => await runOpDirect(name, args, ctx, true);

const MMA = { atom: 'SM80_16x8x16_F32F16F16F32_TN', layout: '(2,2,1)' };
const COPY = JSON.stringify({ atom: 'SM75_U32x4_LDSM_N', bits: 16, mma: { ...MMA, permutation: '(32,32,16)' }, operand: 'A' });
const TILE = '(128,64):(64,1)';
const BLOCKED = '#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>';

const phiM = (m: LayoutFunction, x: number): number => (isComposed(m) ? phiComposed(m, x) : phi(m, x));
const fields = (r: object): Record<string, unknown> => JSON.parse(JSON.stringify(r)) as Record<string, unknown>;

beforeAll(async () => {
  for (const f of SIDE_FORMS) await loadBankSide(f);
  expect(loadBankSide('copy')).toBeUndefined();
});

describe('bankSide', () => {
  it('prices a TV layout as bank_conflicts does', async () => {
    for (const m of ['Sw<3,3,3> o (8,64):(64,1)', '(8,64):(64,1)']) {
      const tv = '((8,4),(8,2)):((1,64),(8,256))';
      const r = bankSide(parseLayoutFunction(m), { form: 'tv', text: tv, e: 2 });
      expect(fields(r.report)).toEqual(await op('bank_conflicts', [m, tv, 2]));
    }
  });

  it('prices a tiled copy over the whole tile as copy_bank_conflicts does: 8-way at vector 8, none under Sw<3,3,3>', async () => {
    const plain = bankSide(parseLayoutFunction(TILE), { form: 'copy', text: COPY, e: 1 });
    expect(fields(plain.report)).toEqual(await op('copy_bank_conflicts', [COPY, TILE]));
    expect(plain.report.vector).toBe(8);
    expect(plain.report.worst?.wavefronts).toBe(8);
    expect(plain.e).toBe(2); // the atom's value size, not the request's
    // every element of the tile, each read by the same number of threads (A is shared by the MMA's threads along N)
    const times = new Map<number, number>();
    for (const x of plain.tvs.index) times.set(x, (times.get(x) ?? 0) + 1);
    expect(times.size).toBe(128 * 64);
    expect(new Set(times.values())).toEqual(new Set([2]));
    const fixed = bankSide(parseLayoutFunction(`Sw<3,3,3> o ${TILE}`), { form: 'copy', text: COPY, e: 1 });
    expect(fixed.report.conflicts).toBe(0);
    expect(fixed.report.vector).toBe(8);
    // the side asked for explicitly is priced as copy_bank_conflicts prices it (ldmatrix's registers: not vectors of M)
    const dst = (): unknown => bankSide(parseLayoutFunction(TILE), { form: 'copy', text: COPY, e: 2, side: 'dst' });
    await expect(op('copy_bank_conflicts', [COPY, TILE, 'dst'])).rejects.toThrow(/not contiguous and aligned/);
    expect(dst).toThrow(/not contiguous and aligned/);
  });

  it("leaves out an ldmatrix .x1's threads that repeat a lower thread's row, in the report and in the picture", async () => {
    const x1 = JSON.stringify({ atom: 'SM75_U32x1_LDSM_N', bits: 16, thr: '(32,1):(1,0)', val: '(1,8)' });
    // the 8×8 tile of 16-bit values whose rows threads 0-7 read: each row's 8 values contiguous
    const mText = '(32,(2,4)):(2,(1,64))';
    const m = parseLayoutFunction(mText);
    const r = bankSide(m, { form: 'copy', text: x1, e: 2 });
    expect(fields(r.report)).toEqual(await op('copy_bank_conflicts', [x1, mText]));
    expect(r.live).toBeDefined();
    const { ways } = bankCells(m, r.tvs, r.e, r.report.vector, r.live);
    const { threads: T, index } = r.tvs;
    for (let x = 0; x < index.length; x++) {
      const t = x % T;
      if (r.live![t]) expect(ways[index[x]!], `cell ${index[x]} of live thread ${t}`).toBeGreaterThan(0);
    }
    // the cells only repeated threads name are accessed by none
    const byLive = new Set<number>();
    for (let x = 0; x < index.length; x++) if (r.live![x % T]) byLive.add(index[x]!);
    for (let c = 0; c < ways.length; c++) if (!byLive.has(c)) expect(ways[c], `cell ${c}`).toBe(0);
    // .x1 takes the addresses of threads 0–7 only
    expect(Array.from(r.live!).flatMap((l, t) => (l ? [t] : []))).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  });

  it("prices an MMA operand as every thread's partition of the whole tile, by brute force", () => {
    const mma = makeTiledMma(MMA.atom, parseLayout(MMA.layout));
    const [tM, , tK] = mma.tileShape;
    for (const mText of [TILE, `Sw<3,3,3> o ${TILE}`]) {
      const m = parseLayoutFunction(mText);
      const r = bankSide(m, { form: 'mma', text: JSON.stringify(MMA), e: 2, operand: 'A' });
      const { threads: T, values: V, index } = r.tvs;
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
      const b = brute as Exclude<typeof brute, 'bad-vector'>;
      expect([r.report.vector, r.report.phases, r.report.wavefronts, r.report.sectors]).toEqual([b.vector, b.phases, b.wavefronts, b.sectors]);
    }
  });

  it('prices a Triton encoding as ll_bank_conflicts does, and as its CuTe TV form does', async () => {
    for (const mText of [TILE, `Sw<3,3,3> o ${TILE}`]) {
      const m = parseLayoutFunction(mText);
      const r = bankSide(m, { form: 'll', text: BLOCKED, e: 2 });
      const s = await op('to_ll', [mText, 'shared']);
      const reg = await op('ll_from_encoding', [BLOCKED, [128, 64]]);
      expect(fields(r.report)).toEqual(await op('ll_bank_conflicts', [reg, s, 2]));
      const tv = fromLL(llFromEncoding(BLOCKED, [128, 64]), 'tv');
      expect(fields(r.report)).toEqual(fields(bankConflicts(m, tv, 2)));
      // the LL's own printed form reads the same
      const again = bankSide(m, { form: 'll', text: JSON.stringify(reg), e: 2 });
      expect(fields(again.report)).toEqual(fields(r.report));
    }
  });

  it('names what it cannot read', () => {
    const m = parseLayoutFunction(TILE);
    const kinds = (r: SideRequest): string => {
      try {
        bankSide(m, r);
        return 'ok';
      } catch (e) {
        return (e as { kind?: string }).kind ?? 'internal';
      }
    };
    expect(kinds({ form: 'tv', text: '(32,8', e: 2 })).toBe('parse');
    expect(kinds({ form: 'tv', text: 'Sw<3,3,3> o (32,8):(8,1)', e: 2 })).toBe('domain');
    expect(kinds({ form: 'copy', text: '{"atom":"SM75_U32x4_LDSM_N"}', e: 2 })).toBe('bad-request');
    expect(kinds({ form: 'copy', text: COPY, e: 2 })).toBe('ok');
    expect(kinds({ form: 'mma', text: '{"atom":"NOPE"}', e: 2 })).not.toBe('ok');
    expect(kinds({ form: 'll', text: '#ttg.blocked<{sizePerThread = [1', e: 2 })).not.toBe('ok');
  });
});

describe('searchSide', () => {
  it('prices every candidate as the form does', async () => {
    const base = parseLayoutFunction(TILE);
    const cands = swizzleCandidates(innerLayout(base));
    const req: SideRequest = { form: 'copy', text: COPY, e: 2 };
    const results = searchSide(cands, req);
    expect(results.length).toBe(cands.length);
    for (const k of [0, 1, 17, 100, 333, cands.length - 1]) {
      const c = cands[k]!;
      let want: { wavefronts: number; phases: number } | null = null;
      try {
        want = bankSide(c, req).report;
      } catch {
        want = null;
      }
      expect(results[k]!.wavefronts).toBe(want?.wavefronts ?? null);
      expect(results[k]!.conflictFree).toBe(want !== null && want.wavefronts === want.phases);
    }
    const sw333 = cands.findIndex((c) => isComposed(c) && c.swizzle.bits === 3 && c.swizzle.base === 3 && c.swizzle.shift === 3);
    expect(sw333).toBeGreaterThanOrEqual(0);
    expect(results[sw333]!.conflictFree).toBe(true);
    expect(results[sw333]!.vectors).toEqual([8]);
  });
});

describe('bankConflictsOf and bankCells', () => {
  it('answer as bankConflicts and bankMap on the TV layout the table comes from', () => {
    const cases: [string, string, number, number?][] = [
      ['Sw<3,3,3> o (8,64):(64,1)', '((8,4),(8,2)):((1,64),(8,256))', 2],
      ['(32,32):(32,1)', '(32,32):(1,32)', 4, 1],
      ['(16,16):(1,16)', '(32,8):(8,1)', 4],
      ['Sw<2,2,3> o (16,32):(32,1)', '((4,8),(4,4)):((4,64),(1,16))', 2],
    ];
    for (const [mt, tvt, e, v] of cases) {
      const m = parseLayoutFunction(mt);
      const tv = parseLayout(tvt);
      expect(fields(bankConflictsOf(m, threadValues(tv), e, v)), `${mt} ${tvt}`).toEqual(fields(bankConflicts(m, tv, e, v)));
      const map = bankMap(m, tv, e, v);
      const cells = bankCells(m, threadValues(tv), e, map.report.vector);
      expect(Array.from(cells.ways)).toEqual(Array.from(map.ways));
      expect(Array.from(cells.bank)).toEqual(Array.from(map.bank));
    }
  });
});

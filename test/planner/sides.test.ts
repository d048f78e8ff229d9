/**
 * The sides of plan_smem (src/planner/sides.ts) against the project's analyses of the same
 * accesses: a tiled copy side priced as copy_bank_conflicts prices it (ldmatrix's repeated rows
 * left out), an MMA operand side as bank_conflicts of the operand's TV layout, and the checks:
 * the matrix instructions by machine and direction, the descriptor sides, bad requests, deadlines.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { LayoutError } from '../../src/algebra/errors.js';
import { copyBankConflicts } from '../../src/atoms/conflicts.js';
import { parseLayoutFunction } from '../../src/cute/composed.js';
import { bankConflicts } from '../../src/memory/banks.js';
import { loadPlanner, planArgs } from '../../src/ops/planner.js';
import { tiledCopyArg, tiledMmaArg } from '../../src/ops/tiled.js';
import { parseLayout } from '../../src/algebra/notation.js';
import { candidates } from '../../src/planner/families.js';
import { machineOf, matrixInstructions } from '../../src/planner/machine.js';
import { PriceScratch, priceSide } from '../../src/planner/price.js';
import { tvSide } from '../../src/planner/sides.js';
import { expectTimeout } from '../helpers/deadline.js';

beforeAll(async () => {
  await loadPlanner();
});

const MMA = { atom: 'SM80_16x8x16_F16F16F16F16_TN', layout: '(2,2,1)' };
const LDSM = { atom: 'SM75_U32x4_LDSM_N', bits: 16, mma: MMA, operand: 'A' };
const ROWS = '((8,16),(8,2)):((256,1),(32,16))'; // 128 threads, 16-byte rows of a (32,64) fp16 tile

/** The error kind and message of f. */
function failure(f: () => unknown): { kind: string; message: string } {
  try {
    f();
  } catch (e) {
    if (e instanceof LayoutError) return { kind: e.kind, message: e.message };
    throw e;
  }
  throw new Error('expected an error');
}

describe('sides', () => {
  it('a tiled copy side is priced as copy_bank_conflicts prices it (docs/semantics.md §10.5), named ldmatrix.x4', () => {
    const r = planArgs({ tile: '(32,64)', dtype: 'half_t', write: ROWS, read: LDSM, top: 64 });
    expect(r.front.length).toBeGreaterThan(0);
    const c = tiledCopyArg(LDSM);
    for (const x of r.front) {
      const want = copyBankConflicts(c, parseLayoutFunction(x.layout), 'src');
      expect([x.read.instruction, x.read.vectorBytes, x.read.instructions, x.read.phases, x.read.wavefronts]).toEqual([
        'ldmatrix.x4',
        16,
        want.instructions,
        want.phases,
        want.wavefronts,
      ]);
    }
    // docs/semantics.md §10.5's anchor: Sw<3,3,3> over the row-major tile is conflict-free for this read
    const best = r.front[0]!;
    expect(best.read.wavefronts).toBe(best.read.phases);
    expect(best.read.wavefronts).toBe(64);
  });

  it('an MMA operand side is the operand TV layout over the tile', () => {
    const mma = tiledMmaArg({ atom: 'SM80_16x8x16_F16F16F16F16_TN' });
    const r = planArgs({
      tile: '(16,16)',
      dtype: 'half_t',
      write: '((16,2),8):((1,128),16)',
      read: { mma: { atom: mma.atom.name }, operand: 'A' },
      top: 32,
    });
    let plain = 0;
    for (const x of r.front) {
      const want = bankConflicts(parseLayoutFunction(x.layout), mma.layoutA_TV, 2);
      // ldmatrix.x4 where it is cheaper than the ld.shared that bank_conflicts prices
      if (x.read.instruction === 'ldmatrix.x4') expect(x.read.wavefronts).toBeLessThanOrEqual(want.wavefronts);
      else {
        plain++;
        expect([x.read.instruction, x.read.vectorBytes, x.read.phases, x.read.wavefronts]).toEqual([
          'ld.shared',
          2 * want.vector,
          want.phases,
          want.wavefronts,
        ]);
      }
    }
    void plain;
  });

  it('a TV side of 16-bit values may use ldmatrix.x4: priced as the LDSM tiled copy of the same MMA operand', () => {
    const mma = { atom: 'SM80_16x8x16_F16F16F16F16_TN' };
    const copy = tiledCopyArg({ atom: 'SM75_U32x4_LDSM_N', bits: 16, mma, operand: 'A' });
    const r = planArgs({ tile: '(16,16)', dtype: 'half_t', write: '((16,2),8):((1,128),16)', read: { mma, operand: 'A' }, top: 1000 });
    let matrix = 0;
    for (const x of r.front) {
      if (x.read.instruction !== 'ldmatrix.x4') continue;
      matrix++;
      const want = copyBankConflicts(copy, parseLayoutFunction(x.layout), 'src');
      expect([x.read.vectorBytes, x.read.instructions, x.read.phases, x.read.wavefronts]).toEqual([16, want.instructions, want.phases, want.wavefronts]);
    }
    expect(matrix).toBeGreaterThan(0);
    expect(r.front[0]!.read.instruction).toBe('ldmatrix.x4');
  });

  it('matrix instructions follow the machine and the direction', () => {
    const stsm = { atom: 'SM90_U32x4_STSM_N', bits: 16, mma: MMA, operand: 'A' };
    const ok = planArgs({ tile: '(32,64)', dtype: 'half_t', write: stsm, read: ROWS, arch: 'sm90' });
    expect(ok.front[0]!.write.instruction).toBe('stmatrix.x4');
    expect(failure(() => planArgs({ tile: '(32,64)', dtype: 'half_t', write: stsm, read: ROWS, arch: 'sm80' }))).toMatchObject({
      kind: 'domain',
      message: expect.stringMatching(/stmatrix is not on sm80/),
    });
    expect(failure(() => planArgs({ tile: '(32,64)', dtype: 'half_t', write: LDSM, read: ROWS }))).toMatchObject({
      kind: 'domain',
      message: expect.stringMatching(/cannot be the write side/),
    });
    expect(failure(() => planArgs({ tile: '(32,64)', dtype: 'float', write: ROWS, read: LDSM }))).toMatchObject({
      kind: 'domain',
      message: expect.stringMatching(/16-bit values/),
    });
  });

  it('the machine: an unknown arch is bad-request (memory/machines.ts), AMD has no matrix instructions', () => {
    expect(failure(() => planArgs({ tile: '(32,64)', dtype: 'half_t', write: ROWS, read: ROWS, arch: 'sm70' }))).toMatchObject({
      kind: 'bad-request',
      message: expect.stringMatching(/unknown arch 'sm70': the machines are sm80, sm90, sm100, gfx942, gfx950/),
    });
    for (const arch of ['gfx942', 'gfx950'] as const) {
      expect(matrixInstructions(machineOf(arch))).toEqual({ ldmatrix: false, stmatrix: false });
      expect(failure(() => planArgs({ tile: '(32,64)', dtype: 'half_t', write: ROWS, read: LDSM, arch }))).toMatchObject({
        kind: 'domain',
        message: expect.stringMatching(new RegExp(`ldmatrix is not on ${arch}`)),
      });
      // sub-dword accesses have no published phases: a side of 1-byte values a thread has no instruction
      expect(failure(() => planArgs({ tile: '(32,64)', dtype: 'uint8_t', write: '(2048,1):(1,0)', read: ROWS, arch }))).toMatchObject({
        kind: 'domain',
        message: expect.stringMatching(/sub-dword/),
      });
    }
    expect(matrixInstructions(machineOf('sm80'))).toEqual({ ldmatrix: true, stmatrix: false });
    expect(matrixInstructions(machineOf('sm100'))).toEqual({ ldmatrix: true, stmatrix: true });
  });

  it('bad requests: one clear error each', () => {
    const base = { tile: '(32,64)', dtype: 'half_t', write: ROWS, read: ROWS };
    const cases: [unknown, string, RegExp][] = [
      [{ ...base, extra: 1 }, 'bad-request', /unknown key/],
      [{ ...base, tile: 32 }, 'bad-request', /tile/],
      [{ ...base, tile: '(32,(2,32))' }, 'domain', /flat shape/],
      [{ ...base, tile: '(2048,1024)' }, 'domain', /at most 2\^20/],
      [{ ...base, dtype: 'fp16' }, 'domain', /unknown dtype/],
      [{ ...base, families: ['swizle'] }, 'domain', /unknown family/],
      [{ ...base, families: [] }, 'domain', /empty/],
      [{ ...base, top: 0 }, 'domain', /top/],
      [{ ...base, top: 1.5 }, 'bad-request', /top/],
      [{ ...base, read: '(32,64):(1,32' }, 'parse', /./],
      [{ ...base, read: '(64,64):(1,64)' }, 'domain', /beyond the tile/],
      [{ ...base, read: { ll: '#ttg.linear<{register = [[1]], lane = [], warp = [], block = []}>' } }, 'domain', /out-dims/],
      [{ ...base, read: { nothing: 1 } }, 'bad-request', /needs one of/],
      [[1], 'bad-request', /JSON object/],
    ];
    for (const [req, kind, msg] of cases) {
      const f = failure(() => planArgs(req));
      expect(f.kind, JSON.stringify(req)).toBe(kind);
      expect(f.message).toMatch(msg);
    }
  });

  it("the swizzle family's phase-table prices equal the direct price of every candidate", () => {
    const m = machineOf('sm90');
    const cases: [number[], number, string][] = [
      [[32, 64], 2, ROWS],
      [[32, 64], 2, '((8,4,4),(8,2)):((1,256,8),(32,1024))'],
      [[12, 16], 1, '(32,6):(6,1)'],
      [[16, 16], 4, '(32,8):(8,1)'],
      [[16, 16], 4, '(32,8):(1,32)'],
    ];
    for (const [shape, e, tv] of cases) {
      const tile = { shape, size: shape.reduce((a, b) => a * b, 1), e };
      const side = tvSide('read', parseLayout(tv), tile, m);
      const s = new PriceScratch();
      let n = 0;
      for (const c of candidates('swizzle', tile, 'half_t')) {
        expect(c.swizzle).toBeDefined();
        const direct = side.patterns
          .map((q) => priceSide(q, c.offsets, tile.size, e, m, s))
          .reduce(
            (a, b) => (b !== null && (a === null || b.wavefronts < a.wavefronts || (b.wavefronts === a.wavefronts && b.instructions < a.instructions)) ? b : a),
            null,
          );
        expect(side.price(c, s), `${tv} over ${c.layout}`).toEqual(direct);
        n++;
      }
      expect(n).toBeGreaterThan(10);
    }
  });

  it('a plan stops at its deadline', async () => {
    await expectTimeout(5, 1000, () => planArgs({ tile: '(128,128)', dtype: 'half_t', write: '(32,512):(1,32)', read: '(32,512):(512,1)' }));
  });
});

/**
 * The bank model per machine (src/memory/machines.ts, docs/memory.md "Machines"): each AMD phase table against its
 * documented groups, written out here as the sources write them; bank_conflicts on every machine against the
 * brute-force counter on random accesses; NVIDIA's machines answer exactly as the default model; what is not
 * published answers `domain`; the options argument through the op table.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { makeLayout, phi } from '../../src/algebra/layout.js';
import { makeComposed, phiComposed, type LayoutFunction } from '../../src/cute/composed.js';
import { makeSwizzle } from '../../src/cute/swizzle.js';
import { bankConflicts, bankMap, instructionTable } from '../../src/memory/banks.js';
import { MACHINE_NAMES, MACHINES, phaseGroups, type Machine, type MachineName } from '../../src/memory/machines.js';
import { runOp } from '../../src/ops/table.js';
import type { OpContext } from '../../src/ops/spec.js';
import { kindOfAsync } from '../helpers/kind.js';
import { bruteBanks, type BruteMachine } from './brute-banks.js';

const m = (name: MachineName): Machine => MACHINES.get(name)!;
/** The lanes of each phase of a row, as lists. */
const phasesOf = (name: MachineName, bytes: number, access: 'read' | 'write'): number[][] => {
  const g = phaseGroups(m(name), bytes, access);
  return Array.from({ length: g.wave / g.perPhase }, (_, f) => [...g.order.subarray(f * g.perPhase, (f + 1) * g.perPhase)]);
};
/** Lane l's phase in #11365's affine forms: l in the coset V0 ⊕ (b5·l5 ⊕ p·l2 ⊕ q·l3) has phase b5 + 2p + 4q. */
const bit = (l: number, i: number): number => (l >> i) & 1;
const phase942 = (l: number): number => bit(l, 5) + 2 * (bit(l, 2) ^ bit(l, 4)) + 4 * bit(l, 3);
const phase950 = (l: number): number => bit(l, 5) + 2 * (bit(l, 2) ^ bit(l, 3) ^ bit(l, 4));
const range = (a: number, b: number): number[] => Array.from({ length: b - a + 1 }, (_, i) => a + i);
const consecutive = (size: number): number[][] => Array.from({ length: 64 / size }, (_, f) => range(f * size, f * size + size - 1));

describe('the AMD phase tables against their documented groups', () => {
  it('gfx942 ds_read_b128: triton-lang/triton#9662 SwizzleTest (numBanks 32) and #11365 "For MI300"', () => {
    // "Phase 0: T0-T3, T20-T23 / Phase 1: T32-T35, T52-T55 / Phase 2: T4-T7, T16-T19 / Phase 3: T36-T39, T48-T51 /
    //  Phase 4: T8-T11, T28-T31 / Phase 5: T40-T43, T60-T63 / Phase 6: T12-T15, T24-T27 / Phase 7: T44-T47, T56-T59"
    expect(phasesOf('gfx942', 16, 'read')).toEqual([
      [...range(0, 3), ...range(20, 23)],
      [...range(32, 35), ...range(52, 55)],
      [...range(4, 7), ...range(16, 19)],
      [...range(36, 39), ...range(48, 51)],
      [...range(8, 11), ...range(28, 31)],
      [...range(40, 43), ...range(60, 63)],
      [...range(12, 15), ...range(24, 27)],
      [...range(44, 47), ...range(56, 59)],
    ]);
    // #11365's affine form of the same table: V0 = span(l0, l1, l2 ⊕ l4), V1 = V0 ⊕ l5, V2 = V0 ⊕ l2, V4 = V0 ⊕ l3, …
    expect([...phaseGroups(m('gfx942'), 16, 'read').phaseOf]).toEqual(range(0, 63).map(phase942));
  });
  it('gfx950 ds_read_b128: triton-lang/triton#11365 "For MI350"', () => {
    // "Phase 0: T0-T3, T12-T15, T20-T23, T24-T27 / Phase 1: T32-T35, T44-T47, T52-T55, T56-T59 /
    //  Phase 2: T4-T7, T8-T11, T16-T19, T28-T31 / Phase 3: T36-T39, T40-T43, T48-T51, T60-T63"
    expect(phasesOf('gfx950', 16, 'read')).toEqual([
      [...range(0, 3), ...range(12, 15), ...range(20, 23), ...range(24, 27)],
      [...range(32, 35), ...range(44, 47), ...range(52, 55), ...range(56, 59)],
      [...range(4, 7), ...range(8, 11), ...range(16, 19), ...range(28, 31)],
      [...range(36, 39), ...range(40, 43), ...range(48, 51), ...range(60, 63)],
    ]);
    // its affine form: V0 = span(l0, l1, l2 ⊕ l3, l2 ⊕ l4), V1 = V0 ⊕ l5, V2 = V0 ⊕ l2, V3 = V0 ⊕ l5 ⊕ l2
    expect([...phaseGroups(m('gfx950'), 16, 'read').phaseOf]).toEqual(range(0, 63).map(phase950));
  });
  it('gfx942 ds_write_b128: the Composable Kernel LDS page (8 phases, lane0~lane7 … lane56~lane63)', () => {
    expect(phasesOf('gfx942', 16, 'write')).toEqual(consecutive(8));
  });
  it('b32, b64 (both ways) and gfx950 ds_write_b128: #9662, 64·bits / (banks·32) phases of consecutive lanes', () => {
    // its table for 64 bits: gfx942 4 phases, gfx950 2 phases
    for (const a of ['read', 'write'] as const) {
      expect(phasesOf('gfx942', 4, a)).toEqual(consecutive(32));
      expect(phasesOf('gfx942', 8, a)).toEqual(consecutive(16));
      expect(phasesOf('gfx950', 4, a)).toEqual(consecutive(64));
      expect(phasesOf('gfx950', 8, a)).toEqual(consecutive(32));
    }
    expect(phasesOf('gfx950', 16, 'write')).toEqual(consecutive(16));
  });
  it('every row with phases covers each lane of the wave once', () => {
    for (const mc of MACHINES.values()) for (const r of mc.rows) if (r.phases) expect(r.phases.flat().sort((a, b) => a - b)).toEqual(range(0, mc.wave - 1));
  });
});

describe('what is not published answers domain, never a guess', () => {
  const tile = makeLayout([64, 8], [8, 1]);
  const tv = makeLayout([64, 8], [1, 64]);
  it('sub-dword accesses, the _tr reads, and a 16-byte access with no direction', () => {
    for (const name of ['gfx942', 'gfx950'] as const) {
      expect(() => bankConflicts(tile, tv, 2, 1, { machine: m(name) })).toThrow(/ds_read_u16: no phase grouping/);
      expect(() => bankConflicts(tile, tv, 1, 1, { machine: m(name), access: 'write' })).toThrow(/ds_write_b8: no phase grouping/);
      expect(() => bankConflicts(tile, tv, 2, 8, { machine: m(name) })).toThrow(/serve different lanes per phase/);
    }
    expect(() => bankConflicts(tile, tv, 2, 4, { machine: m('gfx950'), access: 'ds_read_b64_tr_b16' })).toThrow(/transposing LDS reads is published/);
    expect(() => bankConflicts(tile, tv, 2, 4, { machine: m('gfx942'), access: 'ds_read_b64_tr_b16' })).toThrow(/gfx942 has no instruction/);
    expect(() => bankConflicts(tile, tv, 2, 4, { machine: m('sm90'), access: 'ds_read_b64' })).toThrow(/sm90 has no instruction/);
  });
});

/** The brute force's machines, from the sources' tables as written above (not from src/memory). */
const BRUTE: Record<MachineName, (access: 'read' | 'write') => BruteMachine> = {
  sm80: () => nvidia,
  sm90: () => nvidia,
  sm100: () => nvidia,
  gfx942: (access) => ({
    wave: 64,
    banks: 32,
    phase: (l, w) => (w === 16 && access === 'read' ? phase942(l) : Math.floor(l / ({ 4: 32, 8: 16, 16: 8 } as Record<number, number>)[w]!)),
  }),
  gfx950: (access) => ({
    wave: 64,
    banks: 64,
    phase: (l, w) => (w === 16 && access === 'read' ? phase950(l) : Math.floor(l / ({ 4: 64, 8: 32, 16: 16 } as Record<number, number>)[w]!)),
  }),
};
const nvidia: BruteMachine = { wave: 32, banks: 32, phase: (l, w) => Math.floor(l / ({ 1: 32, 2: 32, 4: 32, 8: 16, 16: 8 } as Record<number, number>)[w]!) };

const phiFn = (mm: LayoutFunction, x: number): number => ('swizzle' in mm ? phiComposed(mm, x) : phi(mm, x));

const arbCase = fc
  .record({
    rows: fc.constantFrom(4, 8, 16, 32, 64),
    cols: fc.constantFrom(8, 16, 32, 64),
    pad: fc.constantFrom(0, 0, 1, 4),
    sw: fc.option(fc.record({ b: fc.integer({ min: 1, max: 3 }), m: fc.integer({ min: 0, max: 4 }), s: fc.integer({ min: 3, max: 6 }) }), { nil: null }),
    T: fc.constantFrom(32, 64, 128),
    e: fc.constantFrom(4, 8, 16),
    rowMajorTv: fc.boolean(),
    access: fc.constantFrom('read', 'write') as fc.Arbitrary<'read' | 'write'>,
    arch: fc.constantFrom(...MACHINE_NAMES),
  })
  .map((c) => {
    const inner = makeLayout([c.rows, c.cols], [c.cols + c.pad, 1]);
    const mm: LayoutFunction = c.sw ? makeComposed(makeSwizzle(c.sw.b, c.sw.m, c.sw.s), 0, inner) : inner;
    const n = c.rows * c.cols;
    const T = Math.min(c.T, n);
    const V = n / T;
    // thread t takes V consecutive tile indices (column-major: down a column), or every T-th
    const tv = c.rowMajorTv ? makeLayout([T, V], [V, 1]) : makeLayout([T, V], [1, T]);
    return { ...c, mm, tv, T, V };
  });

describe('bank_conflicts on every machine against the brute-force counter', () => {
  it('agrees on every field for random layouts, swizzles, widths and both directions', () => {
    fc.assert(
      fc.property(arbCase, (c) => {
        const off = (t: number, j: number): number => phiFn(c.mm, phi(c.tv, t + c.T * j));
        const target = { machine: m(c.arch), access: c.access };
        const want = bruteBanks(off, c.T, c.V, c.e, undefined, BRUTE[c.arch](c.access));
        let got: unknown;
        try {
          got = bankConflicts(c.mm, c.tv, c.e, undefined, target);
        } catch (err) {
          got = (err as Error).message;
        }
        if (want !== 'bad-vector' && want.vector * c.e >= 4) expect(got).toEqual(want);
        else if (want !== 'bad-vector' && c.arch.startsWith('gfx')) expect(got).toMatch(/no phase grouping/);
        else if (want !== 'bad-vector') expect(got).toEqual(want);
      }),
      { numRuns: 200 },
    );
  });
  it("NVIDIA's machines answer exactly as the default model (bank_conflicts, bankMap, the instruction table)", () => {
    fc.assert(
      fc.property(arbCase, (c) => {
        const plain = bankConflicts(c.mm, c.tv, c.e);
        const map = bankMap(c.mm, c.tv, c.e);
        const rows = instructionTable(c.mm, c.tv, c.e);
        for (const name of ['sm80', 'sm90', 'sm100'] as const) {
          expect(bankConflicts(c.mm, c.tv, c.e, undefined, { machine: m(name), access: c.access })).toEqual(plain);
          expect(bankMap(c.mm, c.tv, c.e, undefined, { machine: m(name) })).toEqual(map);
          expect(instructionTable(c.mm, c.tv, c.e, undefined, { machine: m(name) })).toEqual(rows);
        }
      }),
      { numRuns: 60 },
    );
  });
  it('a worked gfx942 case: 64 lanes reading 16-byte rows of a 128-byte-pitch tile', () => {
    // lane t reads row t of (64,8):(8,1) fp16: 16 bytes at 16t; ds_read_b128 phase 0 = lanes 0–3, 20–23: rows 0–3 in
    // banks 0–15, rows 20–23 in banks 16–31 (16·20 / 4 = 80 ≡ 16): conflict-free; ds_write_b128 lanes 0–7 likewise
    const tile = makeLayout([64, 8], [8, 1]);
    const tv = makeLayout([64, 8], [1, 64]);
    const read = bankConflicts(tile, tv, 2, undefined, { machine: m('gfx942'), access: 'read' });
    expect([read.instructions, read.phases, read.wavefronts, read.worst]).toEqual([1, 8, 8, null]);
    // the same rows at a 256-byte pitch: lanes 0–3 and 20–23 land on banks 0–15 twice (2 wavefronts per phase)
    const wide = makeLayout([64, 8], [16, 1]);
    const r2 = bankConflicts(wide, tv, 2, undefined, { machine: m('gfx942'), access: 'read' });
    expect([r2.phases, r2.wavefronts]).toEqual([8, 16]);
    expect(r2.worst).toEqual({ instruction: 0, warp: 0, phase: 0, bank: 0, wavefronts: 2, threads: [0, 20] });
  });
});

describe('the options argument through the op table', () => {
  const ctx = { backendChoice: 'cpu', backend: async () => Promise.reject(new Error('no backend')) } as unknown as OpContext;
  it('takes {"arch", "access"} after e or v; an unknown arch or key is bad-request naming the set', async () => {
    const args = ['(64,8):(8,1)', '(64,8):(1,64)', 2];
    const r = (await runOp('bank_conflicts', [...args, { arch: 'gfx950', access: 'read' }], ctx)) as { phases: number };
    expect(r.phases).toBe(4);
    expect(await runOp('bank_conflicts', [...args, 8, { arch: 'sm100' }], ctx)).toEqual(await runOp('bank_conflicts', [...args, 8], ctx));
    expect(await kindOfAsync(runOp('bank_conflicts', [...args, { arch: 'gfx90a' }], ctx))).toBe('bad-request');
    await expect(runOp('bank_conflicts', [...args, { arch: 'gfx90a' }], ctx)).rejects.toThrow(/sm80, sm90, sm100, gfx942, gfx950/);
    expect(await kindOfAsync(runOp('bank_conflicts', [...args, { arch: 'gfx942', banks: 64 }], ctx))).toBe('bad-request');
    expect(await kindOfAsync(runOp('bank_conflicts', [...args, { arch: 'gfx942' }], ctx))).toBe('domain');
    // an access outside read, write and the instructions: bad-request; an instruction the machine lacks: domain
    expect(await kindOfAsync(runOp('bank_conflicts', [...args, { arch: 'gfx942', access: 'load' }], ctx))).toBe('bad-request');
    expect(await kindOfAsync(runOp('bank_conflicts', [...args, { arch: 'sm90', access: 'ds_read_b128' }], ctx))).toBe('domain');
    expect(await kindOfAsync(runOp('bank_conflicts', [...args, { arch: 'gfx942', access: 7 }], ctx))).toBe('bad-request');
    // the count as the request wrote it: the options object is the last argument, after at most v
    await expect(runOp('bank_conflicts', [...args, 8, 1, { arch: 'gfx942' }], ctx)).rejects.toThrow(
      /takes 3 to 4 argument\(s\) before its options object, got 5/,
    );
    await expect(runOp('bank_conflicts', [args[0], { arch: 'gfx942' }], ctx)).rejects.toThrow(/optionally followed by an options object, got 2/);
  });
});

/**
 * A side's banks on an entry's layout (src/planner/side-banks.ts, src/ops/plan-view.ts: the page's planner panel):
 * for every entry of four plans (the 16×16 SwizzleTest pair, the README's 128×64 pair on sm90 and gfx942, an epilogue
 * into the TMA), the offsets read back from the printed layout are Φ of the layout (Triton's `#ttg.shared_linear` by
 * the oracle's price), each side's price is the entry's (and the oracle's, test/planner/_brute.ts), and the bank
 * picture's banks and ways are those an independent count gives (every phase's words per bank, from §9.2's model, on
 * NVIDIA); a descriptor side has none.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { phi } from '../../src/algebra/layout.js';
import { isComposed, parseLayoutFunction, phiComposed } from '../../src/cute/composed.js';
import { loadPlanView, planEntryView, planSideText, planTileText } from '../../src/ops/plan-view.js';
import { loadPlanner, planArgs, planRequest } from '../../src/ops/planner.js';
import type { PlanEntry } from '../../src/planner/plan.js';
import { entryOffsets, sideBanks } from '../../src/planner/side-banks.js';
import { NVIDIA_BRUTE } from '../memory/brute-banks.js';
import { brutePrice, type BruteSide } from './_brute.js';

const LL = (reg: string, lane: string): { ll: string } => ({
  ll: `DistributedLinearLayout(reg_bases=${reg}, lane_bases=${lane}, warp_bases=[], block_bases=[], shape=[16, 16])`,
});
const SWIZZLETEST = {
  tile: '(16,16)',
  dtype: 'bfloat16_t',
  arch: 'sm80',
  write: LL('[[0, 1], [0, 2], [0, 4]]', '[[0, 8], [1, 0], [2, 0], [4, 0], [8, 0]]'),
  read: LL('[[0, 1], [8, 0], [0, 8]]', '[[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]]'),
};
const README = { tile: '(128,64)', dtype: 'half_t', write: '((8,16),(8,8)):((1024,1),(128,16))', read: '((8,4,4),(8,2,4)):((1,1024,8),(128,4096,32))' };
const EPILOGUE = { tile: '(128,128)', dtype: 'float', write: '((4,32),(4,4,8)):((512,1),(128,32,2048))', read: 'tma' };

beforeAll(async () => {
  await loadPlanner();
  await loadPlanView();
});

/** Φ of a printed CuTe layout at every tile index. */
const phiOf = (text: string, n: number): number[] => {
  const l = parseLayoutFunction(text);
  return Array.from({ length: n }, (_, x) => (isComposed(l) ? phiComposed(l, x) : phi(l, x)));
};

/** The oracle's side of a request side (its stated thread-value table, tabulated by the planner's side). */
function bruteSide(req: ReturnType<typeof planRequest>, role: 'write' | 'read'): BruteSide {
  const p = req[role].pattern!;
  return { T: p.threads, V: p.values, index: p.index, matrix: req[role].patterns.length > 1 };
}

/**
 * An independent count of a plain ld/st.shared side's ways (NVIDIA, §9.2): per warp, instruction and phase, the
 * distinct words in each bank; a value's cell takes the count of its own word's bank.
 */
function bruteWays(side: BruteSide, offsets: ArrayLike<number>, e: number, w: number, n: number): number[] {
  const ways = new Array<number>(n).fill(0);
  for (let g = 0; g * 32 < side.T; g++) {
    for (let k = 0; k < side.V / w; k++) {
      const phases = new Map<number, { t: number; j: number }[]>();
      for (let lane = 0; lane < 32 && 32 * g + lane < side.T; lane++) {
        const f = NVIDIA_BRUTE.phase(lane, w * e);
        for (let u = 0; u < w; u++) phases.set(f, [...(phases.get(f) ?? []), { t: 32 * g + lane, j: k * w + u }]);
      }
      for (const acc of phases.values()) {
        const word = (a: { t: number; j: number }): number => Math.floor((e * offsets[side.index[a.t + side.T * a.j]!]!) / 4);
        const banks = new Map<number, Set<number>>();
        for (const a of acc) {
          for (let b = 0; b < Math.max(1, e / 4); b++) {
            const wd = word(a) + b;
            banks.set(wd % 32, (banks.get(wd % 32) ?? new Set()).add(wd));
          }
        }
        for (const a of acc) {
          const x = side.index[a.t + side.T * a.j]!;
          ways[x] = Math.max(ways[x]!, banks.get(word(a) % 32)!.size);
        }
      }
    }
  }
  return ways;
}

const entriesOf = (r: ReturnType<typeof planArgs>): PlanEntry[] => [...r.front, ...(r.triton ? [r.triton] : [])];

describe("a side's banks on an entry's layout", () => {
  it('reads every entry back to its offsets: Φ of a CuTe layout, the oracle-priced function of a #ttg.shared_linear', () => {
    for (const q of [SWIZZLETEST, README]) {
      const r = planArgs(q);
      const req = planRequest(q);
      for (const x of entriesOf(r)) {
        const o = entryOffsets(x.layout, req.tile);
        if (x.layout.startsWith('#')) {
          expect(new Set(o).size, x.layout).toBe(req.tile.size); // a bijection of the tile
          for (const role of ['write', 'read'] as const) {
            const p = brutePrice(bruteSide(req, role), o, req.tile.e)!;
            expect([p.wavefronts, p.phases], `${x.layout} ${role}`).toEqual([x[role].wavefronts, x[role].phases]);
          }
        } else expect([...o], x.layout).toEqual(phiOf(x.layout, req.tile.size));
      }
    }
  });

  it('prices each side as the entry, draws its banks and ways as an independent count, and none for the TMA', () => {
    for (const q of [SWIZZLETEST, README, EPILOGUE, { ...README, arch: 'gfx942' }]) {
      const r = planArgs({ ...q, top: 6 });
      const req = planRequest(q);
      const { tile, machine } = req;
      for (const x of entriesOf(r)) {
        const o = entryOffsets(x.layout, tile);
        for (const role of ['write', 'read'] as const) {
          const b = sideBanks(req[role], o, tile, machine);
          if (req[role].pattern === null) {
            expect(b, `${x.layout} ${role}`).toBeNull();
            continue;
          }
          expect(b!.price, `${x.layout} ${role}`).toEqual(x[role]);
          expect([...b!.bank]).toEqual([...o].map((v) => Math.floor((tile.e * v) / 4) % machine.banks));
          const side = bruteSide(req, role);
          if (machine.vendor === 'nvidia' && !b!.price.instruction.includes('matrix')) {
            expect([...b!.ways], `${x.layout} ${role}`).toEqual(bruteWays(side, o, tile.e, b!.price.vectorBytes / tile.e, tile.size));
          }
          // a side without conflicts met one word per bank in every phase; one with them shows them
          const most = Math.max(...b!.ways);
          expect(most === 1, `${x.layout} ${role}`).toBe(x[role].conflicts === 0);
        }
      }
    }
  });

  it('draws conflicts where a layout has them, as the oracle counts them (layouts off the front)', () => {
    const req = planRequest(README);
    const { tile, machine } = req;
    let conflicted = 0;
    for (const l of ['(128,64):(64,1)', '(128,64):(1,128)', '(128,64):(72,1)', 'Sw<2,3,3> o (128,64):(64,1)']) {
      const o = entryOffsets(l, tile);
      for (const role of ['write', 'read'] as const) {
        const b = sideBanks(req[role], o, tile, machine)!;
        const side = bruteSide(req, role);
        const p = brutePrice(side, o, tile.e)!;
        expect([b.price.instructions, b.price.phases, b.price.wavefronts], `${l} ${role}`).toEqual([p.instructions, p.phases, p.wavefronts]);
        if (b.price.instruction.includes('matrix')) continue;
        expect([...b.ways], `${l} ${role}`).toEqual(bruteWays(side, o, tile.e, b.price.vectorBytes / tile.e, tile.size));
        if (b.price.conflicts > 0) conflicted++;
        expect(Math.max(...b.ways) > 1, `${l} ${role}`).toBe(b.price.conflicts > 0);
      }
    }
    expect(conflicted).toBeGreaterThanOrEqual(2);
  });

  it('is what the panel shows: both sides over the tile, the TMA side without banks', () => {
    const q = { ...EPILOGUE, tile: planTileText('128x128'), read: planSideText('tma', 'read') };
    const best = planArgs(q).front[0]!;
    const v = planEntryView(q, best.layout);
    expect([...v.picture!.offsets]).toEqual(phiOf(best.layout, 128 * 128));
    expect(v.picture!.grid.index(3, 2)).toBe(3 + 128 * 2);
    const [w, rd] = v.sides;
    expect(w!.price).toEqual(best.write);
    expect(w!.caption).toContain('banks of the write side');
    expect(w!.conflicted).toBe([...w!.banks!.ways].filter((x) => x > 1).length);
    expect(rd).toMatchObject({ role: 'read', what: 'tma', price: null, banks: null, conflicted: 0 });
    const s = planEntryView(SWIZZLETEST, planArgs(SWIZZLETEST).front[1]!.layout);
    expect(s.sides.map((x) => x.price?.instruction)).toEqual(['st.shared', 'ldmatrix.x4']);
    expect(s.sides[0]!.banks!.accessors.thread[0]).toBe(0);
  });

  it('reads the fields as `layoutgpu plan` reads its options; a side that is not JSON is a parse error', () => {
    expect(planTileText(' 128 x 64 ')).toBe('(128,64)');
    expect(planTileText('(16,16)')).toBe('(16,16)');
    expect(planSideText(' tma ', 'read')).toBe('tma');
    expect(planSideText('{"wgmma": "K"}', 'read')).toEqual({ wgmma: 'K' });
    expect(() => planSideText('{"ll": 1', 'write')).toThrow(/the write side is not valid JSON/);
  });
});

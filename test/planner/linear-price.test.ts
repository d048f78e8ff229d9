/**
 * The closed-form price of a linear member (src/planner/linear-price.ts, docs/planner.md "The linear family's search")
 * against the counters: on random power-of-two TV sides (broadcast modes included) and Triton LL sides, on every
 * machine, the price from the n index bits' offsets is price.ts's from the whole tile, for random members of the
 * family; the bound of a partial member is at most the price of every completion drawn; a side that is not linear
 * (a thread count or value count that is no power of two, a live mask, an index that is no XOR of its generators) is
 * left to the counters.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { formatLayout, parseLayout } from '../../src/algebra/notation.js';
import { loadPlanner } from '../../src/ops/planner.js';
import { tiledMmaArg } from '../../src/ops/tiled.js';
import type { Layout } from '../../src/algebra/layout.js';
import { parseLL } from '../../src/linear/forms.js';
import { tableKey, type Tile } from '../../src/planner/families.js';
import { linearBankBits, searchLinear, type LinearSearch } from '../../src/planner/linear-family.js';
import { linearPatternBound, linearPatternOf, linearPatternPrice, linearSidePrice, PatternTrack, type LinearPattern } from '../../src/planner/linear-price.js';
import { machineOf } from '../../src/planner/machine.js';
import { PriceScratch, type AccessPattern } from '../../src/planner/price.js';
import { llSide, tvSide, type Side } from '../../src/planner/sides.js';
import { randInt } from '../helpers/brute.js';
import { seededRuns } from '../helpers/seeds.js';

const forSeeds = seededRuns(0x11e4);

beforeAll(async () => {
  await loadPlanner(); // the atoms' room, for the MMA operands
});
const MACHINES = ['sm80', 'sm90', 'gfx942', 'gfx950'] as const;

/** A random member of the family over n bits, b bank-row bits: S, the own bits' order, partners, the segment order. */
function randomMember(rng: () => number, n: number, b: number): { own: number[]; partner: number[]; seg: number[] } {
  const bits = shuffle(
    rng,
    Array.from({ length: n }, (_, i) => i),
  );
  const own = bits.slice(0, b);
  const seg = bits.slice(b);
  const free = shuffle(rng, [...seg]);
  const partner = own.map(() => (rng() < 0.5 && free.length > 0 ? free.pop()! : -1));
  return { own, partner, seg };
}

function shuffle<T>(rng: () => number, xs: T[]): T[] {
  for (let i = xs.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [xs[i], xs[j]] = [xs[j]!, xs[i]!];
  }
  return xs;
}

/** The member's offset of every tile index (as the definition reads it), and its columns (the offsets of the index bits). */
function offsetsOf(m: { own: number[]; partner: number[]; seg: number[] }, n: number): { offsets: Int32Array; col: Int32Array } {
  const b = m.own.length;
  const offsets = new Int32Array(1 << n);
  for (let x = 0; x < offsets.length; x++) {
    let o = 0;
    m.own.forEach((a, j) => {
      const c = m.partner[j]!;
      o |= (((x >> a) ^ (c >= 0 ? x >> c : 0)) & 1) << j;
    });
    m.seg.forEach((s, i) => {
      o |= ((x >> s) & 1) << (b + i);
    });
    offsets[x] = o;
  }
  const col = Int32Array.from({ length: n }, (_, i) => offsets[1 << i]!);
  return { offsets, col };
}

/** A random TV layout over 2^n tile indices: T threads × V values, each mode a run of distinct index bits (some threads broadcast). */
function randomTv(rng: () => number, n: number): Layout {
  const bits = shuffle(
    rng,
    Array.from({ length: n }, (_, i) => i),
  );
  const t = randInt(rng, Math.min(3, n), Math.min(7, n));
  const tBits = bits.slice(0, t).map((i) => 2 ** i);
  if (rng() < 0.2 && t > 3) tBits[randInt(rng, 0, t - 1)] = 0; // a broadcast thread bit (values repeat across threads)
  const vBits = bits.slice(t).map((i) => 2 ** i);
  const shape = (k: number): number[] => Array.from({ length: k }, () => 2);
  const tMode = { shape: shape(t), stride: tBits };
  const vMode = vBits.length === 0 ? { shape: 1, stride: 0 } : { shape: shape(vBits.length), stride: vBits };
  return { shape: [tMode.shape, vMode.shape], stride: [tMode.stride, vMode.stride] } as Layout;
}

const patternsOf = (side: Side, tile: Tile, m: ReturnType<typeof machineOf>): LinearPattern[] | null => {
  const lps = side.patterns.map((p) => linearPatternOf(p, tile, m));
  return lps.every((x) => x !== null) ? (lps as LinearPattern[]) : null;
};

function checkAgainstCounters(side: Side, tile: Tile, mName: (typeof MACHINES)[number], rng: () => number, members: number): number {
  const m = machineOf(mName);
  const lps = patternsOf(side, tile, m);
  if (lps === null) return 0;
  const n = Math.log2(tile.size);
  const b = linearBankBits(tile);
  const s = new PriceScratch();
  for (let i = 0; i < members; i++) {
    const mem = randomMember(rng, n, b);
    const { offsets, col } = offsetsOf(mem, n);
    const want = side.price({ family: 'linear', layout: { shape: 1, stride: 0 }, atom: null, offsets, cosize: tile.size, key: tableKey(offsets), index: 0 }, s);
    expect(linearSidePrice(lps, col), `${side.what} on ${mName}, e=${tile.e}, member ${JSON.stringify(mem)}`).toEqual(want);
  }
  return 1;
}

describe('the closed-form price is the counters', () => {
  it('random power-of-two TV sides (broadcast thread bits included), every machine, every element size', () => {
    let linear = 0;
    forSeeds(60, (rng) => {
      const n = randInt(rng, 5, 11);
      const e = [1, 2, 4, 8][randInt(rng, 0, 3)]!;
      const tile: Tile = { shape: [1 << n], size: 1 << n, e };
      const mName = MACHINES[randInt(rng, 0, MACHINES.length - 1)]!;
      const m = machineOf(mName);
      const role = rng() < 0.5 ? 'write' : 'read';
      let side: Side;
      try {
        side = tvSide(role, randomTv(rng, n), tile, m);
      } catch {
        return; // a side the machine has no instruction for (AMD sub-dword accesses): refused before any price
      }
      linear += checkAgainstCounters(side, tile, mName, rng, 12);
    });
    expect(linear).toBeGreaterThan(20); // most of the drawn sides are linear: the comparison ran
  });

  it("Triton's LL sides of the SwizzleTest pairs, on their machines", () => {
    const cases: [string, number[], number, (typeof MACHINES)[number]][] = [
      [
        'DistributedLinearLayout(reg_bases=[[1, 0], [2, 0], [4, 0], [0, 32], [0, 64]], lane_bases=[[8, 0], [16, 0], [32, 0], [64, 0], [0, 1]], warp_bases=[[0, 2], [0, 4], [0, 8], [0, 16]], block_bases=[], shape=[128, 128])',
        [128, 128],
        2,
        'sm90',
      ],
      [
        'DistributedLinearLayout(reg_bases=[[0, 1], [0, 2], [0, 4], [16, 0], [32, 0]], lane_bases=[[0, 8], [0, 16], [0, 32], [0, 64], [1, 0], [2, 0]], warp_bases=[[4, 0], [8, 0]], block_bases=[], shape=[64, 128])',
        [64, 128],
        2,
        'gfx942',
      ],
      [
        'DistributedLinearLayout(reg_bases=[[0, 1], [0, 2], [0, 4], [16, 0], [32, 0]], lane_bases=[[0, 8], [0, 16], [0, 32], [0, 64], [1, 0], [2, 0]], warp_bases=[[4, 0], [8, 0]], block_bases=[], shape=[64, 128])',
        [64, 128],
        2,
        'gfx950',
      ],
    ];
    let seed = 7;
    const rng = (): number => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32) % 1;
    for (const [text, shape, e, mName] of cases) {
      const tile: Tile = { shape, size: shape[0]! * shape[1]!, e };
      for (const role of ['write', 'read'] as const) {
        const side = llSide(role, parseLL(text), tile, machineOf(mName));
        expect(checkAgainstCounters(side, tile, mName, rng, 25), `${mName} ${role}`).toBe(1);
      }
    }
  });
});

describe('the closed-form price on sides with matrix instructions', () => {
  it('an mma.sync operand read by ldmatrix.x4 or ld.shared, and its C written by stmatrix or st.shared (several patterns, the cheapest)', () => {
    let seed = 11;
    const rng = (): number => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32) % 1;
    const m = tiledMmaArg({ atom: 'SM80_16x8x16_F16F16F16F16_TN' });
    const tile: Tile = { shape: [16, 16], size: 256, e: 2 };
    for (const mName of ['sm80', 'sm90'] as const) {
      const a = tvSide('read', parseLayout(formatLayout(m.layoutA_TV)), tile, machineOf(mName));
      const w = tvSide('write', parseLayout('((16,2),8):((1,128),16)'), tile, machineOf(mName));
      expect(a.patterns.length, 'ldmatrix beside ld.shared').toBeGreaterThan(1);
      expect(checkAgainstCounters(a, tile, mName, rng, 40)).toBe(1);
      expect(checkAgainstCounters(w, tile, mName, rng, 40)).toBe(1);
    }
  });
});

describe('the bound of a partial member', () => {
  it('is at most the price of every completion drawn, at every depth', () => {
    forSeeds(40, (rng) => {
      const n = randInt(rng, 5, 10);
      const e = [1, 2, 4][randInt(rng, 0, 2)]!;
      const tile: Tile = { shape: [1 << n], size: 1 << n, e };
      const mName = MACHINES[randInt(rng, 0, MACHINES.length - 1)]!;
      const m = machineOf(mName);
      let side: Side;
      try {
        side = tvSide('read', randomTv(rng, n), tile, m);
      } catch {
        return;
      }
      const lps = patternsOf(side, tile, m);
      if (lps === null) return;
      const b = linearBankBits(tile);
      const mem = randomMember(rng, n, b);
      const k = randInt(rng, 0, b);
      const S = mem.seg.reduce((a, i) => a | (1 << i), 0);
      const tracks = lps.map((lp) => new PatternTrack(lp));
      for (let j = 0; j < k; j++) for (const t of tracks) t.push(j, mem.own[j]!, mem.partner[j]!);
      let usedMask = 0;
      for (let j = 0; j < k; j++) usedMask |= (1 << mem.own[j]!) | (mem.partner[j]! >= 0 ? 1 << mem.partner[j]! : 0);
      const pm = { k, b, S, own: mem.own.slice(0, k), free: ((1 << n) - 1) & ~usedMask };
      // completions: the rows from k on and the segment order drawn again (partners among the unused segment bits)
      for (let c = 0; c < 6; c++) {
        const used = new Set(mem.partner.slice(0, k).filter((x) => x >= 0));
        const rest = shuffle(rng, mem.own.slice(k));
        const free = shuffle(
          rng,
          mem.seg.filter((x) => !used.has(x)),
        );
        const full = {
          own: [...mem.own.slice(0, k), ...rest],
          partner: [...mem.partner.slice(0, k), ...rest.map(() => (rng() < 0.5 && free.length > 0 ? free.pop()! : -1))],
          seg: shuffle(rng, [...mem.seg]),
        };
        const { col } = offsetsOf(full, n);
        for (const [i, lp] of lps.entries()) {
          const p = linearPatternPrice(lp, col);
          const bound = linearPatternBound(tracks[i]!, pm);
          if (p === null) continue;
          expect(bound, `k=${k} ${JSON.stringify(full)}`).toBeLessThanOrEqual(p.wavefronts);
        }
      }
    });
  });
});

describe('what is not linear is left to the counters', () => {
  const tile: Tile = { shape: [64], size: 64, e: 4 };
  const m = machineOf('sm90');
  const base = (over: Partial<AccessPattern>): AccessPattern => ({
    threads: 32,
    values: 2,
    index: Int32Array.from({ length: 64 }, (_, x) => x),
    access: 'read',
    widths: [2, 1],
    instruction: () => 'ld.shared',
    vectorBytes: (w) => 4 * w,
    ...over,
  });
  it('a power-of-two pattern whose index is the XOR of its generators is linear', () => {
    expect(linearPatternOf(base({}), tile, m)).not.toBeNull();
  });
  it('a live mask, a thread count that is no power of two, an index that is no XOR of generators', () => {
    expect(linearPatternOf(base({ live: new Uint8Array(32).fill(1) }), tile, m)).toBeNull();
    expect(linearPatternOf(base({ threads: 24, values: 2, index: Int32Array.from({ length: 48 }, (_, x) => x) }), tile, m)).toBeNull();
    const idx = Int32Array.from({ length: 64 }, (_, x) => x);
    [idx[3], idx[5]] = [idx[5]!, idx[3]!];
    expect(linearPatternOf(base({ index: idx }), tile, m)).toBeNull();
  });
});

describe('fact 4: the walk visits one order of the rows above the cuts', () => {
  /** The first `top` entries of the front of the emitted rows: Pareto over (write, read), ranked by total then emission. */
  const frontOf = (rows: { key: string; w: number; r: number }[], top: number): string[] => {
    const pareto = rows.filter((x) => !rows.some((y) => y.w <= x.w && y.r <= x.r && (y.w < x.w || y.r < x.r)));
    return pareto
      .map((x, i) => ({ ...x, i }))
      .sort((a, b) => a.w + a.r - (b.w + b.r) || a.i - b.i)
      .slice(0, top)
      .map((x) => `${x.key} ${x.w} ${x.r}`);
  };
  it('the same count and the same first entries as the walk of every order, on random linear pairs', () => {
    let compared = 0;
    forSeeds(6, (rng) => {
      const n = randInt(rng, 9, 10);
      const e = [2, 4][randInt(rng, 0, 1)]!;
      const tile: Tile = { shape: [1 << n], size: 1 << n, e };
      const m = machineOf(MACHINES[randInt(rng, 0, MACHINES.length - 1)]!);
      let write: Side;
      let read: Side;
      try {
        write = tvSide('write', randomTv(rng, n), tile, m);
        read = tvSide('read', randomTv(rng, n), tile, m);
      } catch {
        return;
      }
      const s = new PriceScratch();
      const top = randInt(rng, 1, 4);
      const run = (canonical: boolean): { count: number; front: string[] } => {
        const rows: { key: string; w: number; r: number }[] = [];
        const search: LinearSearch = {
          tile,
          write,
          read,
          machine: m,
          top,
          known: [],
          price: (c) => {
            const w = write.price(c, s);
            const r = w === null ? null : read.price(c, s);
            return w === null || r === null ? null : { write: w, read: r };
          },
          earlier: () => false,
          emit: (_o, key, p) => rows.push({ key, w: p.write.wavefronts, r: p.read.wavefronts }),
          canonical,
        };
        return { count: searchLinear(search), front: frontOf(rows, top) };
      };
      const fast = run(true);
      const every = run(false);
      expect(fast).toEqual(every);
      compared++;
    });
    expect(compared).toBeGreaterThan(2);
  });
});

/**
 * The planner's linear family (docs/planner.md, "Families and their counts", "The linear family's search") against
 * an oracle written from the docs page: the family re-counted by brute force (every 4-bit row matrix tested against
 * the definition; on small tiles its members enumerated from the definition and their distinct functions counted),
 * every linear entry re-priced by _brute.ts's independent counter, the front re-derived from the full enumeration
 * (no pruning) both whole and for the first `top` entries (pruning loses nothing), Triton's layout a member on
 * every SwizzleTest pair, the bound exact with every bit known and below the price of every completion.
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { withDeadline } from '../../src/algebra/deadline.js';
import { mode, phi, size } from '../../src/algebra/layout.js';
import { parseLayout } from '../../src/algebra/notation.js';
import { parseLL } from '../../src/linear/forms.js';
import { loadPlanner, planArgs } from '../../src/ops/planner.js';
import { boundAt, linearFamilySize } from '../../src/planner/linear-family.js';
import { machineOf } from '../../src/planner/machine.js';
import { LINEAR_BUDGET_MS, type PlanEntry } from '../../src/planner/plan.js';
import { priceSide } from '../../src/planner/price.js';
import { PriceScratch } from '../../src/planner/price.js';
import { tvSide as plannerTv } from '../../src/planner/sides.js';
import { offsetsOfBases, type RegisterBases, tritonBases } from '../../src/planner/triton.js';
import { seededRuns } from '../helpers/seeds.js';
import { type BruteSide, bruteFront, brutePrice } from './_brute.js';

const forSeeds = seededRuns(0x11a7);

beforeAll(async () => {
  await loadPlanner();
});

/** Whether offsets (index → offset over 2^n) are a member of the family with b bank-row bits, by the definition:
 *  F2-linear; offset bits b … n−1 one index bit each (the segment bits S); offset bit j < b one index bit outside S,
 *  no two alike, plus at most one bit of S, no bit of S twice. */
function member(off: ArrayLike<number>, n: number, b: number): boolean {
  const unit = Array.from({ length: n }, (_, i) => off[1 << i]!);
  for (let x = 0; x < 2 ** n; x++) if (off[x] !== unit.reduce((v, u, i) => (((x >> i) & 1) === 1 ? v ^ u : v), 0)) return false;
  const row = (k: number): number[] => unit.flatMap((u, i) => (((u >> k) & 1) === 1 ? [i] : []));
  const S = new Set<number>();
  for (let k = b; k < n; k++) {
    const r = row(k);
    if (r.length !== 1) return false;
    S.add(r[0]!);
  }
  const own = new Set<number>();
  const partners = new Set<number>();
  for (let j = 0; j < b; j++) {
    const r = row(j);
    const o = r.filter((i) => !S.has(i));
    const p = r.filter((i) => S.has(i));
    if (o.length !== 1 || p.length > 1 || own.has(o[0]!) || (p.length === 1 && partners.has(p[0]!))) return false;
    own.add(o[0]!);
    if (p.length === 1) partners.add(p[0]!);
  }
  return true;
}

/** The family's members in its enumeration order (docs/planner.md): S lexicographic, then (a_j, c_j) row by row (own
 *  ascending, partner none first then ascending), then the segment order lexicographic; offsets by index. */
function members(n: number, b: number): number[][] {
  const out: number[][] = [];
  const perms = (xs: number[]): number[][] =>
    xs.length <= 1 ? [xs] : xs.flatMap((x, i) => perms([...xs.slice(0, i), ...xs.slice(i + 1)]).map((p) => [x, ...p]));
  const subsets = (k: number, from = 0): number[][] =>
    k === 0 ? [[]] : Array.from({ length: n - from }, (_, i) => from + i).flatMap((x) => subsets(k - 1, x + 1).map((r) => [x, ...r]));
  for (const S of subsets(n - b)) {
    const L = Array.from({ length: n }, (_, i) => i).filter((i) => !S.includes(i));
    const rows = (j: number, used: number[], ps: number[]): number[][][] => {
      if (j === b) return [[]];
      const out2: number[][][] = [];
      for (const a of L) {
        if (used.includes(a)) continue;
        for (const c of [-1, ...S]) {
          if (c >= 0 && ps.includes(c)) continue;
          for (const rest of rows(j + 1, [...used, a], c >= 0 ? [...ps, c] : ps)) out2.push([[a, c], ...rest]);
        }
      }
      return out2;
    };
    for (const low of rows(0, [], [])) {
      for (const seg of perms([...S])) {
        out.push(
          Array.from({ length: 2 ** n }, (_, x) => {
            let o = 0;
            low.forEach(([a, c], j) => {
              o |= (((x >> a!) ^ (c! >= 0 ? x >> c! : 0)) & 1) << j;
            });
            seg.forEach((s, i) => {
              o |= ((x >> s) & 1) << (b + i);
            });
            return o;
          }),
        );
      }
    }
  }
  return out;
}

/** The TV side of a layout string, by Φ. */
function tvSide(text: string, matrix: boolean): BruteSide {
  const l = parseLayout(text);
  const T = size(mode(l, 1));
  const n = size(l);
  return { T, V: n / T, index: Array.from({ length: n }, (_, x) => phi(l, x)), matrix };
}

/** A printed `#ttg.shared_linear` entry's offsets by tile index. */
function sharedOffsets(text: string, shape: number[]): Int32Array {
  const l = parseLL(text);
  const tileIndex = (b: readonly number[]): number => b.reduce((v, c, d) => v + c * shape.slice(0, d).reduce((a, x) => a * x, 1), 0);
  return offsetsOfBases(l.inDims.find((d) => d.name === 'offset')!.bases.map(tileIndex));
}

const DT: Record<number, string> = { 1: 'uint8_t', 2: 'half_t', 4: 'float', 8: 'double' };
const bankBits = (n: number, e: number): number => Math.min(n, Math.log2(128 / e));

describe('the count', () => {
  it('every 4-bit row matrix tested against the definition: as many members as the formula, for b = 0 … 4', () => {
    for (let b = 0; b <= 4; b++) {
      let count = 0;
      const off = new Int32Array(16);
      for (let m = 0; m < 2 ** 16; m++) {
        // rows: offset bit k is the XOR of the index bits set in nibble k of m
        for (let x = 0; x < 16; x++) {
          let o = 0;
          for (let k = 0; k < 4; k++) {
            let v = (m >> (4 * k)) & 15 & x;
            let p = 0;
            for (; v !== 0; v &= v - 1) p ^= 1;
            o |= p << k;
          }
          off[x] = o;
        }
        if (new Set(off).size === 16 && member(off, 4, b)) count++;
      }
      expect(count, `b = ${b}`).toBe(Number(linearFamilySize(4, b)));
    }
  });

  it("the members enumerated from the definition are distinct functions, as many as plan_smem's searched.linear", () => {
    const cases: [number[], number][] = [
      [[4, 4], 1],
      [[8, 8], 4],
      [[2, 4, 4], 4],
      [[4, 8], 8],
      [[8, 4], 4],
    ];
    for (const [shape, e] of cases) {
      const n = Math.log2(shape.reduce((a, b) => a * b, 1));
      const all = members(n, bankBits(n, e));
      expect(new Set(all.map((o) => o.join(','))).size).toBe(all.length);
      for (const o of all.slice(0, 50)) expect(member(o, n, bankBits(n, e))).toBe(true);
      const T = Math.min(32, 2 ** n);
      const r = planArgs({
        tile: `(${shape.join(',')})`,
        dtype: DT[e],
        write: `(${T},${2 ** n / T}):(1,${T})`,
        read: `(${T},${2 ** n / T}):(1,${T})`,
        families: ['linear'],
      });
      expect(r.searched).toEqual({ linear: all.length });
      expect(all.length).toBe(Number(linearFamilySize(n, bankBits(n, e))));
    }
  });

  it('a tile that is not a power of two searches none; asked alone, linear is domain', () => {
    const r = planArgs({ tile: '(12,8)', dtype: 'half_t', write: '(32,3):(3,1)', read: '(32,3):(1,32)', families: ['swizzle', 'linear'] });
    expect(r.searched.linear).toBe(0);
    expect(() => planArgs({ tile: '(12,8)', dtype: 'half_t', write: '(32,3):(3,1)', read: '(32,3):(1,32)', families: ['linear'] })).toThrow(/no candidate/);
  });
});

const triple = (x: PlanEntry): string => [x.write.wavefronts, x.read.wavefronts, x.bytes].join(',');

/** Small pairs whose fronts the oracle re-derives: [shape, e, write TV, read TV]. */
const PAIRS: [number[], number, string, string][] = [
  [[8, 8], 4, '(32,2):(2,1)', '(32,2):(1,32)'],
  [[8, 8], 4, '(16,4):(4,1)', '((8,4),2):((2,16),1)'],
  [[4, 8], 8, '(32,1):(1,1)', '(16,2):(2,1)'],
  [[2, 4, 4], 4, '(32,1):(1,1)', '(8,4):(4,1)'],
  [[8, 4], 4, '(8,4):(1,8)', '(32,1):(1,1)'],
];

describe('the linear entries and the front, against the full enumeration', () => {
  for (const [shape, e, w, rd] of PAIRS)
    it(`${shape.join('x')} e=${e} (${w}, ${rd}): every entry is a member, re-priced by the oracle; the front is the Pareto set of every member`, () => {
      {
        const n = Math.log2(shape.reduce((a, b) => a * b, 1));
        const all = members(n, bankBits(n, e));
        const [ws, rs] = [tvSide(w, false), tvSide(rd, false)];
        const r = planArgs({ tile: `(${shape.join(',')})`, dtype: DT[e], write: w, read: rd, families: ['linear'], top: 1 << 20 });
        for (const x of r.front) {
          expect(x.layout).toMatch(/^#ttg\.shared_linear</);
          const off = sharedOffsets(x.layout, shape);
          expect(member(off, n, bankBits(n, e))).toBe(true);
          for (const [side, got] of [
            [ws, x.write],
            [rs, x.read],
          ] as const) {
            const p = brutePrice(side, off, e)!;
            expect([got.vectorBytes, got.instructions, got.phases, got.wavefronts]).toEqual([p.vector * e, p.instructions, p.phases, p.wavefronts]);
          }
        }
        const { front } = bruteFront(
          all.map((offsets) => ({ family: 'linear', offsets })),
          ws,
          rs,
          e,
        );
        expect(new Set(r.front.map(triple))).toEqual(front);
        // every member at a front triple stands (ties all stand)
        const atFront = all.filter((o) => {
          const a = brutePrice(ws, o, e);
          const b = brutePrice(rs, o, e);
          return a && b && front.has([a.wavefronts, b.wavefronts, 2 ** n * e].join(','));
        });
        expect(r.front.length).toBe(atFront.length);
      }
    });

  for (const [shape, e, w, rd] of PAIRS)
    it(`${shape.join('x')} e=${e} (${w}, ${rd}): with a small top, the entries are the first of the ranked front of the full enumeration (pruning loses nothing)`, () => {
      {
        const n = Math.log2(shape.reduce((a, b) => a * b, 1));
        const [ws, rs] = [tvSide(w, false), tvSide(rd, false)];
        const ranked = members(n, bankBits(n, e))
          .map((o, seq) => ({ o, seq, a: brutePrice(ws, o, e), b: brutePrice(rs, o, e) }))
          .filter((x) => x.a !== null && x.b !== null);
        const dom = (x: (typeof ranked)[0], y: (typeof ranked)[0]): boolean =>
          x.a!.wavefronts <= y.a!.wavefronts && x.b!.wavefronts <= y.b!.wavefronts && (x.a!.wavefronts < y.a!.wavefronts || x.b!.wavefronts < y.b!.wavefronts);
        const front = ranked.filter((y) => !ranked.some((x) => dom(x, y)));
        front.sort((x, y) => x.a!.wavefronts + x.b!.wavefronts - (y.a!.wavefronts + y.b!.wavefronts) || x.seq - y.seq);
        for (const top of [1, 3, 7]) {
          const r = planArgs({ tile: `(${shape.join(',')})`, dtype: DT[e], write: w, read: rd, families: ['linear'], top });
          expect(r.front.map((x) => [...sharedOffsets(x.layout, shape)].join(','))).toEqual(front.slice(0, top).map((x) => x.o.join(',')));
          expect(r.certificate.count).toBe(Number(linearFamilySize(n, bankBits(n, e))));
        }
      }
    });

  it('with the swizzle family first, a linear member of the same function as a swizzle stands as the swizzle', () => {
    const [shape, e, w, rd] = PAIRS[0]!;
    const r = planArgs({ tile: `(${shape.join(',')})`, dtype: DT[e], write: w, read: rd, families: ['swizzle', 'linear'], top: 1 << 20 });
    const seen = new Set<string>();
    for (const x of r.front) {
      const off = x.family === 'linear' ? [...sharedOffsets(x.layout, shape)] : null;
      if (off !== null) {
        const k = off.join(',');
        expect(seen.has(k)).toBe(false);
        seen.add(k);
      }
    }
    expect(r.front.some((x) => x.family === 'swizzle')).toBe(true);
  });
});

const CASES = readFileSync(new URL('../fixtures/plan-swizzletest.jsonl', import.meta.url), 'utf8')
  .split('\n')
  .filter((l) => l.trim() !== '')
  .map((l) => JSON.parse(l) as { id: string; args: [Record<string, unknown>] });

describe("Triton's SwizzleTest pairs with the linear family", () => {
  for (const c of CASES) {
    const req = c.args[0];
    it(`${c.id}: Triton's layout is a member; with linear the best is no worse than Triton's, or the family says why not`, () => {
      const shape = String(req.tile).slice(1, -1).split(',').map(Number);
      const size = shape.reduce((a, b) => a * b, 1);
      const n = Math.log2(size);
      const e = ({ float_e4m3_t: 1, half_t: 2, bfloat16_t: 2, float: 4 } as Record<string, number>)[String(req.dtype)]!;
      const l = (side: unknown): RegisterBases => {
        const ll = parseLL((side as { ll: string }).ll);
        const img = (name: string): number[] =>
          (ll.inDims.find((d) => d.name === name)?.bases ?? []).map((b) => b.reduce((v, x, d) => v + x * shape.slice(0, d).reduce((a, y) => a * y, 1), 0));
        return { reg: img('register').filter((x) => x !== 0), lane: img('lane'), warp: img('warp').filter((x) => x !== 0) };
      };
      const t = tritonBases(l(req.write), l(req.read), 8 * e, n)!;
      expect(member(offsetsOfBases(t.bases), n, bankBits(n, e))).toBe(true);
      if (linearFamilySize(n, bankBits(n, e)) > BigInt(Number.MAX_SAFE_INTEGER)) {
        expect(() => planArgs({ ...req, families: ['swizzle', 'linear'] })).toThrow(/beyond 2\^53/);
        return;
      }
      // every pair whose family count is exact closes (the sides are linear: the closed-form bound), 128×128 included
      const r = withDeadline(8000, () => planArgs({ ...req, families: ['swizzle', 'linear', 'padded', 'atoms'] }));
      const best = r.front[0]!;
      expect(best.write.wavefronts + best.read.wavefronts).toBeLessThanOrEqual(r.triton!.write.wavefronts + r.triton!.read.wavefronts);
      const alone = planArgs({ ...req, families: ['swizzle', 'padded', 'atoms'] }).front[0]!;
      expect(best.write.wavefronts + best.read.wavefronts).toBeLessThanOrEqual(alone.write.wavefronts + alone.read.wavefronts);
    });
  }
});

describe('the bound (boundAt)', () => {
  it('with every bit known it is the wavefronts; with the low bank-row bits only, at most the price of the completion', () => {
    const m = machineOf('sm90');
    forSeeds(20, (rng) => {
      const [shape, e, w] = PAIRS[Math.floor(rng() * PAIRS.length)]!;
      const size = shape.reduce((a, b) => a * b, 1);
      const n = Math.log2(size);
      const b = bankBits(n, e);
      const all = members(n, b);
      const off = Int32Array.from(all[Math.floor(rng() * all.length)]!);
      const side = plannerTv('write', parseLayout(w), { shape, size, e }, m);
      const p = side.patterns[0]!;
      const s = new PriceScratch();
      for (const width of p.widths) {
        const exact = priceSide({ ...p, widths: [width] }, off, size, e, m, s);
        if (exact === null) continue;
        expect(boundAt(p, off, -1, -1, width, e, m)).toBe(exact.wavefronts);
        const k = Math.floor(rng() * (b + 1));
        const known = ((1 << k) - 1) | ~((1 << b) - 1);
        expect(
          boundAt(
            p,
            off.map((o) => o & known),
            (1 << k) - 1,
            known,
            width,
            e,
            m,
          ),
        ).toBeLessThanOrEqual(exact.wavefronts);
      }
    });
  });
});

describe('the budget of the linear search', () => {
  it('with no deadline in force, a search that does not close answers timeout after LINEAR_BUDGET_MS, saying what to do', () => {
    const line = readFileSync(new URL('../fixtures/plan-swizzletest.jsonl', import.meta.url), 'utf8')
      .split('\n')
      .find((l) => l.includes('"Test128x128F16Transpose"'))!;
    const req = (JSON.parse(line) as { args: [Record<string, unknown>] }).args[0];
    // the clock jumps past the budget once the search has started (performance.now is what the deadline reads)
    const real = performance.now.bind(performance);
    let calls = 0;
    const spy = vi.spyOn(performance, 'now').mockImplementation(() => real() + (++calls > 2000 ? LINEAR_BUDGET_MS + 1000 : 0));
    try {
      expect(() => planArgs({ ...req, families: ['swizzle', 'linear'] })).toThrow(/the linear family's search did not close within its 30 s/);
    } finally {
      spy.mockRestore();
    }
    // a deadline that is given is the search's own (here a short one, named as the request's)
    expect(() => withDeadline(50, () => planArgs({ ...req, families: ['swizzle', 'linear'] }))).toThrow(/ran past its deadline/);
  });
});

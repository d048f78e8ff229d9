/**
 * Tiled MMAs and tiled copies (docs/atoms.md, "Tiled MMA", "Tiled copy"): every TV layout compared with the
 * definitions' maps computed pointwise (test/atoms/_oracle.ts) on every (thread, value), over seeded random
 * atoms, atom layouts and permutations; the worked pairs of test/fixtures/atoms-examples.jsonl; the error kinds.
 */
import { describe, expect, it } from 'vitest';
import { layoutsWithFunction, parseL, phiB, pick, randInt, sizeB, showL, type BL } from '../helpers/brute.js';
import { seededRuns } from '../helpers/seeds.js';
import { readPairs } from '../helpers/fixtures.js';
import { mismatch } from '../helpers/match.js';
import { copyTV, fnB, isLayoutOnGuide, mmaData, mmaTV, modeSizes, threadCoords, tileOf, vFunction, type MmaSpec } from './_oracle.js';
import { makeTiledMma, operandTVComposed, operandTVPointwise } from '../../src/atoms/tiled-mma.js';
import { makeTiledCopy, makeTiledCopyFromMma, type TiledCopy } from '../../src/atoms/tiled-copy.js';
import { copyAtom } from '../../src/atoms/atom.js';
import { mmaAtomNames } from '../../src/atoms/registry.js';
import { formatLayout, parseLayout } from '../../src/algebra/notation.js';
import { parseTiler } from '../../src/cute/tiler.js';
import { LayoutError } from '../../src/algebra/errors.js';
import { runOp, type OpContext } from '../../src/ops/table.js';
import { kindOfAsync } from '../helpers/kind.js';

const ctx: OpContext = {
  backendChoice: 'cpu',
  backend: async () => {
    throw new Error('the atoms need no backend');
  },
};

const asB = (l: { shape: unknown; stride: unknown }): BL => parseL(formatLayout(l as never));

/** Ours equals `at` at every (t, w) and has top-level modes (T, V). */
function expectTV(ours: BL, T: number, V: number, at: (t: number, w: number) => number, what: string): void {
  expect(modeSizes(ours), `${what}: ${showL(ours)}`).toEqual([T, V]);
  const phi = fnB(ours);
  for (let w = 0; w < V; w++) {
    for (let t = 0; t < T; t++) {
      const got = phi(t + T * w);
      if (got !== at(t, w)) expect(`${what} at (${t}, ${w}): ${got}`).toBe(`${what} at (${t}, ${w}): ${at(t, w)}`);
    }
  }
}

/** A random compact layout of size n: a random factorization, strides in a random order. */
function randomPermutation(rng: () => number, n: number): BL {
  const fs: number[] = [];
  let rest = n;
  while (rest > 1) {
    const ds = [2, 3, 4, 8].filter((d) => rest % d === 0);
    const d = ds.length ? pick(rng, ds) : rest;
    fs.push(d);
    rest /= d;
  }
  if (fs.length === 0) return { shape: 1, stride: 0 };
  const order = fs.map((_, i) => i).sort(() => rng() - 0.5);
  const stride: number[] = new Array(fs.length);
  let p = 1;
  for (const i of order) {
    stride[i] = p;
    p *= fs[i]!;
  }
  return { shape: fs, stride };
}

/** A random atom layout of rank 1–3 with sizes in {1, 2, 4}, compact in a random order (or with a gap). */
function randomAtomLayout(rng: () => number): BL {
  const r = randInt(rng, 1, 3);
  const s = Array.from({ length: r }, () => pick(rng, [1, 2, 2, 4]));
  const order = s.map((_, i) => i).sort(() => rng() - 0.5);
  const d: number[] = new Array(r);
  let p = rng() < 0.15 ? 2 : 1;
  for (const i of order) {
    d[i] = s[i] === 1 ? 0 : p;
    p *= s[i]!;
  }
  return r === 1 && rng() < 0.5 ? { shape: s[0]!, stride: d[0]! } : { shape: s, stride: d };
}

const forSeeds = seededRuns(0x710ed);
/** the atoms whose three layouts hold at most 2^12 (thread, value) pairs (the large GMMA ones are covered by the pairs) */
const names = mmaAtomNames().filter((n) => {
  const a = mmaData(n);
  return sizeB(a.X.A) + sizeB(a.X.B) + sizeB(a.X.C) <= 1 << 12;
});

describe('make_tiled_mma against the definitions (every (t, v) of A, B, C)', () => {
  it('over random atoms, atom layouts and permutations', () => {
    let compared = 0;
    forSeeds(60, (rng) => {
      const name = pick(rng, names);
      const L = randomAtomLayout(rng);
      const spec0: MmaSpec = { name, L, P: [null, null, null] };
      const base = tileOf(spec0);
      const P = base.map((t) => (rng() < 0.5 ? null : randomPermutation(rng, t * pick(rng, [1, 1, 2]))));
      const spec: MmaSpec = { name, L, P };
      const a = mmaData(name);
      // keep the brute force small: at most 2^17 (thread, value) pairs in all
      if (sizeB(L) * (sizeB(a.X.A) + sizeB(a.X.B) + sizeB(a.X.C)) * 8 > 1 << 17) return;
      const permText = `<${P.map((p) => (p ? showL(p) : '_')).join(',')}>`;
      let m: ReturnType<typeof makeTiledMma>;
      try {
        m = makeTiledMma(name, parseLayout(showL(L)), parseTiler(permText));
      } catch (e) {
        // a TV function that no layout has: the oracle must agree that one of the three is none
        expect((e as LayoutError).kind, (e as Error).message).toBe('not-composable');
        const { values, dims } = vFunction(spec);
        const coords = threadCoords(layoutsWithFunction(values)[0]!, dims);
        const none = (['A', 'B', 'C'] as const).some((x) => {
          const o = mmaTV(spec, coords, x);
          return !isLayoutOnGuide(o.at, o.T, o.V);
        });
        expect(none, `${name} ${showL(L)} ${permText}: ${(e as Error).message}`).toBe(true);
        compared++;
        return;
      }
      const { values, dims } = vFunction(spec);
      const v = asB(m.thrLayoutVMNK);
      expect(modeSizes(v)).toEqual(dims);
      values.forEach((y, x) => expect(phiB(v, x)).toBe(y));
      expect(m.threads).toBe(values.length);
      expect([...m.tileShape]).toEqual(tileOf(spec));
      const coords = threadCoords(v, dims);
      for (const x of ['A', 'B', 'C'] as const) {
        const o = mmaTV(spec, coords, x);
        const ours = asB(x === 'A' ? m.layoutA_TV : x === 'B' ? m.layoutB_TV : m.layoutC_TV);
        expectTV(ours, o.T, o.V, o.at, `${name} ${showL(L)} ${permText} ${x}`);
      }
      compared++;
    });
    expect(compared).toBeGreaterThanOrEqual(40);
  });

  it('the composite and the pointwise forms of each TV layout agree wherever the composite exists', () => {
    let both = 0;
    forSeeds(40, (rng) => {
      const name = pick(rng, names);
      const L = randomAtomLayout(rng);
      const base = tileOf({ name, L, P: [null, null, null] });
      const P = base.map((t) => (rng() < 0.5 ? '_' : showL(randomPermutation(rng, t))));
      const a = mmaData(name);
      if (sizeB(L) * (sizeB(a.X.A) + sizeB(a.X.B) + sizeB(a.X.C)) > 1 << 14) return;
      let m: ReturnType<typeof makeTiledMma>;
      try {
        m = makeTiledMma(name, parseLayout(showL(L)), parseTiler(`<${P.join(',')}>`));
      } catch {
        return;
      }
      for (const x of ['A', 'B', 'C'] as const) {
        let composed: string | null = null;
        try {
          const c = operandTVComposed(m, x);
          composed = c && formatLayout(c);
        } catch (e) {
          expect(['not-composable', 'overflow']).toContain((e as LayoutError).kind);
        }
        if (composed === null) continue;
        expect(formatLayout(operandTVPointwise(m, x))).toBe(composed);
        both++;
      }
    });
    expect(both).toBeGreaterThan(30);
  });

  it("C with threads along K holds the same values for threads that differ only in k (not CuTe's get_layoutC_TV)", () => {
    const m = makeTiledMma('SM80_16x8x16_F32F16F16F32_TN', parseLayout('(2,2,2)'));
    const c = asB(m.layoutC_TV);
    for (let t = 0; t < 128; t++) for (let w = 0; w < 4; w++) expect(phiB(c, t + 128 + 256 * w)).toBe(phiB(c, t + 256 * w));
    expect(Math.max(...Array.from({ length: 1024 }, (_, x) => phiB(c, x)))).toBe(32 * 16 - 1);
  });

  it('a single SM70 atom: lanes outside the quad pair act as the lane with the same coordinate (T = 32)', () => {
    const m = makeTiledMma('SM70_8x8x4_F32F16F16F32_NT');
    expect(m.threads).toBe(8);
    expect(modeSizes(asB(m.layoutA_TV))).toEqual([32, 4]);
  });
});

/** σ and the side TV of §10.3 computed pointwise: X_TV(t, w) = TV(ρ mod AT + AT·⌊t/AT⌋, ⌊ρ/AT⌋ + NR·⌊w/NX⌋). */
function expectSides(c: TiledCopy, at: (t: number, v: number) => number, what: string): void {
  const atom = copyAtom(c.atom.name, c.atom.bits);
  const ref = asB(atom.ref);
  const AT = sizeB(asB(atom.thrID));
  const NR = sizeB(ref) / AT;
  for (const [side, xl] of [
    ['S', atom.src],
    ['D', atom.dst],
  ] as const) {
    const x = asB(xl);
    const NX = sizeB(x) / AT;
    const where = new Map<number, number>();
    for (let r = 0; r < sizeB(ref); r++) where.set(phiB(ref, r), r);
    const sig = Array.from({ length: sizeB(x) }, (_, i) => where.get(phiB(x, i))!);
    const sigma = (a: number, s: number): number => sig[a + AT * s]!;
    const W = (NX * c.values) / NR;
    const f = (t: number, w: number): number => {
      const rho = sigma(t % AT, w % NX);
      return at((rho % AT) + AT * Math.floor(t / AT), Math.floor(rho / AT) + NR * Math.floor(w / NX));
    };
    expectTV(asB(side === 'S' ? c.layoutS_TV : c.layoutD_TV), c.threads, W, f, `${what} ${side}`);
  }
}

describe('make_tiled_copy against the definitions', () => {
  it('from thread and value layouts (random compact ones, several atoms and value sizes)', () => {
    const atoms: [string, number][] = [
      ['SM80_CP_ASYNC_CACHEALWAYS<uint128_t>', 16],
      ['SM80_CP_ASYNC_CACHEALWAYS<uint64_t>', 32],
      ['UniversalCopy<uint32_t>', 32],
      ['SM75_U32x4_LDSM_N', 16],
      ['SM75_U16x8_LDSM_T', 16],
      ['SM90_U32x2_STSM_N', 16],
    ];
    forSeeds(30, (rng) => {
      const [name, bits] = pick(rng, atoms);
      const atom = copyAtom(name, bits);
      const AT = sizeB(asB(atom.thrID));
      const NR = sizeB(asB(atom.ref)) / AT;
      const thr = randomPermutation(rng, AT * pick(rng, [1, 2, 4]));
      const val = randomPermutation(rng, NR * pick(rng, [1, 2]));
      const c = makeTiledCopy({ atom: name, bits, thr: parseLayout(showL(thr)), val: parseLayout(showL(val)) });
      const o = copyTV(thr, val);
      expect([...c.tiler]).toEqual(o.tiler);
      expectTV(asB(c.layoutTV), o.T, o.V, o.at, `${name} ${showL(thr)} ${showL(val)}`);
      expectSides(c, o.at, name);
    });
  });

  it("from a tiled MMA's operand (make_tiled_copy_A/B/C)", () => {
    const m = makeTiledMma('SM80_16x8x16_F32F16F16F32_TN', parseLayout('(2,2,1)'), parseTiler('(32,32,16)'));
    for (const [name, operand] of [
      ['SM75_U32x4_LDSM_N', 'A'],
      ['SM75_U16x8_LDSM_T', 'B'],
      ['SM75_U32x2_LDSM_N', 'B'],
      ['SM90_U32x4_STSM_N', 'C'],
    ] as const) {
      const c = makeTiledCopyFromMma({ atom: name, bits: 16, mma: m, operand });
      const tv = asB(operand === 'A' ? m.layoutA_TV : operand === 'B' ? m.layoutB_TV : m.layoutC_TV);
      const T = modeSizes(tv)[0]!;
      expectSides(c, (t, v) => phiB(tv, t + T * v), `${name} ${operand}`);
    }
  });
});

describe('errors', () => {
  const kindOf = (op: string, args: unknown[]): Promise<string> => kindOfAsync(runOp(op, args, ctx));
  const mma = { atom: 'SM80_16x8x16_F32F16F16F32_TN', layout: '(2,2,1)' };

  it('bad tiled MMA arguments', async () => {
    expect(await kindOf('make_tiled_mma', [{ atom: 'nope' }])).toBe('domain');
    expect(await kindOf('make_tiled_mma', [{ layout: '(2,2,1)' }])).toBe('bad-request');
    expect(await kindOf('make_tiled_mma', [{ ...mma, threads: 4 }])).toBe('bad-request');
    expect(await kindOf('make_tiled_mma', [{ ...mma, layout: 5 }])).toBe('bad-request');
    expect(await kindOf('make_tiled_mma', ['SM80_16x8x16_F32F16F16F32_TN'])).toBe('bad-request');
    expect(await kindOf('make_tiled_mma', [{ ...mma, layout: '(2,2,1,1)' }])).toBe('domain');
    expect(await kindOf('make_tiled_mma', [{ ...mma, layout: '(2,2' }])).toBe('parse');
    expect(await kindOf('make_tiled_mma', [{ ...mma, permutation: '(32,32,16,1)' }])).toBe('domain');
    expect(await kindOf('make_tiled_mma', [{ ...mma, permutation: '(24,_,_)' }])).toBe('domain');
    expect(await kindOf('make_tiled_mma', [{ ...mma, permutation: '(32:2,_,_)' }])).toBe('domain');
    expect(await kindOf('make_tiled_mma', [{ ...mma, permutation: '<<16,2>,_,_>' }])).toBe('domain');
    expect(await kindOf('make_tiled_mma', [{ ...mma, layout: '(2,2,1):(0,0,0)' }])).toBe('domain');
  });

  it('bad tiled copy arguments', async () => {
    const cp = { atom: 'SM80_CP_ASYNC_CACHEALWAYS<uint128_t>', bits: 16, thr: '(32,8):(8,1)', val: '(1,8)' };
    expect(await kindOf('make_tiled_copy', [cp])).toBe('ok');
    expect(await kindOf('make_tiled_copy', [{ ...cp, bits: '16' }])).toBe('bad-request');
    expect(await kindOf('make_tiled_copy', [{ atom: cp.atom, thr: cp.thr }])).toBe('bad-request');
    expect(await kindOf('make_tiled_copy', [{ ...cp, mma, operand: 'A' }])).toBe('bad-request');
    expect(await kindOf('make_tiled_copy', [{ atom: cp.atom, bits: 16 }])).toBe('bad-request');
    expect(await kindOf('make_tiled_copy', [{ atom: cp.atom, bits: 16, mma }])).toBe('bad-request');
    // a value outside the operand's set is bad-request (issue 25 item 2), before the MMA is built (its own error unseen)
    expect(await kindOf('make_tiled_copy', [{ atom: cp.atom, bits: 16, mma, operand: 'D' }])).toBe('bad-request');
    expect(await kindOf('make_tiled_copy', [{ atom: cp.atom, bits: 16, mma: { atom: 'nope' }, operand: 'D' }])).toBe('bad-request');
    expect(await kindOf('make_tiled_copy', [{ ...cp, bits: 12 }])).toBe('domain');
    expect(await kindOf('make_tiled_copy', [{ ...cp, thr: '(32,8):(16,1)' }])).toBe('domain');
    expect(await kindOf('make_tiled_copy', [{ ...cp, atom: 'SM75_U32x4_LDSM_N', thr: '(16,1)' }])).toBe('domain');
    expect(await kindOf('make_tiled_copy', [{ ...cp, atom: 'SM75_U32x4_LDSM_N', val: '(1,4)' }])).toBe('domain');
  });
});

describe('test/fixtures/atoms-examples.jsonl (tiled MMAs and copies, partitions, conflicts) through runOp', () => {
  const own = ['make_tiled_mma', 'make_tiled_copy', 'partition_a', 'partition_b', 'partition_c', 'partition_s', 'partition_d'];
  own.push('local_tile', 'local_partition', 'copy_bank_conflicts');
  const pairs = readPairs('atoms-examples.jsonl').filter((p) => own.includes(p.request.op));

  it('has worked pairs of every op', () => {
    expect(new Set(pairs.map((p) => p.request.op))).toEqual(new Set(own.filter((o) => o !== 'partition_b')));
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

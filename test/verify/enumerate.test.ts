/**
 * The enumeration: its counts and order, and the compact flat layouts of a size counted
 * independently (a formula, and a brute-force evaluation of Φ with the algebra's `phi`).
 */
import { describe, expect, it } from 'vitest';
import { makeFlat, phi } from '../../src/algebra/layout.js';
import { entries } from '../../src/algebra/tuple.js';
import { CpuVerifyEngine } from '../../src/verify/cpu.js';
import { formatFlatAt } from '../../src/verify/packed.js';
import { runVerify } from '../../src/verify/run.js';
import { chunkItem } from '../../src/verify/sources.js';
import { enumerateCount, enumerateSource, factorisations } from '../../src/verify/source-enumerate.js';
import { randomSource } from '../../src/verify/source-random.js';

const cpu = new CpuVerifyEngine();

/** ordered factorisations of n into r factors ≥ 2, by brute force over r-tuples */
function bruteFactorisations(n: number, r: number): number {
  let count = 0;
  const go = (rest: number, k: number): void => {
    if (k === 0) {
      if (rest === 1) count++;
      return;
    }
    for (let s = 2; s <= rest; s++) if (rest % s === 0) go(rest / s, k - 1);
  };
  go(n, r);
  return count;
}

const factorial = (r: number): number => (r <= 1 ? 1 : r * factorial(r - 1));

describe('enumeration', () => {
  it('yields exactly the announced number of candidates, in the documented order', () => {
    const o = { size: 12, maxRank: 3, maxStride: 4 };
    const src = enumerateSource(o);
    const texts: string[] = [];
    for (const c of src.chunks(1000)) for (let i = 0; i < c.count; i++) texts.push(formatFlatAt(c.flat!, i));
    let expected = 0;
    for (let r = 1; r <= 3; r++) expected += bruteFactorisations(12, r) * 5 ** r;
    expect(texts.length).toBe(expected);
    expect(enumerateCount(o)).toBe(expected);
    expect(new Set(texts).size).toBe(expected);
    // rank 1 first, stride fastest; then rank 2 shapes (2,6), (3,4), (4,3), (6,2) with d2 fastest
    expect(texts.slice(0, 6)).toEqual(['(12):(0)', '(12):(1)', '(12):(2)', '(12):(3)', '(12):(4)', '(2,6):(0,0)']);
    expect(texts[6]).toBe('(2,6):(0,1)');
    expect(texts[5 + 5]).toBe('(2,6):(1,0)');
    expect(texts[5 + 25]).toBe('(3,4):(0,0)');
    expect(texts[texts.length - 1]).toBe('(3,2,2):(4,4,4)');
    expect(factorisations(12, 2)).toEqual([
      [2, 6],
      [3, 4],
      [4, 3],
      [6, 2],
    ]);
  });

  it('the compact flat layouts of size 16 match an independent count', async () => {
    const o = { size: 16, maxRank: 4, maxStride: 15 };
    const r = await runVerify({ property: { kind: 'compact' }, source: enumerateSource(o), engine: cpu, maxExamples: 0 });
    expect(r.candidates).toBe(16 + 3 * 16 ** 2 + 3 * 16 ** 3 + 16 ** 4);
    // formula: each ordered factorisation (s1..sr) with r! orders of its strides (all ≤ 15)
    let formula = 0;
    for (let k = 1; k <= 4; k++) formula += bruteFactorisations(16, k) * factorial(k);
    expect(formula).toBe(49);
    // brute force: Φ evaluated with the algebra at every x of every candidate
    let brute = 0;
    for (const c of enumerateSource(o).chunks(1 << 14)) {
      const f = c.flat!;
      for (let i = 0; i < c.count; i++) {
        const s = Array.from(f.shapes.subarray(f.start[i]!, f.start[i + 1]!));
        const d = Array.from(f.strides.subarray(f.start[i]!, f.start[i + 1]!));
        // cheap necessary condition first (cosize = size), then Φ
        if (1 + s.reduce((a, x, j) => a + (x - 1) * d[j]!, 0) !== 16) continue;
        const l = makeFlat(s, d);
        let mask = 0;
        for (let x = 0; x < 16; x++) mask |= 1 << phi(l, x);
        if (mask === 0xffff) brute++;
      }
    }
    expect(brute).toBe(49);
    expect(r.passed).toBe(49);
  });

  it('size 64, rank ≤ 2: matches and counts', async () => {
    const r = await runVerify({
      property: { kind: 'compact' },
      source: enumerateSource({ size: 64, maxRank: 2, maxStride: 63 }),
      engine: cpu,
      maxExamples: 100,
    });
    expect(r.candidates).toBe(64 + 5 * 64 * 64);
    expect(r.passed).toBe(1 + 5 * 2);
    expect(r.examples.map((e) => e.candidate[0])).toContain('(8,8):(8,1)');
  });

  it('random single layouts are packed as drawn, the same as their nested form', () => {
    for (const opts of [
      { seed: 3, maxSize: 65536 },
      { seed: -9, maxDepth: 3, maxRank: 5, maxStride: 1 },
      { seed: 2 ** 40 + 5, maxStride: 0 },
    ]) {
      const src = randomSource({ count: 3000, ...opts });
      let k = 0;
      for (const c of src.chunks(1000)) {
        expect(c.first).toBe(k);
        for (let i = 0; i < c.count; i++, k++) {
          const nested = chunkItem(c, i)[0]!;
          const f = c.flat!;
          const at = (a: Float64Array): number[] => Array.from(a.subarray(f.start[i]!, f.start[i + 1]!));
          expect([at(f.shapes), at(f.strides)]).toEqual([entries(nested.shape), entries(nested.stride)]);
        }
      }
      expect(k).toBe(3000);
    }
  });

  it('random candidates are reproducible from the seed and within bounds', () => {
    const take = (seed: number): string[] => {
      const out: string[] = [];
      for (const c of randomSource({ count: 200, seed, maxSize: 100, maxStride: 9, maxShape: 6, maxDepth: 2, maxRank: 3 }).chunks(64)) {
        for (let i = 0; i < c.count; i++) {
          const it = chunkItem(c, i);
          out.push(JSON.stringify([it[0]!.shape, it[0]!.stride]));
        }
      }
      return out;
    };
    expect(take(7)).toEqual(take(7));
    expect(take(7)).not.toEqual(take(8));
    for (const t of take(9)) {
      const [s, d] = JSON.parse(t) as [unknown, unknown];
      const ents = (x: unknown): number[] => (typeof x === 'number' ? [x] : (x as unknown[]).flatMap(ents));
      expect(ents(s).reduce((a, b) => a * b, 1)).toBeLessThanOrEqual(100);
      expect(Math.max(0, ...ents(d))).toBeLessThanOrEqual(9);
      expect(Math.max(...ents(s), 1)).toBeLessThanOrEqual(6);
    }
  });
});

describe('the fused compact scan of the CPU', () => {
  it('gives the same matches, in the same order, as the materialised chunks', async () => {
    for (const o of [
      { size: 16, maxRank: 4, maxStride: 15 },
      { size: 24, maxRank: 3, maxStride: 13 },
      { size: 36, maxRank: 4, maxStride: 9 },
      { size: 7, maxRank: 2, maxStride: 0 },
    ]) {
      const fused: string[] = [];
      let n = 0;
      for (const blk of enumerateSource(o).scanCompact!(1000)) {
        fused.push(...blk.matches);
        n += blk.count;
      }
      expect(n).toBe(enumerateCount(o));
      const mat: string[] = [];
      for (const c of enumerateSource(o).chunks(4096)) {
        const ok = cpu.bitmapCheckSync('compact', c.flat!);
        for (let i = 0; i < c.count; i++) if (ok[i]) mat.push(formatFlatAt(c.flat!, i));
      }
      expect(fused).toEqual(mat);
      const viaRun: string[] = [];
      const r = await runVerify({ property: { kind: 'compact' }, source: enumerateSource(o), engine: cpu, onMatch: (t) => viaRun.push(t) });
      expect(viaRun).toEqual(mat);
      expect(r.candidates).toBe(n);
    }
  });
});

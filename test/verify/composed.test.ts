/**
 * Composed candidates Sw<B,M,S> o K o L in the packed format (FlatBatch.outer, docs/semantics.md §9.1):
 * both verification engines evaluate Φ(x) = Sw(K + Φ_L(x)) — Φ, compact, injective and the
 * equality jobs — identically to brute force over phiComposed, on the real adapter. And the
 * interpreter's stepping (a fixed grid, ranges crossing job boundaries, odometer carries)
 * gives the same answers for any grid and range.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { size, phi, type Layout } from '../../src/algebra/layout.js';
import { formatLayout, parseLayout } from '../../src/algebra/notation.js';
import { formatLayoutFunction, innerLayout, isComposed, makeComposed, phiComposed, type LayoutFunction } from '../../src/cute/composed.js';
import { makeSwizzle } from '../../src/cute/swizzle.js';
import type { NodeDevice } from '../../src/engine/node/device-node.js';
import { adapterLine } from '../../src/engine/select.js';
import { CpuVerifyEngine } from '../../src/verify/cpu.js';
import { GpuVerifyEngine } from '../../src/verify/gpu.js';
import { batchOf, batchOfFunctions, valueBoundAt } from '../../src/verify/packed.js';
import { randomLayout, rng } from '../../src/verify/source-random.js';
import { verifyTestDevice } from './device.js';

let dev: NodeDevice;
let engines: [string, GpuVerifyEngine][] = [];
const cpu = new CpuVerifyEngine();

beforeAll(async () => {
  dev = await verifyTestDevice();
  const adapter = adapterLine(dev.adapter);
  engines = [
    ['default grid', new GpuVerifyEngine(dev.device, { adapter, software: dev.adapter.software })],
    // one workgroup: every thread a long range across many jobs
    ['1 workgroup', new GpuVerifyEngine(dev.device, { adapter, gridGroups: 1, range: 1 })],
    // 3 workgroups, ranges of ≥ 7, small batches (many dispatches), a small bitmap (CPU fallbacks)
    ['3 workgroups', new GpuVerifyEngine(dev.device, { adapter, gridGroups: 3, range: 7, indexBudget: 3000, bitmapBytes: 512 })],
  ];
});

afterAll(() => {
  for (const [, e] of engines) e.dispose();
  dev?.release();
});

const Φ = (f: LayoutFunction, x: number): number => (isComposed(f) ? phiComposed(f, x) : phi(f, x));
const bounds = { count: 0, seed: 0, maxDepth: 2, maxRank: 4, maxShape: 6, maxStride: 24, maxSize: 256, arity: 1, composable: false };

/** random layout functions: a third plain, the rest Sw o K o L with random Sw and K */
function functions(n: number, seed: number): LayoutFunction[] {
  const next = rng(seed);
  const out: LayoutFunction[] = [];
  for (let i = 0; i < n; i++) {
    const l = randomLayout(next, { ...bounds, seed });
    const r = Math.floor(next() * 3);
    if (r === 0) {
      out.push(l);
      continue;
    }
    const b = Math.floor(next() * 4);
    const s = (b + Math.floor(next() * 3)) * (next() < 0.5 ? -1 : 1);
    const k = r === 1 ? 0 : Math.floor(next() * 40);
    out.push(makeComposed(makeSwizzle(b, Math.floor(next() * 4), b === 0 ? 0 : s === 0 ? b : s), k, l));
  }
  // edges: compact swizzled layouts, an offset that breaks compactness, swizzles that shift left
  // past the inner layout's top bit, one-element and empty inner layouts, many modes (carries)
  const e = (sw: [number, number, number], k: number, l: string): LayoutFunction => makeComposed(makeSwizzle(...sw), k, parseLayout(l));
  out.push(
    e([1, 0, 3], 0, '(8,8):(1,8)'),
    e([3, 3, 3], 0, '(8,64):(64,1)'),
    e([2, 1, -3], 0, '(4,4,4):(1,4,16)'),
    e([1, 0, 3], 5, '(8,8):(1,8)'),
    e([2, 0, -4], 0, '16:1'),
    e([2, 4, 2], 3, '1:0'),
    e([1, 1, 1], 0, '():()'),
    e([2, 2, 2], 7, '(2,3,2,5,2,3):(1,2,6,12,60,120)'),
    parseLayout('(2,3,2,5,2,3):(1,2,6,12,60,120)'),
    parseLayout('(3,1,4,1,5):(20,9,5,0,1)'),
  );
  return out;
}

/** compact / injective by brute force over Φ */
function truth(f: LayoutFunction): { compact: boolean; injective: boolean } {
  const n = size(innerLayout(f));
  const seen = new Set<number>();
  let below = true;
  for (let x = 0; x < n; x++) {
    const v = Φ(f, x);
    seen.add(v);
    if (v >= n) below = false;
  }
  return { injective: seen.size === n, compact: seen.size === n && below };
}

describe('composed candidates in the packed format', () => {
  it('a batch of plain layouts carries no outer functions; a composed one does, with a bound of its values', () => {
    expect(batchOfFunctions([parseLayout('4:1')]).outer).toBeUndefined();
    const f = functions(40, 1);
    const b = batchOfFunctions(f);
    expect(b.outer).toBeDefined();
    f.forEach((g, i) => {
      let max = 0;
      for (let x = 0; x < size(innerLayout(g)); x++) max = Math.max(max, Φ(g, x));
      expect(max, formatLayoutFunction(g)).toBeLessThan(valueBoundAt(b, i));
    });
  });

  it('Φ: CPU equals phiComposed, every GPU engine equals the CPU', async () => {
    const f = functions(150, 2);
    const batch = batchOfFunctions(f);
    const want: number[] = [];
    for (const g of f) for (let x = 0; x < size(innerLayout(g)); x++) want.push(Φ(g, x));
    expect(Array.from(await cpu.evalAll(batch))).toEqual(want);
    for (const [name, e] of engines) expect(Array.from(await e.evalAll(batch)), name).toEqual(want);
  });

  it('compact and injective verdicts: brute force = CPU = GPU', async () => {
    const f = functions(400, 3);
    const batch = batchOfFunctions(f);
    const t = f.map(truth);
    for (const kind of ['compact', 'injective'] as const) {
      const c = cpu.bitmapCheckSync(kind, batch);
      t.forEach((v, i) => expect(c[i] === 1, `${kind} ${formatLayoutFunction(f[i]!)}`).toBe(v[kind]));
      for (const [name, e] of engines) expect(Array.from(await e.bitmapCheck(kind, batch)), `${name} ${kind}`).toEqual(Array.from(c));
    }
    // the edge list holds compact composed candidates
    expect(t.filter((v) => v.compact).length).toBeGreaterThan(2);
  });

  it('equality jobs with composed A, B and C: brute force = CPU = GPU', async () => {
    const next = rng(4);
    const as: LayoutFunction[] = [];
    const bs: LayoutFunction[] = [];
    const cs: LayoutFunction[] = [];
    const small = { ...bounds, maxSize: 32, maxStride: 6 };
    for (let i = 0; i < 300; i++) {
      const l = randomLayout(next, { ...small, seed: 4 });
      const sw = makeSwizzle(1, Math.floor(next() * 3), 1 + Math.floor(next() * 2));
      const a: LayoutFunction = i % 3 === 0 ? l : makeComposed(sw, Math.floor(next() * 4), l);
      // B: a plain or swizzled 512-element identity-like layout (some A's overrun it)
      const bIn = parseLayout(i % 5 === 0 ? '(4,4):(1,4)' : '(8,8,8):(1,8,64)');
      const b: LayoutFunction = i % 2 === 0 ? bIn : makeComposed(makeSwizzle(2, 0, 3), 0, bIn);
      // C: Φ_B ∘ Φ_A written as a layout function, half the time equal
      const c: LayoutFunction = i % 2 === 0 ? a : makeComposed(sw, i % 4, l);
      as.push(a);
      bs.push(b);
      cs.push(c);
    }
    const jobs = { a: batchOfFunctions(as), b: batchOfFunctions(bs), c: batchOfFunctions(cs) };
    const want = as.map((a, i) => {
      const n = size(innerLayout(a));
      if (size(innerLayout(cs[i]!)) !== n) return false;
      for (let x = 0; x < n; x++) {
        const va = Φ(a, x);
        if (va >= size(innerLayout(bs[i]!)) || Φ(bs[i]!, va) !== Φ(cs[i]!, x)) return false;
      }
      return true;
    });
    const c = cpu.equalCheckSync(jobs);
    want.forEach((w, i) => expect(c[i] === 1, `${formatLayoutFunction(bs[i]!)} ∘ ${formatLayoutFunction(as[i]!)} vs ${formatLayoutFunction(cs[i]!)}`).toBe(w));
    expect(want.filter((w) => w).length).toBeGreaterThan(20);
    expect(want.filter((w) => !w).length).toBeGreaterThan(20);
    for (const [name, e] of engines) expect(Array.from(await e.equalCheck(jobs)), name).toEqual(Array.from(c));
    // B null: the identity
    const id = { a: jobs.a, b: null, c: jobs.c };
    for (const [name, e] of engines) expect(Array.from(await e.equalCheck(id)), name).toEqual(Array.from(cpu.equalCheckSync(id)));
  });
});

describe('the interpreter steps a fixed grid exactly', () => {
  it('plain candidates: Φ and verdicts equal for every grid, with carries across every mode and one-element candidates', async () => {
    const next = rng(5);
    const ls: Layout[] = [];
    for (let i = 0; i < 300; i++) ls.push(randomLayout(next, { ...bounds, seed: 5, maxRank: 6, maxShape: 4 }));
    for (const t of ['(2,2,2,2,2,2,2,2,2,2):(1,2,4,8,16,32,64,128,256,512)', '1:0', '(1,1):(7,3)', '(3,5):(1,1000000000)', '(2,3):(2147483647,5)'])
      ls.push(parseLayout(t));
    const batch = batchOf(ls);
    const want: number[] = [];
    for (const l of ls) for (let x = 0; x < size(l); x++) want.push(phi(l, x));
    for (const [name, e] of engines) {
      expect(Array.from(await e.evalAll(batch)), name).toEqual(want);
      for (const kind of ['compact', 'injective'] as const) {
        expect(Array.from(await e.bitmapCheck(kind, batch)), `${name} ${kind}`).toEqual(Array.from(cpu.bitmapCheckSync(kind, batch)));
      }
    }
    expect(ls.map(formatLayout).length).toBe(305);
  });
});

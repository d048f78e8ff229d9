/**
 * The grid-stride kernels' stepping (codegen genWalk): each thread carries its coordinate by
 * the grid G in the layout's mixed radix. Answers are checked against Φ by brute force (the
 * algebra's phi) and against the CPU backend, with grids chosen so that G's digits carry
 * across every mode, ranges that start and end anywhere, chunk boundaries, 64-bit indices
 * and offsets, a grid larger than the range and one-element ranges.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cosize, makeLayout, phi, size, type Layout } from '../../src/algebra/layout.js';
import { parseLayout } from '../../src/algebra/notation.js';
import { CpuBackend } from '../../src/engine/cpu.js';
import type { NodeDevice } from '../../src/engine/node/device-node.js';
import { GpuBackend } from '../../src/engine/gpu.js';
import { canStep, genWalk } from '../../src/engine/codegen.js';
import { prepare } from '../../src/engine/prep.js';
import { testDevice } from './gpu-device.js';
import { int, randomLayout, rng } from './gen.js';

let dev: NodeDevice;
const cpu = new CpuBackend();
const gpus = new Map<string, GpuBackend>();

/** a backend on the shared device with `groups` workgroups (G = 256·groups) and chunks of ≤ maxChunk,
 *  walking as on a hardware GPU (the stepping; lavapipe alone would walk by index) */
function gpu(groups: number, maxChunk?: number): GpuBackend {
  const k = `${groups}/${maxChunk}`;
  let b = gpus.get(k);
  if (!b) {
    b = new GpuBackend(dev.device, { adapter: 'test', software: true, walk: 'hardware', gridGroups: groups, ...(maxChunk ? { maxChunk } : {}) });
    gpus.set(k, b);
  }
  return b;
}

beforeAll(async () => {
  dev = await testDevice();
});
afterAll(() => dev?.release());

const j = (x: unknown) => JSON.stringify(x, (_k, v) => (typeof v === 'bigint' ? v.toString() : v));
const brute = (l: Layout, lo: number, hi: number): number[] => Array.from({ length: hi - lo }, (_, i) => phi(l, lo + i));

describe('genWalk', () => {
  it('steps without a division and keeps every coordinate but the last', () => {
    const src = genWalk('l', prepare(parseLayout('(11,13,15,17):(1,11,143,2145)')), false);
    // coalesced: (11,13,15,17):(1,11,…) merges into one mode; take an uncoalescible one
    const c = genWalk('l', prepare(parseLayout('(11,13,15,17,19,21):(315,58905,1,3465,765765,15)')), false);
    const step = c
      .slice(c.indexOf('fn l_step'))
      .split('\n')
      .filter((x) => !x.trim().startsWith('//'));
    expect(step.join('\n')).not.toMatch(/ [%/] /);
    expect(c).toContain('struct W_l { c0: u32, c1: u32, c2: u32, c3: u32, c4: u32, o: u32 }');
    expect(src).toContain('fn l_step');
    expect(canStep(prepare(parseLayout('(3000000000,2):(2,1)')))).toBe(false);
  });
});

describe('grid-stride stepping on the GPU', () => {
  it('carries across every digit: grids of 1, 3 and 7 workgroups over mixed radices', async () => {
    for (const t of [
      '(3,5,7,2,3):(1,40,3,500,7)',
      '(2,2,2,2,2,2,2,2,2,2):(512,256,128,64,32,16,8,4,2,1)',
      '(11,13,15,17,19,21):(315,58905,1,3465,765765,15)',
    ]) {
      const l = parseLayout(t);
      const n = Math.min(size(l), 200_000);
      const want = brute(l, 0, n);
      for (const g of [1, 3, 7]) expect(Array.from(await gpu(g).evalRange(l, 0, n)), `${t} G=${256 * g}`).toEqual(want);
    }
  });

  it('ranges that start and end anywhere, across chunk boundaries, on random layouts', async () => {
    const r = rng(11);
    for (let t = 0; t < 24; t++) {
      const l = randomLayout(r, 20000, t % 4 === 3);
      const n = size(l);
      const lo = int(r, 0, n);
      const hi = int(r, lo, n);
      const b = gpu([1, 2, 5][t % 3]!, t % 2 ? 777 : undefined);
      const what = `${j(l)} [${lo}, ${hi}) grid ${b.gridGroups}`;
      expect(Array.from(await b.evalRange(l, lo, hi)), what).toEqual(brute(l, lo, hi));
      expect(j(await b.digestRange(l, lo, hi)), what).toBe(j(await cpu.digestRange(l, lo, hi)));
      expect(j(await b.checkCompact(l)), what).toBe(j(await cpu.checkCompact(l)));
    }
  }, 300_000);

  it('a grid larger than the range, and one-element ranges', async () => {
    const l = parseLayout('(7,9,11):(99,1,9)');
    const big = gpu(64);
    expect(Array.from(await big.evalRange(l, 5, 17))).toEqual(brute(l, 5, 17));
    for (const x of [0, 1, 62, 63, 692]) {
      expect(Array.from(await big.evalRange(l, x, x + 1)), `x=${x}`).toEqual([phi(l, x)]);
      expect(j(await gpu(1).digestRange(l, x, x + 1))).toBe(j({ count: 1, sum: BigInt(phi(l, x)), min: phi(l, x), max: phi(l, x) }));
    }
  });

  it('64-bit indices and offsets past 2^32, ranges across 2^32', async () => {
    const cases: [string, number][] = [
      ['(65536,65537):(65537,1)', 2 ** 32 - 700], // both wide
      ['(100000,100000):(1,0)', 2 ** 32 - 300], // wide index, u32 offsets
      ['(3,5,1048576):(1,3,4294967296)', 2 ** 21 - 900], // wide offsets
      ['(3000000000,2):(2,1)', 3_000_000_000 - 500], // a coordinate beyond 2^31: walks by index
      ['(5,7,200000000):(7,1,35)', 2 ** 32 + 12345], // carries across the 2^32 boundary of the index
    ];
    for (const [t, lo] of cases) {
      const l = parseLayout(t);
      const hi = Math.min(size(l), lo + 1500);
      for (const g of [1, 3]) {
        const b = gpu(g, 500);
        expect(Array.from(await b.evalRange(l, lo, hi)), `${t} G=${256 * g}`).toEqual(brute(l, lo, hi));
        expect(j(await b.digestRange(l, lo, hi)), t).toBe(j(await cpu.digestRange(l, lo, hi)));
      }
    }
  }, 300_000);

  it('compose and tiles walk two layouts at once', async () => {
    const r = rng(5);
    for (let t = 0; t < 12; t++) {
      const a = randomLayout(r, 3000);
      const b = makeLayout([cosize(a), 2], [int(r, 0, 5), 7]);
      const c = randomLayout(r, 3000);
      const cc = size(c) === size(a) ? c : makeLayout(size(a), 1);
      const g = gpu(1 + (t % 3));
      expect(j(await g.checkCompose(b, a, cc)), j([b, a, cc])).toBe(j(await cpu.checkCompose(b, a, cc)));
    }
    const A = parseLayout('(12,(5,6)):(30,(1,5))');
    const B = parseLayout('(3,5):(1,12)');
    expect(j(await gpu(1).tileMap(A, B))).toBe(j(await cpu.tileMap(A, B)));
  });
});

describe('the walk of a software adapter (Φ per index)', () => {
  it('answers as the stepping and the CPU do, with its own kernels', async () => {
    // (not disposed: dispose() destroys the shared device)
    const soft = new GpuBackend(dev.device, { adapter: 'test', software: true, gridGroups: 3, maxChunk: 777 });
    const stepping = genWalk('l', prepare(parseLayout('(11,13,15):(15,1,165)')), false, 'radix');
    const perIndex = genWalk('l', prepare(parseLayout('(11,13,15):(15,1,165)')), false, 'index');
    expect(stepping).toContain('select(');
    expect(perIndex).not.toContain('select(');
    expect(perIndex).toContain('Φ per index');
    const r = rng(23);
    for (let t = 0; t < 12; t++) {
      const l = t === 0 ? parseLayout('(11,13,15,17,19,21):(315,58905,1,3465,765765,15)') : randomLayout(r, 20000, t % 4 === 3);
      const n = Math.min(size(l), 300_000);
      const lo = int(r, 0, n);
      const hi = int(r, lo, n);
      const what = `${j(l)} [${lo}, ${hi})`;
      expect(Array.from(await soft.evalRange(l, lo, hi)), what).toEqual(brute(l, lo, hi));
      expect(j(await soft.digestRange(l, lo, hi)), what).toBe(j(await gpu(3, 777).digestRange(l, lo, hi)));
      expect(j(await soft.checkCompact(l)), what).toBe(j(await cpu.checkCompact(l)));
    }
  }, 300_000);
});

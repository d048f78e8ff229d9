/**
 * The pruned window passes of check_compact (src/engine/window-plan.ts): the blocks cover every
 * index whose offset lands in the window, the stride-sorted layout has the same offsets, and
 * check_compact with tiny windows and tiny blocks answers exactly as a brute force (counts and
 * the canonical witness), plain and composed, with the 2^40 limit answered `overflow` at once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LayoutError } from '../../src/algebra/errors.js';
import { size, type Layout } from '../../src/algebra/layout.js';
import { parseLayout } from '../../src/algebra/notation.js';
import { phiComposed, type ComposedLayout, type LayoutFunction } from '../../src/cute/composed.js';
import { CpuBackend, setCpuWindowForTests } from '../../src/engine/cpu.js';
import type { NodeDevice } from '../../src/engine/node/device-node.js';
import { GpuBackend } from '../../src/engine/gpu.js';
import { testDevice } from './gpu-device.js';
import { phiPrepared, prepare } from '../../src/engine/prep.js';
import { blocksLength, sortedByStride, windowBlocks } from '../../src/engine/window-plan.js';
import { int, randomLayout, rng } from './gen.js';

const cpu = new CpuBackend();

function randomFn(r: () => number): LayoutFunction {
  const inner = randomLayout(r, 2000, r() < 0.2);
  if (r() < 0.6) return inner;
  const bits = int(r, 0, 3);
  const shift = (r() < 0.3 ? -1 : 1) * int(r, bits, bits + 3);
  const c: ComposedLayout = { kind: 'composed', swizzle: { bits, base: int(r, 0, 4), shift }, offset: r() < 0.5 ? 0 : int(r, 0, 100), inner };
  return c;
}

const sizeOf = (l: LayoutFunction): number => size('kind' in l ? l.inner : (l as Layout));
const phiOf = (l: LayoutFunction, x: number): number => ('kind' in l ? phiComposed(l, x) : phiPrepared(prepare(l), x));

/** counts and the canonical witness by brute force: the least out-of-range index, else the
 *  least and greatest preimage of the least colliding offset */
function brute(l: LayoutFunction) {
  const n = sizeOf(l);
  const hits = new Map<number, number[]>();
  let oor = 0;
  let oorW = -1;
  for (let x = 0; x < n; x++) {
    const v = phiOf(l, x);
    if (v >= n) {
      oor++;
      if (oorW < 0) oorW = x;
    } else hits.set(v, [...(hits.get(v) ?? []), x]);
  }
  const coll = n - oor - hits.size;
  let witness: number[] | null = null;
  if (oor > 0) witness = [oorW];
  else if (coll > 0) {
    const v = Math.min(...[...hits].filter(([, xs]) => xs.length > 1).map(([v]) => v));
    const xs = hits.get(v)!;
    witness = [xs[0]!, xs[xs.length - 1]!];
  }
  return { compact: oor === 0 && coll === 0, image: hits.size, outOfRange: oor, collisions: coll, witness };
}

describe('window plan', () => {
  it('sortedByStride keeps the multiset of offsets', () => {
    const r = rng(5);
    for (let t = 0; t < 200; t++) {
      const p = prepare(randomFn(r));
      const q = sortedByStride(p);
      const a = Array.from({ length: p.size }, (_, x) => phiPrepared(p, x)).sort((x, y) => x - y);
      const b = Array.from({ length: p.size }, (_, x) => phiPrepared(q, x)).sort((x, y) => x - y);
      expect(b).toEqual(a);
      for (let i = 1; i < q.strides.length; i++) expect(q.strides[i]!).toBeGreaterThanOrEqual(q.strides[i - 1]!);
    }
  });

  it('the blocks are ascending, disjoint, and hold every index whose offset is in the window', () => {
    const r = rng(9);
    for (let t = 0; t < 400; t++) {
      const p = sortedByStride(prepare(randomFn(r)));
      const w0 = int(r, 0, p.cosize);
      const wn = int(r, 1, 64);
      const bl = windowBlocks(p, w0, wn, int(r, 1, 8));
      const inBlock = new Uint8Array(p.size);
      let end = -1;
      for (let i = 0; i < bl.length; i += 2) {
        expect(bl[i]!).toBeGreaterThan(end);
        expect(bl[i + 1]!).toBeGreaterThan(0);
        end = bl[i]! + bl[i + 1]!;
        expect(end).toBeLessThanOrEqual(p.size);
        inBlock.fill(1, bl[i]!, end);
      }
      for (let x = 0; x < p.size; x++) {
        const v = phiPrepared(p, x);
        if (v >= w0 && v < w0 + wn) expect(inBlock[x], `${p.text} x=${x} window ${w0}+${wn}`).toBe(1);
      }
      expect(blocksLength(bl)).toBeLessThanOrEqual(p.size);
    }
  });

  it('prunes: a compact layout walks each window once, about size in all', () => {
    // coalesced (64,1024):(1024,1), sorted (1024,64):(1,1024): blocks of 1024 offsets
    const p = sortedByStride(prepare(parseLayout('(64,64,16):(1024,1,64)')));
    let walked = 0;
    for (let w = 0; w < p.size; w += 4096) walked += blocksLength(windowBlocks(p, w, 4096, 16));
    expect(walked).toBe(p.size);
    expect(windowBlocks(p, 4096, 4096, 16)).toEqual([4096, 4096]);
    // a window narrower than mode 0: the range of its coordinates that can reach the window
    expect(windowBlocks(p, 512, 512, 16)).toEqual([512, 512]);
    // a single mode of any size: the range alone
    expect(windowBlocks(prepare(parseLayout('4294967296:1')), 2 ** 30, 2 ** 30)).toEqual([2 ** 30, 2 ** 30]);
    expect(windowBlocks(prepare(parseLayout('(65536,65536):(65536,1)')), 2 ** 31, 2 ** 30)).toEqual([0, 2 ** 32]);
    expect(windowBlocks(sortedByStride(prepare(parseLayout('(65536,65536):(65536,1)'))), 2 ** 31, 2 ** 30)).toEqual([2 ** 31, 2 ** 30]);
  });
});

describe('check_compact with pruned windows (CPU) equals brute force', () => {
  it('random plain and composed layouts, tiny windows and blocks: counts and witness exact', async () => {
    const r = rng(21);
    try {
      for (let t = 0; t < 300; t++) {
        const l = randomFn(r);
        const want = brute(l);
        setCpuWindowForTests([32, 64, 96][t % 3]!, [1, 2, 7, 64][t % 4]!);
        const got = await cpu.checkCompact(l);
        setCpuWindowForTests(null);
        expect(got, JSON.stringify(l)).toEqual(want);
        const big = await cpu.checkCompact(l);
        expect(big).toEqual(want);
      }
    } finally {
      setCpuWindowForTests(null);
    }
  });

  it('beyond 2^40 indices: overflow at once', async () => {
    const e = await cpu.checkCompact(parseLayout('(1048576,1048577):(1,1048576)')).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(LayoutError);
    expect((e as LayoutError).kind).toBe('overflow');
  });
});

describe('check_compact with pruned windows (GPU) equals the CPU and brute force', () => {
  let dev: NodeDevice;
  let tiny: GpuBackend;
  beforeAll(async () => {
    dev = await testDevice();
    tiny = new GpuBackend(dev.device, { adapter: 'test', software: true, walk: 'hardware', maxChunk: 300, windowBits: 64 });
  });
  afterAll(() => dev?.release());

  it('random plain and composed layouts, 64-offset windows, blocks of 1', async () => {
    const r = rng(33);
    for (let t = 0; t < 25; t++) {
      const l = randomFn(r);
      const want = brute(l);
      expect(await tiny.checkCompact(l), JSON.stringify(l)).toEqual(want);
      expect(await cpu.checkCompact(l)).toEqual(want);
    }
  });
});

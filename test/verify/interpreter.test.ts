/**
 * The interpreter (one generic kernel over packed layouts) agrees with the evaluator's
 * per-layout generated kernels on every candidate: Φ itself against the generated WGSL, and the
 * verdicts (compact, compose) against the generated JavaScript of the CPU backend.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeLayout, phi, size, type Layout } from '../../src/algebra/layout.js';
import { formatLayout, parseLayout } from '../../src/algebra/notation.js';
import { CpuBackend } from '../../src/engine/cpu.js';
import type { NodeDevice } from '../../src/engine/node/device-node.js';
import { GpuBackend } from '../../src/engine/gpu.js';
import { adapterLine } from '../../src/engine/select.js';
import { GpuVerifyEngine, divisionConstants } from '../../src/verify/gpu.js';
import { batchOf } from '../../src/verify/packed.js';
import { randomLayout, rng } from '../../src/verify/source-random.js';
import { verifyTestDevice } from './device.js';

let dev: NodeDevice;
let interp: GpuVerifyEngine;
let generated: GpuBackend;
const cpuGenerated = new CpuBackend();

beforeAll(async () => {
  dev = await verifyTestDevice();
  const adapter = adapterLine(dev.adapter);
  interp = new GpuVerifyEngine(dev.device, { adapter, indexBudget: 1 << 12, bitmapBytes: 1 << 10, range: 5 });
  generated = new GpuBackend(dev.device, { adapter, software: dev.adapter.software });
});

afterAll(() => {
  interp?.dispose();
  dev?.release();
});

const bounds = { count: 0, seed: 0, maxDepth: 2, maxRank: 3, maxShape: 7, maxStride: 40, maxSize: 512, arity: 1, composable: false };

function candidates(n: number, seed: number): Layout[] {
  const next = rng(seed);
  const out: Layout[] = [];
  for (let i = 0; i < n; i++) out.push(randomLayout(next, { ...bounds, seed }));
  // edges: offsets near 2^32, large shapes, powers of two, empty and trivial layouts
  for (const t of [
    '(3,5):(1,1000000000)',
    '(2,3):(2147483647,5)',
    '65536:65537',
    '(7,9,11):(99,1,7)',
    '():()',
    '1:0',
    '(1,1):(5,0)',
    '(4096,2):(1,4096)',
    '(3,(1,4)):(1,(7,3))',
  ])
    out.push(parseLayout(t));
  return out;
}

describe('interpreter vs generated kernels', () => {
  it('Φ agrees with the generated WGSL on every candidate', async () => {
    const ls = candidates(30, 11);
    const got = await interp.evalAll(batchOf(ls));
    let pos = 0;
    for (const l of ls) {
      const n = size(l);
      const want = await generated.evalRange(l, 0, n);
      const mine = got.subarray(pos, pos + n);
      pos += n;
      expect(Array.from(mine), formatLayout(l)).toEqual(Array.from(want));
    }
    expect(pos).toBe(got.length);
  });

  it('compact and injective verdicts agree with the generated JavaScript on every candidate', async () => {
    const ls = candidates(400, 12);
    const compact = await interp.bitmapCheck('compact', batchOf(ls));
    const injective = await interp.bitmapCheck('injective', batchOf(ls));
    for (let i = 0; i < ls.length; i++) {
      const r = await cpuGenerated.checkCompact(ls[i]!);
      expect(compact[i] === 1, formatLayout(ls[i]!)).toBe(r.compact);
      const seen = new Set<number>();
      for (let x = 0; x < size(ls[i]!); x++) seen.add(phi(ls[i]!, x));
      expect(injective[i] === 1, formatLayout(ls[i]!)).toBe(seen.size === size(ls[i]!));
    }
    expect(compact.reduce((a, b) => a + b, 0)).toBeGreaterThan(5);
  });

  it('compose verdicts agree with the generated JavaScript', async () => {
    const next = rng(13);
    const as: Layout[] = [];
    const bs: Layout[] = [];
    const cs: Layout[] = [];
    for (let i = 0; i < 300; i++) {
      const a = randomLayout(next, { ...bounds, seed: 13, maxSize: 64, maxStride: 8 });
      const c = randomLayout(next, { ...bounds, seed: 13, maxSize: 64, maxStride: 8 });
      // B large enough for A; C of A's size (half the time A scaled, so that some agree)
      const b = makeLayout([8, 8, 8], [1, 8, 64]);
      as.push(a);
      bs.push(b);
      cs.push(i % 2 === 0 ? a : size(c) === size(a) ? c : a);
    }
    const got = await interp.equalCheck({ a: batchOf(as), b: batchOf(bs), c: batchOf(cs) });
    for (let i = 0; i < as.length; i++) {
      const r = await cpuGenerated.checkCompose(bs[i]!, as[i]!, cs[i]!);
      expect(got[i] === 1, `${formatLayout(bs[i]!)} ∘ ${formatLayout(as[i]!)} vs ${formatLayout(cs[i]!)}`).toBe(r.equal);
    }
  });

  it('division constants are exact for every divisor class', () => {
    const probe = [0, 1, 2, 3, 4095, 65535, 65536, 2 ** 31 - 1, 2 ** 31, 2 ** 32 - 1];
    for (const d of [1, 2, 3, 5, 6, 7, 10, 641, 4096, 65535, 65537, 1e9, 2 ** 31 - 1, 2 ** 32 - 1]) {
      const [m, sh] = divisionConstants(d);
      for (const n of probe) {
        const t = Number((BigInt(n) * BigInt(m)) >> 32n);
        const q = (t + ((n - t) >>> (sh & 0xff))) >>> (sh >>> 8);
        expect(q, `${n} / ${d}`).toBe(Math.floor(n / d));
      }
    }
  });
});

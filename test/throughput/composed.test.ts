/**
 * `layoutgpu bench` of composed layouts Sw<B,M,S> o K o L (docs/semantics.md §9.1): every kernel
 * (eval, reduce, compact, gather, scatter, tile) passes its check against Φ = Sw(K + Φ_L) on the
 * GPU (lavapipe in CI) and the CPU, and a kernel that left the swizzle out would be caught.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acquireBenchEnv, cpuEnv, type AcquiredBenchEnv } from '../../src/throughput/node-env.js';
import { runBench, type BenchEnv, type BenchKernel } from '../../src/throughput/run.js';
import { BenchVerifyError } from '../../src/throughput/verify.js';
import { planLayout, referenceOffsets } from '../../src/throughput/plan.js';
import { parseLayoutFunction } from '../../src/cute/composed.js';
import { benchCommand } from '../../src/cli/bench.js';
import { phiB, type BL } from '../helpers/brute.js';

let gpu: AcquiredBenchEnv;
beforeAll(async () => {
  gpu = await acquireBenchEnv('gpu');
});
afterAll(() => gpu?.release());

const COMPOSED = [
  'Sw<3,3,3> o (8,64):(64,1)',
  'Sw<3,3,3> o 8 o (8,64):(64,1)',
  'Sw<2,0,-3> o (16,16):(1,16)',
  'Sw<1,40,1> o (32,4):(4,1)',
  'Sw<2,1,3> o (4,6):(0,1)',
];
const KERNELS: BenchKernel[] = ['eval', 'reduce', 'compact', 'gather', 'scatter', 'tile'];

/** Sw<B,M,S>(y) bit by bit */
function swizzleB(b: number, m: number, s: number, y: number): number {
  let out = y;
  const lo = m + Math.max(0, -s);
  for (let i = lo; i < lo + b; i++) if (Math.floor(y / 2 ** (i + s)) % 2 === 1) out = out % 2 ** (i + 1) >= 2 ** i ? out - 2 ** i : out + 2 ** i;
  return out;
}

describe('the reference of a composed layout', () => {
  it('is Sw(K + Φ_L) bit by bit', () => {
    const cases: [string, [number, number, number], number, BL][] = [
      ['Sw<3,3,3> o 8 o (8,64):(64,1)', [3, 3, 3], 8, { shape: [8, 64], stride: [64, 1] }],
      ['Sw<2,0,-3> o (16,16):(1,16)', [2, 0, -3], 0, { shape: [16, 16], stride: [1, 16] }],
    ];
    for (const [text, [b, m, s], k, l] of cases) {
      const plan = planLayout(parseLayoutFunction(text), 4, { maxIndices: 2 ** 20, maxBufferBytes: 2 ** 24 });
      const ref = referenceOffsets(plan.shapes, plan.strides, plan.outer);
      expect(ref.length).toBe(plan.size);
      expect(Array.from(ref), text).toEqual(Array.from({ length: plan.size }, (_, x) => swizzleB(b, m, s, k + phiB(l, x))));
      expect(plan.cosize).toBe(Math.max(...ref) + 1);
    }
  });
});

describe.each(['gpu', 'cpu'] as const)('bench of composed layouts on the %s', (which) => {
  const env = (): BenchEnv => (which === 'gpu' ? gpu.env : cpuEnv());

  it('every kernel passes its check against Φ = Sw(K + Φ_L)', async () => {
    // the software GPU takes a second per kernel: one element size there
    const elems = which === 'gpu' ? [4] : [4, 16];
    const rep = await runBench(env(), { layouts: COMPOSED, elems, samples: 10, checkOnly: true, kernels: KERNELS, tile: '(2,2):(1,4)' });
    for (const l of rep.layouts) {
      const perElem = ['tile', 'gather', ...(l.injective ? ['scatter'] : [])];
      const want = ['compact', 'eval', 'reduce', ...elems.flatMap(() => perElem)].sort();
      expect(l.results.map((r) => r.kernel).sort(), l.layout).toEqual(want);
    }
    expect(rep.layouts.map((l) => l.layout)).toEqual(COMPOSED.map((t) => t.replace(' o 0 o ', ' o ')));
  }, 120_000);

  it('a kernel that left the swizzle out is caught (the inner layout as the reference)', async () => {
    await expect(
      runBench(env(), {
        layouts: ['Sw<3,3,3> o (8,64):(64,1)'],
        referenceLayout: '(8,64):(64,1)',
        elems: [4],
        samples: 10,
        checkOnly: true,
        kernels: ['eval'],
      }),
    ).rejects.toBeInstanceOf(BenchVerifyError);
  });
});

describe('layoutgpu bench', () => {
  it('takes a composed layout (no parse error)', async () => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await benchCommand.run(['Sw<3,3,3> o (8,64):(64,1)', '--backend', 'cpu', '--iters', '10', '--kernels', 'eval'], {
      stdout: (s) => void out.push(s),
      stderr: (s) => void err.push(s),
      isTTY: false,
    });
    expect(code, err.join('')).toBe(0);
    expect(out.join('')).toContain('Sw<3,3,3> o (8,64):(64,1)');
  });
});

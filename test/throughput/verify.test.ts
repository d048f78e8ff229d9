/**
 * `layoutgpu bench`: every kernel's output check passes on correct kernels (GPU on the real
 * adapter — lavapipe in CI, no skipping — and CPU) and catches a deliberately wrong kernel or
 * a wrong layout. Small sizes, check-only runs: the benchmarks themselves are not timed here.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acquireBenchEnv, type AcquiredBenchEnv } from '../../src/throughput/node-env.js';
import { runBench, type BenchEnv, type BenchKernel, type BenchOptions } from '../../src/throughput/run.js';
import { BenchVerifyError, checkOutput } from '../../src/throughput/verify.js';
import { cutToCaps, isInjective, planTiles, referenceOffsets, phiFlat, cosizeOf, sizeOf } from '../../src/throughput/plan.js';
import { cpuEnv } from '../../src/throughput/node-env.js';
import { renderSvg, renderTable } from '../../src/throughput/report.js';
import { parseLayout } from '../../src/algebra/notation.js';
import { phi } from '../../src/algebra/layout.js';
import { logicalDivide } from '../../src/algebra/divide.js';
import { benchCommand } from '../../src/cli/bench.js';
import { prepareGpuKernel } from '../../src/throughput/gpu.js';
import { prepareCpuKernel } from '../../src/throughput/cpu.js';

let gpu: AcquiredBenchEnv;
beforeAll(async () => {
  gpu = await acquireBenchEnv('gpu');
  expect(gpu.env.backend).toBe('gpu');
});
afterAll(() => gpu?.release());

const LAYOUTS = [
  '(1024,1024):(1,1024)',
  '(64,64):(64,1)',
  '((8,16),(32,8)):((1,256),(8,4096))',
  '(3,5,7):(35,7,1)', // injective, not a multiple of the workgroup
  '(4,6):(0,1)', // a broadcast: not injective, no scatter
  '(11,13,15):(195,15,1)',
];
const TILE_CASES: [string, string][] = [
  ['(16,12):(12,1)', '(4,3):(1,16)'], // tiles of 12: a workgroup of 32 with idle threads
  ['(64,64):(1,64)', '(32,8):(1,64)'], // tiles of 256
  ['(32,32):(32,1)', '(16,32):(1,32)'], // tiles of 512: each thread loops twice
];

const check = (env: BenchEnv, o: Partial<BenchOptions>) => runBench(env, { layouts: LAYOUTS.slice(0, 1), elems: [4], samples: 10, checkOnly: true, ...o });

describe('bench --kernels compact times a cleared bitmap (issue 18)', () => {
  it('every timed repetition starts on a cleared bitmap: the output after the samples passes the check', async () => {
    // an injective layout, and a broadcast whose collisions the check counts
    for (const flat of [
      { shapes: [64, 64], strides: [64, 1] },
      { shapes: [4, 6], strides: [0, 1] },
    ]) {
      const n = sizeOf(flat.shapes);
      const spec = { kind: 'compact' as const, shapes: flat.shapes, strides: flat.strides, n, elemBytes: 4 };
      const ref = { offsets: referenceOffsets(flat.shapes, flat.strides), cosize: cosizeOf(flat.shapes, flat.strides) };
      for (const k of [
        await prepareGpuKernel(gpu.env.gpu!, spec, ref, { samples: 10, targetSeconds: 0.001, maxReps: 4 }),
        await prepareCpuKernel(spec, ref, { samples: 10, targetSeconds: 0.001, maxReps: 4 }),
      ]) {
        try {
          for (let i = 0; i < 3; i++) await k!.sample();
          // an uncleared bitmap would count every index of the later repetitions as a collision
          await k!.recheck!();
          expect((await k!.times()).secs).toHaveLength(3);
        } finally {
          k!.dispose();
        }
      }
    }
  });
});

describe.each(['gpu', 'cpu'] as const)('bench kernels on the %s', (which) => {
  const env = (): BenchEnv => (which === 'gpu' ? gpu.env : cpuEnv());

  it.each([4, 8, 16])('every kernel passes its check, %i-byte elements', async (e) => {
    const rep = await check(env(), { layouts: LAYOUTS, elems: [e] });
    for (const l of rep.layouts) {
      const kinds = l.results.map((r) => r.kernel).sort();
      expect(kinds).toEqual(l.injective ? ['copy', 'eval', 'gather', 'reduce', 'scatter'] : ['copy', 'eval', 'gather', 'reduce']);
    }
    expect(rep.layouts.find((l) => l.layout === '(4,6):(0,1)')!.skipped).toEqual([{ kernel: 'scatter', reason: 'Φ is not injective' }]);
  });

  it('the compact kernel (named by --kernels) passes its check, compact or not', async () => {
    const rep = await check(env(), { layouts: LAYOUTS, kernels: ['compact'] });
    for (const l of rep.layouts) expect(l.results.map((r) => r.kernel)).toEqual(['compact']);
  });

  it('a wrong compact kernel is caught', async () => {
    const mutate = { compact: (s: string) => s.replace(/dst\[1\]\+\+|atomicAdd\(&dst\[1\], 1u\)/, which === 'gpu' ? 'atomicAdd(&dst[2], 1u)' : 'dst[2]++') };
    await expect(check(env(), { layouts: ['(4,6):(0,1)'], kernels: ['compact'], mutate })).rejects.toThrow(BenchVerifyError);
  });

  it.each(TILE_CASES)('tiled copy of %s by %s passes its check', async (a, b) => {
    for (const e of [4, 16]) {
      const rep = await check(env(), { layouts: [a], tile: b, elems: [e], kernels: ['tile'] });
      const l = rep.layouts[0]!;
      expect(l.tile!.tileSize * l.tile!.tiles).toBe(l.size);
      expect(l.results.map((r) => r.kernel)).toEqual(['tile']);
    }
  });

  it('a layout cut to the caps is checked as the sub-layout it runs', async () => {
    const rep = await check(env(), { layouts: ['(32,64,128,256):(128,1048576,1,4096)'], limit: 4096, elems: [8] });
    const l = rep.layouts[0]!;
    expect(l.capped).toBe(true);
    expect(l.size).toBeLessThanOrEqual(4096);
    expect(l.results.length).toBe(5);
  });

  // deliberately wrong kernels: each must be caught by its check
  const wrong: Record<'gpu' | 'cpu', [BenchKernel, (s: string) => string][]> = {
    gpu: [
      ['copy', (s) => s.replace('dst[t] = src[t];', 'dst[t] = src[t] + 1u;')],
      ['gather', (s) => s.replace('dst[t] = src[phi(t)];', 'dst[t] = src[t];')],
      ['scatter', (s) => s.replace('dst[phi(t)] = src[t];', 'dst[t] = src[t];')],
      ['eval', (s) => s.replace('out[t] = phi(t);', 'out[t] = phi(t) + u32(t == 777u);')],
      ['reduce', (s) => s.replace('s = s + phi(x);', 's = s + phi(x) + u32(x == 5u);')],
      ['tile', (s) => s.replace('for (var j = lid; j < T;', 'for (var j = lid; j + 1u < T;')],
    ],
    cpu: [
      ['copy', () => 'dst.set(src.subarray(0, dst.length)); dst[3] = 0; return 0;'],
      ['gather', (s) => s.replace('dst[j] = src[o];', 'dst[j] = src[o + (j === 100 ? 1 : 0)];')],
      ['scatter', (s) => s.replace('dst[o] = src[j];', 'dst[o] = src[j ^ 1];')],
      ['eval', (s) => s.replace('dst[j] = o;', 'dst[j] = o + (j === 777 ? 1 : 0);')],
      ['reduce', (s) => s.replace('s = (s + o) | 0;', 's = (s + o + 1) | 0;')],
      ['tile', (s) => s.replace('dst[j] = src[o];', 'dst[j] = src[o] + (j === 5 ? 1 : 0);')],
    ],
  };

  it.each(wrong[which])('a wrong %s kernel is caught', async (k, mutate) => {
    // stride-2 modes: the CPU's generated loops are element loops, not block moves
    const o: Partial<BenchOptions> = { layouts: ['(40,50):(100,2)'], kernels: [k], mutate: { [k]: mutate } };
    if (k === 'tile') Object.assign(o, { layouts: ['(16,12):(12,1)'], tile: '(4,3):(1,16)' });
    await expect(check(env(), o)).rejects.toThrow(BenchVerifyError);
    // and the same run without the mutation passes
    const { mutate: _m, ...right } = o;
    await expect(check(env(), right)).resolves.toBeDefined();
  });

  it.each(['gather', 'scatter', 'eval', 'reduce'] as const)('%s against the wrong layout is caught', async (k) => {
    // the kernel runs (64,64):(64,1), the reference is Φ of another layout (the transpose's
    // offsets have the same sum, so reduce gets one with another sum)
    await expect(
      check(env(), { layouts: ['(64,64):(64,1)'], kernels: [k], referenceLayout: k === 'reduce' ? '(64,64):(2,128)' : '(64,64):(1,64)' }),
    ).rejects.toThrow(BenchVerifyError);
  });
});

describe('plan and reference', () => {
  it('the reference is Φ of the algebra', () => {
    const l = parseLayout('((8,16),(32,8)):((1,256),(8,4096))');
    const f = { shapes: [8, 16, 32, 8], strides: [1, 256, 8, 4096] };
    const off = referenceOffsets(f.shapes, f.strides);
    for (let x = 0; x < off.length; x += 97) expect(off[x]).toBe(phi(l, x));
    expect(isInjective(off, cosizeOf(f.shapes, f.strides))).toBe(true);
    expect(isInjective(referenceOffsets([4, 6], [0, 1]), 6)).toBe(false);
  });

  it('cuts to the caps, keeping the tile entries', () => {
    const s = cutToCaps('d', [32, 64, 128, 256], [128, 1048576, 1, 4096], 16, { maxIndices: 2 ** 22, maxBufferBytes: 2 ** 26 });
    expect(s.capped).toBe(true);
    expect(s.size).toBeLessThanOrEqual(2 ** 22);
    expect(Math.max(s.size, s.cosize) * 16).toBeLessThanOrEqual(2 ** 26);
    expect(s.shapes[0]).toBe(32); // the innermost, smallest-stride entries are kept
    expect(s.shapes[2]).toBe(128);
    const t = planTiles(parseLayout('(1024,1024):(1,1024)'), parseLayout('(32,32):(1,1024)'), 4, { maxIndices: 2 ** 14, maxBufferBytes: 2 ** 30 });
    expect(t.tileSize).toBe(1024);
    expect(t.size).toBeLessThanOrEqual(2 ** 14);
    expect(t.shapes.slice(0, 2)).toEqual([32, 32]);
    const d = logicalDivide(parseLayout('(1024,1024):(1,1024)'), parseLayout('(32,32):(1,1024)'));
    for (let x = 0; x < t.size; x += 13) {
      // the cut keeps a prefix of the tiles' coordinates: Φ of the sub-layout agrees with A ⊘ B
      // at the same coordinate (here the first tiles, whose coordinates are a box)
      const sub = phiFlat(t.shapes, t.strides, x);
      expect(sub).toBeLessThan(2 ** 20);
      expect(Number.isInteger(sub)).toBe(true);
    }
    expect(sizeOf(t.shapes)).toBe(t.size);
    expect(phi(d, 0)).toBe(0);
  });

  it('checkOutput names the first wrong element', () => {
    const off = new Uint32Array([3, 1, 2]);
    expect(() => checkOutput('gather', new Uint32Array([4, 2, 4]), off, 1)).toThrow(/dst\[2\]/);
    expect(() => checkOutput('eval', new Uint32Array([3, 1, 2]), off, 1)).not.toThrow();
    // Φ = [3, 1, 1]: one offset out of range, one collision
    expect(() => checkOutput('compact', new Uint32Array([1, 1, 0, 0, 2]), new Uint32Array([3, 1, 1]), 1)).not.toThrow();
    expect(() => checkOutput('compact', new Uint32Array([1, 0, 0, 0, 2]), new Uint32Array([3, 1, 1]), 1)).toThrow(/collisions/);
  });
});

describe('report and CLI', () => {
  it('a timed run on the GPU yields a table, JSON and an SVG (figures not asserted)', async () => {
    const rep = await runBench(gpu.env, { layouts: ['(32,32):(32,1)'], elems: [4], samples: 10, kernels: ['copy', 'gather'] });
    const g = rep.layouts[0]!.results.find((r) => r.kernel === 'gather')!;
    expect(g.timing.samples).toBe(10);
    expect(g.efficiency).toBeGreaterThan(0);
    expect(rep.limits?.maxStorageBufferBindingSize).toBeGreaterThan(0);
    expect(renderTable(rep)).toContain('gather');
    expect(renderSvg(rep)).toMatch(/^<svg[\s\S]*<rect[\s\S]*<\/svg>\n$/);
    expect(JSON.parse(JSON.stringify(rep)).adapter).toBe(rep.adapter);
  });

  it('bad input: one stderr line, exit 2', async () => {
    for (const argv of [
      [],
      ['(4,4'],
      ['(4,4):(1,4)', '--elem', '3'],
      ['(4,4):(1,4)', '--iters', '5'],
      ['(4,4):(1,4)', '--backend', 'x'],
      ['(4,4):(1,4)', '--what'],
      ['(4,4):(1,4)', '--tile', '(3,'],
    ]) {
      const err: string[] = [];
      const code = await benchCommand.run(argv, { stdout: () => undefined, stderr: (s) => void err.push(s), isTTY: false });
      expect(code, argv.join(' ')).toBe(2);
      expect(err.join('').trim().split('\n')).toHaveLength(1);
    }
    const out: string[] = [];
    expect(await benchCommand.run(['--help'], { stdout: (s) => void out.push(s), stderr: () => undefined, isTTY: false })).toBe(0);
    expect(out.join('')).toContain('--tile');
  });

  it('the CLI on the CPU prints a table and writes JSON', async () => {
    const out: string[] = [];
    const code = await benchCommand.run(['(16,16):(16,1)', '--backend', 'cpu', '--json', '--kernels', 'copy,gather'], {
      stdout: (s) => void out.push(s),
      stderr: () => undefined,
      isTTY: false,
    });
    expect(code).toBe(0);
    const j = JSON.parse(out.join(''));
    expect(j.backend).toBe('cpu');
    expect(j.layouts[0].results.map((r: { kernel: string }) => r.kernel)).toEqual(['copy', 'gather']);
  });
});

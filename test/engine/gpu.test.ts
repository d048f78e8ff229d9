/**
 * Every kernel of the GPU backend equals the CPU backend, on a real (software) adapter:
 * hundreds of random layouts, forced-tiny chunks and bitmap windows, and the 64-bit paths
 * (offsets and indices above 2^32).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compose } from '../../src/algebra/compose.js';
import { LayoutError } from '../../src/algebra/errors.js';
import { concat, cosize, makeLayout, size, type Layout } from '../../src/algebra/layout.js';
import { parseLayout } from '../../src/algebra/notation.js';
import { CpuBackend } from '../../src/engine/cpu.js';
import type { NodeDevice } from '../../src/engine/node/device-node.js';
import { GpuBackend } from '../../src/engine/gpu.js';
import { adapterLine } from '../../src/engine/select.js';
import { testDevice } from './gpu-device.js';
import { int, randomLayout, rng } from './gen.js';

let dev: NodeDevice;
let gpu: GpuBackend;
let tiny: GpuBackend;
const cpu = new CpuBackend();

beforeAll(async () => {
  dev = await testDevice();
  const adapter = adapterLine(dev.adapter);
  gpu = new GpuBackend(dev.device, { adapter, software: dev.adapter.software });
  // the same device, forced to tiny chunks, dispatches and bitmap windows
  tiny = new GpuBackend(dev.device, { adapter, software: dev.adapter.software, walk: 'hardware', maxChunk: 300, windowBits: 96 });
  process.stderr.write(`GPU tests on ${adapter}\n`);
});
afterAll(() => {
  dev?.release();
});

const j = (x: unknown) => JSON.stringify(x, (_k, v) => (typeof v === 'bigint' ? v.toString() : v));

describe('GPU backend equals the CPU backend', () => {
  it('eval, digest and compact on 150 random layouts (a third with forced-tiny chunks)', async () => {
    const r = rng(2024);
    for (let t = 0; t < 150; t++) {
      const l = randomLayout(r, 4096, t % 5 === 4);
      const b = t % 3 === 2 ? tiny : gpu;
      const n = size(l);
      const lo = int(r, 0, n);
      const hi = int(r, lo, n);
      const what = `${j(l)} [${lo}, ${hi})`;
      expect(Array.from(await b.evalRange(l, lo, hi)), what).toEqual(Array.from(await cpu.evalRange(l, lo, hi)));
      expect(j(await b.digestRange(l, lo, hi)), what).toBe(j(await cpu.digestRange(l, lo, hi)));
      expect(j(await b.checkCompact(l)), what).toBe(j(await cpu.checkCompact(l)));
    }
  }, 360_000); // hundreds of shaders compiled on a shared, loaded software adapter

  it('compose: 120 random pairs, with the algebra composite and with wrong candidates', async () => {
    const r = rng(99);
    let certified = 0;
    for (let t = 0; t < 120; t++) {
      const a = randomLayout(r, 512);
      let bsz = cosize(a);
      const b0 = randomLayout(r, 64);
      // B: a random layout padded to size ≥ cosize(A)
      const pad = Math.ceil(bsz / size(b0));
      const b = concat(b0, makeLayout(pad, int(r, 0, 50)));
      bsz = size(b);
      let c: Layout;
      try {
        c = compose(b, a);
        certified++;
        if (t % 4 === 0) c = makeLayout([size(a)], [int(r, 0, 9)]); // a wrong candidate
      } catch (e) {
        if (!(e instanceof LayoutError)) throw e;
        c = makeLayout([size(a)], [int(r, 0, 9)]);
      }
      const x = t % 3 === 2 ? tiny : gpu;
      expect(j(await x.checkCompose(b, a, c)), `${j(b)} ∘ ${j(a)} vs ${j(c)}`).toBe(j(await cpu.checkCompose(b, a, c)));
    }
    expect(certified).toBeGreaterThan(20);
  }, 360_000); // hundreds of shaders compiled on a shared, loaded software adapter

  it('tiles: the tile map of A ⊘ B on random divisions', async () => {
    const cases: [string, string][] = [
      ['(4,8):(1,4)', '(2,2):(1,4)'],
      ['(8,8):(8,1)', '(4):(1)'],
      ['(16,12):(1,16)', '(4,3):(1,16)'],
      ['((2,4),6):((1,12),2)', '(2):(1)'],
      ['(32,32):(32,1)', '(8,4):(1,32)'],
    ];
    const r = rng(5);
    for (let t = 0; t < 40; t++) {
      const s = 2 ** int(r, 1, 4);
      cases.push([`(${2 ** int(r, 2, 6)},${int(r, 1, 9)}):(1,${int(r, 64, 100)})`, `(${s}):(1)`]);
    }
    for (const [as, bs] of cases) {
      const a = parseLayout(as);
      const b = parseLayout(bs);
      let want: unknown;
      try {
        want = await cpu.tileMap(a, b);
      } catch {
        await expect(gpu.tileMap(a, b)).rejects.toThrow(LayoutError);
        continue;
      }
      const got = await (t(cases, as) ? tiny : gpu).tileMap(a, b);
      expect(j(got), `${as} ⊘ ${bs}`).toBe(j(want));
      expect(got.covers).toBe(true);
    }
  }, 360_000); // hundreds of shaders compiled on a shared, loaded software adapter

  it('the 64-bit paths: offsets above 2^32, indices above 2^32, wide outer layouts', async () => {
    const wide = [
      '(100000,100000):(100000,1)', // size and cosize 10^10: u64 indices and offsets
      '(65536,65537):(65537,1)',
      '(3,1000000000):(1000000000,3)',
      '(7,(1048576,1024)):(1099511627776,(1,1048576))',
      '(100000,100000):(1,0)', // u64 indices, u32 offsets
      '(5000000000):(3)',
      '(5000000000,3):(1,6000000000)',
    ];
    for (const s of wide) {
      const l = parseLayout(s);
      const n = size(l);
      for (const lo of [0, Math.floor(n / 2) - 1000, 2 ** 32 - 777, n - 2500].filter((v) => v >= 0 && v + 2000 <= n)) {
        const hi = lo + 2000;
        expect(Array.from(await gpu.evalRange(l, lo, hi)), `${s} [${lo}, ${hi})`).toEqual(Array.from(await cpu.evalRange(l, lo, hi)));
        expect(j(await tiny.digestRange(l, lo, hi)), `${s} [${lo}, ${hi})`).toBe(j(await cpu.digestRange(l, lo, hi)));
      }
    }
    // sums past 2^53 over many workgroups
    for (const s of ['(4096,1048576):(1099511627776,1)', '(8,1048576):(536870912,1)']) {
      const l = parseLayout(s);
      expect(j(await gpu.digestRange(l, 7, 1 << 21)), s).toBe(j(await cpu.digestRange(l, 7, 1 << 21)));
    }
    // a composite whose inner offsets exceed 2^32 (phi_b with a two-limb index)
    const b = parseLayout('(1048576,1048576):(1048576,1)');
    const a = parseLayout('(4,8):(1073741824,8589934592)');
    const c = compose(b, a);
    const wrong = parseLayout('(4,8):(1024,8192)');
    expect(j(await gpu.checkCompose(b, a, c))).toBe(j(await cpu.checkCompose(b, a, c)));
    expect(j(await gpu.checkCompose(b, a, wrong))).toBe(j(await cpu.checkCompose(b, a, wrong)));
    // compactness with u64 offsets (out of range) and collisions
    for (const s of ['(64,64):(1,4294967296)', '(4,64):(1099511627776,1)', '(3,4,5):(0,1,4294967296)']) {
      const l = parseLayout(s);
      expect(j(await tiny.checkCompact(l)), s).toBe(j(await cpu.checkCompact(l)));
    }
  }, 360_000); // hundreds of shaders compiled on a shared, loaded software adapter

  it('reports timeouts as kind timeout with what completed', async () => {
    const l = parseLayout('(4096,4096):(4096,1)');
    const e = await tiny.checkCompact(l, { timeoutMs: 0 }).then(
      () => null,
      (x: unknown) => x,
    );
    expect((e as LayoutError).kind).toBe('timeout');
    expect((e as LayoutError).message).toMatch(/deadline.*completed \d+ of \d+/);
    await expect(gpu.evalRange(l, 0, 5, { timeoutMs: 10_000 })).resolves.toEqual(new Float64Array([0, 4096, 8192, 12288, 16384]));
  });
});

function t(cases: unknown[], key: string): boolean {
  return cases.findIndex((c) => (c as [string])[0] === key) % 2 === 1;
}

describe('GPU faults', () => {
  it('shrinks chunks and retries when allocations are refused', async () => {
    const shrink = new GpuBackend(dev.device, { adapter: 'refusing', software: true, refuseAbove: 4096 });
    const l = parseLayout('(100,37):(37,1)');
    const got = await shrink.evalRange(l, 0, 3700);
    expect(Array.from(got)).toEqual(Array.from(await cpu.evalRange(l, 0, 3700)));
    const strict = new GpuBackend(dev.device, { adapter: 'refusing', software: true, refuseAbove: 64 });
    await expect(strict.evalRange(l, 0, 3700)).rejects.toThrow(/could not allocate/);
  });

  it('reports a lost device as a gpu error with what completed', async () => {
    const own = await testDevice();
    const b = new GpuBackend(own.device, { adapter: 'doomed', software: true, maxChunk: 1 << 12 });
    const run = b.checkCompact(parseLayout('(4096,4096):(4096,1)')); // thousands of chunks: still running at 150 ms
    setTimeout(() => own.device.destroy(), 150);
    const e = await run.then(
      () => null,
      (x: unknown) => x,
    );
    expect(e).toBeInstanceOf(LayoutError);
    expect((e as LayoutError).kind).toBe('gpu');
    expect((e as LayoutError).message).toMatch(/device lost.*completed \d+ of \d+ indices/);
    own.release();
  });
});

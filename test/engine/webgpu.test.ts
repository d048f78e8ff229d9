/**
 * The WebGPU host (src/engine/webgpu.ts) on the real device: upload and read-back round-trip, the pipeline cache (sync
 * and async, a failed shader named by its compiler), buffers that answer out-of-memory, error scopes, mapping, the grid,
 * submit-and-wait, and device loss.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LayoutError } from '../../src/algebra/errors.js';
import type { NodeDevice } from '../../src/engine/node/device-node.js';
import {
  gridFor,
  gridOn,
  lossWatch,
  mapRead,
  PipelineCache,
  readBack,
  scoped,
  submitAndWait,
  tryBuffer,
  upload,
  USAGE,
  watchLoss,
  withReadBack,
} from '../../src/engine/webgpu.js';
import { testDevice } from '../helpers/device.js';

let dev: NodeDevice;
beforeAll(async () => {
  dev = await testDevice();
});
afterAll(() => dev?.release());

const DOUBLE = `
@group(0) @binding(0) var<storage, read_write> xs: array<u32>;
@compute @workgroup_size(64) fn main(@builtin(global_invocation_id) g: vec3<u32>, @builtin(num_workgroups) n: vec3<u32>) {
  let i = g.x + g.y * n.x * 64u;
  if (i < arrayLength(&xs)) { xs[i] = 2u * xs[i] + 1u; }
}`;

describe('the WebGPU host layer', () => {
  it('the usage flags are WebGPU’s', () => {
    expect(USAGE).toMatchObject({ MAP_READ: 1, MAP_WRITE: 2, COPY_SRC: 4, COPY_DST: 8, UNIFORM: 64, STORAGE: 128, QUERY_RESOLVE: 512 });
  });

  it('a grid holds every workgroup within the per-dimension limit, with less than one row spare', () => {
    for (const [groups, max] of [
      [1, 65535],
      [65535, 65535],
      [65536, 65535],
      [1_000_000, 65535],
      [7, 3],
    ] as const) {
      const [x, y] = gridFor(groups, max);
      expect(x, `${groups}`).toBeLessThanOrEqual(max);
      expect(x * y, `${groups}`).toBeGreaterThanOrEqual(groups);
      expect(x * (y - 1), `${groups}`).toBeLessThan(groups);
    }
  });

  it('upload, a kernel from the cache, and read-back give each word 2x + 1; one pipeline per source', async () => {
    const d = dev.device;
    const n = 1000;
    const xs = Uint32Array.from({ length: n }, (_, i) => i * 7);
    const buf = upload(d, xs, USAGE.STORAGE | USAGE.COPY_SRC, 'xs');
    const cache = new PipelineCache(d);
    const pipe = cache.get(DOUBLE);
    expect(cache.get(DOUBLE)).toBe(pipe);
    expect(cache.size).toBe(1);
    const [gx, gy] = gridFor(Math.ceil(n / 64), d.limits.maxComputeWorkgroupsPerDimension);
    const enc = d.createCommandEncoder();
    const pass = enc.beginComputePass();
    pass.setPipeline(pipe);
    pass.setBindGroup(0, d.createBindGroup({ layout: pipe.getBindGroupLayout(0), entries: [{ binding: 0, resource: { buffer: buf } }] }));
    pass.dispatchWorkgroups(gx, gy);
    pass.end();
    d.queue.submit([enc.finish()]);
    const got = new Uint32Array(await readBack(d, buf, n * 4));
    expect(got.length).toBe(n);
    for (let i = 0; i < n; i++) if (got[i] !== 2 * xs[i]! + 1) expect(got[i], `word ${i}`).toBe(2 * xs[i]! + 1);
    const check = lossWatch(d, 'the test');
    expect(() => check()).not.toThrow();
    buf.destroy();
  });

  it('compile caches a pipeline per (source, entry point, layout key), and a shader that does not compile rejects with its compiler’s line and column, uncached', async () => {
    const d = dev.device;
    const cache = new PipelineCache(d);
    const fail = (detail: string): Error => new Error(`bad: ${detail}`);
    const a = await cache.compile(DOUBLE, { fail });
    expect(await cache.compile(DOUBLE, { fail })).toBe(a);
    let made = 0;
    const layouts = {
      key: 'one storage',
      make: () => {
        made++;
        return [d.createBindGroupLayout({ entries: [{ binding: 0, visibility: 4, buffer: { type: 'storage' as const } }] })];
      },
    };
    const b = await cache.compile(DOUBLE, { fail, layouts });
    expect(b).not.toBe(a);
    expect(await cache.compile(DOUBLE, { fail, layouts })).toBe(b);
    expect(made).toBe(1);
    const broken = `${DOUBLE}\nfn oops() -> u32 { return undefined_name; }\n`;
    const e = await cache.compile(broken, { fail }).then(
      () => null,
      (x: unknown) => x as Error,
    );
    expect(e?.message).toMatch(/^bad: \d+:\d+ .*undefined_name/);
    expect(cache.size).toBe(2);
    cache.clear();
    expect(cache.size).toBe(0);
  });

  it('tryBuffer gives a buffer rounded up to 16 bytes, or null for one the device refuses (no uncaptured error)', async () => {
    const d = dev.device;
    const b = await tryBuffer(d, 20, USAGE.STORAGE, 'small');
    expect(b?.size).toBe(32);
    b?.destroy();
    expect(await tryBuffer(d, d.limits.maxBufferSize + 16, USAGE.STORAGE, 'too large')).toBeNull();
    // MAP_READ with STORAGE is a validation error: refused, not thrown
    expect(await tryBuffer(d, 64, USAGE.MAP_READ | USAGE.STORAGE, 'invalid usage')).toBeNull();
  });

  it('scoped returns what its work returns, and answers a device error with onError', async () => {
    const d = dev.device;
    expect(
      await scoped(
        d,
        () => 7,
        () => new Error('no'),
      ),
    ).toBe(7);
    const e = await scoped(
      d,
      () => d.createBuffer({ size: 64, usage: USAGE.MAP_READ | USAGE.STORAGE }),
      (err) => new Error(`device said: ${err.message.length > 0}`),
    ).then(
      () => null,
      (x: unknown) => x as Error,
    );
    expect(e?.message).toBe('device said: true');
  });

  it('mapRead maps a prefix or the whole; withReadBack hands the words over while mapped; submitAndWait waits for the queue', async () => {
    const d = dev.device;
    const n = 300;
    const xs = Uint32Array.from({ length: n }, (_, i) => (i * 2654435761) >>> 0);
    const src = upload(d, xs, USAGE.STORAGE | USAGE.COPY_SRC, 'xs');
    const rb = d.createBuffer({ size: n * 4, usage: USAGE.MAP_READ | USAGE.COPY_DST });
    const enc = d.createCommandEncoder();
    enc.copyBufferToBuffer(src, 0, rb, 0, n * 4);
    await submitAndWait(d, [enc.finish()]);
    expect(Array.from(new Uint32Array(await mapRead(rb, { bytes: 40 })))).toEqual(Array.from(xs.subarray(0, 10)));
    let checked = 0;
    expect(Array.from(new Uint32Array(await mapRead(rb, { check: () => void checked++ })))).toEqual(Array.from(xs));
    expect(checked).toBe(1);
    const sum = await withReadBack(d, src, 12, (w) => w.length + w[0]! + w[2]!);
    expect(sum).toBe(3 + xs[0]! + xs[2]!);
    expect((await readBack(d, src, 6)).byteLength).toBe(6);
    for (const x of [src, rb]) x.destroy();
  });

  it('gridOn keeps within the device’s limit', () => {
    const max = dev.device.limits.maxComputeWorkgroupsPerDimension;
    expect(gridOn(dev.device, max + 1)).toEqual(gridFor(max + 1, max));
    expect(gridOn(dev.device, 5)).toEqual([5, 1]);
  });

  it('a lost device: watchLoss says why, lossWatch throws LayoutError gpu naming what lost it', async () => {
    const own = await testDevice();
    const w = watchLoss(own.device);
    const check = lossWatch(own.device, 'the host test');
    expect(w.why()).toBeNull();
    own.device.destroy();
    const info = await w.settled;
    expect(info.reason).toBe('destroyed');
    expect(w.why()).toMatch(/^device lost \(destroyed: .+\)$/);
    expect(check).toThrow(LayoutError);
    expect(check).toThrow(/^the host test: device lost \(destroyed: /);
    own.release();
  });
});

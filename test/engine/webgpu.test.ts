/** The WebGPU host layer (src/engine/webgpu.ts) on the real device: upload and read-back round-trip, the pipeline cache, the grid. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NodeDevice } from '../../src/engine/device-node.js';
import { gridFor, lossWatch, PipelineCache, readBack, upload, USAGE } from '../../src/engine/webgpu.js';
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
});

/**
 * The evaluator's kernels timed (bench/evaluator.ts, docs/benchmarks.md): a generated or hand-written kernel with the
 * evaluator's bindings run over [0, n) many times per submit with no read-back, by the wall clock or by timestamp
 * queries. The timers live here, beside `layoutgpu bench`'s (gpu.ts), not in the evaluator backend: GpuBackend lends
 * them its pipelines (`pipeline`) and its grid (`grid`), and nothing else.
 */
import { LayoutError } from '../algebra/errors.js';
import { DISPATCH, SLOTS, type Dispatch } from '../engine/gpu-dispatch.js';
import type { GpuBackend } from '../engine/gpu.js';
import { lossWatch, mapRead, USAGE, workDone } from '../engine/webgpu.js';

/** the uniform slots of `ds` (shaders/common.wgsl's parameters), one per dispatch, in a buffer of their own */
function slots(gpu: GpuBackend, ds: readonly Dispatch[]): { buffer: GPUBuffer; slot: number } {
  const slot = Math.max(256, gpu.device.limits.minUniformBufferOffsetAlignment);
  const data = new Uint32Array((slot / 4) * Math.max(1, ds.length));
  ds.forEach((d, i) => data.set([d.base, 0, d.count, 0, 0, 0, d.windowLen ?? 0, d.flags ?? 0], (i * slot) / 4));
  const buffer = gpu.device.createBuffer({ size: data.byteLength, usage: USAGE.UNIFORM | USAGE.COPY_DST, label: 'timed params' });
  gpu.device.queue.writeBuffer(buffer, 0, data);
  return { buffer, slot };
}

/** bytes per offset a kernel writes (a two-limb offset: 8) */
const offBytes = (source: string): number => (source.includes('alias OFF_L = vec2<u32>') ? 8 : 4);

/**
 * Runs a kernel over [0, n) `reps` times (compact: with the bitmap cleared and counters reset each time, counters read
 * back once at the end) and returns the seconds it took. `source` is a generated kernel or a hand-written one with the
 * same bindings. Errors: LayoutError `gpu` when the device is lost.
 */
export async function timeKernel(gpu: GpuBackend, kind: 'eval' | 'compact', source: string, n: number, reps: number): Promise<number> {
  const device = gpu.device;
  const alive = lossWatch(device, 'the timed kernel');
  const pipe = await gpu.pipeline(source, kind === 'eval' ? 1 : 2);
  const per = Math.min(n, DISPATCH);
  const bufs: GPUBuffer[] = [];
  const make = (size: number, usage: number): GPUBuffer => {
    const b = device.createBuffer({ size: Math.ceil(size / 16) * 16, usage });
    bufs.push(b);
    return b;
  };
  try {
    const storage =
      kind === 'eval'
        ? [make(per * offBytes(source), USAGE.STORAGE)]
        : [make(Math.ceil(n / 32) * 4, USAGE.STORAGE | USAGE.COPY_DST), make(16, USAGE.STORAGE | USAGE.COPY_SRC | USAGE.COPY_DST)];
    const rb = make(16, USAGE.MAP_READ | USAGE.COPY_DST);
    const ds: Dispatch[] = [];
    for (let s = 0; s < n; s += per) ds.push({ base: s, count: Math.min(per, n - s), window: 0, windowLen: n, flags: 1 });
    const batch = Math.max(1, Math.floor(SLOTS / ds.length));
    const { buffer: params, slot } = slots(gpu, ds);
    bufs.push(params);
    const bg = device.createBindGroup({
      layout: pipe.getBindGroupLayout(0),
      entries: [{ binding: 0, resource: { buffer: params, size: 32 } }, ...storage.map((buffer, i) => ({ binding: i + 1, resource: { buffer } }))],
    });
    const encode = (k: number, readCounters: boolean): void => {
      const enc = device.createCommandEncoder();
      for (let j = 0; j < k; j++) {
        if (kind === 'compact') {
          enc.clearBuffer(storage[0]!);
          enc.clearBuffer(storage[1]!);
        }
        const pass = enc.beginComputePass();
        pass.setPipeline(pipe);
        ds.forEach((d, i) => {
          pass.setBindGroup(0, bg, [i * slot]);
          pass.dispatchWorkgroups(gpu.grid(d.count));
        });
        pass.end();
      }
      if (readCounters) enc.copyBufferToBuffer(storage[1]!, 0, rb, 0, 16);
      device.queue.submit([enc.finish()]);
    };
    // untimed: the first use of the buffers (Dawn clears them lazily) and of the pipeline
    encode(1, false);
    await workDone(device);
    alive();
    const t0 = performance.now();
    for (let r = 0; r < reps; r += batch) {
      const k = Math.min(batch, reps - r);
      encode(k, kind === 'compact' && r + k >= reps);
    }
    if (kind === 'compact') await mapRead(rb, { check: alive });
    else await workDone(device);
    alive();
    return (performance.now() - t0) / 1000;
  } finally {
    for (const b of bufs) b.destroy();
  }
}

/**
 * GPU seconds of an eval-kind kernel over [0, n), `reps` times in one compute pass, from timestamp queries (null when
 * the device lacks 'timestamp-query'; Dawn quantizes them unless created with
 * 'disable-dawn-features=timestamp_quantization'). Errors: LayoutError `gpu` beyond SLOTS·DISPATCH indices or when the
 * device is lost.
 */
export async function timeKernelGpu(gpu: GpuBackend, source: string, n: number, reps: number): Promise<number | null> {
  const device = gpu.device;
  if (!device.features.has('timestamp-query')) return null;
  const alive = lossWatch(device, 'the timed kernel');
  const pipe = await gpu.pipeline(source, 1);
  const per = Math.min(n, DISPATCH);
  const ds: Dispatch[] = [];
  for (let s = 0; s < n; s += per) ds.push({ base: s, count: Math.min(per, n - s) });
  if (ds.length > SLOTS) throw new LayoutError('gpu', `timeKernelGpu takes at most ${SLOTS * DISPATCH} indices (adapter: ${gpu.info.adapter})`);
  const out = device.createBuffer({ size: per * offBytes(source), usage: USAGE.STORAGE });
  const qs = device.createQuerySet({ type: 'timestamp', count: 2 });
  const resolve = device.createBuffer({ size: 16, usage: USAGE.QUERY_RESOLVE | USAGE.COPY_SRC });
  const rb = device.createBuffer({ size: 16, usage: USAGE.MAP_READ | USAGE.COPY_DST });
  const { buffer: params, slot } = slots(gpu, ds);
  try {
    const bg = device.createBindGroup({
      layout: pipe.getBindGroupLayout(0),
      entries: [
        { binding: 0, resource: { buffer: params, size: 32 } },
        { binding: 1, resource: { buffer: out } },
      ],
    });
    const run = (stamp: boolean): void => {
      const enc = device.createCommandEncoder();
      const pass = enc.beginComputePass(stamp ? { timestampWrites: { querySet: qs, beginningOfPassWriteIndex: 0, endOfPassWriteIndex: 1 } } : {});
      pass.setPipeline(pipe);
      for (let r = 0; r < (stamp ? reps : 1); r++) {
        ds.forEach((d, i) => {
          pass.setBindGroup(0, bg, [i * slot]);
          pass.dispatchWorkgroups(gpu.grid(d.count));
        });
      }
      pass.end();
      if (stamp) {
        enc.resolveQuerySet(qs, 0, 2, resolve, 0);
        enc.copyBufferToBuffer(resolve, 0, rb, 0, 16);
      }
      device.queue.submit([enc.finish()]);
    };
    run(false); // first use of the buffer and the pipeline, untimed
    await workDone(device);
    alive();
    run(true);
    const t = new BigUint64Array(await mapRead(rb, { check: alive }));
    return Number(t[1]! - t[0]!) / 1e9;
  } finally {
    out.destroy();
    qs.destroy();
    resolve.destroy();
    rb.destroy();
    params.destroy();
  }
}

/**
 * Runs one benchmark kernel on a GPUDevice: buffers filled with the known pattern, one run
 * whose output is checked against the CPU reference (verify.ts), a calibration run that picks
 * the repetitions per sample, a warm-up sample, then the timed samples.
 *
 * Timing: with 'timestamp-query', one compute pass per sample holding `reps` dispatches,
 * timestamps written at the pass's beginning and end (Dawn quantizes them unless the device was
 * created with `disable-dawn-features=timestamp_quantization`: see device.ts); without it, or
 * when the timestamps read back make no sense, the wall clock from submit to
 * onSubmittedWorkDone of the same pass (many dispatches per submit amortize the submit).
 * The compactness kernel accumulates into its bitmap and counters: every repetition clears them
 * first (clearBuffer between passes), inside the timed span, as the engine's check does.
 * Nothing here knows whether the device came from Node or a browser.
 */
import { checkOutput } from './verify.js';
import type { Timing } from './stats.js';
import { elemType, fillTemplate, kernelSource, workgroupsOf, type KernelSpec } from './wgsl.js';
import { SHADERS } from '../engine/shaders.generated.js';
import { gridOn, pipelinesOf, scoped, STAGE_COMPUTE, submitAndWait, USAGE, withReadBack } from '../engine/webgpu.js';

export interface GpuEnv {
  device: GPUDevice;
  /** the device was created with 'timestamp-query' */
  timestamps: boolean;
}

export interface GpuRunOptions {
  /** timed samples (≥ 10) */
  samples: number;
  /** aim for samples of about this many seconds (repetitions per sample are picked to match) */
  targetSeconds: number;
  /** at most this many repetitions per sample */
  maxReps: number;
  /** test hook: rewrite the generated source (a deliberately wrong kernel) */
  mutate?: (source: string) => string;
  /** test hook: skip timing after the check */
  checkOnly?: boolean;
}

export interface Reference {
  /** Φ(i) for i < n (tile: Φ of A ⊘ B); unused by copy except for its length */
  offsets: Uint32Array;
  /** cosize of the layout: elements of the gather source / scatter destination */
  cosize: number;
}

export class GpuBenchError extends Error {}

/** `f` inside the host's error scopes: a device error is a GpuBenchError naming `what` */
function withErrors<T>(device: GPUDevice, what: string, f: () => T | Promise<T>): Promise<T> {
  return scoped(device, f, (e) => new GpuBenchError(`${what}: ${e.message}`));
}

const FILL_WG = 256;

/** a storage buffer of `elems` elements of W words holding the pattern (word k = k + 1),
 *  filled on the GPU (a JavaScript loop over a gigabyte takes seconds) */
async function patternBuffer(device: GPUDevice, elems: number, W: number, label: string): Promise<GPUBuffer> {
  const words = elems * W;
  const bytes = Math.max(16, words * 4);
  const b = device.createBuffer({ size: bytes, usage: USAGE.STORAGE | USAGE.COPY_SRC | USAGE.COPY_DST, label });
  const code = fillTemplate(SHADERS['bench-fill'], { WG_SIZE: FILL_WG });
  const pl = await pipelinesOf(device).compile(code, { fail: (d) => new GpuBenchError(`the fill shader failed to compile: ${d}`) });
  const groups = Math.max(1, Math.ceil(words / FILL_WG));
  const [gx, gy] = gridOn(device, groups);
  const ub = device.createBuffer({ size: 16, usage: USAGE.UNIFORM | USAGE.COPY_DST });
  device.queue.writeBuffer(ub, 0, new Uint32Array([words, gx, 0, 0]));
  const bg = device.createBindGroup({
    layout: pl.getBindGroupLayout(0),
    entries: [
      { binding: 0, resource: { buffer: b } },
      { binding: 1, resource: { buffer: ub } },
    ],
  });
  const enc = device.createCommandEncoder();
  const pass = enc.beginComputePass();
  pass.setPipeline(pl);
  pass.setBindGroup(0, bg);
  pass.dispatchWorkgroups(gx, gy);
  pass.end();
  await submitAndWait(device, [enc.finish()]);
  ub.destroy();
  return b;
}

/** bytes of the source and destination buffers of a kernel */
export function bufferElems(spec: KernelSpec, ref: Reference): { src: number; dst: number } {
  switch (spec.kind) {
    case 'copy':
      return { src: spec.n, dst: spec.n };
    case 'gather':
    case 'tile':
      return { src: ref.cosize, dst: spec.n };
    case 'scatter':
      return { src: spec.n, dst: ref.cosize };
    case 'eval':
      return { src: 1, dst: spec.n };
    case 'reduce':
      return { src: 1, dst: 4 };
    case 'compact':
      return { src: 1, dst: 4 + Math.ceil(spec.n / 32) };
  }
}

/** A kernel checked and calibrated, ready for timed samples (interleaved with others'). */
export interface PreparedKernel {
  /** repetitions per sample */
  reps: number;
  /** one timed sample */
  sample(): Promise<void>;
  /** checks the output the last repetition left against the CPU reference (BenchVerifyError when
   *  wrong): what every timed repetition computed, the compact kernel's included (cleared each time) */
  recheck?(): Promise<void>;
  /** seconds per repetition of every sample so far (timestamps where sane, else wall clock) */
  times(): Promise<{ secs: number[]; method: Timing['method'] }>;
  dispose(): void;
}

/**
 * Builds the kernel, checks its output once (BenchVerifyError when wrong: nothing is timed
 * then), calibrates the repetitions per sample and warms up. `checkOnly`: returns null after
 * the check.
 */
export async function prepareGpuKernel(env: GpuEnv, spec: KernelSpec, ref: Reference, opts: GpuRunOptions): Promise<PreparedKernel | null> {
  const { device } = env;
  const W = spec.kind === 'eval' || spec.kind === 'reduce' || spec.kind === 'compact' ? 1 : spec.elemBytes / 4;
  elemType(spec.elemBytes);
  let source = kernelSource(spec);
  if (opts.mutate) source = opts.mutate(source);
  const pipe = await pipelinesOf(device).compile(source, {
    label: `bench ${spec.kind}`,
    layouts: {
      key: 'bench',
      make: () => [
        device.createBindGroupLayout({
          entries: [
            { binding: 0, visibility: STAGE_COMPUTE, buffer: { type: 'read-only-storage' } },
            { binding: 1, visibility: STAGE_COMPUTE, buffer: { type: 'storage' } },
          ],
        }),
      ],
    },
    fail: (detail) => new GpuBenchError(`${spec.kind} shader failed to compile: ${detail}`),
  });
  const { src: srcElems, dst: dstElems } = bufferElems(spec, ref);
  const dstW = spec.kind === 'reduce' ? 1 : W;
  const buffers: GPUBuffer[] = [];
  let querySet: GPUQuerySet | null = null;
  const dispose = (): void => {
    for (const b of buffers) b.destroy();
    buffers.length = 0;
    querySet?.destroy();
    querySet = null;
  };
  try {
    const src = await withErrors(device, `allocating ${srcElems * W * 4} bytes`, () => patternBuffer(device, srcElems, W, 'src'));
    buffers.push(src);
    const dstBytes = Math.max(16, Math.ceil((dstElems * dstW * 4) / 16) * 16);
    const dst = await withErrors(device, `allocating ${dstBytes} bytes`, () =>
      device.createBuffer({ size: dstBytes, usage: USAGE.STORAGE | USAGE.COPY_SRC | USAGE.COPY_DST, label: 'dst' }),
    );
    buffers.push(dst);
    const bg = device.createBindGroup({
      layout: pipe.getBindGroupLayout(0),
      entries: [
        { binding: 0, resource: { buffer: src } },
        { binding: 1, resource: { buffer: dst } },
      ],
    });
    const [gx, gy] = gridOn(device, workgroupsOf(spec));

    const maxSamples = opts.samples;
    if (env.timestamps) querySet = device.createQuerySet({ type: 'timestamp', count: 2 * maxSamples });
    let used = 0;
    // the compactness check starts every repetition on a cleared bitmap and counters, as the
    // engine's check does (a bitmap left set sends every index down the collision path)
    const clears = spec.kind === 'compact';
    /** one sample of `reps` dispatches (each after its clear, where the kernel needs one, timed
     *  with it); wall seconds, and the query pair used (or -1) */
    const pass = async (reps: number, timed: boolean): Promise<{ wall: number; q: number }> => {
      const enc = device.createCommandEncoder();
      const q = timed && querySet && used < maxSamples ? used++ : -1;
      if (!clears) {
        const p = enc.beginComputePass(
          q >= 0 ? { timestampWrites: { querySet: querySet!, beginningOfPassWriteIndex: 2 * q, endOfPassWriteIndex: 2 * q + 1 } } : {},
        );
        p.setPipeline(pipe);
        p.setBindGroup(0, bg);
        for (let r = 0; r < reps; r++) p.dispatchWorkgroups(gx, gy);
        p.end();
      } else {
        // an empty pass marks the beginning, so that the first clear is inside the timed span
        if (q >= 0) enc.beginComputePass({ timestampWrites: { querySet: querySet!, beginningOfPassWriteIndex: 2 * q } }).end();
        for (let r = 0; r < reps; r++) {
          enc.clearBuffer(dst);
          const last = r === reps - 1;
          const p = enc.beginComputePass(q >= 0 && last ? { timestampWrites: { querySet: querySet!, endOfPassWriteIndex: 2 * q + 1 } } : {});
          p.setPipeline(pipe);
          p.setBindGroup(0, bg);
          p.dispatchWorkgroups(gx, gy);
          p.end();
        }
      }
      const cb = enc.finish();
      const t0 = performance.now();
      await submitAndWait(device, [cb]);
      return { wall: (performance.now() - t0) / 1000, q };
    };

    // 1. the check (fresh dst: zeros)
    await withErrors(device, `${spec.kind} kernel`, () => pass(1, false));
    await withReadBack(device, dst, dstElems * dstW * 4, (out) => checkOutput(spec.kind, out, ref.offsets, W, dstElems));
    if (opts.checkOnly) {
      dispose();
      return null;
    }

    // 2. calibration: one repetition (also a warm-up)
    const cal = await pass(1, false);
    const cal2 = await pass(1, false);
    const per = Math.max(1e-7, Math.min(cal.wall, cal2.wall));
    const reps = Math.max(1, Math.min(opts.maxReps, Math.round(opts.targetSeconds / per)));
    // 3. warm-up at the chosen repetitions
    await pass(reps, false);
    const walls: number[] = [];
    const qs: number[] = [];
    return {
      reps,
      async sample() {
        const r = await pass(reps, true);
        walls.push(r.wall / reps);
        qs.push(r.q);
      },
      async recheck() {
        await withReadBack(device, dst, dstElems * dstW * 4, (out) => checkOutput(spec.kind, out, ref.offsets, W, dstElems));
      },
      async times() {
        if (querySet && qs.length > 0 && qs.every((q) => q >= 0)) {
          const count = 2 * used;
          const resolve = device.createBuffer({ size: count * 8, usage: USAGE.QUERY_RESOLVE | USAGE.COPY_SRC, label: 'timestamps' });
          buffers.push(resolve);
          const enc = device.createCommandEncoder();
          enc.resolveQuerySet(querySet, 0, count, resolve, 0);
          device.queue.submit([enc.finish()]);
          const secs = await withReadBack(device, resolve, count * 8, (raw) => {
            const t = new BigUint64Array(raw.buffer, raw.byteOffset, count);
            return qs.map((q) => Number(t[2 * q + 1]! - t[2 * q]!) / 1e9 / reps);
          });
          // sane: positive and not wildly above the wall clock of the same pass
          const sane = secs.every((s, i) => Number.isFinite(s) && s > 0 && s <= walls[i]! * 1.5 + 1e-3);
          if (sane) return { secs, method: 'timestamp' };
        }
        return { secs: [...walls], method: 'wall' };
      },
      dispose,
    };
  } catch (e) {
    dispose();
    throw e;
  }
}

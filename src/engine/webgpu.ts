/**
 * The WebGPU host (docs/engine.md "The WebGPU host"): what every GPU client of the project does the same way, and the
 * one place that does it — the buffer usage and map-mode constants (the `GPUBufferUsage` / `GPUMapMode` globals are
 * absent in Node), buffers that answer out-of-memory, uploads, read-back through staging, pipelines cached by code and
 * entry point, error scopes, the 2-D grid within the adapter's limit, submit-and-wait, and device loss watched. Its
 * clients: the evaluator (gpu.ts), the conflict-free search (conflicts-gpu.ts), the verify interpreter (verify/gpu.ts),
 * the benchmarks (throughput/) and bench/. Nothing here knows whether the device came from Node or a browser;
 * test/engine/host.test.ts holds that no other file of src/ compiles a pipeline, maps a buffer, pushes an error scope
 * or watches `device.lost` (the Node device source and the page's device holder apart).
 */
import { LayoutError } from '../algebra/errors.js';

/** GPUBufferUsage's flags (WebGPU §5.1) */
export const USAGE = {
  MAP_READ: 1,
  MAP_WRITE: 2,
  COPY_SRC: 4,
  COPY_DST: 8,
  INDEX: 16,
  VERTEX: 32,
  UNIFORM: 64,
  STORAGE: 128,
  INDIRECT: 256,
  QUERY_RESOLVE: 512,
} as const;

/** GPUMapMode.READ */
export const MAP_READ = 1;

/** GPUShaderStage.COMPUTE */
export const STAGE_COMPUTE = 4;

// ---------------------------------------------------------------------------------------------
// buffers

/** A buffer of `data` (its size rounded up to 4 bytes, at least `min`), with `usage` and COPY_DST; written through the queue. */
export function upload(device: GPUDevice, data: ArrayBufferView<ArrayBuffer>, usage: number, label?: string, min = 4): GPUBuffer {
  const size = Math.max(min, Math.ceil(data.byteLength / 4) * 4);
  const buffer = device.createBuffer({ size, usage: usage | USAGE.COPY_DST, ...(label ? { label } : {}) });
  device.queue.writeBuffer(buffer, 0, data);
  return buffer;
}

/**
 * Runs `f` inside an out-of-memory and a validation error scope: what it returns, or `onError` of the device's error
 * when either scope caught one (even over an error of `f`'s own: the device's error is the answer).
 */
export async function scoped<T>(device: GPUDevice, f: () => T | Promise<T>, onError: (e: GPUError) => Error): Promise<T> {
  device.pushErrorScope('out-of-memory');
  device.pushErrorScope('validation');
  let r: T;
  try {
    r = await f();
  } finally {
    const v = await device.popErrorScope();
    const o = await device.popErrorScope();
    // biome-ignore lint/correctness/noUnsafeFinally: a device error is the answer, even over f's own
    if (v || o) throw onError((v ?? o)!);
  }
  return r;
}

/**
 * A buffer of `size` bytes (rounded up to 16, at least 16), or null when the device refuses it: out of memory, over a
 * limit, or a validation error (both caught by error scopes, never left to the device's uncaptured errors).
 */
export async function tryBuffer(device: GPUDevice, size: number, usage: number, label: string): Promise<GPUBuffer | null> {
  device.pushErrorScope('out-of-memory');
  device.pushErrorScope('validation');
  let b: GPUBuffer | null = null;
  try {
    b = device.createBuffer({ size: Math.max(16, Math.ceil(size / 16) * 16), usage, label });
  } catch {
    b = null;
  }
  const v = await device.popErrorScope();
  const o = await device.popErrorScope();
  if (v || o || !b) {
    b?.destroy();
    return null;
  }
  return b;
}

// ---------------------------------------------------------------------------------------------
// read-back

/** How mapRead waits: `race` (e.g. the device's loss) may end the wait early, `check` runs after it (and throws). */
export interface MapWait {
  /** bytes from the start to map (default: the whole buffer; a multiple of 4) */
  bytes?: number;
  race?: Promise<unknown>;
  check?: () => void;
}

/** A copy of the first bytes of `buffer` (which has MAP_READ), mapped for reading and unmapped again. */
export async function mapRead(buffer: GPUBuffer, wait: MapWait = {}): Promise<ArrayBuffer> {
  const mapped = wait.bytes === undefined ? buffer.mapAsync(MAP_READ) : buffer.mapAsync(MAP_READ, 0, wait.bytes);
  mapped.catch(() => undefined);
  await (wait.race ? Promise.race([mapped, wait.race]) : mapped);
  wait.check?.();
  await mapped;
  const copy = (wait.bytes === undefined ? buffer.getMappedRange() : buffer.getMappedRange(0, wait.bytes)).slice(0);
  buffer.unmap();
  return copy;
}

/**
 * The first `bytes` bytes of `src` (which has COPY_SRC) handed to `use` as words while mapped (no second copy), through
 * a staging buffer destroyed afterwards.
 */
export async function withReadBack<T>(device: GPUDevice, src: GPUBuffer, bytes: number, use: (words: Uint32Array) => T, label = 'read-back'): Promise<T> {
  const size = Math.max(4, Math.ceil(bytes / 4) * 4);
  const staging = device.createBuffer({ size, usage: USAGE.MAP_READ | USAGE.COPY_DST, label });
  try {
    const enc = device.createCommandEncoder();
    enc.copyBufferToBuffer(src, 0, staging, 0, size);
    device.queue.submit([enc.finish()]);
    await staging.mapAsync(MAP_READ);
    return use(new Uint32Array(staging.getMappedRange(0, size), 0, Math.floor(bytes / 4)));
  } finally {
    if (staging.mapState === 'mapped') staging.unmap();
    staging.destroy();
  }
}

/** The first `bytes` bytes of `src` (which has COPY_SRC) as a copy, through a staging buffer destroyed afterwards. */
export async function readBack(device: GPUDevice, src: GPUBuffer, bytes: number, label = 'read-back'): Promise<ArrayBuffer> {
  return withReadBack(device, src, Math.max(4, Math.ceil(bytes / 4) * 4), (w) => w.buffer.slice(0, bytes) as ArrayBuffer, label);
}

// ---------------------------------------------------------------------------------------------
// pipelines

/** How PipelineCache.compile builds a pipeline. */
export interface PipelineSpec {
  /** default 'main' */
  entryPoint?: string;
  /** the bind group layouts of an explicit pipeline layout (called on a miss only), with a key that names them in the
   *  cache; absent: layout 'auto' */
  layouts?: { key: string; make: () => GPUBindGroupLayout[] };
  label?: string;
  /** the error of a shader that does not compile, from the compiler's messages (`line:col message; …`) */
  fail: (detail: string) => Error;
}

/** Compute pipelines by (WGSL source, entry point, layout), one cache per client and device: a kernel is compiled once. */
export class PipelineCache {
  private readonly byKey = new Map<string, GPUComputePipeline>();
  private readonly pending = new Map<string, Promise<GPUComputePipeline>>();
  constructor(private readonly device: GPUDevice) {}

  /** the pipeline of `code` with layout 'auto', compiled synchronously (a shader error is the device's) */
  get(code: string, entryPoint = 'main', label?: string): GPUComputePipeline {
    const key = `${entryPoint}\u0000${code}`;
    let p = this.byKey.get(key);
    if (!p) {
      const module = this.device.createShaderModule({ code, ...(label ? { label } : {}) });
      p = this.device.createComputePipeline({ layout: 'auto', compute: { module, entryPoint }, ...(label ? { label } : {}) });
      this.byKey.set(key, p);
    }
    return p;
  }

  /** the pipeline of `code`, compiled asynchronously once; a shader that does not compile rejects with `spec.fail`
   *  of the compiler's messages (and is not cached) */
  compile(code: string, spec: PipelineSpec): Promise<GPUComputePipeline> {
    const entryPoint = spec.entryPoint ?? 'main';
    const key = `${spec.layouts?.key ?? 'auto'}\u0000${entryPoint}\u0000${code}`;
    let p = this.pending.get(key);
    if (!p) {
      p = (async () => {
        const layout = spec.layouts ? this.device.createPipelineLayout({ bindGroupLayouts: spec.layouts.make() }) : 'auto';
        const module = this.device.createShaderModule({ code, ...(spec.label ? { label: spec.label } : {}) });
        try {
          return await this.device.createComputePipelineAsync({ layout, compute: { module, entryPoint }, ...(spec.label ? { label: spec.label } : {}) });
        } catch (e) {
          const info = await module.getCompilationInfo();
          const msgs = info.messages.filter((m) => m.type === 'error').map((m) => `${m.lineNum}:${m.linePos} ${m.message}`);
          throw spec.fail(msgs.join('; ') || (e as Error).message);
        }
      })();
      p.catch(() => this.pending.delete(key));
      this.pending.set(key, p);
    }
    return p;
  }

  /** pipelines held (both kinds) */
  get size(): number {
    return this.byKey.size + this.pending.size;
  }

  clear(): void {
    this.byKey.clear();
    this.pending.clear();
  }
}

const shared = new WeakMap<GPUDevice, PipelineCache>();

/** The pipeline cache shared by the stateless clients of one device (the benchmarks). */
export function pipelinesOf(device: GPUDevice): PipelineCache {
  let c = shared.get(device);
  if (!c) shared.set(device, (c = new PipelineCache(device)));
  return c;
}

// ---------------------------------------------------------------------------------------------
// dispatch

/** [x, y] of a 2-D dispatch of `groups` workgroups, x at most the adapter's maxComputeWorkgroupsPerDimension (`max`). */
export function gridFor(groups: number, max: number): [number, number] {
  if (!(groups >= 1) || !(max >= 1)) return [Math.max(0, groups), 1];
  const x = Math.min(groups, max);
  return [x, Math.ceil(groups / x)];
}

/** gridFor within `device`'s maxComputeWorkgroupsPerDimension */
export function gridOn(device: GPUDevice, groups: number): [number, number] {
  return gridFor(groups, device.limits.maxComputeWorkgroupsPerDimension);
}

/** Resolves when the work submitted to `device`'s queue so far has completed. */
export function workDone(device: GPUDevice): Promise<undefined> {
  return device.queue.onSubmittedWorkDone();
}

/** Submits `commands` and waits until the queue has run them. */
export async function submitAndWait(device: GPUDevice, commands: GPUCommandBuffer[]): Promise<void> {
  device.queue.submit(commands);
  await workDone(device);
}

// ---------------------------------------------------------------------------------------------
// device loss

/** A device's loss, watched from the watch's creation on. */
export interface LossWatch {
  /** resolves with the loss info when the device is lost (never otherwise) */
  readonly settled: Promise<GPUDeviceLostInfo>;
  /** `device lost (reason: message)` once lost, else null */
  why(): string | null;
}

/** Watches `device` for loss (one watch per client: they may be created at any time). */
export function watchLoss(device: GPUDevice): LossWatch {
  let info: GPUDeviceLostInfo | null = null;
  const settled = device.lost.then((i) => {
    info = i;
    return i;
  });
  return {
    settled,
    why: () => {
      const i = info as GPUDeviceLostInfo | null;
      return i ? `device lost (${i.reason}: ${i.message || 'no message'})` : null;
    },
  };
}

/**
 * Watches `device` for loss: the returned check throws LayoutError `gpu` (naming `what`, the reason and the message)
 * once the device is lost; before, it does nothing.
 */
export function lossWatch(device: GPUDevice, what: string): () => void {
  const w = watchLoss(device);
  return () => {
    const why = w.why();
    if (why) throw new LayoutError('gpu', `${what}: ${why}`);
  };
}

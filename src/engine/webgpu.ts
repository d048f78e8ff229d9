/**
 * The WebGPU host layer (docs/engine.md): what every GPU user of the project does the same way —
 * the buffer usage and map-mode constants (the `GPUBufferUsage` / `GPUMapMode` globals are absent in Node), an upload,
 * a read-back, a pipeline cache, a 2-D grid within the adapter's limit, and device loss as LayoutError `gpu`. Used by
 * the evaluator (gpu.ts), the verify interpreter (verify/gpu.ts) and the benchmarks (bench/).
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

/** A buffer of `data` (its size rounded up to 4 bytes, at least `min`), with `usage` and COPY_DST; written through the queue. */
export function upload(device: GPUDevice, data: ArrayBufferView<ArrayBuffer>, usage: number, label?: string, min = 4): GPUBuffer {
  const size = Math.max(min, Math.ceil(data.byteLength / 4) * 4);
  const buffer = device.createBuffer({ size, usage: usage | USAGE.COPY_DST, ...(label ? { label } : {}) });
  device.queue.writeBuffer(buffer, 0, data);
  return buffer;
}

/** The first `bytes` bytes of `src` (which has COPY_SRC) as a copy, through a staging buffer destroyed afterwards. */
export async function readBack(device: GPUDevice, src: GPUBuffer, bytes: number, label = 'read-back'): Promise<ArrayBuffer> {
  const size = Math.max(4, Math.ceil(bytes / 4) * 4);
  const staging = device.createBuffer({ size, usage: USAGE.MAP_READ | USAGE.COPY_DST, label });
  try {
    const enc = device.createCommandEncoder();
    enc.copyBufferToBuffer(src, 0, staging, 0, size);
    device.queue.submit([enc.finish()]);
    await staging.mapAsync(MAP_READ);
    return staging.getMappedRange(0, size).slice(0, bytes);
  } finally {
    if (staging.mapState === 'mapped') staging.unmap();
    staging.destroy();
  }
}

/** Compute pipelines by (WGSL source, entry point), one per device: a kernel is compiled once. */
export class PipelineCache {
  private readonly byKey = new Map<string, GPUComputePipeline>();
  constructor(private readonly device: GPUDevice) {}

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

  get size(): number {
    return this.byKey.size;
  }
}

/** [x, y] of a 2-D dispatch of `groups` workgroups, x at most the adapter's maxComputeWorkgroupsPerDimension (`max`). */
export function gridFor(groups: number, max: number): [number, number] {
  if (!(groups >= 1) || !(max >= 1)) return [Math.max(0, groups), 1];
  const x = Math.min(groups, max);
  return [x, Math.ceil(groups / x)];
}

/**
 * Watches `device` for loss: the returned check throws LayoutError `gpu` (naming `what`, the reason and the message)
 * once the device is lost; before, it does nothing.
 */
export function lossWatch(device: GPUDevice, what: string): () => void {
  let lost: GPUDeviceLostInfo | null = null;
  void device.lost.then((info) => {
    lost = info;
  });
  return () => {
    const info = lost as GPUDeviceLostInfo | null;
    if (info) throw new LayoutError('gpu', `${what}: device lost (${info.reason}: ${info.message || 'no message'})`);
  };
}

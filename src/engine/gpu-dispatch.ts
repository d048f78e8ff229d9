/**
 * The WGSL backend's dispatch (docs/engine.md): what GpuBackend (gpu.ts) plans its runs on — the device's limits and the
 * fixed grid, one uniform slot per dispatch (many dispatches per submit), the generated kernels' pipelines, buffers cut
 * to the chunk the device accepts, the counters read back per round, progress, the deadline and device loss. Its
 * pipelines, buffers that may be refused, read-backs, queue waits and device loss go through the host (webgpu.ts).
 * - Every kernel is grid-stride over a fixed 1-D grid of `gridGroups` workgroups, sized from
 *   the adapter: a few hundred on a software adapter (each workgroup costs it a task), enough
 *   to fill a hardware GPU otherwise; a dispatch of fewer indices launches fewer workgroups.
 * - A refused allocation halves the chunk and retries; a lost device, a failed shader or a
 *   timeout is a LayoutError of kind `gpu` that says how far the run got.
 */
import { LayoutError } from '../algebra/errors.js';
import type { BackendInfo, RunOptions } from './backend.js';
import { WG } from './codegen.js';
import { TWO32 } from './prep.js';
import { mapRead, PipelineCache, STAGE_COMPUTE, tryBuffer, USAGE, watchLoss, workDone, type LossWatch } from './webgpu.js';

/** indices per dispatch (a progress / timeout step) */
export const DISPATCH = 1 << 24;
/** workgroups of the grid on a software adapter (llvmpipe, SwiftShader: a task each) */
export const SOFTWARE_GROUPS = 256;
/** workgroups of the grid on a hardware GPU (≥ 16 resident workgroups on 256 compute units) */
export const HARDWARE_GROUPS = 4096;
/** indices per counter round (u32 counters and round-relative witnesses) */
const ROUND = 2 ** 31;
/** dispatches per submit */
export const SLOTS = 64;
/** a counter's "none yet" (the kernels' least-witness atomics start here) */
export const NONE = 0xffffffff;

/** How a GpuBackend reports itself (adapter line, software or not), and hooks for tests and for releasing Node's GPU object. */
export interface GpuBackendOptions {
  /** adapter description for reports (vendor, architecture, description) */
  adapter: string;
  /** whether the adapter is a software rasteriser (lavapipe, SwiftShader, WARP) */
  software: boolean;
  /** test hook: at most this many indices per chunk and per dispatch */
  maxChunk?: number;
  /** test hook: bits per bitmap window of the compactness check (a multiple of 32) */
  windowBits?: number;
  /** test hook: refuse (as if out of memory) every buffer larger than this many bytes */
  refuseAbove?: number;
  /** workgroups of the grid-stride grid (default: from the adapter, SOFTWARE_GROUPS or
   *  HARDWARE_GROUPS, at most maxComputeWorkgroupsPerDimension) */
  gridGroups?: number;
  /** whose walk the kernels use (codegen walkFor): a software adapter's (Φ per index) or a
   *  hardware GPU's (coordinates carried by G); default: by `software` (tests force each) */
  walk?: 'software' | 'hardware';
  /** called by dispose() after the device is destroyed (e.g. to release Node's GPU object) */
  onDispose?: () => void;
}

/** one dispatch's uniform slot (shaders/common.wgsl's parameters) */
export interface Dispatch {
  base: number;
  count: number;
  rel?: number;
  /** compact: window start; find: target offset */
  window?: number;
  windowLen?: number;
  flags?: number;
}

/** how far a run got (every failure names it) */
export interface Progress {
  done: number;
  total: number;
  deadline: number;
  opts: RunOptions | undefined;
}

/**
 * The device side of GpuBackend: its limits, grid, pipelines, buffers, dispatches, rounds and failures. Not a Backend
 * by itself (gpu.ts plans the runs on it).
 */
export class GpuDispatch {
  /** backend `gpu` and the adapter's line */
  readonly info: BackendInfo;
  private readonly pipes: PipelineCache;
  private readonly bgl = new Map<number, GPUBindGroupLayout>();
  /** the uniform slots of the dispatches of one submit */
  protected readonly paramsBuf: GPUBuffer;
  /** bytes per uniform slot */
  protected readonly slot: number;
  private readonly loss: LossWatch;
  private disposed = false;
  /** the device's maxStorageBufferBindingSize (bytes): bounds a chunk */
  readonly maxBinding: number;
  /** the device's maxBufferSize (bytes) */
  readonly maxBuffer: number;
  /** the device's maxComputeWorkgroupsPerDimension */
  readonly maxWg: number;
  /** workgroups of the grid (WG threads each) */
  readonly gridGroups: number;
  /** the kernels walk as on a software adapter (Φ per index) */
  protected readonly softwareWalk: boolean;

  constructor(
    /** the device the shaders run on (destroyed by dispose()) */
    readonly device: GPUDevice,
    protected readonly opts: GpuBackendOptions,
  ) {
    this.info = { backend: 'gpu', adapter: opts.adapter, software: opts.software };
    this.maxBinding = device.limits.maxStorageBufferBindingSize;
    this.maxBuffer = device.limits.maxBufferSize;
    this.maxWg = device.limits.maxComputeWorkgroupsPerDimension;
    this.softwareWalk = (opts.walk ?? (opts.software ? 'software' : 'hardware')) === 'software';
    this.gridGroups = Math.max(1, Math.min(this.maxWg, opts.gridGroups ?? (opts.software ? SOFTWARE_GROUPS : HARDWARE_GROUPS)));
    this.slot = Math.max(256, device.limits.minUniformBufferOffsetAlignment);
    this.paramsBuf = device.createBuffer({ size: this.slot * SLOTS, usage: USAGE.UNIFORM | USAGE.COPY_DST, label: 'params' });
    this.pipes = new PipelineCache(device);
    this.loss = watchLoss(device);
  }

  protected fail(what: string, p: Progress | undefined = this.active, kind: 'gpu' | 'timeout' = 'gpu'): LayoutError {
    const where = p ? `: completed ${p.done} of ${p.total} indices` : '';
    return new LayoutError(kind, `${what}${where} (adapter: ${this.opts.adapter})`);
  }

  protected checkAlive(p?: Progress): void {
    if (this.disposed) throw this.fail('the GPU backend was disposed', p);
    const why = this.loss.why();
    if (why) throw this.fail(why, p);
  }

  private layout(storage: number): GPUBindGroupLayout {
    let l = this.bgl.get(storage);
    if (!l) {
      const entries: GPUBindGroupLayoutEntry[] = [
        { binding: 0, visibility: STAGE_COMPUTE, buffer: { type: 'uniform', hasDynamicOffset: true, minBindingSize: 32 } },
      ];
      for (let i = 1; i <= storage; i++) entries.push({ binding: i, visibility: STAGE_COMPUTE, buffer: { type: 'storage' } });
      l = this.device.createBindGroupLayout({ entries });
      this.bgl.set(storage, l);
    }
    return l;
  }

  /** the compute pipeline of a generated source, compiled once */
  pipeline(source: string, storage: number): Promise<GPUComputePipeline> {
    return this.pipes.compile(source, {
      // made on a miss only: a kernel not yet compiled is compiled on a live device alone
      layouts: {
        key: String(storage),
        make: () => {
          this.checkAlive();
          return [this.layout(storage)];
        },
      },
      fail: (detail) => this.fail(`shader failed to compile: ${detail}`),
    });
  }

  /** a buffer, or null when the device refuses it (out of memory or over a limit) */
  protected async tryBuffer(size: number, usage: number, label: string): Promise<GPUBuffer | null> {
    this.checkAlive();
    if (size > this.maxBuffer || size > (this.opts.refuseAbove ?? Infinity)) return null;
    return tryBuffer(this.device, size, usage, label);
  }

  /** buffers for `n` items of `bytesPer` bytes each (every buffer in `usages`), halving n
   *  while the device refuses; returns the n that fitted */
  protected async chunkBuffers(n: number, bytesPer: number, usages: number[], label: string): Promise<{ n: number; bufs: GPUBuffer[] }> {
    let k = Math.max(1, Math.min(n, Math.floor(this.maxBinding / bytesPer), Math.floor(this.maxBuffer / bytesPer)));
    for (;;) {
      const bufs: GPUBuffer[] = [];
      let ok = true;
      for (const u of usages) {
        const b = await this.tryBuffer(k * bytesPer, u, label);
        if (!b) {
          ok = false;
          break;
        }
        bufs.push(b);
      }
      if (ok) return { n: k, bufs };
      for (const b of bufs) b.destroy();
      if (k <= 256) throw this.fail(`could not allocate ${label} buffers even for ${k} items`);
      k = Math.floor(k / 2);
    }
  }

  protected chunkLimit(): number {
    return Math.max(1, Math.min(DISPATCH, this.opts.maxChunk ?? DISPATCH));
  }

  /** the workgroups of a grid-stride dispatch of `count` indices: the grid, or fewer when
   *  fewer indices (every thread then takes one index) */
  grid(count: number): number {
    return Math.max(1, Math.min(this.gridGroups, Math.ceil(count / WG)));
  }

  /** waits for the queue, racing device loss and the deadline */
  protected async drain(p?: Progress): Promise<void> {
    const timers: ReturnType<typeof setTimeout>[] = [];
    const races: Promise<unknown>[] = [workDone(this.device), this.loss.settled];
    if (p && Number.isFinite(p.deadline)) {
      races.push(new Promise((resolve) => timers.push(setTimeout(resolve, Math.max(0, p.deadline - Date.now())))));
    }
    await Promise.race(races);
    for (const t of timers) clearTimeout(t);
    this.checkAlive(p);
    if (p && Date.now() >= p.deadline) {
      throw new LayoutError('timeout', `ran past its deadline: completed ${p.done} of ${p.total} indices on the GPU (adapter: ${this.opts.adapter})`);
    }
  }

  protected readBack(buf: GPUBuffer, p?: Progress): Promise<ArrayBuffer> {
    return mapRead(buf, { race: this.loss.settled, check: () => this.checkAlive(p) });
  }

  /**
   * Encodes the dispatches (≤ SLOTS per submit, one uniform slot each) with the given storage
   * buffers, plus `after` (copies) in the last command buffer, and submits.
   */
  protected submit(
    pipe: GPUComputePipeline,
    storage: GPUBuffer[],
    ds: Dispatch[],
    before?: (e: GPUCommandEncoder) => void,
    after?: (e: GPUCommandEncoder) => void,
  ): void {
    this.checkAlive();
    const bg = this.device.createBindGroup({
      layout: pipe.getBindGroupLayout(0),
      entries: [{ binding: 0, resource: { buffer: this.paramsBuf, size: 32 } }, ...storage.map((buffer, i) => ({ binding: i + 1, resource: { buffer } }))],
    });
    for (let first = 0; first < Math.max(1, ds.length); first += SLOTS) {
      const part = ds.slice(first, first + SLOTS);
      const data = new Uint32Array((this.slot / 4) * Math.max(1, part.length));
      part.forEach((d, i) => {
        const o = (i * this.slot) / 4;
        const baseHi = Math.floor(d.base / TWO32);
        const w = d.window ?? 0;
        const wHi = Math.floor(w / TWO32);
        data.set([d.base - baseHi * TWO32, baseHi, d.count, d.rel ?? 0, w - wHi * TWO32, wHi, d.windowLen ?? 0, d.flags ?? 0], o);
      });
      this.device.queue.writeBuffer(this.paramsBuf, 0, data);
      const enc = this.device.createCommandEncoder();
      if (first === 0) before?.(enc);
      if (part.length > 0) {
        const pass = enc.beginComputePass();
        pass.setPipeline(pipe);
        part.forEach((d, i) => {
          pass.setBindGroup(0, bg, [i * this.slot]);
          pass.dispatchWorkgroups(this.grid(d.count));
        });
        pass.end();
      }
      if (first + SLOTS >= ds.length) after?.(enc);
      this.device.queue.submit([enc.finish()]);
    }
  }

  /** the progress of the run in flight: a failure detected where no progress is at hand
   *  (e.g. at a submit) still reports what completed */
  protected active: Progress | undefined;

  /** `deadline`: runDeadline(), read when the Backend method was called */
  protected progress(total: number, opts: RunOptions | undefined, deadline: number): Progress {
    const p: Progress = { done: 0, total, deadline, opts };
    this.active = p;
    return p;
  }

  protected step(p: Progress, n: number): void {
    p.done += n;
    p.opts?.onProgress?.(p.done, p.total);
  }

  /** counters buffer + read-back, initialised per round */
  protected async counters(words: number): Promise<[GPUBuffer, GPUBuffer]> {
    const c = await this.tryBuffer(words * 4, USAGE.STORAGE | USAGE.COPY_SRC | USAGE.COPY_DST, 'counters');
    const r = await this.tryBuffer(words * 4, USAGE.MAP_READ | USAGE.COPY_DST, 'counters read-back');
    if (!c || !r) throw this.fail('could not allocate counters');
    return [c, r];
  }

  /**
   * Runs `pipe` over [0, n) in rounds of ≤ ROUND indices and dispatches of ≤ chunkLimit;
   * after each round the counters (initialised to `init`) are read and given to `onRound`.
   */
  protected async rounds(
    pipe: GPUComputePipeline,
    storage: GPUBuffer[],
    counters: GPUBuffer,
    rb: GPUBuffer,
    init: number[],
    n: number,
    pr: Progress,
    extra: Partial<Dispatch>,
    onRound: (start: number, c: Uint32Array) => void,
    before?: (e: GPUCommandEncoder) => void,
    lo = 0,
  ): Promise<void> {
    const per = this.chunkLimit();
    const round = Math.min(ROUND, Math.max(per, Math.floor(ROUND / per) * per));
    let first = true;
    for (let r = lo; r < lo + n; r += round) {
      const end = Math.min(lo + n, r + round);
      this.device.queue.writeBuffer(counters, 0, new Uint32Array(init));
      for (let s = r; s < end; s += per) {
        const k = Math.min(per, end - s);
        const last = s + k >= end;
        this.submit(
          pipe,
          storage,
          [{ ...extra, base: s, count: k, rel: s - r }],
          first ? before : undefined,
          last ? (e) => e.copyBufferToBuffer(counters, 0, rb, 0, init.length * 4) : undefined,
        );
        first = false;
        await this.drain(pr);
        this.step(pr, k);
      }
      onRound(r, new Uint32Array(await this.readBack(rb, pr), 0, init.length));
    }
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.paramsBuf.destroy();
    this.pipes.clear();
    this.device.destroy();
    this.opts.onDispose?.();
  }
}

/** (lo, hi) limb pairs → numbers (exact below 2^53) */
export function pairsToNumbers(raw: Uint32Array, n: number): Float64Array {
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) out[i] = raw[2 * i + 1]! * TWO32 + raw[2 * i]!;
  return out;
}

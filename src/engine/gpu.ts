/**
 * The GPU backend: generated WGSL (codegen.ts) on a GPUDevice, wherever it came from (Node's
 * `webgpu` package or a browser's navigator.gpu: nothing here knows which).
 *
 * - Pipelines are cached per generated source.
 * - Every kernel is grid-stride over a fixed 1-D grid of `gridGroups` workgroups, sized from
 *   the adapter: a few hundred on a software adapter (each workgroup costs it a task), enough
 *   to fill a hardware GPU otherwise; a dispatch of fewer indices launches fewer workgroups.
 * - A range is cut into dispatches of at most DISPATCH indices (the steps of progress, deadline
 *   and cancellation), output buffers into chunks below maxStorageBufferBindingSize/maxBufferSize,
 *   and atomic counters are read back per round of at most 2^31 indices (so they and the
 *   round-relative witnesses fit in u32). Indices beyond 2^32 and offsets beyond 2^32 use
 *   the two-limb u64 path of the generated code.
 * - A refused allocation halves the chunk and retries; a lost device, a failed shader or a
 *   timeout is a LayoutError of kind `gpu` that says how far the run got.
 */
import { blocksLength, sortedByStride, windowBlocks } from './window-plan.js';
import { LayoutError } from '../algebra/errors.js';
import type { Layout } from '../algebra/layout.js';
import type { LayoutFunction } from '../cute/composed.js';
import type { Backend, BackendInfo, CompactReport, ComposeReport, Digest, EvalSink, RunOptions, TileMap } from './backend.js';
import { digestPerThread, genCompose, genSingle, genTiles, walkFor, WG } from './codegen.js';
import { checkComposeArgs, closedOrOverflow, sameMultiset, splitTiles, tileDivision } from './common.js';
import { checkEnumerable, checkRange, ENUMERATE_LIMIT, prepare, runDeadline, TWO32, type Prepared } from './prep.js';
import { MAP_READ, USAGE } from './webgpu.js';

// GPUShaderStage.COMPUTE (the buffer usages and map modes: webgpu.ts)
const STAGE_COMPUTE = 4;

/** indices per dispatch (a progress / timeout step) */
const DISPATCH = 1 << 24;
/** indices per dispatch of the digest (it writes nothing per index) */
const DIGEST_DISPATCH = 1 << 26;
/** workgroups of the grid on a software adapter (llvmpipe, SwiftShader: a task each) */
export const SOFTWARE_GROUPS = 256;
/** workgroups of the grid on a hardware GPU (≥ 16 resident workgroups on 256 compute units) */
export const HARDWARE_GROUPS = 4096;
/** indices per counter round (u32 counters and round-relative witnesses) */
const ROUND = 2 ** 31;
/** indices per block at least in a pruned window pass of check_compact (fewer rounds, each with a read-back) */
const GPU_BLOCK = 2 ** 22;
/** dispatches per submit */
const SLOTS = 64;
const NONE = 0xffffffff;

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

interface Dispatch {
  base: number;
  count: number;
  rel?: number;
  /** compact: window start; find: target offset */
  window?: number;
  windowLen?: number;
  flags?: number;
}

interface Progress {
  done: number;
  total: number;
  deadline: number;
  opts: RunOptions | undefined;
}

/**
 * The evaluator on a GPUDevice from anywhere (Node's `webgpu`, the browser's navigator.gpu): each
 * layout becomes a generated WGSL compute shader (codegen.ts) and Φ runs in bulk, in chunks that
 * fit the device's limits; answers are identical to CpuBackend's. Errors: those of Backend; a lost
 * device, a failed shader or a refused allocation is a LayoutError `gpu` naming what completed.
 * @example
 *   const gpu = new GpuBackend(device, { adapter: 'my GPU', software: false });
 *   (await gpu.checkCompact(parseLayout('(4,8):(1,4)'))).compact; // true
 */
export class GpuBackend implements Backend {
  /** backend `gpu` and the adapter's line */
  readonly info: BackendInfo;
  private readonly pipelines = new Map<string, Promise<GPUComputePipeline>>();
  private readonly bgl = new Map<number, GPUBindGroupLayout>();
  private readonly paramsBuf: GPUBuffer;
  private readonly slot: number;
  private lost: GPUDeviceLostInfo | null = null;
  private readonly lostPromise: Promise<GPUDeviceLostInfo>;
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
  private readonly softwareWalk: boolean;

  constructor(
    /** the device the shaders run on (destroyed by dispose()) */
    readonly device: GPUDevice,
    private readonly opts: GpuBackendOptions,
  ) {
    this.info = { backend: 'gpu', adapter: opts.adapter, software: opts.software };
    this.maxBinding = device.limits.maxStorageBufferBindingSize;
    this.maxBuffer = device.limits.maxBufferSize;
    this.maxWg = device.limits.maxComputeWorkgroupsPerDimension;
    this.softwareWalk = (opts.walk ?? (opts.software ? 'software' : 'hardware')) === 'software';
    this.gridGroups = Math.max(1, Math.min(this.maxWg, opts.gridGroups ?? (opts.software ? SOFTWARE_GROUPS : HARDWARE_GROUPS)));
    this.slot = Math.max(256, device.limits.minUniformBufferOffsetAlignment);
    this.paramsBuf = device.createBuffer({ size: this.slot * SLOTS, usage: USAGE.UNIFORM | USAGE.COPY_DST, label: 'params' });
    this.lostPromise = device.lost.then((info) => {
      this.lost = info;
      return info;
    });
  }

  // ------------------------------------------------------------------------------------------
  // plumbing

  private fail(what: string, p: Progress | undefined = this.active, kind: 'gpu' | 'timeout' = 'gpu'): LayoutError {
    const where = p ? `: completed ${p.done} of ${p.total} indices` : '';
    return new LayoutError(kind, `${what}${where} (adapter: ${this.opts.adapter})`);
  }

  private checkAlive(p?: Progress): void {
    if (this.disposed) throw this.fail('the GPU backend was disposed', p);
    if (this.lost) throw this.fail(`device lost (${this.lost.reason}: ${this.lost.message || 'no message'})`, p);
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
    const key = `${storage}\n${source}`;
    let p = this.pipelines.get(key);
    if (!p) {
      p = (async () => {
        this.checkAlive();
        const module = this.device.createShaderModule({ code: source });
        try {
          return await this.device.createComputePipelineAsync({
            layout: this.device.createPipelineLayout({ bindGroupLayouts: [this.layout(storage)] }),
            compute: { module, entryPoint: 'main' },
          });
        } catch (e) {
          const info = await module.getCompilationInfo();
          const msgs = info.messages.filter((m) => m.type === 'error').map((m) => `${m.lineNum}:${m.linePos} ${m.message}`);
          throw this.fail(`shader failed to compile: ${msgs.join('; ') || (e as Error).message}`);
        }
      })();
      p.catch(() => this.pipelines.delete(key));
      this.pipelines.set(key, p);
    }
    return p;
  }

  /** a buffer, or null when the device refuses it (out of memory or over a limit) */
  private async tryBuffer(size: number, usage: number, label: string): Promise<GPUBuffer | null> {
    this.checkAlive();
    if (size > this.maxBuffer || size > (this.opts.refuseAbove ?? Infinity)) return null;
    this.device.pushErrorScope('out-of-memory');
    this.device.pushErrorScope('validation');
    let b: GPUBuffer | null = null;
    try {
      b = this.device.createBuffer({ size: Math.max(16, Math.ceil(size / 16) * 16), usage, label });
    } catch {
      b = null;
    }
    const v = await this.device.popErrorScope();
    const o = await this.device.popErrorScope();
    if (v || o || !b) {
      b?.destroy();
      return null;
    }
    return b;
  }

  /** buffers for `n` items of `bytesPer` bytes each (every buffer in `usages`), halving n
   *  while the device refuses; returns the n that fitted */
  private async chunkBuffers(n: number, bytesPer: number, usages: number[], label: string): Promise<{ n: number; bufs: GPUBuffer[] }> {
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

  private chunkLimit(): number {
    return Math.max(1, Math.min(DISPATCH, this.opts.maxChunk ?? DISPATCH));
  }

  /** the workgroups of a grid-stride dispatch of `count` indices: the grid, or fewer when
   *  fewer indices (every thread then takes one index) */
  grid(count: number): number {
    return Math.max(1, Math.min(this.gridGroups, Math.ceil(count / WG)));
  }

  /** waits for the queue, racing device loss and the deadline */
  private async drain(p?: Progress): Promise<void> {
    const timers: ReturnType<typeof setTimeout>[] = [];
    const races: Promise<unknown>[] = [this.device.queue.onSubmittedWorkDone(), this.lostPromise];
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

  private async readBack(buf: GPUBuffer, p?: Progress): Promise<ArrayBuffer> {
    const mapped = buf.mapAsync(MAP_READ);
    mapped.catch(() => undefined);
    await Promise.race([mapped, this.lostPromise]);
    this.checkAlive(p);
    await mapped;
    const copy = buf.getMappedRange().slice(0);
    buf.unmap();
    return copy;
  }

  /**
   * Encodes the dispatches (≤ SLOTS per submit, one uniform slot each) with the given storage
   * buffers, plus `after` (copies) in the last command buffer, and submits.
   */
  private submit(
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
  private active: Progress | undefined;

  /** `deadline`: runDeadline(), read when the Backend method was called */
  private progress(total: number, opts: RunOptions | undefined, deadline: number): Progress {
    const p: Progress = { done: 0, total, deadline, opts };
    this.active = p;
    return p;
  }

  private step(p: Progress, n: number): void {
    p.done += n;
    p.opts?.onProgress?.(p.done, p.total);
  }

  // ------------------------------------------------------------------------------------------
  // the Backend

  async evalRange(l: LayoutFunction, lo: number, hi: number, opts?: RunOptions): Promise<Float64Array> {
    const out = new Float64Array(Math.max(0, hi - lo));
    await this.evalChunks(l, lo, hi, (s, v) => out.set(v, s - lo), opts);
    return out;
  }

  async evalChunks(l: LayoutFunction, lo: number, hi: number, sink: EvalSink, opts?: RunOptions): Promise<void> {
    const deadline = runDeadline(opts?.timeoutMs);
    const p = prepare(l);
    checkRange(lo, hi, p.size);
    if (hi === lo) return;
    const gen = genSingle('eval', p, false, walkFor(p, this.softwareWalk));
    const pipe = await this.pipeline(gen.source, 1);
    const pr = this.progress(hi - lo, opts, deadline);
    const { n: chunk, bufs } = await this.chunkBuffers(
      Math.min(hi - lo, this.chunkLimit()),
      gen.offBytes,
      [USAGE.STORAGE | USAGE.COPY_SRC, USAGE.MAP_READ | USAGE.COPY_DST],
      'eval',
    );
    const [out, rb] = bufs as [GPUBuffer, GPUBuffer];
    try {
      for (let s = lo; s < hi; s += chunk) {
        const n = Math.min(chunk, hi - s);
        this.submit(pipe, [out], [{ base: s, count: n }], undefined, (e) => e.copyBufferToBuffer(out, 0, rb, 0, n * gen.offBytes));
        await this.drain(pr);
        const raw = new Uint32Array(await this.readBack(rb, pr), 0, n * (gen.offBytes / 4));
        await sink(s, gen.offBytes === 4 ? raw : pairsToNumbers(raw, n));
        this.step(pr, n);
      }
    } finally {
      out.destroy();
      rb.destroy();
    }
  }

  /** count, exact Σ, min and max of Φ_L over [lo, hi), by per-thread partial sums on the GPU (see Backend.digestRange) */
  async digestRange(l: LayoutFunction, lo: number, hi: number, opts?: RunOptions): Promise<Digest> {
    const deadline = runDeadline(opts?.timeoutMs);
    const p = prepare(l);
    checkRange(lo, hi, p.size);
    if (hi === lo) return { count: 0, sum: 0n, min: null, max: null };
    if (hi - lo > ENUMERATE_LIMIT) return closedOrOverflow(p, lo, hi);
    const gen = genSingle('digest', p, false, walkFor(p, this.softwareWalk));
    const pipe = await this.pipeline(gen.source, 1);
    const pr = this.progress(hi - lo, opts, deadline);
    const threads = this.gridGroups * WG;
    // a thread's exact sum stays below 2^64: at most digestPerThread indices per dispatch
    const per = Math.min(hi - lo, Math.max(1, Math.min(DIGEST_DISPATCH, this.opts.maxChunk ?? Infinity)), 2 ** 31, threads * digestPerThread(p));
    const bytes = threads * 24; // one partial (sum, min, max) per thread
    const part = await this.tryBuffer(bytes, USAGE.STORAGE | USAGE.COPY_SRC, 'digest partials');
    const rb = await this.tryBuffer(bytes, USAGE.MAP_READ | USAGE.COPY_DST, 'digest read-back');
    if (!part || !rb) throw this.fail('could not allocate the digest buffers');
    let sum = 0n;
    let min = Infinity;
    let max = -Infinity;
    try {
      for (let s = lo; s < hi; s += per) {
        const n = Math.min(per, hi - s);
        const used = this.grid(n) * WG * 24;
        this.submit(pipe, [part], [{ base: s, count: n }], undefined, (e) => e.copyBufferToBuffer(part, 0, rb, 0, used));
        await this.drain(pr);
        const w = new Uint32Array(await this.readBack(rb, pr), 0, used / 4);
        // partial sums below 2^64 each; added in doubles while exact (≤ 2^21 partials of 2^32)
        let sLo = 0;
        let sHi = 0n;
        for (let i = 0; i < w.length; i += 6) {
          sLo += w[i]!;
          if (w[i + 1] !== 0) sHi += BigInt(w[i + 1]!);
          if (w[i + 3] !== NONE) {
            const mn = w[i + 3]! * TWO32 + w[i + 2]!;
            if (mn < min) min = mn;
            const mx = w[i + 5]! * TWO32 + w[i + 4]!;
            if (mx > max) max = mx;
          }
        }
        sum += sHi * 4294967296n + BigInt(sLo);
        this.step(pr, n);
      }
    } finally {
      part.destroy();
      rb.destroy();
    }
    return { count: hi - lo, sum, min, max };
  }

  /** counters buffer + read-back, initialised per round */
  private async counters(words: number): Promise<[GPUBuffer, GPUBuffer]> {
    const c = await this.tryBuffer(words * 4, USAGE.STORAGE | USAGE.COPY_SRC | USAGE.COPY_DST, 'counters');
    const r = await this.tryBuffer(words * 4, USAGE.MAP_READ | USAGE.COPY_DST, 'counters read-back');
    if (!c || !r) throw this.fail('could not allocate counters');
    return [c, r];
  }

  /**
   * Runs `pipe` over [0, n) in rounds of ≤ ROUND indices and dispatches of ≤ chunkLimit;
   * after each round the counters (initialised to `init`) are read and given to `onRound`.
   */
  private async rounds(
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

  /** whether Φ_L is a bijection onto [0, size L): a bitmap of hits per window on the GPU (see Backend.checkCompact) */
  async checkCompact(l: LayoutFunction, opts?: RunOptions): Promise<CompactReport> {
    const deadline = runDeadline(opts?.timeoutMs);
    const p = prepare(l);
    const size = p.size;
    checkEnumerable(size, 'check_compact');
    // the bitmap covers the offsets below min(size, cosize): nothing else can be hit in range
    const span = Math.min(size, p.cosize);
    let wbits = Math.min(Math.ceil(span / 32) * 32, Math.floor(this.maxBinding / 4) * 32, this.opts.windowBits ?? Infinity);
    let bits: GPUBuffer | null = null;
    while (!bits) {
      bits = await this.tryBuffer(wbits / 8, USAGE.STORAGE | USAGE.COPY_DST, 'bitmap');
      if (!bits) {
        if (wbits <= 1024) throw this.fail('could not allocate the bitmap');
        wbits = Math.floor(wbits / 64) * 32;
      }
    }
    const windows = Math.ceil(span / wbits);
    const gen = genSingle('compact', p, windows > 1, walkFor(p, this.softwareWalk));
    const pipe = await this.pipeline(gen.source, 2);
    // window 0 walks the whole domain (and counts the out-of-range offsets); every later window
    // only the blocks of the stride-sorted layout that can reach it (window-plan.ts, the same
    // counts: they depend on the multiset of offsets alone), so the windows cost about 2 passes
    const sorted = sortedByStride(p);
    const plans: number[][] = [[0, size]];
    for (let w = 1; w < windows; w++) plans.push(windowBlocks(sorted, w * wbits, Math.min(wbits, span - w * wbits), this.opts.windowBits ? 1 : GPU_BLOCK));
    const pipeSorted = windows > 1 ? await this.pipeline(genSingle('compact', sorted, true, walkFor(sorted, this.softwareWalk)).source, 2) : pipe;
    const pr = this.progress(
      plans.reduce((a, bl) => a + blocksLength(bl), 0),
      opts,
      deadline,
    );
    const [cnt, rb] = await this.counters(4);
    let oor = 0;
    let coll = 0;
    let oorW = -1;
    let collV = Infinity;
    try {
      for (let w = 0; w < windows; w++) {
        const w0 = w * wbits;
        const bitmap = bits;
        const bl = plans[w]!;
        for (let i = 0; i < bl.length; i += 2) {
          await this.rounds(
            w === 0 ? pipe : pipeSorted,
            [bitmap, cnt],
            cnt,
            rb,
            [0, 0, NONE, NONE],
            bl[i + 1]!,
            pr,
            { window: w0, windowLen: Math.min(wbits, span - w0), flags: w === 0 ? 1 : 0 },
            (r, c) => {
              oor += c[0]!;
              coll += c[1]!;
              if (oorW < 0 && c[2] !== NONE) oorW = r + c[2]!;
              if (c[3] !== NONE) collV = Math.min(collV, w0 + c[3]!);
            },
            i === 0 ? (e) => e.clearBuffer(bitmap) : undefined,
            bl[i]!,
          );
        }
      }
    } finally {
      bits.destroy();
      cnt.destroy();
      rb.destroy();
    }
    let witness: CompactReport['witness'] = null;
    if (oor > 0) witness = [oorW];
    else if (coll > 0) witness = await this.preimages(p, collV, opts, deadline);
    return { compact: oor === 0 && coll === 0, image: size - oor - coll, outOfRange: oor, collisions: coll, witness };
  }

  /** the least and the greatest x with Φ(x) = v (v has at least two preimages) */
  private async preimages(p: Prepared, v: number, opts: RunOptions | undefined, deadline: number): Promise<[number, number]> {
    const gen = genSingle('find', p, false, walkFor(p, this.softwareWalk));
    const pipe = await this.pipeline(gen.source, 1);
    const [cnt, rb] = await this.counters(2);
    let first = -1;
    let last = -1;
    try {
      await this.rounds(pipe, [cnt], cnt, rb, [NONE, 0], p.size, this.progress(p.size, opts, deadline), { window: v }, (r, c) => {
        if (first < 0 && c[0] !== NONE) first = r + c[0]!;
        if (c[1] !== 0) last = r + c[1]! - 1;
      });
    } finally {
      cnt.destroy();
      rb.destroy();
    }
    if (first < 0 || last <= first) throw this.fail(`internal: offset ${v} was seen colliding but has preimages ${first}, ${last}`);
    return [first, last];
  }

  async checkCompose<C extends LayoutFunction>(b: LayoutFunction, a: LayoutFunction, c: C, opts?: RunOptions): Promise<ComposeReport<C>> {
    const deadline = runDeadline(opts?.timeoutMs);
    const pa = prepare(a);
    const pb = prepare(b);
    const pc = prepare(c);
    checkComposeArgs(pa, pb, pc);
    if (!pa.exactCosize && pa.cosize > pb.size) {
      // a composed A: its cosize is 1 + max Φ_A, found by enumeration
      const d = await this.digestRange(a, 0, pa.size, { ...opts, timeoutMs: Math.max(0, deadline - Date.now()) });
      checkComposeArgs(pa, pb, pc, d.max! + 1);
    }
    const gen = genCompose(pb, pa, pc, this.softwareWalk);
    const pipe = await this.pipeline(gen.source, 1);
    const [cnt, rb] = await this.counters(2);
    let mismatches = 0;
    let witness = -1;
    try {
      await this.rounds(pipe, [cnt], cnt, rb, [0, NONE], pa.size, this.progress(pa.size, opts, deadline), {}, (r, k) => {
        mismatches += k[0]!;
        if (witness < 0 && k[1] !== NONE) witness = r + k[1]!;
      });
    } finally {
      cnt.destroy();
      rb.destroy();
    }
    return { equal: mismatches === 0, mismatches, witness: witness < 0 ? null : witness, composite: c };
  }

  async tileMap(a: LayoutFunction, b: Layout, opts?: RunOptions): Promise<TileMap> {
    const deadline = runDeadline(opts?.timeoutMs);
    const { divided, tileSize, tiles } = tileDivision(a, b);
    const pd = prepare(divided);
    const pa = prepare(a);
    const gen = genTiles(pd, pa, prepare(b).text, this.softwareWalk);
    const pipe = await this.pipeline(gen.source, 2);
    const n = pa.size;
    const dBytes = pd.wideOffset ? 8 : 4;
    const aBytes = pa.wideOffset ? 8 : 4;
    const pr = this.progress(n, opts, deadline);
    const { n: chunk, bufs } = await this.chunkBuffers(
      Math.min(n, this.chunkLimit()),
      8,
      [USAGE.STORAGE | USAGE.COPY_SRC, USAGE.MAP_READ | USAGE.COPY_DST, USAGE.STORAGE | USAGE.COPY_SRC, USAGE.MAP_READ | USAGE.COPY_DST],
      'tiles',
    );
    const [od, rd, oa, ra] = bufs as [GPUBuffer, GPUBuffer, GPUBuffer, GPUBuffer];
    const dv = new Float64Array(n);
    const av = new Float64Array(n);
    try {
      for (let s = 0; s < n; s += chunk) {
        const k = Math.min(chunk, n - s);
        this.submit(pipe, [od, oa], [{ base: s, count: k }], undefined, (e) => {
          e.copyBufferToBuffer(od, 0, rd, 0, k * dBytes);
          e.copyBufferToBuffer(oa, 0, ra, 0, k * aBytes);
        });
        await this.drain(pr);
        const d = new Uint32Array(await this.readBack(rd, pr), 0, k * (dBytes / 4));
        const x = new Uint32Array(await this.readBack(ra, pr), 0, k * (aBytes / 4));
        dv.set(dBytes === 4 ? d : pairsToNumbers(d, k), s);
        av.set(aBytes === 4 ? x : pairsToNumbers(x, k), s);
        this.step(pr, k);
      }
    } finally {
      for (const x of bufs) x.destroy();
    }
    const covers = sameMultiset(dv, av);
    return { tileSize, tiles, offsets: splitTiles(dv, tileSize, tiles), covers };
  }

  // ------------------------------------------------------------------------------------------
  // measurement (bench/evaluator.ts): many dispatches per submit, no read-back

  /**
   * Runs a kernel over [0, n) `reps` times (compact: with the bitmap cleared and counters reset
   * each time, counters read back once at the end) and returns the seconds it took. `source`
   * is a generated kernel or a hand-written one with the same bindings.
   */
  async time(kind: 'eval' | 'compact', source: string, n: number, reps: number): Promise<number> {
    const pipe = await this.pipeline(source, kind === 'eval' ? 1 : 2);
    const per = Math.min(n, DISPATCH);
    const bufs: GPUBuffer[] = [];
    const make = (size: number, usage: number): GPUBuffer => {
      const b = this.device.createBuffer({ size: Math.ceil(size / 16) * 16, usage });
      bufs.push(b);
      return b;
    };
    try {
      const storage =
        kind === 'eval'
          ? [make(per * (source.includes('alias OFF_L = vec2<u32>') ? 8 : 4), USAGE.STORAGE)]
          : [make(Math.ceil(n / 32) * 4, USAGE.STORAGE | USAGE.COPY_DST), make(16, USAGE.STORAGE | USAGE.COPY_SRC | USAGE.COPY_DST)];
      const rb = make(16, USAGE.MAP_READ | USAGE.COPY_DST);
      const ds: Dispatch[] = [];
      for (let s = 0; s < n; s += per) ds.push({ base: s, count: Math.min(per, n - s), window: 0, windowLen: n, flags: 1 });
      const batch = Math.max(1, Math.floor(SLOTS / ds.length));
      const data = new Uint32Array((this.slot / 4) * ds.length);
      ds.forEach((d, i) => data.set([d.base, 0, d.count, 0, 0, 0, d.windowLen ?? 0, 1], (i * this.slot) / 4));
      this.device.queue.writeBuffer(this.paramsBuf, 0, data);
      const bg = this.device.createBindGroup({
        layout: pipe.getBindGroupLayout(0),
        entries: [{ binding: 0, resource: { buffer: this.paramsBuf, size: 32 } }, ...storage.map((buffer, i) => ({ binding: i + 1, resource: { buffer } }))],
      });
      const encode = (k: number, readCounters: boolean): void => {
        const enc = this.device.createCommandEncoder();
        for (let j = 0; j < k; j++) {
          if (kind === 'compact') {
            enc.clearBuffer(storage[0]!);
            enc.clearBuffer(storage[1]!);
          }
          const pass = enc.beginComputePass();
          pass.setPipeline(pipe);
          ds.forEach((d, i) => {
            pass.setBindGroup(0, bg, [i * this.slot]);
            pass.dispatchWorkgroups(this.grid(d.count));
          });
          pass.end();
        }
        if (readCounters) enc.copyBufferToBuffer(storage[1]!, 0, rb, 0, 16);
        this.device.queue.submit([enc.finish()]);
      };
      // untimed: the first use of the buffers (Dawn clears them lazily) and of the pipeline
      encode(1, false);
      await this.drain();
      const t0 = performance.now();
      for (let r = 0; r < reps; r += batch) {
        const k = Math.min(batch, reps - r);
        encode(k, kind === 'compact' && r + k >= reps);
      }
      if (kind === 'compact') await this.readBack(rb);
      else await this.drain();
      return (performance.now() - t0) / 1000;
    } finally {
      for (const b of bufs) b.destroy();
    }
  }

  /**
   * GPU seconds of an eval-kind kernel over [0, n), `reps` times in one compute pass, from
   * timestamp queries (null when the device lacks 'timestamp-query'; Dawn quantizes them unless
   * created with 'disable-dawn-features=timestamp_quantization').
   */
  async timeGpu(source: string, n: number, reps: number): Promise<number | null> {
    if (!this.device.features.has('timestamp-query')) return null;
    const pipe = await this.pipeline(source, 1);
    const per = Math.min(n, DISPATCH);
    const ds: Dispatch[] = [];
    for (let s = 0; s < n; s += per) ds.push({ base: s, count: Math.min(per, n - s) });
    if (ds.length > SLOTS) throw this.fail(`timeGpu takes at most ${SLOTS * DISPATCH} indices`);
    const out = this.device.createBuffer({ size: per * (source.includes('alias OFF_L = vec2<u32>') ? 8 : 4), usage: USAGE.STORAGE });
    const qs = this.device.createQuerySet({ type: 'timestamp', count: 2 });
    const resolve = this.device.createBuffer({ size: 16, usage: USAGE.QUERY_RESOLVE | USAGE.COPY_SRC });
    const rb = this.device.createBuffer({ size: 16, usage: USAGE.MAP_READ | USAGE.COPY_DST });
    try {
      const data = new Uint32Array((this.slot / 4) * ds.length);
      ds.forEach((d, i) => data.set([d.base, 0, d.count, 0, 0, 0, 0, 0], (i * this.slot) / 4));
      this.device.queue.writeBuffer(this.paramsBuf, 0, data);
      const bg = this.device.createBindGroup({
        layout: pipe.getBindGroupLayout(0),
        entries: [
          { binding: 0, resource: { buffer: this.paramsBuf, size: 32 } },
          { binding: 1, resource: { buffer: out } },
        ],
      });
      const run = (stamp: boolean): void => {
        const enc = this.device.createCommandEncoder();
        const pass = enc.beginComputePass(stamp ? { timestampWrites: { querySet: qs, beginningOfPassWriteIndex: 0, endOfPassWriteIndex: 1 } } : {});
        pass.setPipeline(pipe);
        for (let r = 0; r < (stamp ? reps : 1); r++) {
          ds.forEach((d, i) => {
            pass.setBindGroup(0, bg, [i * this.slot]);
            pass.dispatchWorkgroups(this.grid(d.count));
          });
        }
        pass.end();
        if (stamp) {
          enc.resolveQuerySet(qs, 0, 2, resolve, 0);
          enc.copyBufferToBuffer(resolve, 0, rb, 0, 16);
        }
        this.device.queue.submit([enc.finish()]);
      };
      run(false); // first use of the buffer and the pipeline, untimed
      await this.drain();
      run(true);
      const t = new BigUint64Array(await this.readBack(rb));
      return Number(t[1]! - t[0]!) / 1e9;
    } finally {
      out.destroy();
      qs.destroy();
      resolve.destroy();
      rb.destroy();
    }
  }

  /** milliseconds from a fresh source to a pipeline that has run once */
  async shaderReadyMs(source: string, storage: number): Promise<number> {
    const t0 = performance.now();
    await this.pipeline(source, storage);
    return performance.now() - t0;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.paramsBuf.destroy();
    this.pipelines.clear();
    this.device.destroy();
    this.opts.onDispose?.();
  }
}

/** (lo, hi) limb pairs → numbers (exact below 2^53) */
function pairsToNumbers(raw: Uint32Array, n: number): Float64Array {
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) out[i] = raw[2 * i + 1]! * TWO32 + raw[2 * i]!;
  return out;
}

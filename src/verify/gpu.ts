/**
 * The GPU side of bulk verification: one generic WGSL interpreter (shaders/interpret.wgsl)
 * over packed layouts with host-precomputed division constants. A batch of jobs is one
 * dispatch over a fixed grid (SOFTWARE_GROUPS / HARDWARE_GROUPS workgroups): each thread takes
 * a range of consecutive indices, finds its first job by a binary search of the jobs' index
 * prefix sums, decomposes its first coordinate once and steps on by odometer carries.
 * Composed candidates Sw o K o L (FlatBatch.outer) carry their outer function in the layout's
 * header; plain ones skip it.
 * Takes a GPUDevice and does not care where it came from (Node's `webgpu` or navigator.gpu).
 *
 * Limits of the u32 interpreter: size(A) ≤ 2^30 (a job beyond the batch budget runs alone), every offset below 2^32 (cosize ≤ 2^32; for Sw o K o L, valueBoundAt ≤ 2^32) and a
 * bitmap that fits the batch's budget. A job beyond them is answered by the CPU engine
 * (counted in `fallbacks`), so every answer is still exact.
 */
import { carryDeadline, type CarriedDeadline } from '../algebra/deadline.js';
import { LayoutError } from '../algebra/errors.js';
import type { BitmapKind, VerifyEngine } from './engine.js';
import { CpuVerifyEngine, equalJob } from './cpu.js';
import { HARDWARE_GROUPS, SOFTWARE_GROUPS } from '../engine/gpu.js';
import { coalesceInto, isComposedAt, jobIndex, offsetAt, sizeAt, swizzleAt, valueBoundAt, type EqualJobs, type FlatBatch } from './packed.js';
import { sourceLow } from '../cute/swizzle.js';
import { SHADERS } from '../engine/shaders.generated.js';
import { gridOn, mapRead, PipelineCache, STAGE_COMPUTE, USAGE, watchLoss, type LossWatch } from '../engine/webgpu.js';

const WG = 256;
const NONE = 0xffffffff;
const TWO32 = 2 ** 32;
/** the most indices of one job (a job beyond the batch budget runs alone in its batch) */
const JOB_LIMIT = 2 ** 30;
const magicCache = new Map<number, [number, number]>();

export interface GpuVerifyOptions {
  adapter: string;
  /** indices per batch (one dispatch) */
  indexBudget?: number;
  /** bitmap bytes per batch */
  bitmapBytes?: number;
  /** the fewest indices per thread (default 8); a batch larger than the grid × this gives each
   *  thread more (grid-stride over a fixed grid) */
  range?: number;
  /** whether the adapter is a software one (lavapipe, SwiftShader): picks the grid's size */
  software?: boolean;
  /** workgroups of the fixed grid (default SOFTWARE_GROUPS / HARDWARE_GROUPS of engine/gpu.ts) */
  gridGroups?: number;
  /** called by dispose() (e.g. to release a device this engine owns) */
  onDispose?: () => void;
}

/** the constants of the divisors below SMALL, computed once (the packer's hot path: the
 *  shapes of enumerated and random candidates are small) */
const SMALL = 1 << 12;
const smallMagic = new Uint32Array(SMALL);
const smallShifts = new Uint32Array(SMALL);
for (let d = 1; d < SMALL; d++) {
  const [m, sh] = divisionConstants(d);
  smallMagic[d] = m;
  smallShifts[d] = sh;
}

/** Granlund–Montgomery constants for n / d, 1 ≤ d < 2^32, n < 2^32: [magic, sh1 | sh2 << 8] */
export function divisionConstants(d: number): [number, number] {
  let c = magicCache.get(d);
  if (c) return c;
  let l = 0;
  while (2 ** l < d) l++;
  const m = (((1n << 32n) * ((1n << BigInt(l)) - BigInt(d))) / BigInt(d) + 1n) & 0xffffffffn;
  c = [Number(m), Math.min(l, 1) | (Math.max(l - 1, 0) << 8)];
  if (magicCache.size > 1 << 16) magicCache.clear();
  magicCache.set(d, c);
  return c;
}

/** what a batch packs */
class Packer {
  words: Uint32Array<ArrayBuffer> = new Uint32Array(1 << 12);
  nWords = 0;
  jobs: Uint32Array<ArrayBuffer> = new Uint32Array(1 << 12);
  starts: Uint32Array<ArrayBuffer> = new Uint32Array(1 << 10);
  nJobs = 0;
  total = 0;
  bits = 0;
  /** job → caller's index */
  owner: number[] = [];
  private cs = new Float64Array(64);
  private cd = new Float64Array(64);
  private shared = new Map<FlatBatch, Map<number, number>>();

  reset(): void {
    this.nWords = 0;
    this.nJobs = 0;
    this.total = 0;
    this.bits = 0;
    this.owner.length = 0;
    this.shared.clear();
  }

  private grow(a: Uint32Array<ArrayBuffer>, need: number): Uint32Array<ArrayBuffer> {
    if (need <= a.length) return a;
    const b = new Uint32Array(Math.max(need, a.length * 2));
    b.set(a);
    return b;
  }

  /** packs candidate i of b (coalesced); returns its word offset */
  layout(b: FlatBatch, i: number): number {
    if (b.count === 1) {
      let m = this.shared.get(b);
      if (!m) this.shared.set(b, (m = new Map()));
      const hit = m.get(i);
      if (hit !== undefined) return hit;
      const o = this.layoutRaw(b, i);
      m.set(i, o);
      return o;
    }
    return this.layoutRaw(b, i);
  }

  private layoutRaw(b: FlatBatch, i: number): number {
    const lo = b.start[i]!;
    const hi = b.start[i + 1]!;
    if (hi - lo > this.cs.length) {
      this.cs = new Float64Array(hi - lo);
      this.cd = new Float64Array(hi - lo);
    }
    const m = coalesceInto(b.shapes, b.strides, lo, hi, this.cs, this.cd);
    const o = this.nWords;
    this.words = this.grow(this.words, o + 4 + 4 * m);
    const w = this.words;
    // header [h, K, mask, S]: h = m, or m | 2^31 for Sw<B,M,S> o K o L (interpret.wgsl)
    const sw = b.outer ? swizzleAt(b, i) : null;
    const k = b.outer ? offsetAt(b, i) : 0;
    if (sw && (sw.bits > 0 || k > 0)) {
      w[o] = (m | 0x80000000) >>> 0;
      w[o + 1] = k;
      w[o + 2] = (2 ** sw.bits - 1) * 2 ** sourceLow(sw);
      w[o + 3] = sw.bits > 0 ? sw.shift : 0;
    } else {
      w[o] = m;
      w[o + 1] = 0;
      w[o + 2] = 0;
      w[o + 3] = 0;
    }
    for (let j = 0; j < m; j++) {
      const s = this.cs[j]!;
      const q = o + 4 + 4 * j;
      w[q] = s;
      w[q + 1] = this.cd[j]!;
      if (j + 1 < m && s < SMALL) {
        w[q + 2] = smallMagic[s]!;
        w[q + 3] = smallShifts[s]!;
      } else if (j + 1 < m) {
        const [mg, sh] = divisionConstants(s);
        w[q + 2] = mg;
        w[q + 3] = sh;
      } else {
        w[q + 2] = 0;
        w[q + 3] = 0;
      }
    }
    this.nWords = o + 4 + 4 * m;
    return o;
  }

  /** the starts followed by, for each of `groups` workgroups and one more, the job of its
   *  first index (clipped to the last job) */
  startsWithGroups(groups: number, wg: number): Uint32Array<ArrayBuffer> {
    const n = this.nJobs + 1;
    this.starts = this.grow(this.starts, n + groups + 1);
    const st = this.starts;
    let j = 0;
    for (let w = 0; w <= groups; w++) {
      const idx = Math.min(w * wg, this.total - 1);
      while (j + 1 < this.nJobs && st[j + 1]! <= idx) j++;
      st[n + w] = j;
    }
    return st;
  }

  job(owner: number, a: number, b: number, c: number, size: number, bitBound: number): void {
    const j = this.nJobs++;
    this.jobs = this.grow(this.jobs, 8 * (j + 1));
    this.starts = this.grow(this.starts, j + 2);
    const r = this.jobs;
    r[8 * j] = a;
    r[8 * j + 1] = b;
    r[8 * j + 2] = c;
    r[8 * j + 3] = this.bits;
    r[8 * j + 4] = bitBound;
    this.starts[j] = this.total;
    this.total += size;
    this.starts[j + 1] = this.total;
    this.bits += bitBound > 0 ? Math.ceil(bitBound / 32) * 32 : 0;
    this.owner.push(owner);
  }
}

interface Buffers {
  layouts: GPUBuffer;
  jobs: GPUBuffer;
  starts: GPUBuffer;
  verdict: GPUBuffer;
  out: GPUBuffer;
  verdictRb: GPUBuffer;
  outRb: GPUBuffer | null;
}

export class GpuVerifyEngine implements VerifyEngine {
  readonly backend = 'gpu' as const;
  readonly adapter: string;
  fallbacks = 0;
  private readonly pipelines: PipelineCache;
  private bgl: GPUBindGroupLayout | null = null;
  private readonly params: GPUBuffer;
  private readonly cpu = new CpuVerifyEngine();
  private readonly packer = new Packer();
  private readonly pool = new Map<string, GPUBuffer>();
  private readonly indexBudget: number;
  private readonly maxBinding: number;
  private readonly range: number;
  private readonly gridGroups: number;
  private readonly bitmapBytes: number;
  private readonly loss: LossWatch;
  private disposed = false;

  constructor(
    readonly device: GPUDevice,
    private readonly opts: GpuVerifyOptions,
  ) {
    this.adapter = opts.adapter;
    const maxBinding = device.limits.maxStorageBufferBindingSize;
    this.maxBinding = maxBinding;
    this.indexBudget = Math.min(opts.indexBudget ?? 1 << 24, Math.floor(maxBinding / 4), 1 << 30);
    this.bitmapBytes = Math.min(opts.bitmapBytes ?? 1 << 25, maxBinding);
    this.range = Math.max(1, Math.floor(opts.range ?? 8));
    // a fixed grid: per-workgroup cost is high on a software adapter (a task each), so a few
    // hundred workgroups whose threads each take a longer range beat one per 2048 indices
    this.gridGroups = Math.max(1, Math.floor(opts.gridGroups ?? (opts.software === false ? HARDWARE_GROUPS : SOFTWARE_GROUPS)));
    this.params = device.createBuffer({ size: 32, usage: USAGE.UNIFORM | USAGE.COPY_DST, label: 'verify params' });
    this.pipelines = new PipelineCache(device);
    this.loss = watchLoss(device);
  }

  private fail(what: string): LayoutError {
    return new LayoutError('gpu', `${what} (adapter: ${this.adapter})`);
  }

  private check(): void {
    if (this.disposed) throw this.fail('the verification engine was disposed');
    const why = this.loss.why();
    if (why) throw this.fail(why);
  }

  /** the interpreter's pipeline, compiled once (on a live device) */
  private pipeline(): Promise<GPUComputePipeline> {
    return this.pipelines.compile(SHADERS.interpret, {
      label: 'interpret',
      layouts: {
        key: 'verify',
        make: () => {
          this.check();
          const entries: GPUBindGroupLayoutEntry[] = [{ binding: 0, visibility: STAGE_COMPUTE, buffer: { type: 'uniform' } }];
          for (let i = 1; i <= 3; i++) entries.push({ binding: i, visibility: STAGE_COMPUTE, buffer: { type: 'read-only-storage' } });
          for (let i = 4; i <= 5; i++) entries.push({ binding: i, visibility: STAGE_COMPUTE, buffer: { type: 'storage' } });
          this.bgl = this.device.createBindGroupLayout({ entries });
          return [this.bgl];
        },
      },
      fail: (detail) => this.fail(`the interpreter failed to compile: ${detail}`),
    });
  }

  /** a pooled buffer of at least `bytes` (grown to a power of two) */
  private buffer(name: string, bytes: number, usage: number): GPUBuffer {
    const need = Math.max(16, 2 ** Math.ceil(Math.log2(Math.max(16, bytes))));
    const old = this.pool.get(name);
    if (old && old.size >= need) return old;
    old?.destroy();
    const b = this.device.createBuffer({ size: need, usage, label: `verify ${name}` });
    this.pool.set(name, b);
    return b;
  }

  /** runs the packed batch; returns the verdict words (and the eval output in mode 0) */
  private async run(mode: 0 | 1 | 2): Promise<{ verdict: Uint32Array; out: Uint32Array | null }> {
    this.check();
    const pipe = await this.pipeline();
    const p = this.packer;
    const dev = this.device;
    const S = USAGE.STORAGE | USAGE.COPY_DST;
    const outWords = mode === 0 ? p.total : mode === 1 ? Math.ceil(p.bits / 32) : 1;
    // the starts, then per workgroup (and one more) the job of its first index
    // at most gridGroups workgroups; each thread a range of ≥ this.range consecutive indices
    const groups = Math.max(1, Math.min(this.gridGroups, Math.ceil(p.total / (WG * this.range))));
    const range = Math.max(this.range, Math.ceil(p.total / (WG * groups)));
    const startsLen = p.nJobs + 1 + groups + 1;
    const startsWords = p.startsWithGroups(groups, WG * range);
    const b: Buffers = {
      layouts: this.buffer('layouts', p.nWords * 4, S),
      jobs: this.buffer('jobs', p.nJobs * 32, S),
      starts: this.buffer('starts', startsLen * 4, S),
      verdict: this.buffer('verdict', p.nJobs * 4, S | USAGE.COPY_SRC),
      out: this.buffer('out', outWords * 4, S | USAGE.COPY_SRC),
      verdictRb: this.buffer('verdictRb', p.nJobs * 4, USAGE.MAP_READ | USAGE.COPY_DST),
      outRb: mode === 0 ? this.buffer('outRb', outWords * 4, USAGE.MAP_READ | USAGE.COPY_DST) : null,
    };
    const q = dev.queue;
    q.writeBuffer(b.layouts, 0, p.words, 0, Math.max(p.nWords, 1));
    q.writeBuffer(b.jobs, 0, p.jobs, 0, p.nJobs * 8);
    q.writeBuffer(b.starts, 0, startsWords, 0, startsLen);
    q.writeBuffer(b.verdict, 0, new Uint32Array(p.nJobs).fill(NONE));
    q.writeBuffer(this.params, 0, new Uint32Array([0, p.total, p.nJobs, mode, range, 0, 0, 0]));
    const enc = dev.createCommandEncoder();
    if (mode === 1) enc.clearBuffer(b.out, 0, Math.ceil((outWords * 4) / 16) * 16 > b.out.size ? b.out.size : Math.ceil((outWords * 4) / 16) * 16);
    const bg = dev.createBindGroup({
      layout: this.bgl!,
      entries: [
        { binding: 0, resource: { buffer: this.params } },
        { binding: 1, resource: { buffer: b.layouts } },
        { binding: 2, resource: { buffer: b.jobs } },
        { binding: 3, resource: { buffer: b.starts } },
        { binding: 4, resource: { buffer: b.verdict } },
        { binding: 5, resource: { buffer: b.out } },
      ],
    });
    const [gx, gy] = gridOn(dev, groups);
    const pass = enc.beginComputePass();
    pass.setPipeline(pipe);
    pass.setBindGroup(0, bg);
    pass.dispatchWorkgroups(gx, gy);
    pass.end();
    enc.copyBufferToBuffer(b.verdict, 0, b.verdictRb, 0, Math.ceil((p.nJobs * 4) / 4) * 4);
    if (b.outRb) enc.copyBufferToBuffer(b.out, 0, b.outRb, 0, outWords * 4);
    q.submit([enc.finish()]);
    const read = async (buf: GPUBuffer, words: number): Promise<Uint32Array> =>
      new Uint32Array(await mapRead(buf, { bytes: Math.max(4, words * 4), check: () => this.check() }));
    const verdict = await read(b.verdictRb, p.nJobs);
    const out = b.outRb ? await read(b.outRb, outWords) : null;
    return { verdict, out };
  }

  /** the packed jobs run (bitmap or equality mode), each owner's verdict into `out` (1: holds),
   *  the packer emptied; nothing once the request's deadline has passed */
  private async flushVerdicts(mode: 1 | 2, out: Uint8Array, due: CarriedDeadline): Promise<void> {
    const p = this.packer;
    if (p.nJobs === 0) return;
    due();
    const { verdict } = await this.run(mode);
    for (let j = 0; j < p.nJobs; j++) out[p.owner[j]!] = verdict[j] === NONE ? 1 : 0;
    p.reset();
  }

  async bitmapCheck(kind: BitmapKind, batch: FlatBatch): Promise<Uint8Array> {
    // the request's deadline (batch --request-timeout), followed between dispatches
    const due = carryDeadline('verify on the GPU');
    const out = new Uint8Array(batch.count);
    const p = this.packer;
    const bitBudget = this.bitmapBytes * 8;
    p.reset();
    const flush = (): Promise<void> => this.flushVerdicts(1, out, due);
    for (let i = 0; i < batch.count; i++) {
      const n = sizeAt(batch, i);
      // every value of Φ is below co (cosize; for Sw o K o L a bound of Sw(K + ·), packed.ts)
      const co = valueBoundAt(batch, i);
      const bound = kind === 'compact' ? n : co;
      if (n > JOB_LIMIT || co > TWO32 || bound > bitBudget) {
        due();
        out[i] = due.within(() => this.cpu.bitmapOne(kind, batch, i)) ? 1 : 0;
        this.fallbacks++;
        continue;
      }
      if (p.nJobs > 0 && (p.total + n > this.indexBudget || p.bits + bound + 32 > bitBudget)) await flush();
      p.job(i, p.layout(batch, i), NONE, NONE, n, bound);
    }
    await flush();
    return out;
  }

  async equalCheck(jobs: EqualJobs): Promise<Uint8Array> {
    const due = carryDeadline('verify on the GPU');
    const { a, b, c } = jobs;
    const out = new Uint8Array(a.count);
    const p = this.packer;
    p.reset();
    const flush = (): Promise<void> => this.flushVerdicts(2, out, due);
    for (let i = 0; i < a.count; i++) {
      const n = sizeAt(a, i);
      const ci = jobIndex(c, i);
      if (sizeAt(c, ci) !== n) continue; // false
      const coA = valueBoundAt(a, i);
      let bi = -1;
      if (b) {
        bi = jobIndex(b, i);
        // a composed A's cosize is not known here: the kernel checks Φ_A(x) < size(B) per x
        if (!isComposedAt(a, i) && coA > sizeAt(b, bi)) continue; // false
      }
      if (n > JOB_LIMIT || coA > TWO32 || valueBoundAt(c, ci) > TWO32 || (b && valueBoundAt(b, bi) > TWO32)) {
        out[i] = due.within(() => equalJob(jobs, i)) ? 1 : 0;
        this.fallbacks++;
        continue;
      }
      if (p.nJobs > 0 && p.total + n > this.indexBudget) await flush();
      const oa = p.layout(a, i);
      const ob = b ? p.layout(b, bi) : NONE;
      const oc = p.layout(c, ci);
      p.job(i, oa, ob, oc, n, b ? Math.min(sizeAt(b, bi), NONE) : NONE);
    }
    await flush();
    return out;
  }

  async evalAll(batch: FlatBatch): Promise<Float64Array> {
    let total = 0;
    const sizes: number[] = [];
    for (let i = 0; i < batch.count; i++) {
      const n = sizeAt(batch, i);
      sizes.push(n);
      total += n;
      if (n > JOB_LIMIT || n > this.maxBinding / 4 || valueBoundAt(batch, i) > TWO32)
        throw this.fail(`candidate ${i} is too large for the interpreter's eval mode`);
    }
    const due = carryDeadline('verify on the GPU');
    const res = new Float64Array(total);
    const p = this.packer;
    p.reset();
    let pos = 0;
    const flush = async (): Promise<void> => {
      if (p.nJobs === 0) return;
      due();
      const { out } = await this.run(0);
      res.set(out!.subarray(0, p.total), pos);
      pos += p.total;
      p.reset();
    };
    for (let i = 0; i < batch.count; i++) {
      if (p.nJobs > 0 && p.total + sizes[i]! > this.indexBudget) await flush();
      p.job(i, p.layout(batch, i), NONE, NONE, sizes[i]!, 0);
    }
    await flush();
    return res;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const b of this.pool.values()) b.destroy();
    this.pool.clear();
    this.params.destroy();
    this.opts.onDispose?.();
  }
}

export { CpuVerifyEngine };

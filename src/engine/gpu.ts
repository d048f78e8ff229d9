/**
 * The GPU backend: generated WGSL (codegen.ts) on a GPUDevice, wherever it came from (Node's
 * `webgpu` package or a browser's navigator.gpu: nothing here knows which). This file plans the
 * runs; gpu-dispatch.ts holds the device side they run on (pipelines, buffers, dispatches, rounds).
 *
 * - Pipelines are cached per generated source.
 * - A range is cut into dispatches of at most DISPATCH indices (the steps of progress, deadline
 *   and cancellation), output buffers into chunks below maxStorageBufferBindingSize/maxBufferSize,
 *   and atomic counters are read back per round of at most 2^31 indices (so they and the
 *   round-relative witnesses fit in u32). Indices beyond 2^32 and offsets beyond 2^32 use
 *   the two-limb u64 path of the generated code.
 * - A refused allocation halves the chunk and retries; a lost device, a failed shader or a
 *   timeout is a LayoutError of kind `gpu` that says how far the run got.
 */
import { blocksLength, sortedByStride, windowBlocks } from './window-plan.js';
import type { Layout } from '../algebra/layout.js';
import type { LayoutFunction } from '../cute/composed.js';
import type { Backend, CompactReport, ComposeReport, Digest, EvalSink, RunOptions, TileMap } from './backend.js';
import { digestPerThread, genCompose, genSingle, genTiles, walkFor, WG } from './codegen.js';
import { checkComposeArgs, closedOrOverflow, sameMultiset, splitTiles, tileDivision } from './common.js';
import { checkEnumerable, checkRange, ENUMERATE_LIMIT, prepare, runDeadline, TWO32, type Prepared } from './prep.js';
import { GpuDispatch, NONE, pairsToNumbers } from './gpu-dispatch.js';
import { USAGE } from './webgpu.js';

export { HARDWARE_GROUPS, SOFTWARE_GROUPS, type GpuBackendOptions } from './gpu-dispatch.js';

/** indices per dispatch of the digest (it writes nothing per index) */
const DIGEST_DISPATCH = 1 << 26;
/** indices per block at least in a pruned window pass of check_compact (fewer rounds, each with a read-back) */
const GPU_BLOCK = 2 ** 22;

/**
 * The evaluator on a GPUDevice from anywhere (Node's `webgpu`, the browser's navigator.gpu): each
 * layout becomes a generated WGSL compute shader (codegen.ts) and Φ runs in bulk, in chunks that
 * fit the device's limits; answers are identical to CpuBackend's. Errors: those of Backend; a lost
 * device, a failed shader or a refused allocation is a LayoutError `gpu` naming what completed.
 * @example
 *   const gpu = new GpuBackend(device, { adapter: 'my GPU', software: false });
 *   (await gpu.checkCompact(parseLayout('(4,8):(1,4)'))).compact; // true
 */
export class GpuBackend extends GpuDispatch implements Backend {
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
}

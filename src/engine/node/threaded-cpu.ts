/**
 * The CPU backend on every core (Node only): the same answers as CpuBackend (cpu.ts), its bulk
 * loops split into index ranges over a pool of worker threads (pool.ts) and merged exactly.
 * - digest_range: Σ, min and max are merged part by part (sums as BigInt).
 * - check_compact (and check_complement): a bitmap per part over one window of offsets (up to
 *   2^30), merged; beyond one window the single-threaded pruned windows answer (cpu.ts).
 *   Counts add up whatever the interleaving (threaded-tasks.ts). The witness
 *   is CpuBackend's canonical one: [x] with x the least index whose offset is ≥ size, else the
 *   least and the greatest preimage of the least colliding offset; both are minima / maxima
 *   over the parts, so they do not depend on the number of threads.
 * - check_compose: mismatches add up, the witness is the least mismatching x.
 * Below `minParallel` indices (and for eval, tile maps, closed-form digests, composed layouts)
 * the single-threaded CpuBackend answers: small requests start no thread.
 */
import type { Layout } from '../../algebra/layout.js';
import type { LayoutFunction } from '../../cute/composed.js';
import { isComposed } from '../../cute/composed.js';
import type { Backend, BackendInfo, CompactReport, ComposeReport, Digest, EvalSink, RunOptions, TileMap } from '../backend.js';
import { checkComposeArgs } from '../common.js';
import { CpuBackend } from '../cpu.js';
import { boundThreads, LAZY_WORKERS, sharedPool, splitRange, type PoolTask, type WorkerPool } from './pool.js';
import { checkRange, ENUMERATE_LIMIT, prepare, runDeadline } from '../prep.js';
import type { CompactPart, DigestPart, FlatSpec } from './threaded-tasks.js';
import { blocksLength, MIN_BLOCK, sortedByStride, windowBlocks } from '../window-plan.js';

/** offsets per bitmap window at most (bits: 128 MiB) */
const WINDOW_BITS = 2 ** 30;
/** indices per part at least */
const MIN_PART = 1 << 20;

const flatSpec = (l: Layout): FlatSpec => {
  const p = prepare(l);
  return { shapes: [...p.shapes], strides: [...p.strides] };
};

export interface ThreadedOptions {
  /** below this many indices the single-threaded backend answers (default 2^21; 2^27 for
   *  check_compact, whose single-threaded byte map is faster up to there) */
  minParallel?: number;
  /** indices per part at least (default 2^20; tests use small parts) */
  minPart?: number;
  /** offsets per bitmap window (default 2^30; tests use small windows) */
  windowBits?: number;
  /** the pool (default: the process's shared pool of `threads` threads) */
  pool?: WorkerPool;
  /** when the workers join (default LAZY_WORKERS: once the job proves long; null: at once) */
  lazyWorkers?: { afterMs: number; minLeftMs: number } | null;
}

export class ThreadedCpuBackend implements Backend {
  readonly info: BackendInfo;
  private readonly minParallel: number;
  /** check_compact below this many indices: the single-threaded backend (default 2^27) */
  private readonly minCompact: number;
  private readonly minPart: number;
  private readonly windowBits: number;
  /** blocks of the windows' pruned walks: at least this many indices */
  private readonly pruneBlock: number;
  private poolRef: WorkerPool | null;
  private readonly lazyWorkers: { afterMs: number; minLeftMs: number } | null;

  /** `threads` ≥ 2 worker threads over `base` (whose info and single-threaded paths it keeps) */
  constructor(
    private readonly base: CpuBackend,
    readonly threads: number,
    o: ThreadedOptions = {},
  ) {
    this.info = { ...base.info, adapter: `${base.info.adapter}, ${boundThreads(threads)} threads` };
    this.minParallel = o.minParallel ?? 2 ** 21;
    this.minCompact = o.minParallel ?? 2 ** 27;
    this.minPart = o.minPart ?? MIN_PART;
    this.windowBits = o.windowBits ?? WINDOW_BITS;
    this.pruneBlock = Math.min(MIN_BLOCK, this.minPart);
    this.poolRef = o.pool ?? null;
    this.lazyWorkers = o.lazyWorkers === undefined ? LAZY_WORKERS : o.lazyWorkers;
  }

  private get pool(): WorkerPool {
    return (this.poolRef ??= sharedPool(this.threads));
  }

  private plain(...ls: LayoutFunction[]): boolean {
    return ls.every((l) => !isComposed(l));
  }

  /** runs one task per range and tracks progress over `total` indices (`done0` already done) */
  private async run<R>(
    kind: string,
    ranges: [number, number][],
    payload: (lo: number, hi: number, part: number) => object,
    opts: RunOptions | undefined,
    deadline: number,
    done0: number,
    total: number,
  ): Promise<R[]> {
    const done = new Float64Array(ranges.length);
    let sum = done0;
    const tasks: PoolTask[] = ranges.map(([lo, hi], i) => ({ kind, payload: { ...payload(lo, hi, i), lo, hi } }));
    return this.pool.runTasks<R>(tasks, {
      deadline,
      ...(opts?.timeoutMs !== undefined ? { timeoutMs: opts.timeoutMs } : {}),
      onProgress: (i, d) => {
        sum += d - done[i]!;
        done[i] = d;
        opts?.onProgress?.(sum, total);
      },
      onResult: (i) => {
        sum += ranges[i]![1] - ranges[i]![0] - done[i]!;
        done[i] = ranges[i]![1] - ranges[i]![0];
      },
      completed: () => `completed ${sum} of ${total} indices`,
      lazyWorkers: this.lazyWorkers,
    });
  }

  private parts(lo: number, hi: number): [number, number][] {
    return splitRange(lo, hi, this.threads * 8, this.minPart);
  }

  /** --timeout and the request's own deadline (batch --request-timeout), as CpuBackend does */
  private deadlineOf(opts?: RunOptions): number {
    return runDeadline(opts?.timeoutMs);
  }

  evalRange(l: Layout, lo: number, hi: number, opts?: RunOptions): Promise<Float64Array> {
    return this.base.evalRange(l, lo, hi, opts);
  }

  evalChunks(l: Layout, lo: number, hi: number, sink: EvalSink, opts?: RunOptions): Promise<void> {
    return this.base.evalChunks(l, lo, hi, sink, opts);
  }

  tileMap(a: Layout, b: Layout, opts?: RunOptions): Promise<TileMap> {
    return this.base.tileMap(a, b, opts);
  }

  async digestRange(l: Layout, lo: number, hi: number, opts?: RunOptions): Promise<Digest> {
    if (!this.plain(l)) return this.base.digestRange(l, lo, hi, opts);
    const p = prepare(l);
    checkRange(lo, hi, p.size);
    // the scan costs one step per run along the first (coalesced) mode, not per index
    const runs = (hi - lo) / (p.shapes[0] ?? 1);
    if (runs < this.minParallel / 16 || hi - lo > ENUMERATE_LIMIT) return this.base.digestRange(l, lo, hi, opts);
    const f = flatSpec(l);
    const parts = await this.run<DigestPart>('digest', this.parts(lo, hi), () => ({ l: f }), opts, this.deadlineOf(opts), 0, hi - lo);
    let sum = 0n;
    let min = Infinity;
    let max = -Infinity;
    for (const r of parts) {
      sum += BigInt(r.sum);
      min = Math.min(min, r.min);
      max = Math.max(max, r.max);
    }
    return { count: hi - lo, sum, min, max };
  }

  /**
   * check_compact by windows of offsets: [0, span) (span = min(size, cosize): nothing else can
   * be hit in range) cut into about 4 windows per thread, each a task that walks only the index
   * blocks of the stride-sorted layout that can reach it (window-plan.ts) into its own bitmap,
   * so that the windows together walk about one pass and hold one bit per offset, as the
   * single-threaded check does, with no merge. The hits below size are the set bits plus the
   * collisions, so outOfRange = size − Σ hits; its witness (the least out-of-range index) and a
   * collision's (the least and greatest preimage of the least colliding offset) take one more
   * threaded walk each, only when needed.
   */
  async checkCompact(l: Layout, opts?: RunOptions): Promise<CompactReport> {
    if (!this.plain(l)) return this.base.checkCompact(l, opts);
    const p = prepare(l);
    const size = p.size;
    // up to 2^27 offsets the single-threaded check's byte map beats bitmaps on any thread count here
    if (size < this.minCompact || size > ENUMERATE_LIMIT) return this.base.checkCompact(l, opts);
    const deadline = this.deadlineOf(opts);
    const span = Math.min(size, p.cosize);
    const k = Math.max(this.threads * 4, Math.ceil(span / this.windowBits));
    const wn = Math.max(32, Math.ceil(span / k / 32) * 32);
    const sorted = sortedByStride(p);
    const spec: FlatSpec = { shapes: [...sorted.shapes], strides: [...sorted.strides] };
    // one task per window that some block reaches; its "range" is its share of the blocks
    // walked in all (progress and what-completed messages count indices walked)
    const windows: { w0: number; len: number; blocks: number[] }[] = [];
    const ranges: [number, number][] = [];
    let walked = 0;
    for (let w0 = 0; w0 < span; w0 += wn) {
      const len = Math.min(wn, span - w0);
      const bl = windowBlocks(sorted, w0, len, this.pruneBlock);
      const n = blocksLength(bl);
      if (n === 0) continue;
      windows.push({ w0, len, blocks: bl });
      ranges.push([walked, walked + n]);
      walked += n;
    }
    const parts = await this.run<{ hits: number; coll: number; collV: number }>(
      'compactWindow',
      ranges,
      (_lo, _hi, i) => {
        const w = windows[i]!;
        return { l: spec, blocks: w.blocks, bits: new SharedArrayBuffer(Math.ceil(w.len / 32) * 4), w0: w.w0, wn: w.len };
      },
      opts,
      deadline,
      0,
      walked,
    );
    let hits = 0;
    let coll = 0;
    let collV = Infinity;
    for (const r of parts) {
      hits += r.hits;
      coll += r.coll;
      collV = Math.min(collV, r.collV);
    }
    const oor = size - hits;
    const f = flatSpec(l);
    let witness: CompactReport['witness'] = null;
    if (oor > 0) {
      // the least out-of-range index, in the layout's own order
      const none = new SharedArrayBuffer(4);
      const found = await this.run<CompactPart>(
        'compact',
        this.parts(0, size),
        () => ({ l: f, bits: none, w0: 0, wn: 0, countOor: true }),
        opts,
        deadline,
        0,
        size,
      );
      witness = [Math.min(...found.filter((r) => r.oorW >= 0).map((r) => r.oorW))];
    } else if (coll > 0) {
      const found = await this.run<{ first: number; last: number }>('find', this.parts(0, size), () => ({ l: f, v: collV }), opts, deadline, 0, size);
      let first = -1;
      let last = -1;
      for (const r of found) {
        if (r.first >= 0 && (first < 0 || r.first < first)) first = r.first;
        if (r.last > last) last = r.last;
      }
      witness = [first, last];
    }
    return { compact: oor === 0 && coll === 0, image: size - oor - coll, outOfRange: oor, collisions: coll, witness };
  }

  async checkCompose<C extends LayoutFunction>(bf: LayoutFunction, af: LayoutFunction, c: C, opts?: RunOptions): Promise<ComposeReport<C>> {
    if (isComposed(bf) || isComposed(af) || isComposed(c)) return this.base.checkCompose(bf, af, c, opts);
    const b: Layout = bf;
    const a: Layout = af;
    const A = prepare(a);
    checkComposeArgs(A, prepare(b), prepare(c));
    const n = A.size;
    if (n < this.minParallel) return this.base.checkCompose(b, a, c, opts);
    const fb = flatSpec(b);
    const fa = flatSpec(a);
    const fc = flatSpec(c);
    const parts = await this.run<{ mismatches: number; witness: number }>(
      'compose',
      this.parts(0, n),
      () => ({ b: fb, a: fa, c: fc }),
      opts,
      this.deadlineOf(opts),
      0,
      n,
    );
    let mismatches = 0;
    let witness = -1;
    for (const r of parts) {
      mismatches += r.mismatches;
      if (r.witness >= 0 && (witness < 0 || r.witness < witness)) witness = r.witness;
    }
    return { equal: mismatches === 0, mismatches, witness: witness < 0 ? null : witness, composite: c };
  }

  dispose(): void {
    this.base.dispose();
  }
}

/** `threads` > 1 (bounded by the cores available): the threaded backend over `cpu`; else `cpu` itself. */
export function withThreads(cpu: Backend, threads: number): Backend {
  const n = boundThreads(threads); // at most the cores available (pool.ts)
  if (n <= 1 || !(cpu instanceof CpuBackend)) return cpu;
  return new ThreadedCpuBackend(cpu, n);
}

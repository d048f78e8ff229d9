/**
 * `layoutgpu bench`: for each layout, on one backend —
 *   eval     Φ over every index, offsets written (indices/s)
 *   reduce   Φ over every index, offsets summed (indices/s)
 *   copy     a plain copy of n elements (the reference, GB/s of bytes moved: read + write)
 *   gather   dst[i] = src[Φ(i)]           efficiency = its GB/s ÷ copy's
 *   scatter  dst[Φ(i)] = src[i]           (only when Φ is injective)
 *   tile     with a tiler B: A ⊘ B copied tile by tile, one tile per workgroup
 * for elements of 4, 8 or 16 bytes. Every kernel's output is checked once against Φ on the
 * CPU before it is timed; then a calibration run, a warm-up and ≥ 10 timed samples.
 *
 * Sizes: a layout larger than the run's caps is cut to a sub-layout (plan.ts), reported as
 * `benched` beside the layout asked for. Default caps by adapter: software adapter 2^22
 * indices and 64 MiB per buffer; hardware 2^26 indices and min(1 GiB, the binding limit);
 * CPU 2^24 indices and 256 MiB. `limit` (--limit) replaces the index cap.
 */
import { LayoutError } from '../algebra/errors.js';
import { parseLayout } from '../algebra/notation.js';
import type { Layout } from '../algebra/layout.js';
import { isInjective, planLayout, planTiles, referenceOffsets, type Caps, type Outer, type SubLayout } from './plan.js';
import { parseLayoutFunction, type LayoutFunction } from '../cute/composed.js';
import { prepareGpuKernel, type GpuEnv, type PreparedKernel, type Reference } from './gpu.js';
import { prepareCpuKernel } from './cpu.js';
import { summarize, type Timing } from './stats.js';
import type { GpuKernelKind, KernelSpec } from './wgsl.js';
import { HARDWARE_GROUPS, SOFTWARE_GROUPS } from '../engine/gpu.js';

export type BenchKernel = GpuKernelKind;

export interface BenchEnv {
  backend: 'cpu' | 'gpu';
  /** the GPU (backend gpu) */
  gpu?: GpuEnv;
  /** one line naming the adapter or CPU */
  adapter: string;
  software: boolean;
  /** adapter description, limits and features, for --json */
  adapterInfo?: unknown;
  limits?: Record<string, number>;
  features?: string[];
}

export interface BenchOptions {
  layouts: string[];
  elems: number[];
  /** timed samples per kernel (≥ 10) */
  samples: number;
  tile?: string;
  /** cap on the indices of one layout (default: by adapter) */
  limit?: number;
  /** kernels to run (default: all that apply) */
  kernels?: BenchKernel[];
  /** a line of progress (stderr when a terminal) */
  onProgress?: (line: string) => void;
  /** test hooks */
  mutate?: Partial<Record<BenchKernel, (source: string) => string>>;
  /** test hook: check only, time nothing */
  checkOnly?: boolean;
  /** test hook: the reference offsets are those of this layout instead (a wrong reference) */
  referenceLayout?: string;
}

export interface KernelResult {
  kernel: BenchKernel;
  /** bytes per element (eval and reduce: 4, the offset) */
  elemBytes: number;
  /** indices (elements) per run */
  n: number;
  /** bytes moved per run (read + write); eval: written offsets; reduce: 0 */
  bytes: number;
  timing: Timing;
  /** GB/s of bytes moved (10^9) */
  gbps: number;
  /** indices per second */
  indicesPerSecond: number;
  /** GB/s ÷ the plain copy's of the same byte count (gather, scatter, tile) */
  efficiency?: number;
}

export interface LayoutReport {
  layout: string;
  /** the layout benchmarked (a sub-layout when capped) */
  benched: string;
  capped: boolean;
  size: number;
  cosize: number;
  injective: boolean;
  tile?: { tiler: string; divided: string; benched: string; capped: boolean; tileSize: number; tiles: number };
  results: KernelResult[];
  /** why a kernel did not run (e.g. scatter of a non-injective layout) */
  skipped: { kernel: BenchKernel; reason: string }[];
}

export interface BenchReport {
  tool: 'layoutgpu bench';
  backend: 'cpu' | 'gpu';
  adapter: string;
  software: boolean;
  adapterInfo?: unknown;
  limits?: Record<string, number>;
  features?: string[];
  timestampQueries: boolean;
  caps: Caps;
  elems: number[];
  samples: number;
  layouts: LayoutReport[];
  seconds: number;
}

const ALL: BenchKernel[] = ['eval', 'reduce', 'copy', 'gather', 'scatter', 'tile'];

export function defaultCaps(env: BenchEnv, limit?: number): Caps {
  let caps: Caps;
  if (env.backend === 'cpu') caps = { maxIndices: 2 ** 24, maxBufferBytes: 256 * 2 ** 20 };
  else {
    const bind = env.limits?.maxStorageBufferBindingSize ?? 128 * 2 ** 20;
    const buf = env.limits?.maxBufferSize ?? bind;
    const hard = Math.min(bind, buf);
    caps = env.software
      ? { maxIndices: 2 ** 22, maxBufferBytes: Math.min(64 * 2 ** 20, hard) }
      : { maxIndices: 2 ** 26, maxBufferBytes: Math.min(2 ** 30, hard) };
  }
  if (limit !== undefined) caps.maxIndices = limit;
  return caps;
}

function timingParams(env: BenchEnv): { targetSeconds: number; maxReps: number } {
  if (env.backend === 'cpu') return { targetSeconds: 0.05, maxReps: 100_000 };
  if (env.software) return { targetSeconds: 0.08, maxReps: 50 };
  return env.gpu?.timestamps ? { targetSeconds: 0.005, maxReps: 2000 } : { targetSeconds: 0.05, maxReps: 5000 };
}

function parse(text: string, what: string): Layout {
  return parseLayout(text, what);
}

/** a layout to benchmark: plain or composed Sw o K o L (docs/semantics.md §9.1) */
const parseFn = (text: string, what: string): LayoutFunction => parseLayoutFunction(text, what);

export async function runBench(env: BenchEnv, opts: BenchOptions): Promise<BenchReport> {
  const t0 = performance.now();
  if (opts.samples < 10) throw new LayoutError('domain', `at least 10 samples are timed, got ${opts.samples}`);
  const caps = defaultCaps(env, opts.limit);
  const wanted = new Set(opts.kernels ?? ALL);
  const maxElem = Math.max(...opts.elems);
  const tp = timingParams(env);
  const tiler = opts.tile !== undefined ? parse(opts.tile, 'tiler') : undefined;
  const layouts = opts.layouts.map((t) => parseFn(t, 'layout'));
  const plans = layouts.map((l) => planLayout(l, maxElem, caps));
  const tilePlans = tiler ? layouts.map((l) => planTiles(l, tiler, maxElem, caps)) : [];
  const refLayout = opts.referenceLayout !== undefined ? parseFn(opts.referenceLayout, 'reference layout') : undefined;

  const prep = async (
    kind: BenchKernel,
    shapes: readonly number[],
    strides: readonly number[],
    n: number,
    elemBytes: number,
    ref: Reference,
    tileSize?: number,
    outer?: Outer,
  ): Promise<PreparedKernel | null> => {
    const spec: KernelSpec = {
      kind,
      shapes,
      strides,
      n,
      elemBytes,
      groups: env.software ? SOFTWARE_GROUPS : HARDWARE_GROUPS,
      ...(tileSize ? { tileSize } : {}),
      ...(outer ? { outer } : {}),
    };
    const o = { samples: opts.samples, ...tp, ...(opts.mutate?.[kind] ? { mutate: opts.mutate[kind] } : {}), ...(opts.checkOnly ? { checkOnly: true } : {}) };
    if (env.backend === 'gpu') return prepareGpuKernel(env.gpu!, spec, ref, o);
    return prepareCpuKernel(spec, ref, o);
  };
  interface Job {
    kernel: BenchKernel;
    elemBytes: number;
    n: number;
    bytes: number;
    /** the plain copy this one is compared with (same byte count, samples interleaved) */
    copy?: Job;
    prepare?: () => Promise<PreparedKernel | null>;
    k?: PreparedKernel | null;
    secs?: number[];
    result?: KernelResult;
  }
  /** prepares (checks) every job, then takes the samples round-robin: job after job within
   *  each round, so a change of the machine's load hits a kernel and its copy alike */
  const runGroup = async (jobs: Job[], rep: LayoutReport, label: string): Promise<void> => {
    try {
      for (const j of jobs) {
        opts.onProgress?.(`${label}: check ${j.kernel}${j.kernel === 'eval' || j.kernel === 'reduce' || j.kernel === 'compact' ? '' : ` ${j.elemBytes} B`}`);
        j.k = await j.prepare!();
      }
      if (opts.checkOnly) {
        for (const j of jobs)
          rep.results.push({
            kernel: j.kernel,
            elemBytes: j.elemBytes,
            n: j.n,
            bytes: j.bytes,
            timing: summarize([], 0, env.backend === 'cpu' ? 'cpu' : 'wall'),
            gbps: NaN,
            indicesPerSecond: NaN,
          });
        return;
      }
      for (let i = 0; i < opts.samples; i++) {
        opts.onProgress?.(`${label}: sample ${i + 1}/${opts.samples}`);
        for (const j of jobs) await j.k!.sample();
      }
      for (const j of jobs) {
        const t = await j.k!.times();
        j.secs = t.secs;
        const timing = summarize(t.secs, j.k!.reps, t.method);
        j.result = {
          kernel: j.kernel,
          elemBytes: j.elemBytes,
          n: j.n,
          bytes: j.bytes,
          timing,
          gbps: j.bytes / timing.median / 1e9,
          indicesPerSecond: j.n / timing.median,
        };
      }
      for (const j of jobs) {
        if (j.copy?.secs && j.secs) {
          // paired: the median over samples of copy time ÷ kernel time in the same round
          const ratios = j.secs.map((s, i) => j.copy!.secs![i]! / s);
          j.result!.efficiency = summarize(ratios, 1, 'wall').median;
        }
        rep.results.push(j.result!);
      }
    } finally {
      for (const j of jobs) j.k?.dispose();
    }
  };

  const reports: LayoutReport[] = [];
  for (let li = 0; li < layouts.length; li++) {
    const plan: SubLayout = plans[li]!;
    const refPlan = refLayout ? planLayout(refLayout, maxElem, caps) : plan;
    const offsets = referenceOffsets(refPlan.shapes, refPlan.strides, refPlan.outer);
    const ref: Reference = { offsets, cosize: plan.cosize };
    const injective = isInjective(offsets, Math.max(plan.cosize, refPlan.cosize));
    const rep: LayoutReport = {
      layout: plan.text,
      benched: plan.benched,
      capped: plan.capped,
      size: plan.size,
      cosize: plan.cosize,
      injective,
      results: [],
      skipped: [],
    };
    reports.push(rep);
    const n = plan.size;
    type PJob = Job;
    const job = (kernel: BenchKernel, elemBytes: number, m: number, bytes: number, prepare: () => Promise<PreparedKernel | null>, copy?: PJob): PJob => ({
      kernel,
      elemBytes,
      n: m,
      bytes,
      prepare,
      ...(copy ? { copy } : {}),
    });
    for (const k of ['eval', 'reduce', 'compact'] as const) {
      if (!wanted.has(k)) continue;
      await runGroup([job(k, 4, n, k === 'eval' ? n * 4 : 0, () => prep(k, plan.shapes, plan.strides, n, 4, ref, undefined, plan.outer))], rep, plan.benched);
    }
    let toff: Uint32Array | undefined;
    for (const e of opts.elems) {
      const copyJob = (m: number): PJob | undefined =>
        wanted.has('copy') ? job('copy', e, m, 2 * m * e, () => prep('copy', [m], [1], m, e, { offsets: new Uint32Array(m), cosize: m })) : undefined;
      const copy = copyJob(n);
      const jobs: PJob[] = copy ? [copy] : [];
      if (wanted.has('gather'))
        jobs.push(job('gather', e, n, 2 * n * e, () => prep('gather', plan.shapes, plan.strides, n, e, ref, undefined, plan.outer), copy));
      if (wanted.has('scatter')) {
        if (!injective) {
          if (e === opts.elems[0]) rep.skipped.push({ kernel: 'scatter', reason: 'Φ is not injective' });
        } else jobs.push(job('scatter', e, n, 2 * n * e, () => prep('scatter', plan.shapes, plan.strides, n, e, ref, undefined, plan.outer), copy));
      }
      if (jobs.length) await runGroup(jobs, rep, `${plan.benched} ${e} B`);
      if (tiler && wanted.has('tile')) {
        const tplan = tilePlans[li]!;
        if (e === opts.elems[0]) {
          rep.tile = { tiler: opts.tile!, divided: tplan.divided, benched: tplan.benched, capped: tplan.capped, tileSize: tplan.tileSize, tiles: tplan.tiles };
        }
        toff ??= referenceOffsets(tplan.shapes, tplan.strides, tplan.outer);
        const tref: Reference = { offsets: toff, cosize: tplan.cosize };
        const m = tplan.size;
        // the tile's own plain copy of the same byte count, sampled in the same rounds
        const tcopy = copyJob(m);
        const tjobs: PJob[] = tcopy ? [tcopy] : [];
        tjobs.push(job('tile', e, m, 2 * m * e, () => prep('tile', tplan.shapes, tplan.strides, m, e, tref, tplan.tileSize, tplan.outer), tcopy));
        await runGroup(tjobs, rep, `${tplan.benched} tiles ${e} B`);
      }
    }
  }
  return {
    tool: 'layoutgpu bench',
    backend: env.backend,
    adapter: env.adapter,
    software: env.software,
    ...(env.adapterInfo !== undefined ? { adapterInfo: env.adapterInfo } : {}),
    ...(env.limits ? { limits: env.limits } : {}),
    ...(env.features ? { features: env.features } : {}),
    timestampQueries: env.backend === 'gpu' && Boolean(env.gpu?.timestamps),
    caps,
    elems: opts.elems,
    samples: opts.samples,
    layouts: reports,
    seconds: (performance.now() - t0) / 1000,
  };
}

/**
 * plan_smem's candidates priced on the GPU (shaders/plan.wgsl; docs/planner.md "Scale"): this thread enumerates each
 * family (families.ts candidates, the same walk as planSmem's) and copies the candidates' offsets into batches; one
 * dispatch per batch runs a workgroup per (candidate, access pattern of a side), which answers the first width whose
 * vectors hold and that width's phases and wavefronts on the machine's bank model (NVIDIA's §9.2 phases, AMD's lane
 * tables of memory/machines.ts); this thread turns them into the sides' prices (price.ts's figures), keeps each
 * slice's front and merges them (slices.ts planFromSlices). What the GPU does not price: the descriptor sides (`tma`,
 * `wgmma`, `umma`: §12's functions on the candidate's layout), Triton's entry and the entries' tma and gmma, all on
 * this thread as planSmem does them. A plan whose patterns do not fit a storage buffer is planSmem's. The answer is
 * planSmem's (test/planner/gpu.test.ts). Takes a GPUDevice from anywhere; the host layer is engine/webgpu.ts's.
 */
import { carryDeadline } from '../algebra/deadline.js';
import { LayoutError } from '../algebra/errors.js';
import { SHADERS } from '../engine/shaders.generated.js';
import { gridFor, PipelineCache, readBack, upload, USAGE } from '../engine/webgpu.js';
import { phaseGroups } from '../memory/machines.js';
import { candidates, type Candidate } from './families.js';
import { planSmem, type PlanRequest, type PlanResult } from './plan.js';
import { PriceScratch, type AccessPattern, type SidePrice } from './price.js';
import type { Side } from './sides.js';
import { planFromSlices, SliceBuilder, tritonTable, type CandidateNote, type PricedSlice } from './slices.js';

/** words of a pattern's header in plan.wgsl */
const HEADER = 24;
const NONE = 0xffffffff;
/** offsets of one batch at most (bytes) */
const BATCH_BYTES = 32 * 2 ** 20;
/** candidates of one batch at most */
const BATCH_CANDIDATES = 512;

/** The patterns of the request's sides that the GPU prices, laid out for plan.wgsl, or null where one cannot be. */
interface GpuSides {
  /** per side (write, read): its patterns' header offsets, or null for a side priced on this thread */
  readonly headers: readonly (readonly number[] | null)[];
  readonly pats: Uint32Array;
}

/** A pattern's words for plan.wgsl (header, index table, live mask, AMD lane tables), or null where the shader cannot
 *  take it (a width that does not divide the widest, a width without phase groups: priceSide answers those). */
function patternWords(p: AccessPattern, req: PlanRequest, at: number): number[] | null {
  const m = req.machine;
  const e = req.tile.e;
  const W = p.widths[0]!;
  if (p.widths.length > 5 || W > 16 || p.widths.some((w) => W % w !== 0)) return null;
  const head = new Array<number>(HEADER).fill(0);
  head[0] = p.threads;
  head[1] = p.values;
  head[2] = e;
  head[3] = p.widths.length;
  p.widths.forEach((w, k) => (head[4 + k] = w));
  const tail: number[] = [];
  const place = (words: ArrayLike<number>): number => {
    const o = at + HEADER + tail.length;
    for (let i = 0; i < words.length; i++) tail.push(words[i]!);
    return o;
  };
  head[9] = place(p.index);
  head[10] = p.live === undefined ? 0 : place(p.live);
  head[11] = m.vendor === 'nvidia' ? 32 : m.wave;
  head[12] = m.vendor === 'nvidia' ? 32 : m.banks;
  head[13] = m.vendor === 'nvidia' ? 0 : 1;
  if (m.vendor !== 'nvidia') {
    for (const [k, w] of p.widths.entries()) {
      let g: ReturnType<typeof phaseGroups>;
      try {
        g = phaseGroups(m, w * e, p.access);
      } catch (err) {
        if (err instanceof LayoutError) return null;
        throw err;
      }
      if (g.perPhase > 64) return null;
      head[14 + k] = place([g.perPhase, ...g.order]);
    }
  }
  return [...head, ...tail];
}

/** The request's sides for plan.wgsl: an access side's patterns (the wire marks them), the others on this thread. */
function gpuSides(req: PlanRequest): GpuSides | null {
  const words: number[] = [];
  const headers = [req.write, req.read].map((side) => {
    if (side.wire?.kind !== 'access') return null;
    const hs: number[] = [];
    for (const p of side.patterns) {
      const w = patternWords(p, req, words.length);
      if (w === null) return null;
      hs.push(words.length);
      for (const x of w) words.push(x);
    }
    return hs;
  });
  return { headers, pats: Uint32Array.from(words) };
}

/** A side's price from the shader's answer for each of its patterns (accessSide's choice: fewest wavefronts, then instructions). */
function priceFrom(side: Side, req: PlanRequest, out: Uint32Array, job: number): SidePrice | null {
  const m = req.machine;
  let best: SidePrice | null = null;
  side.patterns.forEach((p, k) => {
    const o = 4 * (job + k);
    if (out[o] === NONE) return;
    const w = p.widths[out[o]!]!;
    const wave = m.vendor === 'nvidia' ? 32 : m.wave;
    const instructions = Math.ceil(p.threads / wave) * (p.values / w);
    const phases = out[o + 1]!;
    const wavefronts = out[o + 2]!;
    const x: SidePrice = { instruction: p.instruction(w), vectorBytes: p.vectorBytes(w), instructions, wavefronts, phases, conflicts: wavefronts - phases };
    if (best === null || x.wavefronts < best.wavefronts || (x.wavefronts === best.wavefronts && x.instructions < best.instructions)) best = x;
  });
  return best;
}

/** A candidate waiting for its batch: its note, and the prices of the sides priced on this thread (undefined: the GPU's). */
interface Waiting {
  readonly note: CandidateNote;
  readonly cpu: (SidePrice | null | undefined)[];
  /** its first job in the batch */
  readonly job: number;
}

/** plan.wgsl's pricer on one device (its pipeline compiled once). */
export class GpuPlanner {
  private readonly pipelines: PipelineCache;
  constructor(readonly device: GPUDevice) {
    this.pipelines = new PipelineCache(device);
  }

  /**
   * planSmem's answer with the access sides priced on the GPU. Errors as planSmem's; `timeout` between dispatches at
   * the deadline in force when it is called; `gpu` when the device fails.
   * @example await new GpuPlanner(device).plan(req)
   */
  async plan(req: PlanRequest): Promise<PlanResult> {
    const due = carryDeadline('the planner on the GPU');
    const gs = gpuSides(req);
    const limit = this.device.limits.maxStorageBufferBindingSize;
    if (gs === null || gs.pats.byteLength > limit || gs.headers.every((h) => h === null)) return due.within(() => planSmem(req));
    const triton = tritonTable(req);
    const pats = upload(this.device, gs.pats as Uint32Array<ArrayBuffer>, USAGE.STORAGE, 'plan patterns');
    try {
      const slices: PricedSlice[] = [];
      for (const family of req.families) {
        const b = new SliceBuilder(req, { family, lo: 0, hi: Infinity }, triton);
        await this.family(req, gs, pats, b, due);
        slices.push(b.finish());
      }
      return due.within(() => planFromSlices(req, slices));
    } finally {
      pats.destroy();
    }
  }

  /** One family's candidates, enumerated here and priced in batches. */
  private async family(req: PlanRequest, gs: GpuSides, pats: GPUBuffer, b: SliceBuilder, due: ReturnType<typeof carryDeadline>): Promise<void> {
    const n = req.tile.size;
    const sides = [req.write, req.read];
    const jobsPer = gs.headers.reduce((a, h) => a + (h?.length ?? 0), 0);
    const cap = Math.max(1, Math.min(BATCH_CANDIDATES, Math.floor(Math.min(BATCH_BYTES, this.device.limits.maxStorageBufferBindingSize) / (4 * n))));
    const offs = new Uint32Array(cap * n);
    const jobs = new Uint32Array(2 * cap * jobsPer);
    let waiting: Waiting[] = [];
    const s = new PriceScratch();
    const flush = async (): Promise<void> => {
      if (waiting.length === 0) return;
      let out: Uint32Array;
      try {
        out = await this.dispatch(offs.subarray(0, waiting.length * n), jobs.subarray(0, 2 * waiting.length * jobsPer), pats, n);
      } catch (e) {
        if (e instanceof LayoutError) throw e;
        throw new LayoutError('gpu', `the planner on the GPU: ${e instanceof Error ? e.message : String(e)}`);
      }
      due();
      for (const w of waiting) {
        let j = w.job;
        const p = sides.map((side, k) => {
          if (gs.headers[k] === null) return w.cpu[k]!;
          const x = priceFrom(side, req, out, j);
          j += side.patterns.length;
          return x;
        });
        b.add(w.note, p[0] === null || p[1] === null ? null : { write: p[0]!, read: p[1]! });
      }
      waiting = [];
    };
    const gen = due.within(() => candidates(b.family, req.tile, req.dtype));
    for (;;) {
      const next = due.within(() => gen.next());
      if (next.done) break;
      const c: Candidate = next.value;
      const i = waiting.length;
      offs.set(c.offsets, i * n);
      let job = i * jobsPer;
      for (const h of gs.headers) {
        for (const x of h ?? []) {
          jobs[2 * job] = i;
          jobs[2 * job + 1] = x;
          job++;
        }
      }
      const cpu = sides.map((side, k) => (gs.headers[k] === null ? due.within(() => side.price(c, s)) : undefined));
      waiting.push({ note: b.note(c), cpu, job: i * jobsPer });
      if (waiting.length === cap) await flush();
    }
    await flush();
  }

  /** One dispatch of plan.wgsl over the batch: 4 words per job. */
  private async dispatch(offs: Uint32Array, jobs: Uint32Array, pats: GPUBuffer, n: number): Promise<Uint32Array> {
    const d = this.device;
    const count = jobs.length / 2;
    const pipeline = this.pipelines.get(SHADERS.plan, 'main', 'plan');
    const params = upload(d, Uint32Array.from([count, n, 0, 0]), USAGE.UNIFORM, 'plan params', 16);
    const o = upload(d, offs as Uint32Array<ArrayBuffer>, USAGE.STORAGE, 'plan offsets');
    const j = upload(d, jobs as Uint32Array<ArrayBuffer>, USAGE.STORAGE, 'plan jobs');
    const out = d.createBuffer({ size: Math.max(16, 16 * count), usage: USAGE.STORAGE | USAGE.COPY_SRC, label: 'plan out' });
    try {
      const group = d.createBindGroup({
        layout: pipeline.getBindGroupLayout(0),
        entries: [params, o, pats, j, out].map((buffer, binding) => ({ binding, resource: { buffer } })),
      });
      const enc = d.createCommandEncoder();
      const pass = enc.beginComputePass();
      pass.setPipeline(pipeline);
      pass.setBindGroup(0, group);
      const [x, y] = gridFor(count, d.limits.maxComputeWorkgroupsPerDimension);
      pass.dispatchWorkgroups(x, y);
      pass.end();
      d.queue.submit([enc.finish()]);
      return new Uint32Array(await readBack(d, out, 16 * count, 'plan read-back'));
    } finally {
      for (const b of [params, o, j, out]) b.destroy();
    }
  }
}

const planners = new WeakMap<GPUDevice, GpuPlanner>();

/**
 * planSmem's answer with the candidates priced on the device (one GpuPlanner per device). Errors as GpuPlanner.plan's.
 * @example await planSmemGpu(req, (await acquireNodeDevice()).device)
 */
export function planSmemGpu(req: PlanRequest, device: GPUDevice): Promise<PlanResult> {
  let p = planners.get(device);
  if (p === undefined) planners.set(device, (p = new GpuPlanner(device)));
  return p.plan(req);
}

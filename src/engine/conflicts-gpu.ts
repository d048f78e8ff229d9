/**
 * The conflict-free search on the GPU (shaders/conflicts.wgsl), the same counts as searchCpu.
 * The candidates searchCpu prices from phase tables (search.ts fastPlan: plain, or a swizzle
 * with K = 0 that keeps the vectors) take one dispatch of main_classes, one invocation per
 * (candidate, pattern, phase class); every other candidate and pattern two dispatches of main
 * (vector checks, then one invocation per phase slot). Takes a GPUDevice (Node:
 * engine/node/device-node.ts; the page: navigator.gpu); its WebGPU calls go through the host (webgpu.ts).
 */
import { LayoutError } from '../algebra/errors.js';
import { isComposed, type ComposedLayout, type LayoutFunction } from '../cute/composed.js';
import { bitsBelow, swizzleWithin, topBit, type Swizzle } from '../cute/swizzle.js';
import { carryDeadline, type CarriedDeadline } from '../algebra/deadline.js';
import {
  checkPatterns,
  fastPlan,
  groupCandidates,
  groupPlan,
  instructionCount,
  NOT_INJECTIVE,
  searchCpu,
  shortcut,
  type SearchPattern,
  type CandidateResult,
  type FastPlan,
  type GroupPlan,
} from '../memory/search.js';
import { BankScratch } from '../memory/banks.js';
import type { ThreadValues } from '../memory/access.js';
import type { PhaseTable } from '../memory/phases.js';
import { SHADERS } from './shaders.generated.js';
import { gridOn, mapRead, PipelineCache, upload, USAGE } from './webgpu.js';
import { isNvidia, phaseGroups } from '../memory/machines.js';

const WG = 64;

/**
 * A pattern's machine for conflicts.wgsl (null: NVIDIA's §9.2 model, the shader's own phases): its wave, banks, phase
 * slots per instruction, and for 4, 8 and 16 bytes the lanes per phase and the lanes in phase order (65 words each;
 * n = 0 where the machine's table has no row for the pattern's direction; `missing` holds the model's message per width
 * without one, sub-dword ones included, which the host answers as searchCpu does).
 */
function machineTable(p: SearchPattern): { wave: number; banks: number; slots: number; words: Uint32Array; missing: Map<number, string> } | null {
  const t = p.target;
  if (t === undefined || isNvidia(t)) return null;
  const words = new Uint32Array(3 * 65);
  const missing = new Map<number, string>();
  let slots = 1;
  [4, 8, 16].forEach((w, r) => {
    try {
      const g = phaseGroups(t.machine, w, t.access);
      words[65 * r] = g.perPhase;
      words.set(g.order, 65 * r + 1);
      slots = Math.max(slots, g.wave / g.perPhase);
    } catch (e) {
      if (!(e instanceof LayoutError)) throw e;
      missing.set(w, e.message);
    }
  });
  for (const w of [1, 2]) {
    try {
      phaseGroups(t.machine, w, t.access);
    } catch (e) {
      if (!(e instanceof LayoutError)) throw e;
      missing.set(w, e.message);
    }
  }
  return { wave: t.machine.wave, banks: t.machine.banks, slots, words, missing };
}
/** invocations of one dispatch at most */
const BUDGET = 2 ** 26;

export class GpuConflictSearch {
  private readonly pipelines: PipelineCache;

  /** `classes: false` (tests): every candidate through the two passes, none priced from its
   *  phase tables */
  constructor(
    readonly device: GPUDevice,
    private readonly opts: { classes?: boolean } = {},
  ) {
    this.pipelines = new PipelineCache(device);
  }

  /** a buffer of `usage` holding `data` (at least 16 bytes) */
  private readonly upload = (data: Uint32Array, usage: number, label: string): GPUBuffer =>
    upload(this.device, data as Uint32Array<ArrayBuffer>, usage, label, 16);

  /** the pipeline of an entry point of conflicts.wgsl: `main` (the two passes) or `main_classes` */
  private pipe(entryPoint = 'main'): GPUComputePipeline {
    return this.pipelines.get(SHADERS.conflicts, entryPoint, `conflicts ${entryPoint}`);
  }

  /** [x, y] of `groups` workgroups; `overflow` beyond the adapter's grid */
  private grid(groups: number): [number, number] {
    const [gx, gy] = gridOn(this.device, groups);
    if (gy > this.device.limits.maxComputeWorkgroupsPerDimension) throw new LayoutError('overflow', 'the conflict search dispatch is too large');
    return [gx, gy];
  }

  /**
   * The verdict on every candidate, the same as searchCpu's. A swizzle acts as the swizzle that
   * agrees with it on the offsets reached (any B, M, S: one that reads bits above them is the
   * identity there); candidates whose byte addresses pass 32 bits are answered by searchCpu.
   * `due`: the request's deadline (`timeout` between dispatches and inside the CPU work).
   */
  async search(
    cands: readonly LayoutFunction[],
    patterns: readonly SearchPattern[],
    due: CarriedDeadline = carryDeadline('the conflict-free search'),
  ): Promise<CandidateResult[]> {
    const tvs = checkPatterns(patterns);
    const P = patterns.length;
    const groups = due.within(() => groupCandidates(cands, tvs));
    const out: CandidateResult[] = new Array(cands.length);
    // the bases of the groups, patterns one after the other
    const patStart: number[] = [];
    let perGroup = 0;
    for (const t of tvs) {
      patStart.push(perGroup);
      perGroup += t.index.length;
    }
    const usable = groups.filter((g) => g.injective && g.base.every((b) => typeof b !== 'string'));
    for (const g of groups) {
      if (!g.injective) {
        for (const i of g.members) out[i] = NOT_INJECTIVE;
        continue;
      }
      const err = g.base.find((b) => typeof b === 'string') as string | undefined;
      if (err !== undefined) for (const i of g.members) out[i] = { wavefronts: null, phases: null, conflictFree: false, error: err };
    }
    const groupAt = new Map<number, number>(); // candidate → its group's base start
    // per group what the CPU plans from (search.ts groupPlan): the widest vectors, whether the
    // base holds them (a candidate that keeps them, by `shortcut`, skips the vector checks of
    // pass 0), the largest base offset, the phase tables
    const scratch = new BankScratch();
    const planOf = new Map<number, GroupPlan>(); // candidate → its group's plan
    const base = new Uint32Array(Math.max(1, usable.length * perGroup));
    usable.forEach((g, k) => {
      for (let p = 0; p < P; p++) {
        const b = g.base[p] as Float64Array;
        for (let x = 0; x < b.length; x++) base[k * perGroup + patStart[p]! + x] = b[x]!;
      }
      const gp = due.within(() => groupPlan(g, tvs, patterns, scratch));
      for (const i of g.members) {
        groupAt.set(i, k * perGroup);
        planOf.set(i, gp);
      }
    });
    // pattern table: T, V, e, v, start, first (pass 0), first (pass 1), warps (waves), W, B, lane table, slots; then
    // the lane tables of the patterns on another machine than NVIDIA's (conflicts.wgsl's header)
    const tables = patterns.map((q) => machineTable(q));
    const pats = new Uint32Array(12 * P + tables.reduce((a, t) => a + (t?.words.length ?? 0), 0));
    let check = 0;
    let count = 0;
    let tableAt = 12 * P;
    tvs.forEach((t, p) => {
      const tab = tables[p];
      const wave = tab ? tab.wave : 32;
      const warps = Math.ceil(t.threads / wave);
      const slots = tab ? tab.slots : 4;
      pats.set(
        [t.threads, t.values, patterns[p]!.e, patterns[p]!.v ?? 0, patStart[p]!, check, count, warps, wave, tab?.banks ?? 32, tab ? tableAt : 0, slots],
        12 * p,
      );
      if (tab) {
        pats.set(tab.words, tableAt);
        tableAt += tab.words.length;
      }
      // pass 0: one invocation per block of the widest width checked (conflicts.wgsl `widest`)
      let w = 16 / patterns[p]!.e;
      while (w > 1 && t.values % w !== 0) w /= 2;
      check += t.threads * (t.values / w);
      count += warps * t.values * slots;
    });
    const perCand = [check, count];
    // the candidates search.ts prices from phase tables go to main_classes; the others (and any
    // whose swizzled leads could leave 32-bit word indices) to the two passes
    const planned: { i: number; plan: FastPlan }[] = [];
    // (the phase tables are NVIDIA's phases: another machine's patterns take the two passes)
    const onNvidia = patterns.every((q) => isNvidia(q.target));
    for (const [i, gp] of planOf) {
      if (!onNvidia) break;
      const plan = fastPlan(cands[i]!, gp.holds, gp.wide, patterns, gp.tableAt);
      if (plan !== null && swizzleBelow30(cands[i]!)) planned.push({ i, plan });
    }
    due();
    if (planned.length > 0 && this.opts.classes !== false) await this.priceClasses(planned, tvs, out);
    const todo = cands.map((_, i) => i).filter((i) => groupAt.has(i) && out[i] === undefined);
    // a candidate's swizzle as it acts on the offsets K + base it reaches: the bits it reads
    // above them are zero there (prep.ts swizzleWithin), so Sw<1,40,1> is the identity on a tile
    const swizzleOf = (i: number, c: ComposedLayout): Swizzle => swizzleWithin(c.swizzle, bitsBelow(Math.max(...planOf.get(i)!.maxBase) + c.offset + 1));
    const fits = (i: number): boolean => {
      const c = cands[i]!;
      const maxBase = Math.max(...planOf.get(i)!.maxBase);
      if (!isComposed(c)) return 16 * maxBase < 2 ** 32;
      const reach = topBit(swizzleOf(i, c));
      return reach <= 31 && 16 * 2 ** Math.max(reach, Math.ceil(Math.log2(maxBase + c.offset + 1))) <= 2 ** 32;
    };
    // candidates whose byte addresses pass 32 bits are answered on the CPU (exact), as searchCpu does
    const onCpu: number[] = [];
    const chunk = Math.max(1, Math.floor(BUDGET / Math.max(check, count)));
    for (let at = 0; at < todo.length; at += chunk) {
      const ids = todo.slice(at, at + chunk);
      const ok = ids.filter((i) => {
        if (fits(i)) return true;
        onCpu.push(i);
        return false;
      });
      if (ok.length === 0) continue;
      const cw = new Uint32Array(8 * ok.length);
      ok.forEach((i, k) => {
        const c = cands[i]!;
        const gp = planOf.get(i)!;
        let skip = 0;
        for (let p = 0; p < P; p++) if (gp.holds[p] && shortcut(c, gp.wide[p]!)) skip |= 1 << p;
        if (isComposed(c)) {
          const sw = swizzleOf(i, c);
          cw.set([sw.bits, sw.base, sw.shift >>> 0, c.offset, groupAt.get(i)!, skip], 8 * k);
        } else cw.set([0, 0, 0, 0, groupAt.get(i)!, skip], 8 * k);
      });
      // the candidates with a pattern to check (bit p of word 5 clear for some p)
      const all = (1 << P) - 1;
      const checkIds = Uint32Array.from({ length: ok.length }, (_, k) => k).filter((k) => cw[8 * k + 5] !== all);
      due();
      const { flags, totals } = await this.dispatch(cw, ok.length, checkIds, pats, P, base, perCand);
      due();
      ok.forEach((i, k) => {
        let wavefronts = 0;
        let phases = 0;
        let free = true;
        let instructions = 0;
        const vectors: number[] = [];
        let error: string | undefined;
        for (let p = 0; p < P; p++) {
          const v = patterns[p]!.v;
          const fl = flags[k * P + p]!;
          if (v !== undefined && (fl & v) !== 0) {
            error = `the vectors of ${v} values are not contiguous and aligned in memory (pattern ${p + 1})`;
            break;
          }
          // the width pass 1 took (conflicts.wgsl): the explicit v, or the widest that did not fail
          let width = v ?? 16 / patterns[p]!.e;
          if (v === undefined) while (width > 1 && ((fl & width) !== 0 || tvs[p]!.values % width !== 0)) width /= 2;
          const tab = tables[p];
          const gap = tab?.missing.get(width * patterns[p]!.e);
          if (gap !== undefined) error = `domain: ${gap}`;
          if (error !== undefined) break;
          vectors.push(width);
          instructions += tab ? Math.ceil(tvs[p]!.threads / tab.wave) * (tvs[p]!.values / width) : instructionCount(tvs[p]!, width);
          const w = totals[2 * (k * P + p)]!;
          const f = totals[2 * (k * P + p) + 1]!;
          wavefronts += w;
          phases += f;
          if (w > f) free = false;
        }
        out[i] =
          error !== undefined
            ? { wavefronts: null, phases: null, conflictFree: false, error }
            : { wavefronts, phases, conflictFree: free, vectors, instructions };
      });
    }
    if (onCpu.length > 0) {
      const cpu = due.within(() =>
        searchCpu(
          onCpu.map((i) => cands[i]!),
          patterns,
        ),
      );
      onCpu.forEach((i, k) => (out[i] = cpu[k]!));
    }
    return out;
  }

  /** The planned candidates priced on the GPU from their phase tables (main_classes): one job
   *  per candidate and pattern, one invocation per class of its table. */
  private async priceClasses(planned: readonly { i: number; plan: FastPlan }[], tvs: readonly ThreadValues[], out: CandidateResult[]): Promise<void> {
    // every table once: e, width, classes, leads offset, 5 words per class, then its leads
    const offsetOf = new Map<PhaseTable, number>();
    const words: number[] = [];
    const tableOffset = (t: PhaseTable): number => {
      let o = offsetOf.get(t);
      if (o !== undefined) return o;
      o = words.length;
      offsetOf.set(t, o);
      const leads = o + 4 + 5 * t.classes;
      words.push(t.e, t.width, t.classes, leads);
      for (let q = 0; q < t.classes; q++) words.push(t.first[q]!, t.lanes[q]!, t.mult[q]!, t.vary[q]! >>> 0, t.count[q]!);
      for (let x = 0; x < t.lead.length; x++) words.push(t.lead[x]! >>> 0);
      return o;
    };
    const P = planned[0]!.plan.tables.length;
    const jobs = new Uint32Array(8 * planned.length * P);
    let total = 0;
    planned.forEach(({ plan }, k) => {
      plan.tables.forEach((t, p) => {
        const j = k * P + p;
        jobs.set([plan.bits.mask >>> 0, plan.bits.r, plan.bits.l, tableOffset(t), t.classes, total], 8 * j);
        total += t.classes;
      });
    });
    const sums = await this.dispatchClasses(jobs, planned.length * P, Uint32Array.from(words), total);
    planned.forEach(({ i, plan }, k) => {
      let wavefronts = 0;
      let phases = 0;
      let free = true;
      let instructions = 0;
      plan.tables.forEach((t, p) => {
        const r = sums[k * P + p]!;
        wavefronts += r;
        phases += t.phases;
        instructions += instructionCount(tvs[p]!, t.w);
        if (r > t.phases) free = false;
      });
      out[i] = { wavefronts, phases, conflictFree: free, vectors: plan.tables.map((t) => t.w), instructions };
    });
  }

  private async dispatchClasses(jobs: Uint32Array, n: number, table: Uint32Array, total: number): Promise<Uint32Array> {
    const d = this.device;
    const mk = this.upload;
    const S = USAGE.STORAGE | USAGE.COPY_DST;
    const params = mk(new Uint32Array([n, 0, 2, total]), USAGE.UNIFORM | USAGE.COPY_DST, 'conflicts classes params');
    const bufs = [
      mk(jobs, S, 'conflicts class jobs'),
      mk(table, S, 'conflicts class tables'),
      mk(new Uint32Array(n), S | USAGE.COPY_SRC, 'conflicts class out'),
    ];
    const pipe = this.pipe('main_classes');
    const enc = d.createCommandEncoder({ label: 'conflicts classes' });
    const [gx, gy] = this.grid(Math.max(1, Math.ceil(total / WG)));
    const bind = d.createBindGroup({
      layout: pipe.getBindGroupLayout(0),
      entries: [{ binding: 0, resource: { buffer: params } }, ...bufs.map((buffer, k) => ({ binding: 7 + k, resource: { buffer } }))],
    });
    const cp = enc.beginComputePass({ label: 'conflicts classes' });
    cp.setPipeline(pipe);
    cp.setBindGroup(0, bind);
    cp.dispatchWorkgroups(gx, gy);
    cp.end();
    const sumsBuf = bufs[2]!;
    const read = d.createBuffer({ size: sumsBuf.size, usage: USAGE.MAP_READ | USAGE.COPY_DST, label: 'conflicts classes read' });
    enc.copyBufferToBuffer(sumsBuf, 0, read, 0, sumsBuf.size);
    d.queue.submit([enc.finish()]);
    const sums = new Uint32Array(await mapRead(read, { bytes: 4 * n }));
    for (const b of [...bufs, params, read]) b.destroy();
    return sums;
  }

  /** the two passes over n candidates; perCand: invocations per candidate of pass 0 and pass 1 */
  private async dispatch(
    cw: Uint32Array,
    n: number,
    ids: Uint32Array,
    pats: Uint32Array,
    P: number,
    base: Uint32Array,
    perCand: number[],
  ): Promise<{ flags: Uint32Array; totals: Uint32Array }> {
    const d = this.device;
    const mk = this.upload;
    const S = USAGE.STORAGE | USAGE.COPY_DST;
    const bufs = [
      mk(cw, S, 'conflicts cands'),
      mk(pats, S, 'conflicts patterns'),
      mk(base, S, 'conflicts base'),
      mk(new Uint32Array(n * P), S | USAGE.COPY_SRC, 'conflicts flags'),
      mk(new Uint32Array(2 * n * P), S | USAGE.COPY_SRC, 'conflicts out'),
      mk(ids.length ? ids : new Uint32Array(1), S, 'conflicts check ids'),
    ];
    const counts = [ids.length, n];
    const params = [0, 1].map((pass) =>
      mk(new Uint32Array([counts[pass]!, P, pass, perCand[pass]!]), USAGE.UNIFORM | USAGE.COPY_DST, `conflicts params ${pass}`),
    );
    const pipe = this.pipe();
    const enc = d.createCommandEncoder({ label: 'conflicts' });
    for (const pass of [0, 1]) {
      if (counts[pass] === 0) continue;
      const [gx, gy] = this.grid(Math.max(1, Math.ceil((counts[pass]! * perCand[pass]!) / WG)));
      const bind = d.createBindGroup({
        layout: pipe.getBindGroupLayout(0),
        entries: [{ binding: 0, resource: { buffer: params[pass]! } }, ...bufs.map((buffer, k) => ({ binding: k + 1, resource: { buffer } }))],
      });
      const cp = enc.beginComputePass({ label: `conflicts pass ${pass}` });
      cp.setPipeline(pipe);
      cp.setBindGroup(0, bind);
      cp.dispatchWorkgroups(gx, gy);
      cp.end();
    }
    const read = d.createBuffer({ size: 4 * 3 * n * P, usage: USAGE.MAP_READ | USAGE.COPY_DST, label: 'conflicts read' });
    enc.copyBufferToBuffer(bufs[3]!, 0, read, 0, 4 * n * P);
    enc.copyBufferToBuffer(bufs[4]!, 0, read, 4 * n * P, 8 * n * P);
    d.queue.submit([enc.finish()]);
    const all = new Uint32Array(await mapRead(read));
    for (const b of [...bufs, ...params, read]) b.destroy();
    return { flags: all.subarray(0, n * P), totals: all.subarray(n * P) };
  }
}

/** whether a candidate's swizzle keeps leads below 2^30 below 2^30 (its bits all lie below bit
 *  30), so that main_classes' word indices fit in u32 */
function swizzleBelow30(c: LayoutFunction): boolean {
  return !isComposed(c) || topBit(c.swizzle) <= 30;
}

/**
 * plan_smem of the table (docs/planner.md, docs/protocol.md "Planning a shared-memory
 * layout"): the request object read here (the tile, the dtype, each side by the readers
 * of ops/tiled.ts and linear/forms.ts, the arch, the families, top), the plan by src/planner/.
 * The planner, the atoms and the linear layouts are loaded on first use (ops/lazy.ts).
 */
import { carryDeadline } from '../algebra/deadline.js';
import { badRequestError, domainError } from '../algebra/errors.js';
import type { Side, Tile, Role } from '../planner/sides.js';
import type { FamilyName } from '../planner/families.js';
import type { PlanEntry, PlanOptions, PlanRequest, PlanResult } from '../planner/plan.js';
import type { PlanShardReport } from '../planner/shard.js';
import type { Machine } from '../planner/machine.js';
import type { DType } from '../descriptors/dtype.js';
import type { Json, OpContext, OpSpec } from './spec.js';
import { lazyModule, runningIn } from './lazy.js';
import { jsonText, readLayout, readTuple } from './args.js';
import { loadTiled, tiledCopyArg, tiledMmaArg } from './tiled.js';
import { hashText, parseShard, shardRange, type Shard } from '../verify/shard-range.js';

/** the planner's rooms, loaded by the first plan_smem (with the ops' side of the atoms) */
const P = lazyModule(async () => {
  await loadTiled();
  return {
    ...(await import('../planner/sides.js')),
    ...(await import('../planner/families.js')),
    ...(await import('../planner/plan.js')),
    ...(await import('../planner/shard.js')),
    ...(await import('../planner/machine.js')),
    ...(await import('../planner/descriptor-sides.js')),
    ...(await import('../descriptors/dtype.js')),
    ...(await import('../linear/forms.js')),
    ...(await import('../linear/encodings.js')),
  };
});

/** Settles once the planner is loaded (for callers of planArgs outside the table: the CLI). */
export const loadPlanner = async (): Promise<void> => P.load();

/** The largest tile a plan takes (elements). */
export const MAX_TILE = 1 << 20;

const REQUEST_KEYS = ['tile', 'dtype', 'write', 'read', 'arch', 'families', 'top', 'shard', 'threads', 'backend'];

/** The tile's shape: a flat tuple string of positive integers, at most MAX_TILE elements. */
function tileShape(v: unknown): number[] {
  if (typeof v !== 'string') throw badRequestError("the plan's 'tile' must be a shape string such as \"(128,64)\"");
  const t = readTuple(v, 'tile');
  const shape = typeof t === 'number' ? [t] : t;
  if (!shape.every((x) => typeof x === 'number')) throw domainError(`the tile ${v.trim()} must be a flat shape (one size per mode)`);
  const n = (shape as number[]).reduce((a, b) => a * b, 1);
  if (n > MAX_TILE) throw domainError(`the tile has ${n} elements; a plan takes at most 2^20`);
  return shape as number[];
}

/** A tensor-core side {"wgmma": "K" | "MN"} / {"umma": …}: its major; else `bad-request`. */
function majorArg(o: Record<string, unknown>, kind: 'wgmma' | 'umma', role: Role): 'K' | 'MN' {
  if (Object.keys(o).length !== 1) throw badRequestError(`the ${role} side {"${kind}": …} takes no other key`);
  const major = o[kind];
  if (major !== 'K' && major !== 'MN') throw badRequestError(`the ${role} side's '${kind}' must be "K" or "MN" (the operand's major)`);
  return major;
}

/** One side of the request (docs/planner.md, "Sides"): a TV layout string, `"tma"`, or an object. */
function sideArg(v: unknown, role: Role, tile: Tile, dt: DType, m: Machine): Side {
  const p = P.get();
  if (v === 'tma') return p.descriptorSide(role, { kind: 'tma' }, tile, dt, m);
  if (typeof v === 'string') return p.tvSide(role, readLayout(v, `the ${role} side`), tile, m);
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw badRequestError(`the ${role} side must be a TV layout string, "tma" or an object`);
  const o = v as Record<string, unknown>;
  for (const kind of ['wgmma', 'umma'] as const) if (kind in o) return p.descriptorSide(role, { kind, major: majorArg(o, kind, role) }, tile, dt, m);
  if ('ll' in o) {
    if (Object.keys(o).length !== 1) throw badRequestError(`the ${role} side {"ll": …} takes no other key`);
    return p.llSide(role, p.parseLL(o.ll), tile, m);
  }
  if ('encoding' in o) {
    if (Object.keys(o).length !== 1) throw badRequestError(`the ${role} side {"encoding": …} takes no other key`);
    if (typeof o.encoding !== 'string') throw badRequestError(`the ${role} side's 'encoding' must be a #ttg attribute string`);
    return p.llSide(role, p.llFromEncoding(o.encoding, tile.shape), tile, m);
  }
  if ('atom' in o) return p.copySide(role, tiledCopyArg(o), tile, m);
  if ('mma' in o) {
    const keys = Object.keys(o).filter((k) => k !== 'mma' && k !== 'operand');
    if (keys.length > 0) throw badRequestError(`unknown key(s) in the ${role} side's MMA operand: [${keys.map((k) => `'${k}'`).join(', ')}]`);
    const x = o.operand;
    if (x !== 'A' && x !== 'B' && x !== 'C') throw domainError(`the ${role} side's operand must be "A", "B" or "C"`);
    return p.operandSide(role, tiledMmaArg(o.mma), x, tile, m);
  }
  throw badRequestError(`the ${role} side object needs one of 'll', 'encoding', 'atom' (a tiled copy), 'mma' (an operand), 'wgmma', 'umma'`);
}

/** The families asked for (default: DEFAULT_FAMILIES, docs/planner.md), in docs/planner.md's order. */
function familiesArg(v: unknown): FamilyName[] {
  const p = P.get();
  if (v === undefined) return [...p.DEFAULT_FAMILIES];
  if (!Array.isArray(v) || !v.every((f) => typeof f === 'string')) throw badRequestError("the plan's 'families' must be an array of family names");
  for (const f of v as string[]) {
    if (!(p.FAMILIES as readonly string[]).includes(f)) throw domainError(`unknown family '${f.slice(0, 24)}': one of ${p.FAMILIES.join(', ')}`);
    if (!(p.BUILT_FAMILIES as readonly string[]).includes(f)) throw domainError(`the ${f} family is not yet in the planner (docs/planner.md)`);
  }
  if (v.length === 0) throw domainError("the plan's 'families' is empty");
  return p.FAMILIES.filter((f) => (v as string[]).includes(f));
}

function topArg(v: unknown): number {
  if (v === undefined) return 8;
  if (typeof v !== 'number' || !Number.isInteger(v)) throw badRequestError("the plan's 'top' must be a JSON integer");
  if (v < 1 || v > 1 << 20) throw domainError(`the plan's 'top' is ${v}: at least 1`);
  return v;
}

/**
 * The plan_smem request object read (docs/planner.md): the tile, both sides built over it, the machine, the
 * families, top (the page's planner panel draws the sides' banks from it). Errors as planArgs.
 */
function readRequest(arg: unknown): { req: PlanRequest; r: Record<string, unknown>; key: () => string; engine: PlanEngine } {
  const p = P.get();
  const o = jsonText(arg, () => 'the plan request is not valid JSON');
  if (typeof o !== 'object' || o === null || Array.isArray(o))
    throw badRequestError('the plan request must be a JSON object {"tile", "dtype", "write", "read", …}');
  const r = o as Record<string, unknown>;
  const unknown = Object.keys(r).filter((k) => !REQUEST_KEYS.includes(k));
  if (unknown.length > 0) throw badRequestError(`unknown key(s) in the plan request: [${unknown.map((k) => `'${k}'`).join(', ')}]`);
  for (const k of ['tile', 'dtype', 'write', 'read']) if (r[k] === undefined) throw badRequestError(`the plan request needs '${k}'`);
  if (typeof r.dtype !== 'string') throw badRequestError("the plan's 'dtype' must be a CuTe type name such as \"half_t\"");
  if (r.arch !== undefined && typeof r.arch !== 'string') throw badRequestError("the plan's 'arch' must be a string such as \"sm90\"");
  if (r.shard !== undefined && typeof r.shard !== 'string') throw badRequestError("the plan's 'shard' must be a string \"k/n\"");
  const shape = tileShape(r.tile);
  const dt = p.dtypeOf(r.dtype);
  const e = dt.bytes;
  const arch = (r.arch as string | undefined) ?? 'sm90';
  const machine = p.machineOf(arch);
  const tile: Tile = { shape, size: shape.reduce((a, b) => a * b, 1), e };
  const families = familiesArg(r.families);
  const top = topArg(r.top);
  const engine = engineArg(r);
  const write = sideArg(r.write, 'write', tile, dt, machine);
  const read = sideArg(r.read, 'read', tile, dt, machine);
  const req = { tile, dtype: r.dtype, write, read, machine, families, top };
  // the plan's identity: what decides its candidates, their prices and its answer (a merge refuses to mix two)
  const key = (): string => hashText(JSON.stringify({ tile: shape, dtype: r.dtype, write: r.write, read: r.read, arch, families, top }));
  return { req, r, key, engine };
}

/** The plan_smem request read (the page's planner panel draws the sides' banks from it); errors as planAnswer. */
export const planRequest = (arg: unknown): PlanRequest => readRequest(arg).req;

/** The plan_smem request read, and where it asks to be priced (`threads`, `backend`); errors as planAnswer. */
export function planRequestOf(arg: unknown): { request: PlanRequest; engine: PlanEngine } {
  const { req, engine } = readRequest(arg);
  return { request: req, engine };
}

/** Where a plan's candidates are priced (docs/planner.md "Scale"): worker threads and the backend (absent: the context's). */
export interface PlanEngine {
  readonly threads?: number;
  readonly backend?: 'cpu' | 'gpu' | 'auto';
}

/** The request's `threads` and `backend` (bad-request for other values). */
function engineArg(r: Record<string, unknown>): PlanEngine {
  const t = r.threads;
  if (t !== undefined && (typeof t !== 'number' || !Number.isSafeInteger(t) || t < 1)) {
    throw badRequestError("the plan's 'threads' must be a positive JSON integer (1 = this thread)");
  }
  const b = r.backend;
  if (b !== undefined && b !== 'cpu' && b !== 'gpu' && b !== 'auto') throw badRequestError('the plan\'s \'backend\' must be "cpu", "gpu" or "auto"');
  return { ...(t === undefined ? {} : { threads: t }), ...(b === undefined ? {} : { backend: b }) };
}

/** The GPU device of the context's backend, when it is the GPU's (the choice `auto` may give the CPU). */
async function deviceOf(ctx: OpContext, choice: 'cpu' | 'gpu' | 'auto'): Promise<GPUDevice | null> {
  if (choice === 'cpu') return null;
  const b = await ctx.backend();
  const device = (b as unknown as { device?: GPUDevice }).device;
  return b.info.backend === 'gpu' && device ? device : null;
}

/**
 * plan_smem where the request or the context asks (docs/planner.md "Scale"): `backend` gpu (or the context's: batch
 * and CLI --backend) prices on the GPU (planner/gpu.ts), `threads` > 1 (or the context's --threads) on the worker
 * threads the context gives (ctx.planThreaded: the CLI and batch; the page has none and plans on its thread). The
 * answer is planSmem's whichever prices it; a plan on this thread stays synchronous (and alone reports `progress`).
 * A shard (`"shard"`, or `o.shard`) and a plan with the linear family (searched whole, by branch and bound) are priced on
 * this thread.
 */
export function planOn(
  arg: unknown,
  ctx: OpContext,
  o: Pick<PlanOptions, 'progress'> & { shard?: Shard | null } = {},
): PlanResult | PlanShardReport | Promise<PlanResult> {
  const p = P.get();
  const read = readRequest(arg);
  const { req: request, r, engine } = read;
  if (r.shard !== undefined || (o.shard ?? null) !== null || request.families.includes('linear')) return answerOf(read, o);
  const choice = engine.backend ?? (engine.threads !== undefined ? 'cpu' : ctx.backendChoice);
  const threads = engine.threads ?? ctx.threads ?? 1;
  if (choice === 'cpu' && (threads <= 1 || ctx.planThreaded === undefined))
    return p.planSmem(request, o.progress === undefined ? {} : { progress: o.progress });
  const due = carryDeadline('the planner');
  return (async () => {
    const device = await deviceOf(ctx, choice);
    if (device !== null) {
      const g = await import('../planner/gpu.js');
      return due.within(() => g.planSmemGpu(request, device));
    }
    if (threads > 1 && ctx.planThreaded !== undefined) return due.within(() => ctx.planThreaded!(request, threads));
    return due.within(() => p.planSmem(request));
  })();
}

/**
 * The plan_smem request object's plan (docs/planner.md); with `"shard": "k/n"` (or `shard` given, the CLI's --shard and
 * LAYOUTGPU_SHARD) the report of that shard (planner/shard.ts), which plan_merge and `layoutgpu merge` join. `o.progress`
 * follows the enumeration. Errors: `bad-request` for a malformed request, `parse` for a side's text, `domain` for what the
 * planner does not take, `timeout`.
 */
export function planAnswer(arg: unknown, o: Pick<PlanOptions, 'progress'> & { shard?: Shard | null } = {}): PlanResult | PlanShardReport {
  return answerOf(readRequest(arg), o);
}

/** planAnswer of a request already read (planOn reads it once for both paths). */
function answerOf(read: ReturnType<typeof readRequest>, o: Pick<PlanOptions, 'progress'> & { shard?: Shard | null }): PlanResult | PlanShardReport {
  const p = P.get();
  const { req, r, key } = read;
  const shard = r.shard !== undefined ? parseShard(r.shard as string, "the plan's 'shard'") : (o.shard ?? null);
  const progress = o.progress === undefined ? {} : { progress: o.progress };
  if (shard === null) return p.planSmem(req, progress);
  return p.planShard(req, { k: shard.k, n: shard.n, range: (t) => shardRange(t, shard) }, key(), progress);
}

/** planAnswer of a request for the whole plan (a `"shard"` in it is `bad-request`: planAnswer answers those). */
export function planArgs(arg: unknown, o: Pick<PlanOptions, 'progress'> = {}): PlanResult {
  const a = planAnswer(arg, o);
  if (isShardAnswer(a)) throw badRequestError("this caller takes the whole plan: a request with 'shard' answers a shard report (planAnswer)");
  return a;
}

/** Whether an answer of planAnswer is a shard's report. */
export const isShardAnswer = (r: PlanResult | PlanShardReport): r is PlanShardReport => 'shard' in r;

/**
 * The plan of all the shard reports of one plan (planner/shard.ts mergePlanShards), exactly the unsharded plan's answer;
 * `names` name the reports in messages. Errors: `bad-request` (another plan, a shard missing or given twice, not a shard report).
 */
export function mergePlanArgs(reports: unknown, names?: readonly string[]): PlanResult {
  if (!Array.isArray(reports)) throw badRequestError('plan_merge takes the list of the shard reports');
  return P.get().mergePlanShards(reports.map((report, i) => ({ name: names?.[i] ?? `shard report ${i + 1}`, report })));
}

/** Whether a parsed report is a plan's shard report (for `layoutgpu merge`). */
export const isPlanShard = (v: unknown): boolean => P.get().isPlanShardReport(v);

/** The CLI's line for a shard's report (its JSON, with --json, is what layoutgpu merge reads). */
export function formatShard(r: PlanShardReport): string {
  const searched = Object.entries(r.searched)
    .map(([f, n]) => `${f} ${n}`)
    .join(', ');
  const best = r.front[0];
  return [
    `shard ${r.shard.k}/${r.shard.n}: candidates [${r.shard.first}, ${r.shard.end}) of ${r.shard.of} (${searched}); a front of ${r.front.length}`,
    ...(best ? [`best of the shard: ${best.layout} (write ${best.write.wavefronts}, read ${best.read.wavefronts} wavefronts, ${best.bytes} bytes)`] : []),
    'run it with --json and join the n reports with layoutgpu merge',
  ].join('\n');
}

const sideText = (s: PlanEntry['write']): string =>
  `${s.instruction}${s.instruction.endsWith('shared') ? `.${8 * s.vectorBytes}` : ''} ${s.wavefronts}/${s.phases}`;

/** The CLI's rendering: the front as a table, the certificate in one line, Triton's layout beside. */
export function formatPlan(r: PlanResult): string {
  const head = ['#', 'write (wavefronts/phases)', 'read (wavefronts/phases)', 'bytes', 'family', 'layout'];
  const row = (i: string, x: PlanEntry): string[] => [
    i,
    sideText(x.write),
    sideText(x.read),
    String(x.bytes),
    x.family + (x.tma || x.gmma ? ` (${[x.tma ? 'tma' : '', x.gmma ?? ''].filter((t) => t !== '').join(', ')})` : ''),
    x.layout,
  ];
  const rows = [head, ...r.front.map((x, i) => row(String(i + 1), x)), ...(r.triton ? [row('triton', r.triton)] : [])];
  const widths = head.map((_, j) => Math.max(...rows.map((x) => x[j]!.length)));
  const lines = rows.map((x) => x.map((c, j) => (j === x.length - 1 ? c : c.padEnd(widths[j]!))).join('  '));
  const c = r.certificate;
  const searched = Object.entries(r.searched)
    .map(([f, n]) => `${f} ${n}`)
    .join(', ');
  lines.push(
    c.kind === 'lower-bound'
      ? `certificate: lower-bound (the best reaches both sides' least wavefronts; ${c.count} candidates: ${searched})`
      : `certificate: exhaustive over ${c.family} (${c.count} candidates: ${searched})`,
  );
  if (!r.triton) lines.push('triton: none (not both sides F2-linear over a power-of-two tile)');
  return lines.join('\n');
}

export const plannerOps: OpSpec[] = runningIn(P, [
  {
    name: 'plan_smem',
    summary: "the shared-memory layout for a write and a read side of a tile: Pareto front, certificate, Triton's layout (docs/planner.md)",
    args: [{ name: 'request', kind: 'json' }],
    run: ([req], ctx) => planOn(req, ctx) as unknown as Json | Promise<Json>,
    human: (r) => (isShardAnswer(r as unknown as PlanResult) ? formatShard(r as unknown as PlanShardReport) : formatPlan(r as unknown as PlanResult)),
  },
  {
    name: 'plan_merge',
    summary: 'the plan of all n shard reports of one plan_smem request ("shard": "k/n"), exactly the unsharded plan (docs/planner.md)',
    args: [{ name: 'shards', kind: 'json' }],
    run: ([reports]) => mergePlanArgs(reports) as unknown as Json,
    human: (r) => formatPlan(r as unknown as PlanResult),
  },
]);

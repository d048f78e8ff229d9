/**
 * Shards of a plan and their merge (docs/planner.md, "Shards"). Shard k of n prices the candidates
 * [⌊(k−1)·T/n⌋, ⌊k·T/n⌋) of the plan's enumeration (the T members of its families in order,
 * duplicates included: plan.ts enumerationOf), each family's order kept, and answers its whole
 * Pareto front with the rank keys (each entry's number in the enumeration, the key of its function),
 * its counts, both sides' least wavefronts and Triton's entry with the first candidate of its
 * function it met. The merge of all n is exactly the unsharded plan: the front of the shards'
 * fronts is the front of every candidate (a candidate dominated in the whole plan is dominated by
 * a front entry of the shard that holds its dominator, and the first candidate of a function that
 * no candidate dominates stands in its shard's front), ranked by the same keys.
 */
import { LayoutError } from '../algebra/errors.js';
import { parseLayoutFunction } from '../cute/composed.js';
import { FAMILIES, type FamilyName } from './families.js';
import {
  certificateOf,
  enumerationOf,
  entryOf,
  expressible,
  noCandidate,
  paretoFront,
  priceRows,
  tritonRow,
  twinOf,
  withExpressibility,
  type PlanEntry,
  type PlanOptions,
  type PlanRequest,
  type PlanResult,
  type Row,
} from './plan.js';
import type { SidePrice } from './price.js';

/** A front entry of a shard: the entry, its number in the plan's enumeration and the key of its function. */
export interface PlanShardEntry extends PlanEntry {
  readonly seq: number;
  readonly key: string;
}

/** What shard k of n of a plan answers (`plan_smem` with `"shard"`, `layoutgpu plan --shard k/n --json`). */
export interface PlanShardReport {
  /** the plan it is a part of: the request's identity, its families and top, both sides' least wavefronts, the enumeration's length */
  readonly plan: { readonly key: string; readonly families: readonly FamilyName[]; readonly top: number; readonly least: { write: number; read: number } };
  /** shard k of n: the candidates [first, end) of the `of` of the enumeration */
  readonly shard: { readonly k: number; readonly n: number; readonly first: number; readonly end: number; readonly of: number };
  /** the candidates of the range, per family (duplicates of an earlier member of their family left out) */
  readonly searched: Record<string, number>;
  /** the shard's whole Pareto front, ranked */
  readonly front: readonly PlanShardEntry[];
  /** Triton's entry (tma and gmma false and null) and the first candidate of the range with its function, or null */
  readonly triton: { readonly entry: PlanEntry; readonly twin: { seq: number; tma: boolean; gmma: string | null } | null } | null;
}

/** Shard k of n of a plan, and the candidates [first, end) of the enumeration it prices. */
export interface PlanPart {
  readonly k: number;
  readonly n: number;
  /** the candidates of shard k of the enumeration's `total` (verify/shard.ts shardRange: [⌊(k−1)·T/n⌋, ⌊k·T/n⌋)) */
  readonly range: (total: number) => readonly [number, number];
}

/**
 * Shard `part` of the plan `req`, whose identity (a hash of its request) is `key`. Errors: `timeout`
 * through the deadline; a shard with no accepted candidate answers an empty front (the merge decides).
 * @example planShard(req, {k: 2, n: 4, range: (t) => shardRange(t, {k: 2, n: 4})}, 'c0ffee…').front
 */
export function planShard(req: PlanRequest, part: PlanPart, key: string, o: Pick<PlanOptions, 'progress'> = {}): PlanShardReport {
  const { total } = enumerationOf(req);
  const [first, end] = part.range(total);
  const shard = part;
  const { searched, rows, s } = priceRows(req, { range: [first, end], ...o });
  const t = tritonRow(req, s);
  const twin = t === null ? undefined : twinOf(t.row, rows);
  const front = paretoFront(rows).map((r) => ({ ...entryOf(req, r, FAMILIES[r.fam]!), seq: r.seq, key: r.key }));
  return {
    plan: { key, families: req.families, top: req.top, least: { write: req.write.least, read: req.read.least } },
    shard: { k: shard.k, n: shard.n, first, end, of: total },
    searched,
    front,
    triton: t === null ? null : { entry: t.entry, twin: twin === undefined ? null : { seq: twin.seq, ...expressible(req, twin.layout) } },
  };
}

const bad = (m: string): LayoutError => new LayoutError('bad-request', m);
const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Whether a parsed report is a plan's shard report (it has a `plan` and a `shard`). */
export const isPlanShardReport = (v: unknown): boolean => isObject(v) && isObject(v.plan) && isObject(v.shard) && 'front' in v;

/** A side's figures are counts. */
const isSidePrice = (v: unknown): v is SidePrice =>
  isObject(v) && typeof v.instruction === 'string' && ['vectorBytes', 'instructions', 'wavefronts', 'phases', 'conflicts'].every((k) => isCount(v[k]));

/** The report checked for its shape and its counts (each failure names the shard). Errors: `bad-request`. */
function asPlanShard(name: string, v: unknown): PlanShardReport {
  if (!isPlanShardReport(v)) throw bad(`${name} is not a plan's shard report (the output of layoutgpu plan … --shard k/n --json)`);
  const r = v as Record<string, unknown> & { plan: Record<string, unknown>; shard: Record<string, unknown> };
  const sh = r.shard;
  const where = `${name} (shard ${String(sh.k)}/${String(sh.n)})`;
  for (const k of ['k', 'n', 'first', 'end', 'of'])
    if (!isCount(sh[k])) throw bad(`${where}: "shard.${k}" must be a non-negative integer, got ${JSON.stringify(sh[k])}`);
  const p = r.plan;
  const least = p.least as Record<string, unknown> | undefined;
  const fams = p.families;
  const okPlan =
    typeof p.key === 'string' &&
    isCount(p.top) &&
    isObject(least) &&
    isCount(least.write) &&
    isCount(least.read) &&
    Array.isArray(fams) &&
    fams.length > 0 &&
    fams.every((f) => (FAMILIES as readonly unknown[]).includes(f));
  if (!okPlan) throw bad(`${where}: "plan" must hold the request's key, its families, top and both sides' least wavefronts`);
  const searched = r.searched;
  if (!isObject(searched) || (fams as string[]).some((f) => !isCount(searched[f])) || Object.keys(searched).length !== (fams as string[]).length)
    throw bad(`${where}: "searched" must count every family of the plan (${(fams as string[]).join(', ')})`);
  const { first, end } = sh as { first: number; end: number };
  if (!Array.isArray(r.front)) throw bad(`${where}: "front" must be a list of entries`);
  for (const x of r.front as unknown[]) {
    const e = x as Record<string, unknown>;
    const ok =
      isObject(e) &&
      typeof e.layout === 'string' &&
      (fams as unknown[]).includes(e.family) &&
      isCount(e.bytes) &&
      typeof e.tma === 'boolean' &&
      (e.gmma === null || typeof e.gmma === 'string') &&
      isSidePrice(e.write) &&
      isSidePrice(e.read) &&
      typeof e.key === 'string' &&
      isCount(e.seq) &&
      e.seq >= first &&
      e.seq < end;
    if (!ok) throw bad(`${where}: a front entry is not one of the shard's (layout, family, bytes, tma, gmma, write, read, seq in [${first}, ${end}), key)`);
  }
  const t = r.triton;
  if (t !== null && !(isObject(t) && isObject(t.entry) && (t.twin === null || (isObject(t.twin) && isCount(t.twin.seq)))))
    throw bad(`${where}: "triton" must be null or {entry, twin}`);
  return v as PlanShardReport;
}

/** A shard's front entry as a row of plan.ts's ranking (its function read back from its layout, for the same-function rule). */
function rowOf(x: PlanShardEntry, where: string): Row & { entry: PlanEntry } {
  const { seq, key, ...entry } = x;
  let layout: Row['layout'];
  try {
    layout = parseLayoutFunction(x.layout);
  } catch {
    throw bad(`${where}: the front entry ${JSON.stringify(x.layout.slice(0, 60))} is not a layout`);
  }
  return { fam: FAMILIES.indexOf(x.family), seq, layout, key, bytes: x.bytes, write: x.write, read: x.read, entry };
}

/**
 * The plan of all n shards of one plan, exactly what the unsharded plan answers. Errors (`bad-request`, naming the report):
 * a report that is not a plan's shard report, shards of another plan or another number of shards, a shard given twice or
 * missing, a shard that covers other candidates than k/n of the enumeration; `domain` when no candidate of any shard is
 * accepted by both sides (as the plan would say).
 * @example mergePlanShards([{name: 'a.json', report: a}, {name: 'b.json', report: b}]).certificate
 */
export function mergePlanShards(inputs: readonly { name: string; report: unknown }[]): PlanResult {
  if (inputs.length === 0) throw bad('merge needs at least one shard report');
  const list = inputs.map((x) => ({ name: x.name, report: asPlanShard(x.name, x.report) }));
  const first = list[0]!;
  const s0 = first.report;
  const { n, of } = s0.shard;
  const byK = new Map<number, { name: string; report: PlanShardReport }>();
  for (const x of list) {
    const r = x.report;
    const samePlan =
      r.plan.key === s0.plan.key &&
      r.shard.of === of &&
      r.plan.top === s0.plan.top &&
      r.plan.families.join() === s0.plan.families.join() &&
      r.plan.least.write === s0.plan.least.write &&
      r.plan.least.read === s0.plan.least.read &&
      JSON.stringify(r.triton?.entry ?? null) === JSON.stringify(s0.triton?.entry ?? null);
    if (!samePlan) throw bad(`${x.name} belongs to a different plan than ${first.name} (another request: tile, dtype, sides, arch, families or top)`);
    if (r.shard.n !== n) throw bad(`${x.name} is shard ${r.shard.k}/${r.shard.n}, ${first.name} is shard ${s0.shard.k}/${n}: one plan, one number of shards`);
    if (r.shard.k < 1 || r.shard.k > n) throw bad(`${x.name}: shard ${r.shard.k}/${n} is not one of 1 … ${n}`);
    const seen = byK.get(r.shard.k);
    if (seen) throw bad(`shard ${r.shard.k}/${n} is given twice: ${seen.name} and ${x.name}`);
    byK.set(r.shard.k, x);
  }
  const missing = Array.from({ length: n }, (_, i) => i + 1).filter((k) => !byK.has(k));
  if (missing.length) throw bad(`missing shard${missing.length > 1 ? 's' : ''} ${missing.map((k) => `${k}/${n}`).join(', ')}`);
  // in order of k, the shards' ranges partition [0, of): each starts where the previous ended
  let at = 0;
  for (let k = 1; k <= n; k++) {
    const { name, report: r } = byK.get(k)!;
    if (r.shard.first !== at || r.shard.end < at || (k === n && r.shard.end !== of))
      throw bad(
        `${name}: shard ${k}/${n} covers the candidates [${r.shard.first}, ${r.shard.end}); after the shards before it, it should start at ${at}${k === n ? ` and end at ${of}` : ''}`,
      );
    at = r.shard.end;
  }
  const shards = Array.from({ length: n }, (_, i) => byK.get(i + 1)!.report);
  const families = s0.plan.families;
  const searched: Record<string, number> = {};
  for (const f of families) searched[f] = shards.reduce((a, r) => a + r.searched[f]!, 0);
  const count = Object.values(searched).reduce((a, b) => a + b, 0);
  const rows = shards.flatMap((r) => r.front.map((x) => rowOf(x, `shard ${r.shard.k}/${n}`)));
  if (rows.length === 0) throw noCandidate(families, count);
  const front = paretoFront(rows) as (Row & { entry: PlanEntry })[];
  // Triton's twin: the first candidate of its function in the whole enumeration, the earliest of the shards'
  const twins = shards.flatMap((r) => (r.triton?.twin ? [r.triton.twin] : [])).sort((a, b) => a.seq - b.seq);
  const t = s0.triton;
  const twin = twins[0];
  const triton = t === null ? null : withExpressibility(t.entry, twin === undefined ? { tma: false, gmma: null } : twin);
  const certificate = certificateOf(front[0]!, s0.plan.least, families, count);
  return { searched, front: front.slice(0, s0.plan.top).map((r) => r.entry), certificate, triton };
}

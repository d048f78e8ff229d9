/**
 * plan_smem (docs/planner.md): every candidate of the chosen families priced on both
 * sides, the Pareto front over (write wavefronts, read wavefronts, bytes) ranked by total
 * wavefronts, then bytes, then family order (then enumeration order), and the certificate.
 */
import { checkDeadline, currentDeadline, withDeadline } from '../algebra/deadline.js';
import { domainError, isLayoutError, LayoutError } from '../algebra/errors.js';
import { formatLayoutFunction, type LayoutFunction } from '../cute/composed.js';
import { Pool32 } from '../memory/access.js';
import { dtypeOf } from '../descriptors/dtype.js';
import { gmmaField, tmaOf } from './descriptor-sides.js';
import { candidates, FAMILIES, memberCount, offsetsOf, tableKey, type Candidate, type FamilyName } from './families.js';
import type { Machine } from './machine.js';
import { PriceScratch, type SidePrice } from './price.js';
import type { Side, Tile } from './sides.js';
import { linearLayoutText, searchLinear } from './linear-family.js';
import { offsetsOfBases, sharedLL, tritonBases, tritonTarget } from './triton.js';
import { formatLL } from '../linear/forms.js';

/** What plan_smem is asked: the tile, its dtype, both sides, the machine, the families, how many entries. */
export interface PlanRequest {
  readonly tile: Tile;
  readonly dtype: string;
  readonly write: Side;
  readonly read: Side;
  readonly machine: Machine;
  readonly families: readonly FamilyName[];
  readonly top: number;
}

/** An entry of the front (docs/protocol.md). */
export interface PlanEntry {
  readonly layout: string;
  readonly family: FamilyName;
  readonly bytes: number;
  /** whether tmaDescriptor (docs/descriptors.md §2) accepts it over the row-major global tensor of the tile (descriptor-sides.ts) */
  readonly tma: boolean;
  /** the major and layout type gmmaDescriptor (docs/descriptors.md §3) gives every k-block (`K B128`), or null (descriptor-sides.ts gmmaField) */
  readonly gmma: string | null;
  readonly write: SidePrice;
  readonly read: SidePrice;
}

/** The certificate: the best reaches both sides' least wavefronts, or the search was exhaustive over the families. */
export interface Certificate {
  readonly kind: 'lower-bound' | 'exhaustive';
  readonly family: string;
  readonly count: number;
}

/** The plan_smem result (docs/protocol.md). */
export interface PlanResult {
  readonly searched: Record<string, number>;
  readonly front: PlanEntry[];
  readonly certificate: Certificate;
  readonly triton: PlanEntry | null;
}

/** A priced candidate kept for the front. */
export interface Row {
  readonly fam: number;
  /** its number in the enumeration (enumerationOf; without a range or progress, in its family's: the ranking compares it within a family) */
  readonly seq: number;
  readonly layout: LayoutFunction;
  readonly key: string;
  readonly bytes: number;
  readonly write: SidePrice;
  readonly read: SidePrice;
  /** its offsets, when it has no layout function of its own (Triton's layout) */
  readonly offsets?: Int32Array;
}

/** A row's offsets by tile index (a fresh copy). */
const tableOf = (r: Row): Int32Array => r.offsets ?? offsetsOf(r.layout, new Pool32())!.offsets.slice();

/** Whether two rows are the same function. */
export function same(a: Row, b: Row): boolean {
  const x = tableOf(a);
  const y = tableOf(b);
  return x.length === y.length && x.every((v, i) => v === y[i]);
}

const LINEAR = FAMILIES.indexOf('linear');

const total = (r: { write: SidePrice; read: SidePrice }): number => r.write.wavefronts + r.read.wavefronts;

/** docs/planner.md's ranking: total wavefronts, bytes, family order, then enumeration order. */
export function rankRows<R extends { fam: number; seq: number; bytes: number; write: SidePrice; read: SidePrice }>(a: R, b: R): number {
  return total(a) - total(b) || a.bytes - b.bytes || a.fam - b.fam || a.seq - b.seq;
}

/** Whether (w, r, b) dominates (w2, r2, b2): no worse in each, better in one. */
export const dominates = (x: readonly number[], y: readonly number[]): boolean =>
  x[0]! <= y[0]! && x[1]! <= y[1]! && x[2]! <= y[2]! && (x[0]! < y[0]! || x[1]! < y[1]! || x[2]! < y[2]!);

/**
 * The Pareto front of ranked rows: in rank order, a row is kept unless a kept row dominates it
 * (a dominating row ranks first: its total is no larger, and at an equal total its bytes are
 * smaller) or a kept row has the same function (the earlier family's candidate stands).
 */
export function paretoFront(rows: Row[]): Row[] {
  rows.sort(rankRows);
  const kept: Row[] = [];
  const triples: number[][] = [];
  for (const r of rows) {
    checkDeadline('the planner');
    const t = [r.write.wavefronts, r.read.wavefronts, r.bytes];
    if (triples.some((k) => dominates(k, t))) continue;
    if (kept.some((k) => k.key === r.key && same(k, r))) continue;
    kept.push(r);
    if (!triples.some((k) => k[0] === t[0] && k[1] === t[1] && k[2] === t[2])) triples.push(t);
  }
  return kept;
}

/** The expressibility of a layout function (docs/planner.md, "The front, the ranking, the certificate"): the descriptors room decides `tma` and `gmma`. */
export function expressible(req: PlanRequest, l: LayoutFunction): { tma: boolean; gmma: string | null } {
  const dt = dtypeOf(req.dtype);
  return { tma: tmaOf(l, req.tile, dt) !== null, gmma: gmmaField(l, req.tile, dt, req.machine) };
}

/** The entry of a row, its tma and gmma decided by the descriptors room (a linear row: by its CuTe twin among `rows`, if any). */
export function entryOf(req: PlanRequest, r: Row, fam: FamilyName, rows: readonly Row[] = []): PlanEntry {
  if (r.fam === LINEAR) {
    const twin = twinOf(r, rows);
    const x = twin === undefined ? { tma: false, gmma: null } : expressible(req, twin.layout);
    return { layout: linearLayoutText(r.offsets!, req.tile), family: fam, bytes: r.bytes, ...x, write: r.write, read: r.read };
  }
  return { layout: formatLayoutFunction(r.layout), family: fam, bytes: r.bytes, ...expressible(req, r.layout), write: r.write, read: r.read };
}

/**
 * The linear family's rows (linear-family.ts searchLinear, docs/planner.md "The linear family's search"): the rows
 * priced so far bound the search, every member that can reach the first `top` entries comes back as a row with its
 * offsets; returns the family's count.
 */
function linearRows(req: PlanRequest, s: PriceScratch, rows: Row[], nextSeq: () => number): number {
  const { tile, write, read, machine, top } = req;
  // with no deadline in force (batch without --request-timeout, the library), the search gets LINEAR_BUDGET_MS of its
  // own: on a tile where no family reaches the bound it may not close for hours, and an answer never comes is no answer
  if (!Number.isFinite(currentDeadline())) {
    try {
      return withDeadline(LINEAR_BUDGET_MS, () => linearRows(req, s, rows, nextSeq));
    } catch (e) {
      if (isLayoutError(e) && e.kind === 'timeout')
        throw new LayoutError(
          'timeout',
          `the linear family's search did not close within its ${LINEAR_BUDGET_MS / 1000} s (no deadline was given; docs/planner.md ` +
            `"The linear family's search"): give the request a deadline (--timeout, --request-timeout) or leave linear out of 'families'`,
        );
      throw e;
    }
  }
  return searchLinear({
    tile,
    write,
    read,
    machine,
    top,
    known: [...rows],
    price: (c) => priceCandidate(req, c, s),
    earlier: (key, offsets) => rows.some((r) => r.fam !== LINEAR && r.key === key && same(r, { ...r, offsets })),
    emit: (offsets, key, p) => rows.push({ fam: LINEAR, seq: nextSeq(), layout: { shape: 1, stride: 0 }, key, bytes: tile.size * tile.e, ...p, offsets }),
  });
}

/** The linear family's own budget where no deadline is in force (ms). */
export const LINEAR_BUDGET_MS = 30_000;

/** Prices one candidate on both sides: null when a side does not accept it. */
export function priceCandidate(req: PlanRequest, c: Candidate, s: PriceScratch): { write: SidePrice; read: SidePrice } | null {
  const write = req.write.price(c, s);
  if (write === null) return null;
  const read = req.read.price(c, s);
  return read === null ? null : { write, read };
}

/** How a run of the planner goes: the part of the enumeration it prices (a shard's, shard.ts) and a progress callback. */
export interface PlanOptions {
  /** price only the candidates numbered [lo, hi) in the enumeration (enumerationOf); the others are enumerated up to hi (a candidate is
   *  one of its family only if no earlier member has its function) but not priced */
  readonly range?: readonly [number, number];
  /** called every few candidates with the members enumerated and their number (of the range, when there is one) */
  readonly progress?: (done: number, total: number) => void;
}

/**
 * The enumeration a plan walks (docs/planner.md, "Shards"): the members of the families in order, duplicates included,
 * each family's numbers following the previous family's. `first[f]` is family f's first number, `total` their number.
 */
export function enumerationOf(req: Pick<PlanRequest, 'families' | 'tile' | 'dtype'>): { first: number[]; total: number } {
  const first: number[] = [];
  let total = 0;
  for (const fam of req.families) {
    first.push(total);
    total += memberCount(fam, req.tile, req.dtype);
  }
  return { first, total };
}

/** The candidates a run prices: searched per family (those of the range), the rows both sides accept, the scratch. */
export function priceRows(req: PlanRequest, o: PlanOptions = {}): { searched: Record<string, number>; rows: Row[]; s: PriceScratch } {
  const s = new PriceScratch();
  const searched: Record<string, number> = {};
  const rows: Row[] = [];
  const famIndex = (f: FamilyName): number => FAMILIES.indexOf(f);
  const walk = o.range !== undefined || o.progress !== undefined ? enumerationOf(req) : null;
  const [lo, hi] = o.range ?? [0, walk?.total ?? Infinity];
  const span = hi - lo;
  let tick = 0;
  req.families.forEach((fam, f) => {
    let n = 0;
    const at = walk?.first[f] ?? 0;
    if (fam === 'linear') {
      // searched whole (branch and bound, linear-family.ts): a shard of a plan takes the enumerated families only
      if (o.range !== undefined) throw domainError('the linear family is searched whole, by branch and bound: a sharded plan takes swizzle, padded and atoms');
      let k = 0;
      searched[fam] = linearRows(req, s, rows, () => at + k++);
      return;
    }
    if (walk !== null && (at >= hi || (walk.first[f + 1] ?? walk.total) <= lo)) {
      searched[fam] = 0; // no member of this family is in the range
      return;
    }
    let seq = at;
    for (const c of candidates(fam, req.tile, req.dtype)) {
      seq = at + c.index;
      if (seq >= hi) break;
      if ((++tick & 63) === 0 && o.progress) o.progress(Math.max(0, seq - lo), span);
      if (seq < lo) continue;
      n++;
      const p = priceCandidate(req, c, s);
      if (p === null) continue;
      rows.push({ fam: famIndex(fam), seq, layout: c.layout, key: c.key, bytes: c.cosize * req.tile.e, ...p });
    }
    searched[fam] = n;
  });
  o.progress?.(span, span);
  return { searched, rows, s };
}

/** The certificate of a front's best entry (docs/planner.md): lower-bound when it reaches both sides' least, else exhaustive over the families. */
export function certificateOf(
  best: Pick<Row, 'fam' | 'write' | 'read'>,
  least: { write: number; read: number },
  families: readonly string[],
  count: number,
): Certificate {
  const lower = best.write.wavefronts === least.write && best.read.wavefronts === least.read;
  return lower ? { kind: 'lower-bound', family: FAMILIES[best.fam]!, count } : { kind: 'exhaustive', family: families.join('+'), count };
}

/** The error of a plan in which no candidate is accepted by both sides (`domain`), with the reason where the request
 *  shows one (whyNone). */
export const noCandidate = (families: readonly string[], count: number, why = ''): Error =>
  domainError(`no candidate of the families ${families.join(', ')} (${count} searched) is accepted by both sides${why}`);

/** Why no candidate may be accepted, where the request shows it: on AMD an access below 4 bytes has no published phase
 *  grouping (docs/memory.md), so a side of elements under 4 bytes is priced only where a layout keeps its values
 *  contiguous to 4 bytes or more. */
export function whyNone(req: Pick<PlanRequest, 'machine' | 'tile'>): string {
  if (req.machine.vendor !== 'amd' || req.tile.e >= 4) return '';
  return (
    `: on ${req.machine.name} an LDS access of fewer than 4 bytes has no published phase grouping, so a side of ${req.tile.e}-byte ` +
    'elements is priced only on a layout that keeps its values contiguous to 4 bytes or more'
  );
}

/**
 * plan_smem over built sides (docs/planner.md). Errors: `domain` when no candidate of the families is
 * accepted by both sides; `timeout` through the deadline. `o.progress` follows the enumeration.
 * @example planSmem({tile, dtype: 'half_t', write, read, machine: machineOf('sm90'), families: ['swizzle'], top: 8})
 */
export function planSmem(req: PlanRequest, o: Pick<PlanOptions, 'progress'> = {}): PlanResult {
  const { searched, rows, s } = priceRows(req, o);
  const count = Object.values(searched).reduce((a, b) => a + b, 0);
  if (rows.length === 0) throw noCandidate(req.families, count, whyNone(req));
  const t = tritonRow(req, s);
  const twin = t === null ? undefined : twinOf(t.row, rows);
  const triton = t === null ? null : withExpressibility(t.entry, twin === undefined ? { tma: false, gmma: null } : expressible(req, twin.layout));
  const front = paretoFront(rows);
  const entries = front.slice(0, req.top).map((r) => entryOf(req, r, FAMILIES[r.fam]!, rows));
  const certificate = certificateOf(front[0]!, { write: req.write.least, read: req.read.least }, req.families, count);
  return { searched, front: entries, certificate, triton };
}

/** An entry with its tma and gmma (in the entry's key order). */
export const withExpressibility = (x: PlanEntry, e: { tma: boolean; gmma: string | null }): PlanEntry => ({
  layout: x.layout,
  family: x.family,
  bytes: x.bytes,
  tma: e.tma,
  gmma: e.gmma,
  write: x.write,
  read: x.read,
});

/** The first row with the function of `own` (the enumeration's order), if any. */
export const twinOf = (own: Row, rows: readonly Row[]): Row | undefined => rows.find((r) => r.fam !== LINEAR && r.key === own.key && same(r, own));

/**
 * Triton's layout for the pair (triton.ts) priced on the same model, where both sides are
 * F2-linear register layouts over a power-of-two tile; null otherwise, or when a side does not
 * accept it (it then has no price on this model). Its entry's tma and gmma are false and null here: they are the
 * descriptors' answers for the searched candidate of the same function (twinOf; they take CuTe layouts), false and null when none is.
 */
export function tritonRow(req: PlanRequest, s: PriceScratch): { entry: PlanEntry; row: Row } | null {
  const { write, read, tile } = req;
  if (write.registers === null || read.registers === null || (tile.size & (tile.size - 1)) !== 0) return null;
  const t = tritonBases(write.registers, read.registers, 8 * tile.e, Math.log2(tile.size), tritonTarget(req.machine));
  if (t === null) return null;
  const bases = t.bases;
  const offsets = offsetsOfBases(bases);
  const c: Candidate = { family: 'linear', layout: { shape: 1, stride: 0 }, atom: null, offsets, cosize: tile.size, key: tableKey(offsets), index: 0 };
  const p = priceCandidate(req, c, s);
  if (p === null) return null;
  const layout = formatLL(sharedLL(bases, tile), 'mlir');
  const row: Row = { fam: 1, seq: 0, layout: c.layout, key: c.key, bytes: 0, ...p, offsets };
  return { entry: { layout, family: 'linear', bytes: tile.size * tile.e, tma: false, gmma: null, write: p.write, read: p.read }, row };
}

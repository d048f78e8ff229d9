/**
 * plan_smem (docs/planner.md): every candidate of the chosen families priced on both
 * sides, the Pareto front over (write wavefronts, read wavefronts, bytes) ranked by total
 * wavefronts, then bytes, then family order (then enumeration order), and the certificate.
 */
import { checkDeadline } from '../algebra/deadline.js';
import { domainError } from '../algebra/errors.js';
import { formatLayoutFunction, type LayoutFunction } from '../cute/composed.js';
import { Pool32 } from '../memory/access.js';
import { dtypeOf } from '../descriptors/dtype.js';
import { gmmaField, tmaOf } from './descriptor-sides.js';
import { candidates, FAMILIES, offsetsOf, tableKey, type Candidate, type FamilyName } from './families.js';
import type { Machine } from './machine.js';
import { PriceScratch, type SidePrice } from './price.js';
import type { Side, Tile } from './sides.js';
import { offsetsOfBases, sharedLL, tritonBases } from './triton.js';
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
function same(a: Row, b: Row): boolean {
  const x = tableOf(a);
  const y = tableOf(b);
  return x.length === y.length && x.every((v, i) => v === y[i]);
}

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
function expressible(req: PlanRequest, l: LayoutFunction): { tma: boolean; gmma: string | null } {
  const dt = dtypeOf(req.dtype);
  return { tma: tmaOf(l, req.tile, dt) !== null, gmma: gmmaField(l, req.tile, dt, req.machine) };
}

/** The entry of a row, its tma and gmma decided by the descriptors room. */
export function entryOf(req: PlanRequest, r: Row, fam: FamilyName): PlanEntry {
  return { layout: formatLayoutFunction(r.layout), family: fam, bytes: r.bytes, ...expressible(req, r.layout), write: r.write, read: r.read };
}

/** Prices one candidate on both sides: null when a side does not accept it. */
export function priceCandidate(req: PlanRequest, c: Candidate, s: PriceScratch): { write: SidePrice; read: SidePrice } | null {
  const write = req.write.price(c, s);
  if (write === null) return null;
  const read = req.read.price(c, s);
  return read === null ? null : { write, read };
}

/**
 * plan_smem over built sides (docs/planner.md). Errors: `domain` when no candidate of the families is
 * accepted by both sides; `timeout` through the deadline.
 * @example planSmem({tile, dtype: 'half_t', write, read, machine: machineOf('sm90'), families: ['swizzle'], top: 8})
 */
export function planSmem(req: PlanRequest): PlanResult {
  const s = new PriceScratch();
  const searched: Record<string, number> = {};
  const rows: Row[] = [];
  const famIndex = (f: FamilyName): number => FAMILIES.indexOf(f);
  let seq = 0;
  for (const fam of req.families) {
    let n = 0;
    for (const c of candidates(fam, req.tile, req.dtype)) {
      n++;
      const p = priceCandidate(req, c, s);
      if (p === null) continue;
      rows.push({ fam: famIndex(fam), seq: seq++, layout: c.layout, key: c.key, bytes: c.cosize * req.tile.e, ...p });
    }
    searched[fam] = n;
  }
  const count = Object.values(searched).reduce((a, b) => a + b, 0);
  if (rows.length === 0) throw domainError(`no candidate of the families ${req.families.join(', ')} (${count} searched) is accepted by both sides`);
  const triton = tritonEntry(req, s, rows);
  const front = paretoFront(rows);
  const entries = front.slice(0, req.top).map((r) => entryOf(req, r, FAMILIES[r.fam]!));
  const best = front[0]!;
  const lower = best.write.wavefronts === req.write.least && best.read.wavefronts === req.read.least;
  const certificate: Certificate = lower
    ? { kind: 'lower-bound', family: FAMILIES[best.fam]!, count }
    : { kind: 'exhaustive', family: req.families.join('+'), count };
  return { searched, front: entries, certificate, triton };
}

/**
 * Triton's layout for the pair (triton.ts) priced on the same model, where both sides are
 * F2-linear register layouts over a power-of-two tile; null otherwise, or when a side does not
 * accept it (it then has no price on this model). Its tma and gmma are the descriptors' answers for
 * the searched candidate of the same function (they take CuTe layouts), false and null when none is.
 */
export function tritonEntry(req: PlanRequest, s: PriceScratch, rows: readonly Row[]): PlanEntry | null {
  const { write, read, tile } = req;
  if (write.registers === null || read.registers === null || (tile.size & (tile.size - 1)) !== 0) return null;
  const t = tritonBases(write.registers, read.registers, 8 * tile.e, Math.log2(tile.size));
  if (t === null) return null;
  const bases = t.bases;
  const offsets = offsetsOfBases(bases);
  const c: Candidate = { family: 'linear', layout: { shape: 1, stride: 0 }, atom: null, offsets, cosize: tile.size, key: tableKey(offsets) };
  const p = priceCandidate(req, c, s);
  if (p === null) return null;
  const layout = formatLL(sharedLL(bases, tile), 'mlir');
  const own: Row = { fam: 1, seq: 0, layout: c.layout, key: c.key, bytes: 0, ...p, offsets };
  const twin = rows.find((r) => r.key === own.key && same(r, own));
  const x = twin === undefined ? { tma: false, gmma: null } : expressible(req, twin.layout);
  return { layout, family: 'linear', bytes: tile.size * tile.e, ...x, write: p.write, read: p.read };
}

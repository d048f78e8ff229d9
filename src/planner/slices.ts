import type { LayoutFunction } from '../cute/composed.js';
import { Pool32 } from '../memory/access.js';
import { candidates, FAMILIES, memberCount, memberLayouts, offsetsOf, tableKey, type Candidate, type FamilyName } from './families.js';
import {
  certificateOf,
  entryOf,
  expressible,
  noCandidate,
  whyNone,
  paretoFront,
  priceCandidate,
  tritonRow,
  twinOf,
  withExpressibility,
  type PlanRequest,
  type PlanResult,
  type Row,
} from './plan.js';
import { PriceScratch, type SidePrice } from './price.js';
import { offsetsOfBases, tritonBases, tritonTarget } from './triton.js';

/** A slice of a plan: members lo … hi − 1 of a family. */
export interface SliceSpec {
  readonly family: FamilyName;
  readonly lo: number;
  readonly hi: number;
}

/** A slice priced: its candidates (member numbers and keys, in order), the front of its rows, its first twin of Triton's layout. */
export interface PricedSlice {
  readonly family: FamilyName;
  readonly lo: number;
  readonly indices: number[];
  readonly keys: string[];
  readonly front: Row[];
  readonly twin: Row | null;
}

/** Triton's layout for the pair as offsets and key (plan.ts tritonEntry's construction), or null where it has none. */
export interface TritonTable {
  readonly key: string;
  readonly offsets: Int32Array;
}

/** The offsets of Triton's layout for the pair, when both sides are F2-linear over a power-of-two tile (as tritonEntry). */
export function tritonTable(req: PlanRequest): TritonTable | null {
  const { write, read, tile } = req;
  if (write.registers === null || read.registers === null || (tile.size & (tile.size - 1)) !== 0) return null;
  const t = tritonBases(write.registers, read.registers, 8 * tile.e, Math.log2(tile.size), tritonTarget(req.machine));
  if (t === null) return null;
  const offsets = offsetsOfBases(t.bases);
  return { key: tableKey(offsets), offsets };
}

function equalTables(x: Int32Array, y: Int32Array): boolean {
  if (x.length !== y.length) return false;
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false;
  return true;
}

/** What a slice keeps of a candidate before the enumeration moves on (its offsets are then overwritten). */
export interface CandidateNote {
  readonly index: number;
  readonly key: string;
  readonly layout: LayoutFunction;
  readonly cosize: number;
  /** whether it has the function of Triton's layout */
  readonly twin: boolean;
}

/** The rows of one slice as its candidates are priced, in enumeration order; `finish` answers the PricedSlice. */
export class SliceBuilder {
  private readonly rows: Row[] = [];
  private readonly indices: number[] = [];
  private readonly keys: string[] = [];
  private twin: Row | null = null;
  private readonly fam: number;

  constructor(
    private readonly req: PlanRequest,
    private readonly spec: SliceSpec,
    private readonly triton: TritonTable | null,
  ) {
    this.fam = FAMILIES.indexOf(spec.family);
  }

  /** the slice's family */
  get family(): FamilyName {
    return this.spec.family;
  }

  /** The note of a candidate of the slice. */
  note(c: Candidate): CandidateNote {
    const t = this.triton;
    const twin = t !== null && c.key === t.key && equalTables(c.offsets, t.offsets);
    return { index: c.index!, key: c.key, layout: c.layout, cosize: c.cosize, twin };
  }

  /** Adds the candidate's price (null: a side does not accept it). */
  add(n: CandidateNote, p: { write: SidePrice; read: SidePrice } | null): void {
    this.indices.push(n.index);
    this.keys.push(n.key);
    if (p === null) return;
    const row: Row = { fam: this.fam, seq: n.index, layout: n.layout, key: n.key, bytes: n.cosize * this.req.tile.e, ...p };
    this.rows.push(row);
    if (n.twin && this.twin === null) this.twin = row;
  }

  finish(): PricedSlice {
    return { family: this.spec.family, lo: this.spec.lo, indices: this.indices, keys: this.keys, front: paretoFront(this.rows), twin: this.twin };
  }
}

/**
 * The slice priced on this thread with planSmem's code (priceCandidate: the sides' prices, price.ts).
 * @example priceSlice(req, {family: 'swizzle', lo: 0, hi: 100}, tritonTable(req))
 */
export function priceSlice(req: PlanRequest, spec: SliceSpec, triton: TritonTable | null, s = new PriceScratch()): PricedSlice {
  const b = new SliceBuilder(req, spec, triton);
  for (const c of candidates(spec.family, req.tile, req.dtype, { lo: spec.lo, hi: spec.hi })) b.add(b.note(c), priceCandidate(req, c, s));
  return b.finish();
}

/**
 * A member's relative cost, used only to cut and order the slices (the answer does not depend on it): on NVIDIA's model
 * a swizzle is priced from its base's phase tables (docs/planner.md, "The price"), about a sixth of a member counted
 * directly (padded, atoms, every family on AMD; measured on the corpus's 128×128 plan: 0.07 ms against 0.43 ms).
 */
const memberWeight = (family: FamilyName, req: PlanRequest): number => (family === 'swizzle' && req.machine.vendor === 'nvidia' ? 1 : 6);

/**
 * The slices of a plan: every family's members cut into ranges of about an equal cost (total / parts by memberWeight,
 * at least `min` members), the costliest first, so that a thread that pulls the next slice ends on a short one and no
 * thread waits long for the last. Example: planSlices(req, 8) for two threads taking four slices each.
 */
export function planSlices(req: PlanRequest, parts: number, min = 16): SliceSpec[] {
  const counts = req.families.map((f) => memberCount(f, req.tile, req.dtype));
  const weights = req.families.map((f) => memberWeight(f, req));
  const total = counts.reduce((a, n, i) => a + n * weights[i]!, 0);
  const stepCost = total / Math.max(1, parts);
  const out: { spec: SliceSpec; cost: number; order: number }[] = [];
  req.families.forEach((family, i) => {
    const step = Math.max(min, Math.ceil(stepCost / weights[i]!));
    for (let lo = 0; lo < counts[i]!; lo += step) {
      const hi = Math.min(counts[i]!, lo + step);
      out.push({ spec: { family, lo, hi }, cost: (hi - lo) * weights[i]!, order: out.length });
    }
  });
  return out.sort((a, b) => b.cost - a.cost || a.order - b.order).map((x) => x.spec);
}

/** Members' offsets, recomputed on demand: the layouts listed once, each member's offsets once. */
interface MemberTables {
  layouts: LayoutFunction[] | null;
  readonly tables: Map<number, Int32Array | null>;
}

/** Whether members a and b of a family are the same function (their offsets recomputed: equal keys are rare but for duplicates). */
function sameMembers(req: PlanRequest, family: FamilyName, a: number, b: number, cache: MemberTables): boolean {
  const table = (i: number): Int32Array | null => {
    if (!cache.tables.has(i)) {
      cache.layouts ??= memberLayouts(family, req.tile, req.dtype);
      const l = cache.layouts[i];
      cache.tables.set(i, l === undefined ? null : (offsetsOf(l, new Pool32())?.offsets.slice() ?? null));
    }
    return cache.tables.get(i)!;
  };
  const x = table(a);
  const y = table(b);
  return x !== null && y !== null && equalTables(x, y);
}

/**
 * The plan of priced slices that together cover each family's members (planSlices), the same PlanResult as planSmem:
 * the keys of later slices compared with earlier ones (a function already met leaves the count and the front), the
 * fronts merged, Triton's entry with its first twin. Errors as planSmem's (`domain`: no candidate accepted).
 */
export function planFromSlices(req: PlanRequest, slices: readonly PricedSlice[]): PlanResult {
  const searched: Record<string, number> = {};
  const union: Row[] = [];
  const twins: Row[] = [];
  for (const family of req.families) {
    const own = slices.filter((x) => x.family === family).sort((a, b) => a.lo - b.lo);
    const seen = new Map<string, number[]>();
    const cache: MemberTables = { layouts: null, tables: new Map() };
    let n = 0;
    for (const sl of own) {
      const dup = new Set<number>();
      for (let i = 0; i < sl.keys.length; i++) {
        const key = sl.keys[i]!;
        const m = sl.indices[i]!;
        const earlier = seen.get(key);
        if (earlier !== undefined && earlier.some((e) => e < sl.lo && sameMembers(req, family, e, m, cache))) {
          dup.add(m);
          continue;
        }
        if (earlier === undefined) seen.set(key, [m]);
        else earlier.push(m);
        n++;
      }
      for (const r of sl.front) if (!dup.has(r.seq)) union.push(r);
      if (sl.twin !== null) twins.push(sl.twin);
    }
    searched[family] = n;
  }
  const count = Object.values(searched).reduce((a, b) => a + b, 0);
  if (union.length === 0) throw noCandidate(req.families, count, whyNone(req));
  const t = tritonRow(req, new PriceScratch());
  const twin = t === null ? undefined : twinOf(t.row, twins);
  const triton = t === null ? null : withExpressibility(t.entry, twin === undefined ? { tma: false, gmma: null } : expressible(req, twin.layout));
  const front = paretoFront(union);
  const entries = front.slice(0, req.top).map((r) => entryOf(req, r, FAMILIES[r.fam]!));
  const certificate = certificateOf(front[0]!, { write: req.write.least, read: req.read.least }, req.families, count);
  return { searched, front: entries, certificate, triton };
}

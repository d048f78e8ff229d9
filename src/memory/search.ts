/**
 * The conflict-free search (issue 12, item 4): candidate memory layouts ranked by the total
 * wavefronts of one or more access patterns (docs/semantics.md §9.2). The swizzle source enumerates every
 * Sw<B,M,S> o base with 1 ≤ B ≤ 5, M ≤ 7, B ≤ |S| ≤ 10. The CPU path here computes the same
 * counts as bankConflicts, sharing each group's tables (the candidates over one inner layout
 * differ only in the outer function) and skipping the worst phase and the sectors;
 * swizzles with K = 0 are priced from per-phase tables of the base (phases.ts: exact);
 * src/engine/conflicts-gpu.ts computes them on the GPU.
 */
import { checkDeadline } from '../algebra/deadline.js';
import { LayoutError, counted } from '../algebra/errors.js';
import { flat, type Layout } from '../algebra/layout.js';
import { formatLayout } from '../algebra/notation.js';
import { formatLayoutFunction, innerLayout, isComposed, makeComposed, type ComposedLayout, type LayoutFunction } from '../cute/composed.js';
import { makeSwizzle } from '../cute/swizzle.js';
import { accessOffsets, checkElementSize, Pool, swizzleInPlace, threadValues, vectorFault, vectorWidth, type ThreadValues } from './access.js';
import { BankScratch, countWavefronts, instructions, WARP, type Instructions } from './banks.js';
import { sourceLow, targetLow } from '../cute/swizzle.js';
import { phaseTable, swizzleBits, swizzledWavefronts, swizzleKeepsVectors, type PhaseTable } from './phases.js';
import { injectiveEntries } from '../algebra/entries.js';
import { isNvidia, phaseGroups, type BankTarget } from './machines.js';
import { waveCounts } from './wave-counts.js';

/** One access pattern: a TV layout, the element size, the vector width (default: the widest). */
export interface AccessPattern {
  readonly tv: Layout;
  readonly e: number;
  readonly v?: number;
  /** the machine and direction (machines.ts; absent: §9.2's NVIDIA model) */
  readonly target?: BankTarget;
}

/** An access pattern by its table of (thread, value) → tile index, for a side form without a TV layout: a tiled copy's or
 *  an MMA operand's whole tile, an LL's registers (ops/bank-sides.ts bankPattern). */
export interface TablePattern {
  readonly table: ThreadValues;
  readonly e: number;
  readonly v?: number;
  /** the machine and direction (machines.ts; absent: §9.2's NVIDIA model) */
  readonly target?: BankTarget;
}

/** What the search prices: a TV layout's pattern or a table's. */
export type SearchPattern = AccessPattern | TablePattern;

/** Phases and wavefronts of one pattern's instructions on its target (NVIDIA's: countWavefronts; others: wave-counts.ts). */
function countOn(ins: Instructions, p: SearchPattern, scratch: BankScratch): { phases: number; wavefronts: number } {
  if (p.target === undefined) return countWavefronts(ins, scratch);
  const g = phaseGroups(p.target.machine, ins.width, p.target.access);
  return isNvidia(p.target) ? countWavefronts(ins, scratch) : waveCounts(ins, g);
}

/** The instructions of a pattern at width v on its target's warps or waves. */
const instructionsOn = (p: SearchPattern, tvs: ThreadValues, v: number): number => Math.ceil(tvs.threads / (p.target?.machine.wave ?? WARP)) * (tvs.values / v);

/** The verdict on one candidate: total phases and wavefronts over the patterns, or the reason
 *  it cannot be accessed so (a vector that is not contiguous and aligned, a TV value ≥ size).
 *  A candidate whose Φ is not injective is no shared-memory layout (two indices would share
 *  an element): it is excluded (`excluded: 'not-injective'`, never conflict-free). */
export interface CandidateResult {
  readonly wavefronts: number | null;
  readonly phases: number | null;
  readonly conflictFree: boolean;
  readonly error?: string;
  /** per pattern, the vector width the access takes (docs/semantics.md §9.2: the explicit v, or the widest) */
  readonly vectors?: readonly number[];
  /** the instructions of every pattern summed (per pattern: warps · values / vector) */
  readonly instructions?: number;
  readonly excluded?: 'not-injective';
}

/** The verdict on a candidate whose Φ is not injective. */
export const NOT_INJECTIVE: CandidateResult = {
  wavefronts: null,
  phases: null,
  conflictFree: false,
  error: 'not injective: two tile indices share an element (no shared-memory layout)',
  excluded: 'not-injective',
};

/** The instructions of one warp-by-warp access at vector width v (docs/semantics.md §9.2: instruction k of
 *  warp g moves values k·v … k·v+v−1 of threads 32g … 32g+31). */
export const instructionCount = (tvs: { threads: number; values: number }, v: number): number => Math.ceil(tvs.threads / WARP) * (tvs.values / v);

/**
 * Whether Φ of a candidate with this inner layout is injective on [0, size): Sw(K + ·) is a
 * bijection (docs/semantics.md §9.1), so the inner layout decides (strides sorted and
 * superincreasing, else a walk of its offsets).
 * @example injectiveInner(parseLayout('(8,64):(0,1)')) // false
 */
export function injectiveInner(inner: Layout): boolean {
  const { shapes, strides } = flat(inner);
  return injectiveEntries(shapes, strides, 0, shapes.length);
}

/**
 * Every Sw<B,M,S> o base with 1 ≤ B ≤ 5, 0 ≤ M ≤ 7, B ≤ |S| ≤ 10 (S of both signs), in order of
 * B, then M, then S ascending (640 candidates). Example: swizzleCandidates(parseLayout('(8,64):(64,1)'))[0]
 * is Sw<1,0,-10> o (8,64):(64,1).
 */
export function swizzleCandidates(base: Layout): ComposedLayout[] {
  const out: ComposedLayout[] = [];
  for (let b = 1; b <= 5; b++)
    for (let m = 0; m <= 7; m++) for (let s = -10; s <= 10; s++) if (Math.abs(s) >= b) out.push(makeComposed(makeSwizzle(b, m, s), 0, base));
  return out;
}

/** Check the patterns (element sizes, explicit vector widths, plain rank-2 TV layouts). */
export function checkPatterns(patterns: readonly SearchPattern[]): ThreadValues[] {
  if (patterns.length === 0) throw new LayoutError('bad-request', 'the search needs at least one access pattern');
  return patterns.map((p) => {
    checkElementSize(p.e);
    const tvs = 'table' in p ? p.table : threadValues(p.tv);
    if (p.v !== undefined) {
      const v = p.v;
      if (!(Number.isInteger(v) && v >= 1 && (v & (v - 1)) === 0) || v * p.e > 16) {
        throw new LayoutError('domain', `vector width v = ${v}: v must be a power of two with v*e <= 16 (e = ${p.e})`);
      }
      if (tvs.values % v !== 0) throw new LayoutError('domain', `vector width v = ${v} does not divide the ${counted(tvs.values, 'value')} of each thread`);
      if (p.target !== undefined) phaseGroups(p.target.machine, v * p.e, p.target.access); // the machine's row, or domain
    }
    return tvs;
  });
}

/** Candidates grouped by inner layout: what each group shares is Φ_L(Φ_TV) per pattern. */
export interface Group {
  readonly inner: Layout;
  readonly members: number[];
  /** per pattern, Φ_L(Φ_TV(t, j)) at t + T·j, or the error of the pattern on L */
  readonly base: (Float64Array | string)[];
  /** whether Φ_L is injective (else every member is excluded: NOT_INJECTIVE) */
  readonly injective: boolean;
}

export function groupCandidates(cands: readonly LayoutFunction[], tvs: readonly ThreadValues[]): Group[] {
  const byText = new Map<string, Group>();
  cands.forEach((c, i) => {
    const inner = innerLayout(c);
    const key = formatLayout(inner);
    let g = byText.get(key);
    if (!g) {
      const base = tvs.map((t) => {
        try {
          return accessOffsets(inner, t).slice();
        } catch (e) {
          if (e instanceof LayoutError) return e.message;
          throw e;
        }
      });
      g = { inner, members: [], base, injective: injectiveInner(inner) };
      byText.set(key, g);
    }
    g.members.push(i);
  });
  return [...byText.values()];
}

const pools = { off: new Pool(), addr: new Pool() };

/** Whether every thread's vectors of v values are contiguous and aligned in `base` itself. */
function vectorsHold(base: Float64Array, tvs: ThreadValues, v: number): boolean {
  return tvs.values % v === 0 && vectorFault(base, tvs, v) === null;
}

/**
 * The shortcut of the search (exact): when the base offsets hold vectors of the widest width w
 * the pattern allows (16/e, or the explicit v), K ≡ 0 (mod w) and the swizzle reads and writes
 * only bits ≥ log2 w, then Sw(K + y + i) = Sw(K + y) + i for every aligned y and i < w, so the
 * candidate's vectors hold at w too, and the default takes w (nothing is wider). Then only the
 * first element of each vector needs its offset.
 */
export function shortcut(c: LayoutFunction, w: number): boolean {
  if (!isComposed(c)) return true;
  if (c.offset % w !== 0) return false;
  const sw = c.swizzle;
  return sw.bits === 0 || Math.min(sourceLow(sw), targetLow(sw)) >= Math.log2(w);
}

/** The instructions of a candidate from the base offsets, swizzling only the vectors' first
 *  elements (pre-condition: shortcut holds). */
function instructionsOf(c: LayoutFunction, base: Float64Array, tvs: ThreadValues, e: number, v: number, maxBase: number): Instructions {
  const { threads: T, values: V } = tvs;
  const warps = Math.ceil(T / WARP);
  const perWarp = V / v;
  const addr = pools.addr.get(warps * perWarp * WARP);
  const lead = pools.off.get(T * perWarp);
  for (let k = 0; k < perWarp; k++) lead.set(base.subarray(T * k * v, T * k * v + T), T * k);
  if (isComposed(c)) swizzleInPlace(lead, c.swizzle, c.offset, maxBase);
  for (let g = 0; g < warps; g++) {
    for (let k = 0; k < perWarp; k++) {
      const row = (g * perWarp + k) * WARP;
      const lanes = Math.min(WARP, T - g * WARP);
      for (let lane = 0; lane < lanes; lane++) addr[row + lane] = e * lead[g * WARP + lane + T * k]!;
    }
  }
  return { width: v * e, vector: v, threads: T, warps, perWarp, addr };
}

const phaseBuf = new Float64Array(WARP);

/** The phase tables a candidate is priced from, one per pattern, and its swizzle's bits. */
export interface FastPlan {
  readonly bits: { mask: number; r: number; l: number };
  readonly tables: PhaseTable[];
}

/**
 * The tables a candidate is priced from (phases.ts): a plain candidate or a swizzle with K = 0
 * over a base that holds the widest vectors of every pattern; per pattern the table of the
 * widest vector width the swizzle keeps (the explicit v must be kept). Null otherwise (the
 * general path answers, with the error of a vector the candidate breaks).
 */
export function fastPlan(
  c: LayoutFunction,
  holds: readonly boolean[],
  wide: readonly number[],
  patterns: readonly SearchPattern[],
  tableAt: (p: number, w: number) => PhaseTable | null,
): FastPlan | null {
  let bits = { mask: 0, r: 0, l: 0 };
  if (isComposed(c)) {
    if (c.offset !== 0) return null;
    const b = swizzleBits(c.swizzle);
    if (b === null) return null;
    bits = b;
  }
  const tables: PhaseTable[] = [];
  for (let p = 0; p < patterns.length; p++) {
    if (!holds[p]) return null;
    let table: PhaseTable | null = null;
    for (let w = wide[p]!; w >= 1; w /= 2) {
      const t = tableAt(p, w);
      if (t === null) return null;
      if (swizzleKeepsVectors(bits, w, t.union)) {
        table = t;
        break;
      }
      if (patterns[p]!.v !== undefined) return null;
    }
    if (table === null) return null;
    tables.push(table);
  }
  return { bits, tables };
}

/** A candidate priced from its plan: the wavefronts of every pattern's table summed. */
function priceFast(plan: FastPlan, tvs: readonly ThreadValues[], scratch: BankScratch): CandidateResult {
  let wavefronts = 0;
  let phases = 0;
  let free = true;
  let instructions = 0;
  const vectors = plan.tables.map((t) => t.w);
  plan.tables.forEach((table, p) => {
    const r = swizzledWavefronts(table, plan.bits, scratch, phaseBuf);
    wavefronts += r;
    phases += table.phases;
    instructions += instructionCount(tvs[p]!, table.w);
    if (r > table.phases) free = false;
  });
  return { wavefronts, phases, conflictFree: free, vectors, instructions };
}

/** What the candidates of one group share: per pattern the widest vector it allows, whether
 *  the base holds it, the largest base offset, and the phase tables by width (built when first
 *  needed). */
export interface GroupPlan {
  readonly wide: number[];
  readonly holds: boolean[];
  readonly maxBase: number[];
  tableAt(p: number, w: number): PhaseTable | null;
}

export function groupPlan(g: Group, tvs: readonly ThreadValues[], patterns: readonly SearchPattern[], scratch: BankScratch): GroupPlan {
  const wide = patterns.map((p) => p.v ?? 16 / p.e);
  const holds = g.base.map((b, p) => typeof b !== 'string' && vectorsHold(b, tvs[p]!, wide[p]!));
  const maxBase = g.base.map((b) => (typeof b === 'string' ? 0 : b.reduce((m, x) => (x > m ? x : m), 0)));
  const tables = patterns.map(() => new Map<number, PhaseTable | null>());
  const tableAt = (p: number, w: number): PhaseTable | null => {
    const m = tables[p]!;
    if (!m.has(w)) m.set(w, phaseTable(g.base[p] as Float64Array, tvs[p]!, patterns[p]!.e, w, scratch));
    return m.get(w)!;
  };
  return { wide, holds, maxBase, tableAt };
}

/**
 * The search on the CPU: for every candidate, the phases and wavefronts of every pattern
 * summed (exactly bankConflicts' counts), in candidate order. Errors: those of the patterns
 * (checkPatterns); a candidate the patterns cannot access answers with its error instead.
 */
export function searchCpu(cands: readonly LayoutFunction[], patterns: readonly SearchPattern[]): CandidateResult[] {
  const tvs = checkPatterns(patterns);
  const out: CandidateResult[] = new Array(cands.length);
  const scratch = new BankScratch();
  const onNvidia = patterns.every((p) => isNvidia(p.target));
  for (const g of groupCandidates(cands, tvs)) {
    if (!g.injective) {
      for (const i of g.members) out[i] = NOT_INJECTIVE;
      continue;
    }
    const { wide, holds, maxBase, tableAt } = groupPlan(g, tvs, patterns, scratch);
    for (const i of g.members) {
      checkDeadline('the conflict-free search');
      const c = cands[i]!;
      // the phase tables are NVIDIA's phases: another machine's patterns take the general path
      const plan = onNvidia ? fastPlan(c, holds, wide, patterns, tableAt) : null;
      if (plan !== null) {
        out[i] = priceFast(plan, tvs, scratch);
        continue;
      }
      try {
        out[i] = searchOne(c, g, tvs, patterns, { wide, holds, maxBase }, scratch);
      } catch (e) {
        // an access the machine publishes no phases for (a candidate that narrows the vectors below 4 bytes on AMD): the
        // candidate cannot be priced and answers that error, no count (it is not shown conflict-free); the others answer
        if (e instanceof LayoutError && e.kind === 'domain') {
          out[i] = { wavefronts: null, phases: null, conflictFree: false, error: `domain: ${e.message}` };
          continue;
        }
        // a candidate whose offsets cannot be represented answers with its error; the others still answer
        if (!(e instanceof LayoutError) || e.kind !== 'overflow') throw e;
        out[i] = { wavefronts: null, phases: null, conflictFree: false, error: `overflow: ${e.message}` };
      }
    }
  }
  return out;
}

/** One candidate of a group by the general path (searchCpu): every pattern's instructions counted. */
function searchOne(
  c: LayoutFunction,
  g: Group,
  tvs: readonly ThreadValues[],
  patterns: readonly SearchPattern[],
  plan: Pick<GroupPlan, 'wide' | 'holds' | 'maxBase'>,
  scratch: BankScratch,
): CandidateResult {
  const { wide, holds, maxBase } = plan;
  let wavefronts = 0;
  let phases = 0;
  let free = true;
  let instructionsSum = 0;
  const vectors: number[] = [];
  let error: string | undefined;
  for (let p = 0; p < patterns.length && error === undefined; p++) {
    const base = g.base[p]!;
    if (typeof base === 'string') {
      error = base;
      break;
    }
    if (holds[p] && shortcut(c, wide[p]!)) {
      const r = countOn(instructionsOf(c, base, tvs[p]!, patterns[p]!.e, wide[p]!, maxBase[p]!), patterns[p]!, scratch);
      wavefronts += r.wavefronts;
      phases += r.phases;
      vectors.push(wide[p]!);
      instructionsSum += instructionsOn(patterns[p]!, tvs[p]!, wide[p]!);
      if (r.wavefronts > r.phases) free = false;
      continue;
    }
    const off = pools.off.get(base.length);
    off.set(base);
    if (isComposed(c)) {
      let maxY = 0;
      for (let x = 0; x < off.length; x++) if (off[x]! > maxY) maxY = off[x]!;
      swizzleInPlace(off, c.swizzle, c.offset, maxY);
    }
    let v: number;
    try {
      v = vectorWidth(off, tvs[p]!, patterns[p]!.e, patterns[p]!.v);
    } catch (e) {
      if (!(e instanceof LayoutError) || e.kind === 'timeout') throw e;
      error = e.message;
      break;
    }
    const r = countOn(instructions(off, tvs[p]!, patterns[p]!.e, v, pools.addr), patterns[p]!, scratch);
    wavefronts += r.wavefronts;
    phases += r.phases;
    vectors.push(v);
    instructionsSum += instructionsOn(patterns[p]!, tvs[p]!, v);
    if (r.wavefronts > r.phases) free = false;
  }
  return error !== undefined
    ? { wavefronts: null, phases: null, conflictFree: false, error }
    : { wavefronts, phases, conflictFree: free, vectors, instructions: instructionsSum };
}

/**
 * The vector width each pattern should keep: the explicit v, else docs/semantics.md §9.2's default, the widest
 * power of two ≤ 16/e that divides the value count and, when the search has a base layout (the
 * layout every swizzle candidate is built on), that the base keeps contiguous and aligned.
 * Errors: those of the patterns (checkPatterns).
 * @example targetVectors([{ tv: parseLayout('(32,8):(8,1)'), e: 2 }]) // [8]
 */
export function targetVectors(patterns: readonly SearchPattern[], base?: LayoutFunction): number[] {
  const tvs = checkPatterns(patterns);
  return patterns.map((p, k) => {
    if (p.v !== undefined) return p.v;
    let w = 16 / p.e;
    while (w > 1 && tvs[k]!.values % w !== 0) w /= 2;
    if (base === undefined) return w;
    try {
      return vectorWidth(accessOffsets(base, tvs[k]!), tvs[k]!, p.e);
    } catch (e) {
      if (e instanceof LayoutError) return w; // the pattern does not fit the base: every candidate answers its error
      throw e;
    }
  });
}

/** A ranked entry: the candidate's number, text and verdict, and whether it keeps the vectors. */
export interface Ranked extends CandidateResult {
  readonly index: number;
  readonly layout: string;
  /** every pattern's vector is at least as wide as the target (targetVectors) */
  readonly kept: boolean;
}

/** Whether a result keeps the target vector widths (a result without widths keeps none). */
export const keepsVectors = (r: CandidateResult, target: readonly number[]): boolean =>
  r.vectors !== undefined && r.vectors.every((v, p) => v >= (target[p] ?? 1));

/**
 * The order of the ranking: candidates that can be accessed first (errors and excluded ones last), then the wider
 * vectors first (pattern by pattern), then fewer instructions, then fewer wavefronts, ties in candidate order. It
 * needs no target: with the target the widest any candidate reaches (widestVectors), those that keep it come first.
 */
export function compareRanked(
  a: Pick<Ranked, 'wavefronts' | 'vectors' | 'instructions' | 'index'>,
  b: Pick<Ranked, 'wavefronts' | 'vectors' | 'instructions' | 'index'>,
): number {
  const ea = a.wavefronts === null ? 1 : 0;
  const eb = b.wavefronts === null ? 1 : 0;
  if (ea !== eb) return ea - eb;
  const va = a.vectors ?? [];
  const vb = b.vectors ?? [];
  for (let p = 0; p < Math.max(va.length, vb.length); p++) if ((va[p] ?? 0) !== (vb[p] ?? 0)) return (vb[p] ?? 0) - (va[p] ?? 0);
  return (a.instructions ?? 0) - (b.instructions ?? 0) || (a.wavefronts ?? 0) - (b.wavefronts ?? 0) || a.index - b.index;
}

/**
 * The vector widths a search keeps, one rule for every source (issue 25): per pattern the explicit v, else the widest
 * vector any accessible candidate of the search reaches (`widest`, the running maximum of their `vectors`; 1 when none
 * is accessible). A candidate keeps them when each of its widths is at least the pattern's (keepsVectors).
 * @example keptVectors([{ tv, e: 2 }], [2]) // [2]: no candidate reached 4, so 2 is kept
 */
export const keptVectors = (patterns: readonly Pick<AccessPattern, 'v'>[], widest: readonly number[]): number[] =>
  patterns.map((p, k) => p.v ?? widest[k] ?? 1);

/** The running maximum of the accessible results' widths, per pattern (in place); returns `widest`. */
export function widenVectors(widest: number[], results: readonly CandidateResult[]): number[] {
  for (const r of results) {
    if (r.wavefronts === null || r.vectors === undefined) continue;
    r.vectors.forEach((v, p) => {
      if (v > (widest[p] ?? 0)) widest[p] = v;
    });
  }
  return widest;
}

/** Rank by (vector kept, instructions, wavefronts) (compareRanked); `target` from targetVectors
 *  (omitted: every accessible candidate counts as keeping them). */
export function rankResults(cands: readonly LayoutFunction[], results: readonly CandidateResult[], target?: readonly number[]): Ranked[] {
  return results
    .map((r, index) => ({
      ...r,
      index,
      layout: formatLayoutFunction(cands[index]!),
      kept: target === undefined ? r.wavefronts !== null : keepsVectors(r, target),
    }))
    .sort(compareRanked);
}

/**
 * The conflict-free search (issue 12, item 4): candidate memory layouts ranked by the total
 * wavefronts of one or more access patterns (SPEC §9.2). The swizzle source enumerates every
 * Sw<B,M,S> o base with 1 ≤ B ≤ 5, M ≤ 7, B ≤ |S| ≤ 10. The CPU path here computes the same
 * counts as bankConflicts, sharing each group's tables (the candidates over one inner layout
 * differ only in the outer function) and skipping the worst phase and the sectors;
 * search-gpu.ts computes them on the GPU.
 */
import { LayoutError } from '../algebra/errors.js';
import type { Layout } from '../algebra/layout.js';
import { formatLayout } from '../algebra/notation.js';
import { formatLayoutFunction, innerLayout, isComposed, makeComposed, type ComposedLayout, type LayoutFunction } from '../cute/composed.js';
import { makeSwizzle } from '../cute/swizzle.js';
import { accessOffsets, checkElementSize, Pool, swizzleInPlace, threadValues, vectorWidth, type ThreadValues } from './access.js';
import { BankScratch, countWavefronts, instructions } from './banks.js';

/** One access pattern: a TV layout, the element size, the vector width (default: the widest). */
export interface AccessPattern {
  readonly tv: Layout;
  readonly e: number;
  readonly v?: number;
}

/** The verdict on one candidate: total phases and wavefronts over the patterns, or the reason
 *  it cannot be accessed so (a vector that is not contiguous and aligned, a TV value ≥ size). */
export interface CandidateResult {
  readonly wavefronts: number | null;
  readonly phases: number | null;
  readonly conflictFree: boolean;
  readonly error?: string;
}

/**
 * Every Sw<B,M,S> o base with 1 ≤ B ≤ 5, 0 ≤ M ≤ 7, B ≤ |S| ≤ 10 (S of both signs), in order of
 * B, then M, then S ascending (640 candidates). Example: swizzleCandidates(parseLayout('(8,64):(64,1)'))[0]
 * is Sw<1,0,-10> o (8,64):(64,1).
 */
export function swizzleCandidates(base: Layout): ComposedLayout[] {
  const out: ComposedLayout[] = [];
  for (let b = 1; b <= 5; b++)
    for (let m = 0; m <= 7; m++)
      for (let s = -10; s <= 10; s++) if (Math.abs(s) >= b) out.push(makeComposed(makeSwizzle(b, m, s), 0, base));
  return out;
}

/** Check the patterns (element sizes, explicit vector widths, plain rank-2 TV layouts). */
export function checkPatterns(patterns: readonly AccessPattern[]): ThreadValues[] {
  if (patterns.length === 0) throw new LayoutError('bad-request', 'the search needs at least one access pattern');
  return patterns.map((p) => {
    checkElementSize(p.e);
    const tvs = threadValues(p.tv);
    if (p.v !== undefined) {
      const v = p.v;
      if (!(Number.isInteger(v) && v >= 1 && (v & (v - 1)) === 0) || v * p.e > 16) {
        throw new LayoutError('domain', `vector width v = ${v}: v must be a power of two with v*e <= 16 (e = ${p.e})`);
      }
      if (tvs.values % v !== 0) throw new LayoutError('domain', `vector width v = ${v} does not divide the ${tvs.values} values of each thread`);
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
      g = { inner, members: [], base };
      byText.set(key, g);
    }
    g.members.push(i);
  });
  return [...byText.values()];
}

const pools = { off: new Pool(), addr: new Pool() };

/**
 * The search on the CPU: for every candidate, the phases and wavefronts of every pattern
 * summed (exactly bankConflicts' counts), in candidate order. Errors: those of the patterns
 * (checkPatterns); a candidate the patterns cannot access answers with its error instead.
 */
export function searchCpu(cands: readonly LayoutFunction[], patterns: readonly AccessPattern[]): CandidateResult[] {
  const tvs = checkPatterns(patterns);
  const out: CandidateResult[] = new Array(cands.length);
  const scratch = new BankScratch();
  for (const g of groupCandidates(cands, tvs)) {
    for (const i of g.members) {
      const c = cands[i]!;
      let wavefronts = 0;
      let phases = 0;
      let free = true;
      let error: string | undefined;
      for (let p = 0; p < patterns.length && error === undefined; p++) {
        const base = g.base[p]!;
        if (typeof base === 'string') {
          error = base;
          break;
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
          if (!(e instanceof LayoutError)) throw e;
          error = e.message;
          break;
        }
        const r = countWavefronts(instructions(off, tvs[p]!, patterns[p]!.e, v, pools.addr), scratch);
        wavefronts += r.wavefronts;
        phases += r.phases;
        if (r.wavefronts > r.phases) free = false;
      }
      out[i] = error !== undefined ? { wavefronts: null, phases: null, conflictFree: false, error } : { wavefronts, phases, conflictFree: free };
    }
  }
  return out;
}

/** A ranked entry: the candidate's number, text and verdict. */
export interface Ranked extends CandidateResult {
  readonly index: number;
  readonly layout: string;
}

/** Rank by total wavefronts (ascending; candidates that cannot be accessed last), ties in
 *  candidate order. */
export function rankResults(cands: readonly LayoutFunction[], results: readonly CandidateResult[]): Ranked[] {
  return results
    .map((r, index) => ({ ...r, index, layout: formatLayoutFunction(cands[index]!) }))
    .sort((a, b) => (a.wavefronts ?? Infinity) - (b.wavefronts ?? Infinity) || a.index - b.index);
}

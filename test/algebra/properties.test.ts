/**
 * Property tests (fast-check) of the CPU algebra against the independent brute-force oracle
 * of test/helpers/brute.ts, on random layouts of depth ≤ 3 and size ≤ a few thousand.
 * Each property draws an integer seed and builds its layouts with a seeded generator, so a
 * counterexample is reported with the layouts it failed on (in the assertion message).
 * FC_SEED=<n> reruns with another fast-check seed; FC_RUNS=<n> scales the runs.
 */
import { describe, expect, it } from 'vitest';
import { coalesce, coalesceRelative, isCoalesced, isCoalescedOver } from '../../src/algebra/coalesce.js';
import { complement, isComplementable, isNComplementable } from '../../src/algebra/complement.js';
import { compose } from '../../src/algebra/compose.js';
import { logicalDivide, logicalProduct } from '../../src/algebra/divide.js';
import { LayoutError } from '../../src/algebra/errors.js';
import { cosize, isNondegenerate, phi, size, type Layout } from '../../src/algebra/layout.js';
import { formatLayout, parseLayout } from '../../src/algebra/notation.js';
import { isCompact, isTractable } from '../../src/algebra/properties.js';
import { kindOf } from '../helpers/kind.js';
import {
  checkComposite,
  coalB,
  complementB,
  concatB,
  cosizeB,
  entriesB,
  findComplementBrute,
  flatB,
  isCoalescedB,
  isCoalescedOverB,
  isCompactB,
  isComplementableSpec,
  isNondegenerateB,
  isTractableSpec,
  layoutEq,
  layoutsWithFunction,
  phiB,
  pick,
  productN,
  randInt,
  rankB,
  refinesB,
  relModesL,
  sameFunction,
  searchComposite,
  showL,
  showT,
  sizeB,
  sizeT,
  spanB,
  valuesB,
  type BL,
  type Tup,
} from '../helpers/brute.js';
import { nestRandom, randomCompact, randomComplementable, randomLayout } from '../helpers/arbitraries.js';
import { runs, seededRuns } from '../helpers/seeds.js';

/** Run `body` on `n` seeded generators; a failure names the seed (and body's messages). */
const forSeeds = seededRuns(0x5eed2026);

/** Replace random subtrees of a shape by their size, keeping it refined by the original
 *  (an integer of S̄ is refined by every S of that size, at any depth: docs/semantics.md §1). */
function groupShape(rng: () => number, s: Tup): Tup {
  if (typeof s === 'number') return s;
  if (rng() < 0.3) return sizeT(s);
  return s.map((u) => groupShape(rng, u));
}

/** A random compact layout: column-major strides of random shapes, permuted and nested. */

describe('coalesce', () => {
  it('coal(L) preserves Φ, is coalesced, and is the minimal flat form (docs/semantics.md §3)', () => {
    forSeeds(400, (rng) => {
      const l = randomLayout(rng, { maxLen: 6, maxShape: 5, maxStride: 12 });
      const c = coalesce(l);
      const tag = `coal(${showL(l)}) = ${showL(c)}`;
      expect(sameFunction(l, c), tag).toBe(true);
      expect(isCoalescedB(c), tag).toBe(true);
      // the same layout as the semantics' construction, re-derived independently
      expect(layoutEq(c, coalB(l)), `${tag}, expected ${showL(coalB(l))}`).toBe(true);
      // minimality: no flat layout of smaller rank has Φ_L (exhaustive for small sizes)
      if (sizeB(l) > 1 && sizeB(l) <= 720) {
        const minRank = Math.min(...layoutsWithFunction(valuesB(l)).map((x) => rankB(x.shape)));
        expect(entriesB(c.shape).length, tag).toBe(minRank);
      }
      expect(isCoalesced(l), `is_coalesced(${showL(l)})`).toBe(isCoalescedB(l));
      expect(isCoalesced(c)).toBe(true);
    });
  });

  it('coal(L, S̄) refines S̄, preserves Φ, is coalesced over S̄ (S̄ by grouping shape(L))', () => {
    forSeeds(400, (rng) => {
      const l = randomLayout(rng, { maxLen: 6, maxShape: 5, maxStride: 12 });
      const bar = groupShape(rng, l.shape);
      expect(refinesB(l.shape, bar)).toBe(true);
      const r = coalesceRelative(l, bar);
      const tag = `coal(${showL(l)}, ${showT(bar)}) = ${showL(r)}`;
      expect(refinesB(r.shape, bar), tag).toBe(true);
      expect(sameFunction(l, r), tag).toBe(true);
      expect(isCoalescedOverB(r, bar), tag).toBe(true);
      // each relative mode is coal of L's relative mode
      const lm = relModesL(l, bar)!;
      const rm = relModesL(r, bar)!;
      expect(rm.length).toBe(lm.length);
      lm.forEach((m, i) => expect(layoutEq(rm[i]!, coalB(m)), tag).toBe(true));
      expect(isCoalescedOver(l, bar), `is_coalesced(${showL(l)}, ${showT(bar)})`).toBe(isCoalescedOverB(l, bar));
      // coal(L, shape(L)) = L exactly when L is non-degenerate
      expect(layoutEq(coalesceRelative(l, l.shape), l), showL(l)).toBe(isNondegenerateB(l));
    });
  });

  it('relative coalesce refuses an S̄ that shape(L) does not refine (domain)', () => {
    forSeeds(100, (rng) => {
      const l = randomLayout(rng, { maxLen: 4 });
      const bad: Tup[] = [typeof l.shape === 'number' ? [l.shape] : l.shape.length === 1 ? (l.shape[0] as Tup) : [sizeB(l) + 1]];
      for (const bar of bad) {
        if (refinesB(l.shape, bar)) continue;
        expect(
          kindOf(() => coalesceRelative(l, bar)),
          `${showL(l)} over ${showT(bar)}`,
        ).toBe('domain');
      }
    });
  });
});

describe('complement', () => {
  it('(A, comp(A, N)) is compact, size(A)·size(comp) = N, for N-complementable A', () => {
    forSeeds(300, (rng) => {
      const { a, n } = randomComplementable(rng);
      const tag = `comp(${showL(a)}, ${n})`;
      expect(isNComplementable(a, n), tag).toBe(true);
      const c = complement(a, n);
      expect(sizeB(a) * sizeB(c), tag).toBe(n);
      expect(isCompactB(concatB(a, c)), `${tag} = ${showL(c)}`).toBe(true);
      expect(isCoalescedB(c), tag).toBe(true);
      expect(layoutEq(c, complementB(a, n)!), `${tag} = ${showL(c)}`).toBe(true);
      // without N: still a complement
      const c0 = complement(a);
      expect(isCompactB(concatB(a, c0)), `comp(${showL(a)}) = ${showL(c0)}`).toBe(true);
      expect(layoutEq(c0, complementB(a)!)).toBe(true);
    });
  });

  it('is_complementable / N-complementable agree with docs/semantics.md §4 on arbitrary layouts, and failures are not-complementable', () => {
    let yes = 0;
    forSeeds(400, (rng) => {
      const a = randomLayout(rng, { maxLen: 4, maxShape: 4, maxStride: 16 });
      const n = pick(rng, [1, 2, 8, 12, 16, 32, 48, 64, 96, 128, 256, 384]);
      const want = isComplementableSpec(a);
      if (want) yes++;
      expect(isComplementable(a), showL(a)).toBe(want);
      expect(isNComplementable(a, n), `${showL(a)}, N = ${n}`).toBe(isComplementableSpec(a, n));
      if (!isComplementableSpec(a, n)) {
        expect(
          kindOf(() => complement(a, n)),
          `${showL(a)}, N = ${n}`,
        ).toBe('not-complementable');
      } else {
        const c = complement(a, n);
        expect(isCompactB(concatB(a, c))).toBe(true);
      }
    });
    expect(yes).toBeGreaterThan(runs(400) * 0.1);
  });

  it('is_complementable agrees with the brute-force existence of a complement (tiny cases)', () => {
    let yes = 0;
    let no = 0;
    forSeeds(250, (rng) => {
      const k = randInt(rng, 1, 3);
      const s: number[] = [];
      const d: number[] = [];
      for (let i = 0; i < k; i++) {
        s.push(randInt(rng, 1, 4));
        d.push(randInt(rng, 0, 8));
      }
      const a = nestRandom(rng, s, d, 2);
      // a complement, if any exists, exists at N = span(A) ≤ 4·8 < 64 (Lemma 2.3.6.4)
      const found = findComplementBrute(a, undefined, 64);
      const tag = `${showL(a)}: brute found ${found ? showL(found) : 'none'}`;
      expect(isComplementable(a), tag).toBe(found !== null);
      if (found) yes++;
      else no++;
      for (const n of [8, 12, 16, 24, 32]) {
        const fN = findComplementBrute(a, n);
        expect(isNComplementable(a, n), `${showL(a)}, N = ${n}: brute ${fN ? showL(fN) : 'none'}`).toBe(fN !== null);
      }
    });
    expect(yes).toBeGreaterThan(runs(250) * 0.15);
    expect(no).toBeGreaterThan(runs(250) * 0.15);
  });
});

/** A random pair (B, A) for B∘A with cosize(A) ≤ size(B); A's strides are often built from
 *  B's shapes so that a good share is composable. */
function randomComposePair(rng: () => number): { b: BL; a: BL } {
  const b = randomLayout(rng, { maxLen: 4, maxShape: 6, maxStride: 30, maxSize: 720 });
  const sb = sizeB(b);
  const bs = flatB(b).s;
  for (;;) {
    const k = randInt(rng, rng() < 0.1 ? 0 : 1, 3);
    const s: number[] = [];
    const d: number[] = [];
    let budget = sb - 1; // cosize(A) − 1 = Σ (s−1)·d must stay ≤ size(B) − 1
    for (let i = 0; i < k; i++) {
      const si = rng() < 0.1 ? 1 : randInt(rng, 2, 6);
      const cap = si === 1 ? 50 : Math.floor(budget / (si - 1));
      if (cap < 1) break;
      s.push(si);
      const r = rng();
      let di: number;
      if (r < 0.1) di = 0;
      else if (r < 0.45) {
        let p = 1;
        for (let j = 0, m = randInt(rng, 0, bs.length); j < m; j++) p *= bs[j]!;
        di = p * pick(rng, [1, 1, 1, 2, 3]);
        if (di > cap) di = randInt(rng, 1, cap);
      } else di = randInt(rng, 1, cap);
      d.push(di);
      budget -= (si - 1) * di;
    }
    const a = nestRandom(rng, s, d, 2);
    if (cosizeB(a) <= sb) return { b, a };
  }
}

describe('composition', () => {
  it('composites satisfy Def. 2.3.7.1; every not-composable is confirmed by exhaustive search', () => {
    let composable = 0;
    let not = 0;
    forSeeds(600, (rng) => {
      const { b, a } = randomComposePair(rng);
      const tag = `${showL(b)} ∘ ${showL(a)}`;
      const search = searchComposite(b, a);
      let c: Layout | null = null;
      let kind: string | null = null;
      try {
        c = compose(b, a);
      } catch (e) {
        if (!(e instanceof LayoutError)) throw e;
        kind = e.kind;
      }
      if (c) {
        composable++;
        expect(checkComposite(b, a, c), `${tag} = ${showL(c)}`).toEqual({ ok: true });
      } else {
        not++;
        expect(kind, tag).toBe('not-composable');
        expect(search.exists, `${tag}: compose says not-composable but ${search.exists ? showL(search.c) : ''} qualifies`).toBe(false);
      }
      if (search.exists) expect(c, `${tag}: ${showL(search.c)} qualifies`).not.toBeNull();
    });
    // both answers must be well represented for this test to mean something
    console.info(`compose: ${composable} composable, ${not} not-composable of ${composable + not}`);
    expect(composable, `composable ${composable}, not ${not}`).toBeGreaterThan(runs(600) * 0.2);
    expect(not, `composable ${composable}, not ${not}`).toBeGreaterThan(runs(600) * 0.2);
  });

  it('cosize(A) > size(B) is not-composable', () => {
    forSeeds(100, (rng) => {
      const b = randomLayout(rng, { maxLen: 3, maxSize: 200 });
      const a = randomLayout(rng, { maxLen: 3, maxStride: 80 });
      if (cosizeB(a) <= sizeB(b)) return;
      expect(
        kindOf(() => compose(b, a)),
        `${showL(b)} ∘ ${showL(a)}`,
      ).toBe('not-composable');
    });
  });

  it('B∘A depends on B only through Φ_B (coal(B)∘A = B∘A)', () => {
    forSeeds(200, (rng) => {
      const { b, a } = randomComposePair(rng);
      const k1 = kindOf(() => compose(b, a));
      const k2 = kindOf(() => compose(coalB(b), a));
      expect(k1, `${showL(b)} ∘ ${showL(a)}`).toBe(k2);
      if (k1 === 'ok') expect(layoutEq(compose(b, a), compose(coalB(b), a))).toBe(true);
    });
  });
});

describe('logical division and product', () => {
  it('A ⊘ B = A ∘ (B, comp(B, size A)), pointwise, with its failures', () => {
    let okCount = 0;
    forSeeds(300, (rng) => {
      const a = randomLayout(rng, { maxLen: 4, maxShape: 6, maxStride: 20, maxSize: 1024 });
      const sa = sizeB(a);
      // B: often a chain whose span divides size(A)
      let b: BL;
      if (rng() < 0.6) {
        const { a: bb } = randomComplementable(rng, 64);
        b = bb;
      } else b = randomLayout(rng, { maxLen: 2, maxShape: 4, maxStride: 8 });
      const tag = `${showL(a)} ⊘ ${showL(b)}`;
      const comp = complementB(b, sa);
      let r: Layout | null = null;
      let kind: string | null = null;
      try {
        r = logicalDivide(a, b);
      } catch (e) {
        if (!(e instanceof LayoutError)) throw e;
        kind = e.kind;
      }
      if (comp === null) {
        expect(kind, tag).toBe('not-complementable');
        return;
      }
      const bc = concatB(b, comp);
      expect(isCompactB(bc)).toBe(true);
      const s = searchComposite(a, bc);
      if (r) {
        okCount++;
        expect(checkComposite(a, bc, r), `${tag} = ${showL(r)}`).toEqual({ ok: true });
      } else {
        expect(kind, tag).toBe('not-composable');
        expect(s.exists, `${tag}: ${s.exists ? showL(s.c) : ''} qualifies`).toBe(false);
      }
    });
    expect(okCount).toBeGreaterThan(runs(300) * 0.2);
  });

  it('A ⊗ B = (A, comp(A, N) ∘ B) at the least N, and the same at a larger N (Obs. 2.3.9.2)', () => {
    let okCount = 0;
    forSeeds(250, (rng) => {
      const { a } = randomComplementable(rng, 256);
      const b = randomLayout(rng, { maxLen: 3, maxShape: 4, maxStride: 10, maxSize: 64 });
      const tag = `${showL(a)} ⊗ ${showL(b)}`;
      const n = productN(a, b);
      if (n > 20000) return;
      let r: Layout | null = null;
      let kind: string | null = null;
      try {
        r = logicalProduct(a, b);
      } catch (e) {
        if (!(e instanceof LayoutError)) throw e;
        kind = e.kind;
      }
      const ac = complementB(a, n)!;
      expect(ac, tag).not.toBeNull();
      const s = searchComposite(ac, b);
      if (!r) {
        expect(kind, tag).toBe('not-composable');
        expect(s.exists, `${tag}: ${s.exists ? showL(s.c) : ''} qualifies`).toBe(false);
        return;
      }
      okCount++;
      expect(Array.isArray(r.shape) && r.shape.length === 2, `${tag} = ${showL(r)}`).toBe(true);
      const rs = r.shape as readonly Tup[];
      const rd = r.stride as readonly Tup[];
      expect(layoutEq({ shape: rs[0]!, stride: rd[0]! }, a), tag).toBe(true);
      const second: BL = { shape: rs[1]!, stride: rd[1]! };
      expect(checkComposite(ac, b, second), `${tag} = ${showL(r)}`).toEqual({ ok: true });
      const ac2 = complementB(a, n + spanB(a))!;
      expect(checkComposite(ac2, b, second), `${tag} at N + span`).toEqual({ ok: true });
    });
    expect(okCount).toBeGreaterThan(runs(250) * 0.3);
  });
});

describe('failures of ⊗ and ⊘ on arbitrary layouts', () => {
  it('A ⊗ B fails with not-complementable exactly when A is not complementable', () => {
    let notComp = 0;
    forSeeds(300, (rng) => {
      const a = randomLayout(rng, { maxLen: 3, maxShape: 4, maxStride: 12, maxSize: 64 });
      const b = randomLayout(rng, { maxLen: 2, maxShape: 4, maxStride: 6, maxSize: 16 });
      const tag = `${showL(a)} ⊗ ${showL(b)}`;
      const kind = kindOf(() => logicalProduct(a, b));
      if (!isComplementableSpec(a)) {
        notComp++;
        expect(kind, tag).toBe('not-complementable');
      } else expect(kind === 'ok' || kind === 'not-composable', `${tag}: ${kind}`).toBe(true);
    });
    expect(notComp).toBeGreaterThan(runs(300) * 0.2);
  });

  it('A ⊘ B fails with not-complementable exactly when B is not size(A)-complementable', () => {
    forSeeds(300, (rng) => {
      const a = randomLayout(rng, { maxLen: 3, maxShape: 4, maxStride: 12, maxSize: 64 });
      const b = randomLayout(rng, { maxLen: 2, maxShape: 4, maxStride: 6, maxSize: 16 });
      const kind = kindOf(() => logicalDivide(a, b));
      const tag = `${showL(a)} ⊘ ${showL(b)}: ${kind}`;
      if (!isComplementableSpec(b, sizeB(a))) expect(kind, tag).toBe('not-complementable');
      else expect(kind === 'ok' || kind === 'not-composable', tag).toBe(true);
    });
  });
});

describe('notation and predicates', () => {
  it('parse(print(L)) = L, and print agrees with an independent printer', () => {
    forSeeds(400, (rng) => {
      const l = randomLayout(rng, { maxLen: 6, maxStride: 1000 });
      const text = formatLayout(l);
      expect(text).toBe(showL(l));
      expect(layoutEq(parseLayout(text), l), text).toBe(true);
      // whitespace anywhere between tokens
      const spaced = text.replace(/([(),:])/g, (m) => `${pick(rng, ['', ' ', '\t', '\n '])}${m}${pick(rng, ['', ' ', '  '])}`);
      expect(layoutEq(parseLayout(spaced), l), JSON.stringify(spaced)).toBe(true);
    });
  });

  it('is_compact equals the brute-force bijection test', () => {
    let yes = 0;
    forSeeds(400, (rng) => {
      const l = rng() < 0.5 ? randomCompact(rng) : randomLayout(rng, { maxLen: 4, maxShape: 4, maxStride: 8 });
      const want = isCompactB(l);
      if (want) yes++;
      expect(isCompact(l), showL(l)).toBe(want);
    });
    expect(yes).toBeGreaterThan(runs(400) * 0.3);
    expect(yes).toBeLessThan(runs(400) * 0.9);
  });

  it('is_tractable matches docs/semantics.md §7 (sorted L♭, consecutive non-zero strides); compact and complementable imply tractable', () => {
    let yes = 0;
    forSeeds(400, (rng) => {
      const r = rng();
      const l = r < 0.25 ? randomCompact(rng) : r < 0.5 ? randomComplementable(rng).a : randomLayout(rng, { maxLen: 4, maxShape: 4, maxStride: 12 });
      const want = isTractableSpec(l);
      if (want) yes++;
      expect(isTractable(l), showL(l)).toBe(want);
      // docs/semantics.md §7's corollaries hold for non-degenerate layouts; a degenerate entry 1:d takes part
      // in the sorted chain as the definition reads (see the report: docs/semantics.md is ambiguous there)
      if (isNondegenerateB(l) && (isCompactB(l) || isComplementableSpec(l))) expect(isTractable(l), showL(l)).toBe(true);
    });
    expect(yes).toBeLessThan(runs(400) * 0.95);
  });

  it('Φ, size, cosize and non-degeneracy agree with the brute force', () => {
    forSeeds(300, (rng) => {
      const l = randomLayout(rng, { maxLen: 5, maxStride: 50 });
      expect(size(l)).toBe(sizeB(l));
      expect(cosize(l)).toBe(cosizeB(l));
      expect(isNondegenerate(l)).toBe(isNondegenerateB(l));
      const n = sizeB(l);
      for (let k = 0; k < 8; k++) {
        const x = randInt(rng, 0, n - 1);
        expect(phi(l, x), `${showL(l)} at ${x}`).toBe(phiB(l, x));
      }
      expect(kindOf(() => phi(l, n))).toBe('domain');
    });
  });
});

/**
 * The tests' one kit of random layouts. Every random layout, shape and tiler of the suite is drawn from the
 * fast-check arbitraries here, built from integers and small plans, so that a failing property shrinks to a small
 * counterexample (fewer entries, smaller shapes and strides, shallower nesting) instead of naming only a seed.
 *
 * Two ways in, one definition:
 * - a fast-check property takes `layouts(opts)` (or `shapes`, `complementables`, `tilers`) directly;
 * - a seeded loop (`seededRuns`, test/helpers/seeds.ts) hands its body an `rng` drawn through `fc.gen()`, and
 *   `randomLayout(rng, opts)` draws `layouts(opts)` through it, so that loop shrinks too (its plain draws shrink
 *   toward 0, its layouts as layouts). With a plain generator (mulberry32) the same arbitrary is sampled, seeded by
 *   one draw of the generator.
 */
import fc from 'fast-check';
import type { BL, Tup } from './brute.js';

/** Bounds of a random layout: entries (flat length), shape and stride of each entry, the size, and the depth. */
export interface LayoutBounds {
  /** fewest flat entries (0: the empty layout () : () may occur) */
  minLen?: number;
  maxLen?: number;
  maxShape?: number;
  maxStride?: number;
  maxSize?: number;
  maxDepth?: number;
  /** entries whose stride continues the column-major chain (the product of the shapes before), often: compact
   *  layouts and their permutations occur (the evaluator's cases) */
  colex?: boolean;
  /** shapes 2^k (k ≤ 4) as often as any other */
  powersOfTwo?: boolean;
  /** strides scaled into 2^20 … 2^24 (plus a rest below 1000), half of them: the 32-bit and overflow paths */
  bigStrides?: boolean;
}

/** An rng that draws through fast-check (seededRuns), so that what it draws shrinks. */
export type DrawingRng = (() => number) & { readonly draw: <T>(arb: fc.Arbitrary<T>) => T };

/** A value of `arb` drawn through `rng`: through fast-check's generator when the rng has one (it shrinks), else
 *  fast-check's sample seeded by one draw of the rng (reproducible, not shrinkable). */
export function drawFrom<T>(rng: () => number, arb: fc.Arbitrary<T>): T {
  const d = (rng as Partial<DrawingRng>).draw;
  if (d) return d(arb);
  return fc.sample(arb, { seed: Math.floor(rng() * 0x7fffffff), numRuns: 1, unbiased: true })[0]!;
}

/** Nest the flat entries (s):(d) by a plan: each number of the plan groups that many entries (at least one) into a
 *  sub-tuple, recursively up to `depth`; a plan that runs out keeps the rest flat. Deterministic, so it shrinks.
 *  `bare` makes a single entry a bare integer layout n:d. */
export function nestByPlan(s: readonly number[], d: readonly number[], plan: readonly number[], depth: number, bare = false): BL {
  if (s.length === 1 && bare) return { shape: s[0]!, stride: d[0]! };
  let k = 0;
  const build = (lo: number, hi: number, left: number): [Tup[], Tup[]] => {
    const sh: Tup[] = [];
    const st: Tup[] = [];
    let i = lo;
    while (i < hi) {
      const want = k < plan.length ? plan[k++]! : 1;
      const take = Math.min(Math.max(1, want), hi - i);
      if (left <= 1 || take === 1) {
        sh.push(s[i]!);
        st.push(d[i]!);
        i++;
        continue;
      }
      const [a, b] = build(i, i + take, left - 1);
      sh.push(a);
      st.push(b);
      i += take;
    }
    return [sh, st];
  };
  const [shape, stride] = build(0, s.length, Math.max(1, depth));
  return { shape, stride };
}

/** A nesting of the given flat entries (depth ≤ maxDepth; a bare integer sometimes for one entry). */
export function nestings(s: readonly number[], d: readonly number[], maxDepth = 3, allowBare = true): fc.Arbitrary<BL> {
  return fc
    .record({ plan: fc.array(fc.integer({ min: 1, max: Math.max(1, s.length) }), { maxLength: 6 }), bare: allowBare ? fc.boolean() : fc.constant(false) })
    .map(({ plan, bare }) => nestByPlan(s, d, plan, maxDepth, bare));
}

const memo = new Map<string, fc.Arbitrary<BL>>();

/**
 * THE random layout: flat entries within the bounds (size ≤ maxSize; shapes 1 … maxShape; strides 0 … maxStride,
 * stride 0 and shape 1 both frequent), nested by a plan. Entries past the size bound are dropped, so every value is
 * within the bounds; shrinking removes entries, lowers shapes and strides and flattens.
 */
export function layouts(o: LayoutBounds = {}): fc.Arbitrary<BL> {
  const key = JSON.stringify(o);
  const hit = memo.get(key);
  if (hit) return hit;
  const maxShape = o.maxShape ?? 6;
  const maxStride = o.maxStride ?? 24;
  const maxSize = o.maxSize ?? 4096;
  const shape = o.powersOfTwo
    ? fc.oneof(
        fc.integer({ min: 1, max: maxShape }),
        fc.integer({ min: 0, max: 4 }).map((k) => 2 ** k),
      )
    : fc.integer({ min: 1, max: maxShape });
  const stride = fc.oneof(
    { arbitrary: fc.integer({ min: 1, max: Math.max(1, maxStride) }), weight: 7 },
    { arbitrary: fc.constant(0), weight: 1 },
    ...(o.colex ? [{ arbitrary: fc.constant(-1), weight: 6 }] : []),
  );
  const big = o.bigStrides ? fc.option(fc.record({ m: fc.integer({ min: 1 << 20, max: 1 << 24 }), r: fc.integer({ min: 0, max: 1000 }) })) : fc.constant(null);
  const entry = fc.record({ s: shape, d: stride, big });
  const arb = fc
    .record({
      // (uniform lengths in the seeded loops, which draw unbiased; shrinking removes any entry)
      entries: fc.array(entry, { minLength: o.minLen ?? 0, maxLength: o.maxLen ?? 4, size: 'max' }),
      plan: fc.array(fc.integer({ min: 1, max: 3 }), { maxLength: 6 }),
      bare: fc.boolean(),
      reverse: o.colex ? fc.boolean() : fc.constant(false),
    })
    .map(({ entries, plan, bare, reverse }) => {
      const s: number[] = [];
      const d: number[] = [];
      let size = 1;
      for (const e of entries) {
        if (size * e.s > maxSize) break;
        let di = e.d === -1 ? size : e.d;
        if (e.big) di = di * e.big.m + e.big.r;
        size *= e.s;
        s.push(e.s);
        d.push(di);
      }
      // a permutation of a column-major layout stays compact
      if (reverse) d.reverse();
      return nestByPlan(s, d, plan, o.maxDepth ?? 3, bare);
    });
  memo.set(key, arb);
  return arb;
}

/** A shape within the bounds (the shape of layouts' values). */
export function shapes(o: LayoutBounds = {}): fc.Arbitrary<Tup> {
  return layouts(o).map((l) => l.shape);
}

/** A layout complementable by construction (docs/semantics.md §4: a sorted divisibility chain, then shuffled, with
 *  an optional shape-1 entry, then nested) and a multiple n ≤ maxN of its span. */
export function complementables(maxN = 4096): fc.Arbitrary<{ a: BL; n: number }> {
  const chain = fc.record({
    first: fc.integer({ min: 1, max: 3 }),
    links: fc.array(fc.record({ s: fc.integer({ min: 2, max: 5 }), gap: fc.constantFrom(1, 1, 2, 3) }), { maxLength: 4 }),
    mult: fc.constantFrom(1, 1, 2, 3, 4),
    unit: fc.option(fc.integer({ min: 0, max: 9 })),
    order: fc.array(fc.nat(), { maxLength: 5 }),
    plan: fc.array(fc.integer({ min: 1, max: 3 }), { maxLength: 6 }),
    bare: fc.boolean(),
  });
  return chain
    .map(({ first, links, mult, unit, order, plan, bare }) => {
      const s: number[] = [];
      const d: number[] = [];
      let next = first;
      for (const { s: si, gap } of links) {
        s.push(si);
        d.push(next);
        next = si * next * gap;
      }
      const k = s.length;
      const n = (k ? s[k - 1]! * d[k - 1]! : 1) * mult;
      // shape-1 entries take no part (docs/semantics.md §4)
      if (unit !== null) {
        s.push(1);
        d.push(unit);
      }
      const idx = s.map((_, i) => i);
      for (let i = idx.length - 1; i > 0; i--) {
        const j = (order[i] ?? 0) % (i + 1);
        [idx[i], idx[j]] = [idx[j]!, idx[i]!];
      }
      const a = nestByPlan(
        idx.map((i) => s[i]!),
        idx.map((i) => d[i]!),
        plan,
        3,
        bare,
      );
      return { a, n };
    })
    .filter(({ n }) => n <= maxN);
}

/** A compact layout (docs/semantics.md §3): the column-major strides of its entries' shapes in some order of the
 *  entries, shape-1 entries with any small stride, nested by a plan. */
export function compacts(o: { maxLen?: number; maxShape?: number } = {}): fc.Arbitrary<BL> {
  const entry = fc.record({ s: fc.integer({ min: 1, max: o.maxShape ?? 6 }), unit: fc.integer({ min: 0, max: 5 }) });
  return fc
    .record({
      entries: fc.array(entry, { maxLength: o.maxLen ?? 4, size: 'max' }),
      order: fc.array(fc.nat(), { maxLength: o.maxLen ?? 4 }),
      plan: fc.array(fc.integer({ min: 1, max: 3 }), { maxLength: 6 }),
      bare: fc.boolean(),
    })
    .map(({ entries, order, plan, bare }) => {
      const s: number[] = [];
      const d: number[] = [];
      let p = 1;
      for (const e of entries) {
        s.push(e.s);
        d.push(e.s === 1 ? e.unit : p);
        p *= e.s;
      }
      const idx = s.map((_, i) => i);
      for (let i = idx.length - 1; i > 0; i--) {
        const j = (order[i] ?? 0) % (i + 1);
        [idx[i], idx[j]] = [idx[j]!, idx[i]!];
      }
      return nestByPlan(
        idx.map((i) => s[i]!),
        idx.map((i) => d[i]!),
        plan,
        3,
        bare,
      );
    });
}

/** A tiler in notation for the layout `a` (docs/semantics.md §8.2): a by-mode list `<T1,…,Tk>` over a's first k
 *  top-level modes, each `_` or a one-dimensional layout n:d of a size n ≤ the mode's (often a divisor), or one
 *  layout for the whole of `a`. Its validity for a given operation is the property's to judge. */
export function tilers(a: BL): fc.Arbitrary<string> {
  const modes = typeof a.shape === 'number' ? [a.shape] : (a.shape as readonly Tup[]).map(sizeOfTup);
  const item = (n: number): fc.Arbitrary<string> =>
    fc.oneof(
      fc.constant('_'),
      fc.record({ n: fc.integer({ min: 1, max: Math.max(1, n) }), d: fc.integer({ min: 1, max: 4 }) }).map((t) => `${t.n}:${t.d}`),
    );
  const byMode = fc.integer({ min: 1, max: Math.max(1, modes.length) }).chain((k) => fc.tuple(...modes.slice(0, k).map(item)).map((xs) => `<${xs.join(',')}>`));
  const total = modes.reduce((x, y) => x * y, 1);
  const whole = fc.record({ n: fc.integer({ min: 1, max: Math.max(1, total) }), d: fc.integer({ min: 1, max: 4 }) }).map((t) => `${t.n}:${t.d}`);
  return fc.oneof(byMode, whole);
}

function sizeOfTup(t: Tup): number {
  return typeof t === 'number' ? t : t.reduce((p: number, u) => p * sizeOfTup(u), 1);
}

// ---------------------------------------------------------------- the seeded loops' draws (one definition: above)

/** A random layout within the bounds, drawn through `rng` (see drawFrom). */
export const randomLayout = (rng: () => number, o: LayoutBounds = {}): BL => drawFrom(rng, layouts(o));

/** A random complementable layout and a multiple of its span, drawn through `rng`. */
export const randomComplementable = (rng: () => number, maxN = 4096): { a: BL; n: number } => drawFrom(rng, complementables(maxN));

/** A random nesting of the flat entries (s):(d), drawn through `rng`. */
export const nestRandom = (rng: () => number, s: readonly number[], d: readonly number[], maxDepth = 3, allowBare = true): BL =>
  drawFrom(rng, nestings(s, d, maxDepth, allowBare));

/** A random compact layout, drawn through `rng`. */
export const randomCompact = (rng: () => number): BL => drawFrom(rng, compacts());

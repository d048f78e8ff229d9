/**
 * fast-check arbitraries for the tests' layouts, shapes and tilers (brute-side values, test/helpers/brute.ts): built
 * from integers and small plans, so that a failing property shrinks to a small counterexample (fewer entries,
 * smaller shapes and strides, shallower nesting) instead of naming only a seed.
 */
import fc from 'fast-check';
import type { BL, Tup } from './brute.js';

/** Bounds of a random layout: entries (flat length), shape and stride of each entry, the size, and the depth. */
export interface LayoutBounds {
  maxLen?: number;
  maxShape?: number;
  maxStride?: number;
  maxSize?: number;
  maxDepth?: number;
}

/** Nest the flat entries (s):(d) by a plan: each number of the plan groups that many entries (at least one) into a
 *  sub-tuple, recursively up to `depth`; a plan that runs out keeps the rest flat. Deterministic, so it shrinks. */
export function nestByPlan(s: readonly number[], d: readonly number[], plan: readonly number[], depth: number): BL {
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

/** A layout within the bounds (size ≤ maxSize; strides 0 … maxStride; shape-1 entries and stride-0 entries occur). */
export function layoutArb(o: LayoutBounds = {}): fc.Arbitrary<BL> {
  const maxLen = o.maxLen ?? 4;
  const maxShape = o.maxShape ?? 6;
  const maxStride = o.maxStride ?? 24;
  const maxSize = o.maxSize ?? 4096;
  const entry = fc.record({ s: fc.integer({ min: 1, max: maxShape }), d: fc.integer({ min: 0, max: maxStride }) });
  return fc
    .record({
      entries: fc.array(entry, { minLength: 1, maxLength: maxLen }),
      plan: fc.array(fc.integer({ min: 1, max: 3 }), { maxLength: 6 }),
    })
    .map(({ entries, plan }) => {
      const s: number[] = [];
      const d: number[] = [];
      let size = 1;
      for (const e of entries) {
        if (size * e.s > maxSize) break;
        size *= e.s;
        s.push(e.s);
        d.push(e.d);
      }
      if (s.length === 0) return { shape: 1, stride: 0 };
      return nestByPlan(s, d, plan, o.maxDepth ?? 3);
    });
}

/** A shape within the bounds (the shape of layoutArb's layouts). */
export function shapeArb(o: LayoutBounds = {}): fc.Arbitrary<Tup> {
  return layoutArb(o).map((l) => l.shape);
}

/** A tiler in notation for the layout `a` (docs/semantics.md §8.2): a by-mode list `<T1,…,Tk>` over a's first k
 *  top-level modes, each `_` or a one-dimensional layout n:d of a size n ≤ the mode's (often a divisor), or one
 *  layout for the whole of `a`. Its validity for a given operation is the property's to judge. */
export function tilerArb(a: BL): fc.Arbitrary<string> {
  const modes = typeof a.shape === 'number' ? [a.shape] : (a.shape as readonly Tup[]).map(sizeOfTup);
  const item = (n: number): fc.Arbitrary<string> =>
    fc.oneof(
      fc.constant('_'),
      fc.record({ n: fc.integer({ min: 1, max: Math.max(1, n) }), d: fc.integer({ min: 1, max: 4 }) }).map((t) => `${t.n}:${t.d}`),
    );
  const byMode = fc.integer({ min: 1, max: modes.length }).chain((k) => fc.tuple(...modes.slice(0, k).map(item)).map((xs) => `<${xs.join(',')}>`));
  const total = modes.reduce((x, y) => x * y, 1);
  const whole = fc.record({ n: fc.integer({ min: 1, max: Math.max(1, total) }), d: fc.integer({ min: 1, max: 4 }) }).map((t) => `${t.n}:${t.d}`);
  return fc.oneof(byMode, whole);
}

function sizeOfTup(t: Tup): number {
  return typeof t === 'number' ? t : t.reduce((p: number, u) => p * sizeOfTup(u), 1);
}

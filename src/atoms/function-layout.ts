/**
 * The layout of a function (docs/atoms.md, "The layout of a function"): given the values of a
 * function f on [0, N) and a guide (n_1, …, n_k) of top-level mode sizes with product N, the
 * layout L whose top-level modes have the sizes n_i, each mode coalesced, with Φ_L = f on every
 * index — or none, and then `not-composable`.
 *
 * Decided by Φ alone (docs/semantics.md, Construction 2.3.1.17): with N_i = n_1⋯n_i, a layout
 * with those modes has Φ_L(x) = Σ_i Φ_{L_i}(x_i) over the colexicographic coordinates x_i of x,
 * so L exists exactly when (1) each restriction g_i(t) = f(t·N_{i−1}), t < n_i, is a layout
 * function and (2) f(x) = Σ_i g_i(x_i) for every x. For (1) the coalesced form of g is recovered
 * greedily — next stride d = g(P), next shape the run c of g(q·P) = q·d (coalesced neighbours
 * never continue a run, so for a layout function the run ends exactly at the entry's shape) —
 * and then checked at every t; (2) is checked at every x.
 */
import { checkDeadline } from '../algebra/deadline.js';
import { LayoutError, isLayoutError, notComposableError } from '../algebra/errors.js';
import { concatUnchecked, type Layout } from '../algebra/layout.js';

/** The most values a decision reads (beyond: `overflow`, never a guess). */
export const FUNCTION_POINT_LIMIT = 1 << 24;

/** Refuse a function on more than FUNCTION_POINT_LIMIT points (`overflow`). */
export function checkPoints(n: number, what: string): void {
  if (n > FUNCTION_POINT_LIMIT) {
    throw new LayoutError('overflow', `${what}: deciding it reads ${n} values of its function, beyond the bound of 2^24`);
  }
}

function showValues(tab: ArrayLike<number>, n: number): string {
  const k = Math.min(n, 8);
  const vs: number[] = [];
  for (let i = 0; i < k; i++) vs.push(tab[i]!);
  return `[${vs.join(', ')}]${n > k ? '...' : ''}`;
}

/** The coalesced layout of g on [0, n) given as tab[0 … n), or null when g is no layout function. */
export function recoverMode(tab: ArrayLike<number>, n: number): Layout | null {
  if (tab[0] !== 0) return null;
  const shapes: number[] = [];
  const strides: number[] = [];
  let p = 1;
  while (p < n) {
    const d = tab[p]!;
    if (!(d >= 0)) return null;
    const room = n / p;
    let c = 1;
    while (c < room && tab[c * p] === c * d) c++;
    if (room % c !== 0) return null;
    shapes.push(c);
    strides.push(d);
    p *= c;
  }
  // check every t (the greedy step only read multiples of the prefix products)
  const idx = new Array<number>(shapes.length).fill(0);
  let off = 0;
  for (let t = 1; t < n; t++) {
    if ((t & 0xffff) === 0) checkDeadline('the layout of a function');
    for (let j = 0; ; j++) {
      if (++idx[j]! < shapes[j]!) {
        off += strides[j]!;
        break;
      }
      off -= (shapes[j]! - 1) * strides[j]!;
      idx[j] = 0;
    }
    if (tab[t] !== off) return null;
  }
  if (shapes.length === 0) return { shape: 1, stride: 0 };
  if (shapes.length === 1) return { shape: shapes[0]!, stride: strides[0]! };
  return { shape: shapes, stride: strides };
}

/**
 * The layout with top-level modes of sizes `guide` (each coalesced) whose Φ is `vals` (vals[x]
 * = f(x), x < Π guide), as described above. `what` names the function in errors.
 * Errors: `not-composable` naming the mode or the index where f fails to be a layout function.
 * Example: layoutOfTable([0, 2, 1, 3], [2, 2], 'f') is (2,2):(2,1).
 */
export function layoutOfTable(vals: ArrayLike<number>, guide: readonly number[], what: string): Layout {
  if (vals[0] !== 0) throw notComposableError(`${what}: the function maps 0 to ${vals[0]}, and a layout maps 0 to 0`);
  const modes: Layout[] = [];
  const tabs: Float64Array[] = [];
  let base = 1;
  for (let i = 0; i < guide.length; i++) {
    const n = guide[i]!;
    const tab = new Float64Array(n);
    for (let t = 0; t < n; t++) {
      if ((t & 0xffff) === 0xffff) checkDeadline(what);
      tab[t] = vals[t * base]!;
    }
    const m = recoverMode(tab, n);
    if (m === null) throw notComposableError(`${what}: mode of size ${n}: k -> ${showValues(tab, n)} is not a layout function`);
    modes.push(m);
    tabs.push(tab);
    base *= n;
  }
  if (guide.length > 1) checkAdditive(vals, guide, tabs, base, what);
  return concatUnchecked(modes);
}

/** (2): f(x) = Σ_i g_i(x_i) at every x. */
function checkAdditive(vals: ArrayLike<number>, guide: readonly number[], tabs: readonly Float64Array[], total: number, what: string): void {
  const k = guide.length;
  const idx = new Array<number>(k).fill(0);
  let sum = 0;
  for (let x = 1; x < total; x++) {
    if ((x & 0xffff) === 0) checkDeadline(what);
    for (let j = 0; ; j++) {
      const tab = tabs[j]!;
      const c = idx[j]!;
      if (c + 1 < guide[j]!) {
        sum += tab[c + 1]! - tab[c]!;
        idx[j] = c + 1;
        break;
      }
      sum -= tab[c]!;
      idx[j] = 0;
    }
    if (vals[x] !== sum) {
      throw notComposableError(`${what}: the function is not the sum of its modes' at index ${x} (it is ${vals[x]}, the modes add up to ${sum})`);
    }
  }
}

/** A function on [0, N) (N = Π guide, x colex over the guide), built once its point count is known to be within
 *  FUNCTION_POINT_LIMIT and then read at x = 0, 1, 2, … in turn (so it may fill per-row tables on the first row). */
export type PointFunction = () => (x: number) => number;

/**
 * The layout of a function given point by point (docs/atoms.md, "The layout of a function"): `f()`
 * read at every x < Π guide, the deadline checked as it goes, then decided by layoutOfTable.
 * Errors: `overflow` beyond FUNCTION_POINT_LIMIT points, `not-composable` as layoutOfTable, `timeout`.
 */
export function layoutOfFunction(f: PointFunction, guide: readonly number[], what: string): Layout {
  const n = guide.reduce((a, b) => a * b, 1);
  checkPoints(n, what);
  const at = f();
  const vals = new Float64Array(n);
  for (let x = 0; x < n; x++) {
    if ((x & 0xffff) === 0xffff) checkDeadline(what);
    vals[x] = at(x);
  }
  return layoutOfTable(vals, guide, what);
}

/**
 * The exact composite, else the layout of the function (docs/atoms.md, "Tiled MMA", "Tiled copy",
 * "Partitions"): `exact()` builds the answer from compositions, each exact where it exists
 * (algebra/compose.ts), and gives null, or throws `not-composable` or `overflow`, where a step has
 * none; then the function is read at every point and decided (layoutOfFunction), so only what the
 * answer contains has to exist. `wrap` turns that layout into the answer's form (a tensor's offset
 * and further modes); other errors of `exact` pass.
 * Example: exactOrTabulated(() => null, () => (x) => [0, 2, 1, 3][x]!, [2, 2], 'f') is (2,2):(2,1).
 */
export function exactOrTabulated(exact: () => Layout | null, f: PointFunction, guide: Guide, what: string): Layout;
export function exactOrTabulated<R>(exact: () => R | null, f: PointFunction, guide: Guide, what: string, wrap: (l: Layout) => R): R;
export function exactOrTabulated<R>(exact: () => R | null, f: PointFunction, guide: Guide, what: string, wrap?: (l: Layout) => R): R {
  const r = exactOrNull(exact);
  if (r !== null) return r;
  const l = layoutOfFunction(f, typeof guide === 'function' ? guide() : guide, what);
  return wrap === undefined ? (l as R) : wrap(l);
}

/**
 * exactOrTabulated's first half: `exact()`, or null where it has no composite (it gives null, or throws `not-composable`
 * or `overflow`); other errors pass. For the hot callers, written `exactOrNull(exact) ?? tabulated…` so that the
 * tabulation's closures are made only where the composite is missing (atoms/partition.ts: local_tile, partition_a/b/c).
 */
export function exactOrNull<R>(exact: () => R | null): R | null {
  try {
    return exact();
  } catch (e) {
    if (!isLayoutError(e) || (e.kind !== 'not-composable' && e.kind !== 'overflow')) throw e;
    return null;
  }
}

/**
 * The guide of a tabulated layout, or how to find it: a thunk costs nothing where the exact composite answers. (The
 * callers pass their thunks inline: an inner function bound to a name costs a property definition each time it is
 * made under tsx's keepNames, which the benchmarks run; the exact path runs about a million times a second.)
 */
export type Guide = readonly number[] | (() => readonly number[]);

/**
 * Layouts (docs/semantics.md §2, Defs. 2.3.1.1 – 2.3.1.24): L = S:D, a nested tuple S of positive integers
 * (the shape) and a congruent nested tuple D of non-negative integers (the stride).
 * Every Layout value built by `makeLayout` is validated: its size and cosize are exact
 * integers at most 2^53 − 1, so Φ can be evaluated exactly everywhere on its domain.
 */
import { add, mul, overflow, MAX_EXACT } from './arith.js';
import { domainError } from './errors.js';
import * as T from './tuple.js';
import type { Profile, Tuple } from './tuple.js';

/**
 * A layout S:D (Def. 2.3.1.1): a nested tuple of positive integers (the shape) and a congruent
 * nested tuple of non-negative integers (the stride). Build one with makeLayout or parseLayout
 * (they validate); treat it as immutable.
 * @example parseLayout('(3,(3,2)):(3,(1,10))') // { shape: [3, [3, 2]], stride: [3, [1, 10]] }
 */
export interface Layout {
  /** S: the nested tuple of positive integers */
  readonly shape: Tuple;
  /** D: the nested tuple of non-negative integers, congruent to S */
  readonly stride: Tuple;
}

/** A flat view of a layout: its entries s_i:d_i (L♭). */
export interface Flat {
  /** s_1 … s_n: the shape entries, left to right */
  readonly shapes: readonly number[];
  /** d_1 … d_n: the stride entries, left to right */
  readonly strides: readonly number[];
}

function showTuple(t: Tuple): string {
  return typeof t === 'number' ? String(t) : `(${t.map(showTuple).join(',')})`;
}

/** Collect the entries of congruent (shape, stride) in one walk; false when incongruent. */
function collectEntries(a: Tuple, b: Tuple, s: number[], d: number[]): boolean {
  if (typeof a === 'number') {
    if (typeof b !== 'number') return false;
    s.push(a);
    d.push(b);
    return true;
  }
  if (typeof b === 'number' || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (!collectEntries(a[i]!, b[i]!, s, d)) return false;
  return true;
}

/** Def. 2.3.1.1: validate and build S:D. With `unbounded`, size and cosize may exceed
 *  2^53 − 1 (each entry may not): such a layout is only for the structural operations and the
 *  exact BigInt ones below (sizeBig, cosizeBig, phiBig); everything else refuses it. Throws `domain` (incongruent, zero shape, negative
 *  stride, non-integer) or `overflow` (size or cosize beyond 2^53 − 1). Values are treated
 *  as immutable everywhere (readonly types), not frozen (freezing is slow on hot paths). */
export function makeLayout(shape: Tuple, stride: Tuple): Layout {
  return validate(shape, stride, false);
}

/** makeLayout without the size and cosize bounds (see above). */
export function makeLayoutUnbounded(shape: Tuple, stride: Tuple): Layout {
  return validate(shape, stride, true);
}

function validate(shape: Tuple, stride: Tuple, unbounded: boolean): Layout {
  const s: number[] = [];
  const d: number[] = [];
  if (!collectEntries(shape, stride, s, d)) {
    throw domainError(`shape ${showTuple(shape)} and stride ${showTuple(stride)} are not congruent`);
  }
  let sz = 1;
  let co = 0;
  for (let i = 0; i < s.length; i++) {
    const si = s[i]!;
    const di = d[i]!;
    if (!Number.isInteger(si) || si < 1) {
      throw domainError(`shape entry ${i + 1} is ${si}: shape entries must be positive integers`);
    }
    if (!Number.isInteger(di) || di < 0) {
      throw domainError(`stride entry ${i + 1} is ${di}: stride entries must be non-negative integers`);
    }
    if (si > MAX_EXACT) throw overflow(`shape entry ${i + 1}`);
    if (di > MAX_EXACT) throw overflow(`stride entry ${i + 1}`);
    if (unbounded) continue;
    sz = mul(sz, si, 'size');
    co = add(co, mul(si - 1, di, 'cosize'), 'cosize');
  }
  if (!unbounded) add(co, 1, 'cosize');
  return { shape, stride };
}

/** Build a flat layout (s1..sm):(d1..dm). */
export const makeFlat = (shapes: readonly number[], strides: readonly number[]): Layout => makeLayout([...shapes], [...strides]);

/** A depth-0 layout s:d. */
export const makeEntry = (s: number, d: number): Layout => makeLayout(s, d);

/**
 * The empty layout `():()` (rank 0, size 1, cosize 1).
 * @example formatLayout(EMPTY) // '():()'
 */
export const EMPTY: Layout = Object.freeze({ shape: Object.freeze([]), stride: Object.freeze([]) });
/**
 * The trivial layout `1:0`.
 * @example phi(TRIVIAL, 0) // 0
 */
export const TRIVIAL: Layout = Object.freeze({ shape: 1, stride: 0 });

/** L♭ as parallel arrays of entries. */
export function flat(l: Layout): Flat {
  if (typeof l.shape === 'number') return { shapes: [l.shape], strides: [l.stride as number] };
  const shapes: number[] = [];
  const strides: number[] = [];
  T.pushEntries(l.shape, shapes);
  T.pushEntries(l.stride, strides);
  return { shapes, strides };
}

// Def. 2.3.1.2: rank, length, depth, size and profile are those of the shape.
/**
 * rank(L): the rank of the shape (Def. 2.3.1.2): 1 for a depth-0 layout, else the number of modes.
 * @example rank(parseLayout('(3,(3,2)):(3,(1,10))')) // 2
 */
export const rank = (l: Layout): number => T.rank(l.shape);
/**
 * len(L): the number of entries of L♭ (Def. 2.3.1.2).
 * @example length(parseLayout('(3,(3,2)):(3,(1,10))')) // 3
 */
export const length = (l: Layout): number => T.len(l.shape);
/**
 * depth(L): the nesting depth of the shape (Def. 2.3.1.2; 0 for an integer).
 * @example depth(parseLayout('(3,(3,2)):(3,(1,10))')) // 2
 */
export const depth = (l: Layout): number => T.depth(l.shape);
/**
 * size(L) = Π s_i (Def. 2.3.1.2). Errors: `overflow` beyond 2^53 − 1 (for an unbounded layout use sizeBig).
 * @example size(parseLayout('(3,(3,2)):(3,(1,10))')) // 18
 */
export const size = (l: Layout): number => T.size(l.shape);
/**
 * The profile of L: its shape with every integer replaced by `*` (Def. 2.3.1.2).
 * @example formatProfile(profile(parseLayout('(3,(3,2)):(3,(1,10))'))) // '(*,(*,*))'
 */
export const profile = (l: Layout): Profile => T.profile(l.shape);

/** cosize(L) = Φ_L(size − 1) + 1 = 1 + Σ (s_i − 1)·d_i (1 for the empty layout). */
export function cosize(l: Layout): number {
  const { shapes, strides } = flat(l);
  let c = 1;
  for (let i = 0; i < shapes.length; i++) c = add(c, mul(shapes[i]! - 1, strides[i]!, 'cosize'), 'cosize');
  return c;
}

/** Def. 2.3.1.9: the i-th mode, 1 ≤ i ≤ rank(L). A depth-0 layout is its own mode. */
export function mode(l: Layout, i: number): Layout {
  const r = rank(l);
  if (!Number.isInteger(i) || i < 1 || i > r) throw domainError(`mode index ${i} out of range 1..${r}`);
  if (typeof l.shape === 'number') return l;
  return { shape: l.shape[i - 1]!, stride: (l.stride as readonly Tuple[])[i - 1]! };
}

/**
 * The modes of L, mode(L, 1) … mode(L, rank L) (Def. 2.3.1.9).
 * @example modes(parseLayout('(4,8):(1,4)')).map(formatLayout) // ['4:1', '8:4']
 */
export function modes(l: Layout): Layout[] {
  const out: Layout[] = [];
  for (let i = 1; i <= rank(l); i++) out.push(mode(l, i));
  return out;
}

/** Def. 2.3.1.9: the i-th entry s_i:d_i, 1 ≤ i ≤ len(L), a depth-0 layout. */
export function entry(l: Layout, i: number): Layout {
  const { shapes, strides } = flat(l);
  if (!Number.isInteger(i) || i < 1 || i > shapes.length) {
    throw domainError(`entry index ${i} out of range 1..${shapes.length}`);
  }
  return { shape: shapes[i - 1]!, stride: strides[i - 1]! };
}

/**
 * The leaf-wise map of the shape alone (CuTe's `transform_leaf` over the shape, the stride kept): L with every entry
 * s_i:d_i replaced by f(s_i, d_i, i):d_i, i = 1, 2, … numbering the entries left to right as L♭ does (f sees them in
 * that order, so an error it throws names the first entry that fails); the stride tree is L's own (shared,
 * values are immutable). Nothing is checked. Example: mapShape((4,(2,3)):(1,(0,8)), (s, d) => (d === 0 ? 1 : s))
 * = (4,(1,3)):(1,(0,8)).
 */
export function mapShape(l: Layout, f: (s: number, d: number, i: number) => number): Layout {
  return { shape: shapeNode(l.shape, l.stride, f, { i: 0 }), stride: l.stride };
}

/** mapShape's walk (a module function, not a closure made per call): the node (s, d) mapped; `at.i` counts the
 *  entries seen so far. */
function shapeNode(s: Tuple, d: Tuple, f: (s: number, d: number, i: number) => number, at: { i: number }): Tuple {
  if (typeof s === 'number') return f(s, d as number, ++at.i);
  const dd = d as readonly Tuple[];
  const out: Tuple[] = new Array(s.length);
  for (let j = 0; j < s.length; j++) out[j] = shapeNode(s[j]!, dd[j]!, f, at);
  return out;
}

/** Def. 2.3.1.13: L♭ = S♭:D♭. */
export function flatten(l: Layout): Layout {
  const { shapes, strides } = flat(l);
  return { shape: shapes, stride: strides };
}

/** Def. 2.3.2.5: the concatenation (L1, …, Lk), k ≥ 1, checked: `overflow` when the size or cosize of the whole
 *  exceeds 2^53 − 1, `domain` for k = 0 (concatUnchecked is the one without the checks). It nests. */
export function concat(...ls: readonly Layout[]): Layout {
  if (ls.length < 1) throw domainError('concatenation needs at least one layout');
  // The parts are valid layouts: only the size and cosize of the whole can overflow.
  let sz = 1;
  let co = 1;
  const shape: Tuple[] = new Array(ls.length);
  const stride: Tuple[] = new Array(ls.length);
  for (let i = 0; i < ls.length; i++) {
    const l = ls[i]!;
    sz = mul(sz, size(l), 'size');
    co = add(co, spanOf(l.shape, l.stride), 'cosize');
    shape[i] = l.shape;
    stride[i] = l.stride;
  }
  return { shape, stride };
}

/** cosize(L) − 1 = Σ (s_i − 1)·d_i of congruent (shape, stride), checked, in one walk without
 *  building L♭ (concat's hot path). */
function spanOf(shape: Tuple, stride: Tuple): number {
  if (typeof shape === 'number') return mul(shape - 1, stride as number, 'cosize');
  const d = stride as readonly Tuple[];
  let c = 0;
  for (let i = 0; i < shape.length; i++) c = add(c, spanOf(shape[i]!, d[i]!), 'cosize');
  return c;
}

/** Def. 2.3.2.12: L_P, substituting the modes of S and of D into P (len(P) = rank(L)). */
export function substitute(l: Layout, p: Profile): Layout {
  const r = rank(l);
  const n = T.profileLength(p);
  if (n !== r) throw domainError(`profile has ${n} entries but the layout has rank ${r}`);
  const ms = modes(l);
  return {
    shape: T.substituteTuples(
      p,
      ms.map((m) => m.shape),
    ),
    stride: T.substituteTuples(
      p,
      ms.map((m) => m.stride),
    ),
  };
}

/** Construction 2.3.1.19: the layout with flattening (shapes):(strides) and profile P. */
export function withProfile(f: Flat, p: Profile): Layout {
  return { shape: T.substituteTuples(p, f.shapes), stride: T.substituteTuples(p, f.strides) };
}

/** Def. 2.3.1.24: every entry with s_i = 1 has d_i = 0. */
export function isNondegenerate(l: Layout): boolean {
  const { shapes, strides } = flat(l);
  for (let i = 0; i < shapes.length; i++) if (shapes[i] === 1 && strides[i] !== 0) return false;
  return true;
}

function checkIndex(l: Layout, x: number): number {
  const n = size(l);
  if (!Number.isInteger(x) || x < 0 || x >= n) throw domainError(`x = ${x} is outside [0, ${n})`);
  return n;
}

/** size(L) as an exact BigInt, for layouts of any size. */
export function sizeBig(l: Layout): bigint {
  let p = 1n;
  for (const s of flat(l).shapes) p *= BigInt(s);
  return p;
}

/** cosize(L) as an exact BigInt, for layouts of any size. */
export function cosizeBig(l: Layout): bigint {
  const { shapes, strides } = flat(l);
  let c = 1n;
  for (let i = 0; i < shapes.length; i++) c += BigInt(shapes[i]! - 1) * BigInt(strides[i]!);
  return c;
}

/** Φ_L(x) exactly for layouts of any size (x itself is an exact integer): a number while the
 *  offset is, a BigInt beyond. */
export function phiBig(l: Layout, x: number): number | bigint {
  const n = sizeBig(l);
  if (!Number.isInteger(x) || x < 0 || BigInt(x) >= n) throw domainError(`x = ${x} is outside [0, ${n})`);
  const { shapes, strides } = flat(l);
  let off = 0n;
  let rest = BigInt(x);
  for (let i = 0; i < shapes.length && rest > 0n; i++) {
    const s = BigInt(shapes[i]!);
    off += (rest % s) * BigInt(strides[i]!);
    rest /= s;
  }
  return off <= BigInt(MAX_EXACT) ? Number(off) : off;
}

/**
 * Def. 2.3.2.5 unchecked: the tuple (L1, …, Lk) of the given layouts as modes, k ≥ 0 (():() for none), in one loop
 * over an array (no argument spreading, so k may be in the hundreds of thousands), with no size or cosize bound on
 * the whole — `concat` is the checked one. For a caller that knows the result is in bounds (some modes of one valid
 * layout, regrouped) or wants a layout of any size (the `concat` op, like makeLayoutUnbounded).
 * Example: concatUnchecked([2:1, 3:2]) = (2,3):(1,2).
 */
export function concatUnchecked(ls: readonly Layout[]): Layout {
  const shape: Tuple[] = new Array(ls.length);
  const stride: Tuple[] = new Array(ls.length);
  for (let i = 0; i < ls.length; i++) {
    shape[i] = ls[i]!.shape;
    stride[i] = ls[i]!.stride;
  }
  return { shape, stride };
}

/** CuTe's `append<R>(L, 1:0)`: L with trailing 1:0 modes up to rank R; L itself when rank(L) ≥ R. A 1:0 mode changes
 *  neither size nor cosize: nothing to check. Example: append(4:1, 3) = (4,1,1):(1,0,0). */
export function append(l: Layout, r: number): Layout {
  if (rank(l) >= r) return l;
  const ms = modes(l);
  while (ms.length < r) ms.push(TRIVIAL);
  return concatUnchecked(ms);
}

/** CuTe's `zip` over modes: given k lists of r modes each, the layout whose mode i is (X1_i, …, Xk_i). Unchecked
 *  (concatUnchecked): for the modes of one valid layout, regrouped. Example: zip([[4:1, 8:4], [2:32, 3:64]]) =
 *  ((4,2),(8,3)):((1,32),(4,64)). */
export function zip(lists: readonly (readonly Layout[])[]): Layout {
  const r = lists.length === 0 ? 0 : lists[0]!.length;
  const out: Layout[] = new Array(r);
  for (let i = 0; i < r; i++) out[i] = concatUnchecked(lists.map((ms) => ms[i]!));
  return concatUnchecked(out);
}

/** Construction 2.3.1.17: Φ_L(x) = Σ x_i·d_i with x_i the colexicographic coordinates of x. */
export function phi(l: Layout, x: number): number {
  checkIndex(l, x);
  const { shapes, strides } = flat(l);
  let off = 0;
  let rest = x;
  for (let i = 0; i < shapes.length; i++) {
    const s = shapes[i]!;
    off += (rest % s) * strides[i]!;
    rest = Math.floor(rest / s);
  }
  return off;
}

/** The nested coordinate of index x (colexicographic within every mode). */
export function indexToCoord(l: Layout, x: number): Tuple {
  checkIndex(l, x);
  let rest = x;
  const go = (s: Tuple): Tuple => {
    if (typeof s === 'number') {
      const c = rest % s;
      rest = Math.floor(rest / s);
      return c;
    }
    return s.map(go);
  };
  return go(l.shape);
}

/** Φ at a nested coordinate. A coordinate is congruent to the shape, or an integer at any
 *  level, which indexes that sub-shape colexicographically (as in CuTe). */
export function coordToOffset(l: Layout, coord: Tuple): number {
  const go = (c: Tuple, s: Tuple, d: Tuple): number => {
    if (typeof c === 'number') {
      const n = T.size(s);
      if (!Number.isInteger(c) || c < 0 || c >= n) {
        throw domainError(`coordinate ${c} is outside [0, ${n}) for shape ${showTuple(s)}`);
      }
      return phi({ shape: s, stride: d }, c);
    }
    if (typeof s === 'number' || typeof d === 'number' || c.length !== s.length) {
      throw domainError(`coordinate ${showTuple(c)} is not congruent to shape ${showTuple(s)}`);
    }
    let off = 0;
    for (let i = 0; i < c.length; i++) off += go(c[i]!, s[i]!, d[i]!);
    return off;
  };
  return go(coord, l.shape, l.stride);
}

/** Structural equality of layouts (same nesting, same integers). */
export function layoutsEqual(a: Layout, b: Layout): boolean {
  return tuplesEqual(a.shape, b.shape) && tuplesEqual(a.stride, b.stride);
}

export function tuplesEqual(a: Tuple, b: Tuple): boolean {
  if (typeof a === 'number' || typeof b === 'number') return a === b;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (!tuplesEqual(a[i]!, b[i]!)) return false;
  return true;
}

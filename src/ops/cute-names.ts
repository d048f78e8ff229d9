/**
 * CuTe's own names for operations the table already has (docs/vocabulary.md): `composition`
 * beside the paper's `compose`, `crd2idx` and `idx2crd` (CuTe's index arithmetic of
 * `include/cute/stride.hpp`), and `get` with CuTe's 0-based indices beside the paper's 1-based
 * `mode`. (The "did you mean …" of an unknown op or command name is algebra/names.ts's, re-exported here.)
 */
import { LayoutError, badRequestError } from '../algebra/errors.js';
export { closestNames, didYouMean } from '../algebra/names.js';
import { makeLayout, mode, rank, type Layout } from '../algebra/layout.js';
import { colMajorStride, formatLayout, formatTuple } from '../algebra/notation.js';
import type { Tuple } from '../algebra/tuple.js';
import { coordToOffsetLayoutFunction, innerLayout, isComposed, looksComposed, mapInner, type LayoutFunction } from '../cute/composed.js';
import { composeByMode } from '../cute/divide.js';
import type { Tiler } from '../cute/tiler.js';
import type { Json, OpSpec } from './spec.js';
import { coordinateArg, readLayoutFunction, readTuple, textArg as text } from './args.js';

/**
 * get<i, j, …>(L) (CuTe `get`): mode i of L counted from 0, then mode j of that, and so on; the
 * paper's mode_(i+1) (Def. 2.3.1.9). Errors: `domain` for an index outside [0, rank), naming it
 * and the rank. Example: get((4,(2,3)):(1,(4,8)), 1, 0) = 2:4.
 */
export function getMode(l: Layout, indices: readonly number[]): Layout {
  let m = l;
  indices.forEach((i, k) => {
    const r = rank(m);
    if (i < 0 || i >= r) {
      const at = k === 0 ? '' : ` (after get<${indices.slice(0, k).join(',')}>)`;
      throw new LayoutError(
        'domain',
        `get: index ${i} is outside [0, ${r}): ${formatLayout(m)}${at} has rank ${r}; CuTe's get counts modes from 0 (the paper's mode from 1)`,
      );
    }
    m = mode(m, i + 1);
  });
  return m;
}

/** get<i, j, …>(L) of a plain or composed layout: a composed Sw o K o L keeps its outer function
 *  (docs/semantics.md §9.1). Example: get(parseLayoutFunction('(4,(2,3)):(1,(4,8))'), 1, 0) is 2:4. */
export function get(l: LayoutFunction, ...indices: number[]): LayoutFunction {
  return mapInner(l, (inner) => getMode(inner, indices));
}

/** Whether a CuTe argument is a layout (plain or composed) rather than a shape tuple. */
const isLayoutFunction = (v: LayoutFunction | Tuple): v is LayoutFunction => typeof v === 'object' && !Array.isArray(v);

/**
 * crd2idx(C, S[, D]) (CuTe `crd2idx`, stride.hpp): Φ at the coordinate C of the layout S, or of
 * S:D for a shape S and strides D, or of the compact column-major layout of a shape S (then the
 * colexicographic index of C). A coordinate is congruent to the shape or an integer at any level,
 * which indexes that sub-shape colexicographically. Errors: `domain` for a coordinate outside the
 * shape or not congruent to it, or a stride D given with a layout S.
 * Example: crd2idx([1, 2], parseLayout('(4,8):(1,4)')) = 9; crd2idx([1, 2], [4, 8]) = 9.
 */
export function crd2idx(c: Tuple, s: LayoutFunction | Tuple, d?: Tuple): number {
  if (isLayoutFunction(s)) {
    if (d !== undefined) throw new LayoutError('domain', 'crd2idx: with a stride D, S must be a shape, not a layout');
    return coordToOffsetLayoutFunction(s, c);
  }
  return coordToOffsetLayoutFunction(makeLayout(s, d ?? colMajorStride(s)), c);
}

/**
 * idx2crd(x, S) (CuTe `idx2crd`): the coordinate of index x in the shape S (of a layout S),
 * colexicographic within every mode, nested like S. Errors: `domain` for x outside [0, size(S)).
 * Example: idx2crd(9, [4, [2, 3]]) = [1, [0, 1]].
 */
export function idx2crd(x: number, s: LayoutFunction | Tuple): Tuple {
  const shape = isLayoutFunction(s) ? innerLayout(s).shape : s;
  let rest = x;
  const go = (t: Tuple): Tuple => {
    if (typeof t !== 'number') return t.map(go);
    const c = rest % t;
    rest = Math.floor(rest / t);
    return c;
  };
  const crd = Number.isSafeInteger(x) && x >= 0 ? go(shape) : 0;
  if (!Number.isSafeInteger(x) || x < 0 || rest !== 0) throw new LayoutError('domain', `idx2crd: index ${x} is outside the shape ${formatTuple(shape)}`);
  return crd;
}

/**
 * The shape of idx2crd's S: a shape written alone is read as the tuple it is (its compact strides, which
 * may pass 2^53 − 1 where the coordinate never does, are not formed); a layout's or composed layout's
 * own shape otherwise. Example: shapeArg('(1073741824,1073741824,1073741824)') = [2^30, 2^30, 2^30].
 */
function shapeArg(st: string): Tuple {
  if (looksComposed(st) || st.includes(':')) return innerLayout(readLayoutFunction(st, 'S', true)).shape;
  return readTuple(st, 'S');
}

/** The ops of CuTe's names (see the header); each is a CLI subcommand and a `batch` op. */
export const cuteNameOps: OpSpec[] = [
  {
    name: 'composition',
    summary: "CuTe's composition(A, T): the same as compose, A∘T, by mode for a tiler T (docs/semantics.md §8.3)",
    args: [
      { name: 'A', kind: 'layout' },
      { name: 'T', kind: 'tiler' },
    ],
    run: ([a, t]) => formatLayout(composeByMode(a as Layout, t as Tiler)),
    composed: 'inner',
  },
  {
    name: 'get',
    summary: "CuTe's get<i>(L), get<i,j>(L): modes counted from 0 (mode counts from 1)",
    args: [
      { name: 'L', kind: 'any-layout' },
      { name: 'i', kind: 'int', variadic: true },
    ],
    run: ([l, ...is]) => {
      if (is.length === 0) throw badRequestError('get takes L and at least one index, e.g. ["(4,8):(1,4)", 0]');
      return formatLayout(getMode(l as Layout, is as number[]));
    },
    composed: 'inner',
  },
  {
    name: 'crd2idx',
    summary: "CuTe's crd2idx(C, S[, D]): Φ at coordinate C of the layout S (or S:D); an integer C is an index",
    args: [
      { name: 'C', kind: 'json' },
      { name: 'S', kind: 'json' },
      { name: 'D', kind: 'json', optional: true },
    ],
    run: ([c, s, d]): Json => {
      const crd = coordinateArg('crd2idx', c);
      const st = text('crd2idx', 'S', s, '(4,8):(1,4)');
      const l = readLayoutFunction(st, 'S');
      if (d === undefined) return crd2idx(crd, l);
      if (isComposed(l) || st.includes(':')) throw new LayoutError('domain', `crd2idx: with a stride D, S must be a shape, got ${st.trim()}`);
      return crd2idx(crd, l.shape, readTuple(text('crd2idx', 'D', d, '(1,4)'), 'D', true));
    },
  },
  {
    name: 'idx2crd',
    summary: "CuTe's idx2crd(x, S): the nested coordinate of index x in shape S (colexicographic)",
    args: [
      { name: 'x', kind: 'int' },
      { name: 'S', kind: 'json' },
    ],
    run: ([x, s]) => formatTuple(idx2crd(x as number, shapeArg(text('idx2crd', 'S', s, '(4,8)')))),
  },
];

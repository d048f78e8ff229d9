/**
 * Table entries (src/ops/table.ts spreads them in) for docs/semantics.md §8.5: inverses, filters, common vectors,
 * slices and recasts. Each op gets its CLI subcommand (kebab-case) and its `batch` op.
 */
import type { Layout } from '../algebra/layout.js';
import { formatLayout } from '../algebra/notation.js';
import type { ArgSpec, OpSpec } from './spec.js';
import { textArg } from './args.js';
import { downcast, upcast } from '../cute/cast.js';
import { maxCommonLayout, maxCommonVector } from '../cute/common.js';
import { filter, filterZeros } from '../cute/filter.js';
import { leftInverse, rightInverse } from '../cute/inverse.js';
import { dice, sliceLayout } from '../cute/slice.js';

const layout = (name: string): ArgSpec => ({ name, kind: 'layout' });

/** The argument as a plain layout (a `layout` argument is one: docs/semantics.md §9.1's composed layouts
 *  are refused with `domain` where arguments are parsed, and src/ops/composed.ts lets
 *  slice and dice take them). */
const plain = (_op: string, v: unknown): Layout => v as Layout;

/** the page's CuTe group */
const cute = { page: 'CuTe' } as const;

const unary = (name: string, summary: string, f: (l: Layout) => Layout, any = false): OpSpec => ({
  name,
  summary,
  args: [{ name: 'L', kind: any ? 'any-layout' : 'layout' }],
  run: ([l]) => formatLayout(f(plain(name, l))),
  ...cute,
});

const binary = (name: string, summary: string, f: (a: Layout, b: Layout) => Layout | number): OpSpec => ({
  name,
  summary,
  args: [layout('A'), layout('B')],
  run: ([a, b]) => {
    const r = f(plain(name, a), plain(name, b));
    return typeof r === 'number' ? r : formatLayout(r);
  },
  ...cute,
});

/** slice and dice; on a composed layout, slice adds the slice's offset to the outer function's, dice has none (the
 *  `_` positions it drops carry no coordinate) */
const sliceOp = (name: string, summary: string, f: (l: Layout, c: string) => Layout, composed: 'slice' | 'inner'): OpSpec => ({
  name,
  summary,
  // any size: a slice needs no cosize (its sub-layouts are L's own entries), so a layout whose
  // cosize passes 2^53 still slices (docs/semantics.md §8.5)
  args: [
    { name: 'L', kind: 'any-layout' },
    { name: 'C', kind: 'json' },
  ],
  run: ([l, c]) => formatLayout(f(plain(name, l), textArg(name, 'C', c, '(_,(2,_))'))),
  ...cute,
  composed,
});

const castOp = (name: string, summary: string, f: (l: Layout, n: number) => Layout): OpSpec => ({
  name,
  summary,
  args: [layout('L'), { name: 'N', kind: 'int' }],
  run: ([l, n]) => formatLayout(f(plain(name, l), n as number)),
  ...cute,
});

export const cuteMoreOps: OpSpec[] = [
  unary('right_inverse', 'CuTe right_inverse(L): Φ_L(Φ_R(i)) = i for i < size(R) (docs/semantics.md §8.5)', rightInverse),
  unary('left_inverse', "CuTe C++'s left_inverse(L): Φ_R(Φ_L(i)) = i for an injective L (docs/semantics.md §8.5)", leftInverse),
  unary('filter', 'CuTe filter(L) = coal(filter_zeros(L)) (docs/semantics.md §8.5)', filter),
  unary('filter_zeros', 'CuTe filter_zeros(L): stride-0 entries get shape 1 (docs/semantics.md §8.5)', filterZeros, true),
  binary('max_common_vector', 'CuTe max_common_vector(A, B): largest N with Φ_A(Φ_R(n)) = n, R = right_inverse(B)', maxCommonVector),
  binary('max_common_layout', 'CuTe max_common_layout(A, B) = coal(right_inverse(B) ∘ N:1) (docs/semantics.md §8.5)', maxCommonLayout),
  sliceOp('slice', 'CuTe slice: the sub-layouts at the _ of C, e.g. "(_,(2,_))" (docs/semantics.md §8.5)', sliceLayout, 'slice'),
  sliceOp('dice', 'CuTe dice: the sub-layouts at the integers of C (docs/semantics.md §8.5)', dice, 'inner'),
  castOp('upcast', 'CuTe upcast<N>(L): elements N times larger (docs/semantics.md §8.5)', upcast),
  castOp('downcast', 'CuTe downcast<N>(L): elements N times smaller (docs/semantics.md §8.5)', downcast),
];

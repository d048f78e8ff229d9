/**
 * The bulk checks of the batch protocol (docs/protocol.md, "Bulk checks"), answered by the
 * backend of the context (`ctx.backend()`): `eval_range`, `digest_range`, `check_compact`,
 * `check_complement`, `check_compose`, `tile_map`. Results have exactly the listed keys, so
 * both backends answer identically; `sum` is a decimal string, every other integer a JSON
 * number (all of them are below 2^53 here).
 */
import { LayoutError } from '../algebra/errors.js';
import { concat, size, type Layout } from '../algebra/layout.js';
import { compose } from '../algebra/compose.js';
import { formatLayoutFunction, innerLayout, isComposed, makeComposed, type LayoutFunction } from '../cute/composed.js';
import { readLayoutFunction } from './args.js';
import type { Json, OpSpec } from './spec.js';
import type { CompactReport, Digest } from '../engine/backend.js';
import { checkRange } from '../engine/prep.js';

/** eval_range answers at most this many offsets */
export const EVAL_RANGE_LIMIT = 65_536;
/** tile_map: size(A) at most this */
export const TILE_MAP_LIMIT = 65_536;

const L = (name: string) => ({ name, kind: 'layout' as const });
/** a layout function: plain or composed Sw o K o L (docs/semantics.md §9.1: every bulk check takes them) */
const F = (name: string) => ({ name, kind: 'layout-fn' as const });
const I = (name: string) => ({ name, kind: 'int' as const });
/** a layout function of any size: eval_range and digest_range of an empty range compute no value of Φ, so
 *  they answer whatever the offsets would be; any other range holds L to the exact bound (`bounded`) */
const FA = (name: string) => ({ name, kind: 'any-layout-fn' as const });

/** L as the bounded parse takes it: `overflow` where a value of Φ may pass 2^53 − 1 (cute/composed.ts makeComposed) */
const bounded = (l: LayoutFunction): LayoutFunction => readLayoutFunction(formatLayoutFunction(l), 'L');

function range(l: LayoutFunction, lo: unknown, hi: unknown): [number, number] {
  for (const v of [lo, hi]) {
    if (typeof v !== 'number' || !Number.isInteger(v)) throw new LayoutError('bad-request', `range bounds must be JSON integers, got ${JSON.stringify(v)}`);
  }
  checkRange(lo as number, hi as number, size(innerLayout(l)));
  return [lo as number, hi as number];
}

export function digestJson(d: Digest): Json {
  return { count: d.count, sum: d.sum.toString(), min: d.min, max: d.max };
}

export function compactJson(r: CompactReport): Json {
  return { compact: r.compact, image: r.image, outOfRange: r.outOfRange, collisions: r.collisions, witness: r.witness };
}

/** B∘A by the algebra: on a composed B = Sw o K o L, Sw o K o (L∘A) (docs/semantics.md
 *  §9.1); a composed A (the inner side) has no composite: `domain`.
 *  Example: algebraComposite(Sw<3,3,3> o (8,64):(64,1), 8:1) = Sw<3,3,3> o 8:64. */
export function algebraComposite(b: LayoutFunction, a: LayoutFunction): LayoutFunction {
  if (isComposed(a)) {
    throw new LayoutError('domain', `check_compose without C needs a plain layout as A; ${formatLayoutFunction(a)} is a composed layout (give C)`);
  }
  return isComposed(b) ? makeComposed(b.swizzle, b.offset, compose(b.inner, a)) : compose(b, a);
}

export const bulkOps: OpSpec[] = [
  {
    name: 'eval_range',
    summary: `[Φ_L(lo), …, Φ_L(hi−1)], hi − lo ≤ ${EVAL_RANGE_LIMIT}`,
    args: [FA('L'), I('lo'), I('hi')],
    async run([l, lo, hi], ctx) {
      const [a, b] = range(l as LayoutFunction, lo, hi);
      if (b - a > EVAL_RANGE_LIMIT) throw new LayoutError('domain', `eval_range answers at most ${EVAL_RANGE_LIMIT} offsets, asked for ${b - a}`);
      if (a === b) return [];
      const v = await (await ctx.backend()).evalRange(bounded(l as LayoutFunction), a, b);
      return Array.from(v);
    },
  },
  {
    name: 'digest_range',
    summary: 'count, exact sum, min and max of Φ_L over [lo, hi)',
    args: [FA('L'), I('lo'), I('hi')],
    async run([l, lo, hi], ctx) {
      const [a, b] = range(l as LayoutFunction, lo, hi);
      if (a === b) return { count: 0, sum: '0', min: null, max: null };
      return digestJson(await (await ctx.backend()).digestRange(bounded(l as LayoutFunction), a, b));
    },
  },
  {
    name: 'check_compact',
    page: 'check',
    summary: 'whether Φ_L is a bijection onto [0, size): image, out-of-range and collision counts, a witness',
    args: [F('L')],
    async run([l], ctx) {
      return compactJson(await (await ctx.backend()).checkCompact(l as LayoutFunction));
    },
  },
  {
    name: 'check_complement',
    page: 'check',
    summary: 'check_compact of the concatenation (A, B): whether B is a complement of A',
    args: [L('A'), L('B')],
    async run([a, b], ctx) {
      return compactJson(await (await ctx.backend()).checkCompact(concat(a as Layout, b as Layout)));
    },
  },
  {
    name: 'check_compose',
    page: 'check',
    summary: 'certify C = B∘A (C from the algebra unless given): Φ_C(x) = Φ_B(Φ_A(x)) for every x < size(A)',
    args: [F('B'), F('A'), { name: 'C', kind: 'layout-fn', optional: true }],
    async run([b, a, c], ctx) {
      const C = (c as LayoutFunction | undefined) ?? algebraComposite(b as LayoutFunction, a as LayoutFunction);
      const r = await (await ctx.backend()).checkCompose(b as LayoutFunction, a as LayoutFunction, C);
      return { equal: r.equal, mismatches: r.mismatches, witness: r.witness, composite: formatLayoutFunction(r.composite) };
    },
  },
  {
    name: 'tile_map',
    page: 'check',
    summary: `the tile address map of A ⊘ B, offsets[tile][element], size(A) ≤ ${TILE_MAP_LIMIT}`,
    args: [F('A'), L('B')],
    async run([a, b], ctx) {
      const n = size(innerLayout(a as LayoutFunction));
      if (n > TILE_MAP_LIMIT) throw new LayoutError('domain', `tile_map answers for size(A) ≤ ${TILE_MAP_LIMIT}, size(A) = ${n}`);
      const t = await (await ctx.backend()).tileMap(a as LayoutFunction, b as Layout);
      return { tileSize: t.tileSize, tiles: t.tiles, offsets: t.offsets };
    },
  },
];

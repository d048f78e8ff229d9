/**
 * The ops table on composed layouts (docs/semantics.md §9.1): `withComposed(ops)` lets the operations that
 * CuTe defines on `ComposedLayout` take Sw o K o L as their first argument, acting on the
 * inner layout L and keeping the outer function, and leaves every other op refusing it
 * (the plain `layout` argument kinds answer `domain`: "complement needs a plain layout …").
 * One wrapper for all of them, so the ops of every table (algebra, CuTe vocabulary, bulk
 * checks) get the same rule without each entry knowing about swizzles.
 */
import { LayoutError } from '../algebra/errors.js';
import type { Layout } from '../algebra/layout.js';
import { sliceOffset } from '../cute/slice.js';
import { parseLayoutArg } from '../cute/tiler.js';
import type { ArgKind, Json, OpSpec } from './spec.js';
import {
  composedPrefix,
  coordToOffsetLayoutFunction,
  cosizeLayoutFunction,
  formatLayoutFunction,
  isComposed,
  looksComposed,
  makeComposed,
  parseLayoutFunction,
  phiLayoutFunctionBig,
  type ComposedLayout,
  type LayoutFunction,
} from '../cute/composed.js';

/** Ops whose layout result on Sw o K o L is Sw o K o (the result on L) (CuTe's
 *  layout_composed.hpp: composition, the divides and products, tile_to_shape, flatten,
 *  mode/entry/get (`layout<I>`), coalesce incl. relative). */
const ON_INNER = new Set([
  'parse',
  'flatten',
  'mode',
  'entry',
  'coalesce',
  'compose',
  'composition',
  'get',
  'logical_divide',
  'logical_product',
  'zipped_divide',
  'tiled_divide',
  'flat_divide',
  'zipped_product',
  'tiled_product',
  'flat_product',
  'blocked_product',
  'raked_product',
  'tile_to_shape',
  'dice', // dice has no offset: the `_` positions it drops carry no coordinate
]);

/** Ops whose answer depends only on L's shape: the same on Sw o K o L as on L. */
const SHAPE_ONLY = new Set(['size', 'rank', 'length', 'depth', 'profile', 'coord']);

/** Ops of the outer function itself. */
const OWN: Record<string, (c: ComposedLayout, rest: readonly unknown[]) => Json> = {
  cosize: (c) => jsonInt(cosizeLayoutFunction(c)),
  eval: (c, [x]) => jsonInt(phiLayoutFunctionBig(c, x as number)),
  eval_coord: (c, [coord]) => coordToOffsetLayoutFunction(c, coord as never),
};

function jsonInt(n: number | bigint): Json {
  if (typeof n === 'number') return n;
  return n <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(n) : n.toString();
}

const fnKind = (k: ArgKind): ArgKind | undefined => (k === 'layout' ? 'layout-fn' : k === 'any-layout' ? 'any-layout-fn' : undefined);

/** A composed layout (or its text) in an argument that needs a plain layout: `domain`. */
export function plainNeeded(op: string, arg: string, l: LayoutFunction | string): LayoutError {
  const text = typeof l === 'string' ? l.trim() : formatLayoutFunction(l);
  return new LayoutError('domain', `${op} needs a plain layout as its argument ${arg}; ${text} is a composed layout`);
}

/** A layout argument that must be plain (an atom layout, a thread or value layout): a composed layout is `domain`
 *  once it parses (plainNeeded), every other text parseLayoutArg's answer. */
export function plainLayoutArg(text: string, op: string, arg: string): Layout {
  if (looksComposed(text)) throw plainNeeded(op, arg, parseLayoutFunction(text, arg, true));
  return parseLayoutArg(text, arg);
}

/** parseTiler's answer to an item written as a composed layout: `parse` if it does not read as one, else `domain`. */
export const plainTiler =
  (op: string, arg: string) =>
  (item: string): never => {
    throw plainNeeded(op, arg, parseLayoutFunction(item, arg, true));
  };

function wrap(spec: OpSpec): OpSpec {
  const first = spec.args[0];
  const kind = first && !first.variadic ? fnKind(first.kind) : undefined;
  const name = spec.name;
  const own = OWN[name];
  if (!kind || !(ON_INNER.has(name) || SHAPE_ONLY.has(name) || own || name === 'slice')) return spec;
  return {
    ...spec,
    args: [{ ...first!, kind }, ...spec.args.slice(1)],
    run(args, ctx) {
      const l = args[0] as LayoutFunction;
      if (!isComposed(l)) return spec.run(args, ctx);
      const rest = args.slice(1);
      // a composed layout on the inner side of a composition (or any other argument): domain
      rest.forEach((a, i) => {
        if (typeof a === 'string' && looksComposed(a)) throw plainNeeded(name, spec.args[i + 1]?.name ?? `${i + 2}`, a);
        if (typeof a === 'object' && a !== null && isComposed(a as LayoutFunction))
          throw plainNeeded(name, spec.args[i + 1]?.name ?? `${i + 2}`, a as LayoutFunction);
      });
      if (own) return own(l, rest);
      const r = spec.run([l.inner, ...rest], ctx);
      if (SHAPE_ONLY.has(name)) return r;
      const prefix = (x: Json): Json => {
        if (typeof x !== 'string') return x;
        if (name === 'slice') {
          const c = makeComposed(l.swizzle, l.offset + sliceOffset(l.inner, rest[0] as never), l.inner);
          return composedPrefix(c) + x;
        }
        return composedPrefix(l) + x;
      };
      return r instanceof Promise ? r.then(prefix) : prefix(r);
    },
  };
}

/** The table with composed layouts accepted where docs/semantics.md §9.1 says (see the header). */
export function withComposed(ops: readonly OpSpec[]): OpSpec[] {
  return ops.map(wrap);
}

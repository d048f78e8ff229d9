/**
 * The ops table on composed layouts (docs/semantics.md §9.1): `withComposed(ops)` lets the operations that
 * CuTe defines on `ComposedLayout` take Sw o K o L as their first argument, as each row's `composed` says
 * (ops/spec.ts's OnComposed: on the inner layout L keeping the outer function, as L's shape, or the outer
 * function's own answer), and leaves every other op refusing it (the plain `layout` argument kinds answer
 * `domain`: "complement needs a plain layout …", ops/args.ts). One wrapper for all of them, so the rows of
 * every table (algebra, CuTe vocabulary, bulk checks) get the same rule without each run knowing about swizzles.
 */
import { sliceOffset } from '../cute/slice.js';
import type { ArgKind, Json, OpSpec } from './spec.js';
import { plainNeeded } from './args.js';
import { composedPrefix, isComposed, looksComposed, makeComposed, type LayoutFunction } from '../cute/composed.js';

const fnKind = (k: ArgKind): ArgKind | undefined => (k === 'layout' ? 'layout-fn' : k === 'any-layout' ? 'any-layout-fn' : undefined);

/** The row with its first layout argument a layout function, run by its `composed` (spec.ts's OnComposed). */
function wrap(spec: OpSpec): OpSpec {
  const first = spec.args[0];
  const kind = first && !first.variadic ? fnKind(first.kind) : undefined;
  const name = spec.name;
  const how = spec.composed;
  if (!kind || how === undefined) return spec;
  const own = typeof how === 'function' ? how : undefined;
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
      if (how === 'shape') return r;
      const prefix = (x: Json): Json => {
        if (typeof x !== 'string') return x;
        if (how === 'slice') {
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

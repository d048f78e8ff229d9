/**
 * The main card's operation form (docs/page.md): the fields an op's arguments take, the formula shown before its
 * result, and an example's text. The ops the chooser offers and their groups are the rows' own (ops/spec.ts's
 * `page` and `symbol`: an op of the table in no group lands in "More", the bulk checks are the GPU card's buttons).
 */
import { opsByName, type ArgSpec, type OpSpec } from '../ops/table.js';
import type { Example } from './examples.js';

/** the arguments of an op after the first: the second layout, and at most one other */
export interface Extra {
  layout2?: ArgSpec;
  /** the argument field: one argument, or several integers (eval_range's lo hi) */
  arg?: ArgSpec;
  more?: ArgSpec[];
}

/** The fields an op takes after its first layout. */
export function extraArgs(spec: OpSpec): Extra {
  const rest = spec.args.slice(1);
  const out: Extra = {};
  const others: ArgSpec[] = [];
  for (const a of rest) {
    // a tiler (docs/semantics.md §8.2) takes the second layout's field: a layout, a shape or <…>
    const isLayout = a.kind === 'layout' || a.kind === 'any-layout' || a.kind === 'tiler' || a.kind === 'layout-fn' || a.kind === 'any-layout-fn';
    if (isLayout && !out.layout2) out.layout2 = a;
    else if (!isLayout && a.kind !== 'options') others.push(a); // the bank analyses' {"arch", "access"}: CLI and batch
  }
  if (others.length === 1) out.arg = others[0];
  else if (others.length > 1 && others.every((a) => a.kind === 'int')) {
    out.arg = { name: others.map((a) => a.name).join(' '), kind: 'int', optional: others.every((a) => a.optional) };
    out.more = others;
  } else if (others.length > 1 && others.slice(1).every((a) => a.optional)) out.arg = others[0]; // tile_to_shape's S (its order O: CLI and batch)
  // concat: (L, …) is variadic: the second field is its second layout
  if (spec.args[0]?.variadic) out.layout2 = { name: 'L₂', kind: 'layout', optional: true };
  return out;
}

/** Whether the paper writes an op's symbol between its two layouts (∘, ⊘, ⊗) rather than before its arguments (coal, comp). */
const infix = (symbol: string): boolean => !/\p{L}/u.test(symbol);

/** The formula before the result (`A ⊘ B =`, `coal(L, S̄) =`, `op(L, …) =`): the arguments the op is given, under its
 *  symbol where the row has one (ops/spec.ts). */
export function formula(op: string, spec: OpSpec | undefined, st: { layout2: string; arg: string }, extra: Extra): string {
  const a0 = spec?.args[0]?.name ?? 'L';
  const a1 = extra.layout2?.name ?? 'L₂';
  const symbol = spec?.symbol;
  if (symbol && infix(symbol)) return `${a0} ${symbol} ${a1} =`;
  const show2 = extra.layout2 && (!extra.layout2.optional || st.layout2.trim());
  const showArg = extra.arg && (!extra.arg.optional || st.arg.trim());
  const names = [a0, ...(show2 ? [a1] : []), ...(!showArg ? [] : extra.more ? extra.more.map((a) => a.name) : [extra.arg!.name])];
  return `${symbol ?? op}(${names.join(', ')}) =`;
}

/** An example's text in the list, as the formula shows its op. */
export function exampleText(ex: Example): string {
  const symbol = opsByName.get(ex.op)?.symbol;
  if (symbol && infix(symbol)) return `${ex.layout} ${symbol} ${ex.layout2}`;
  if (symbol) return `${symbol}(${ex.layout}${ex.arg ? `, ${ex.arg}` : ''})`;
  return `${ex.op.replace(/_/g, ' ')} ${ex.layout}`;
}

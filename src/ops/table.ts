/**
 * THE table of operations. The CLI, `batch` and the page all read it, so argument checking,
 * results and printing never drift. Each entry names the paper's operation; arguments are
 * read by ops/args.ts's `parseArgs` from JSON (batch, page) or strings (CLI).
 */
import * as L from '../algebra/layout.js';
import type { Layout } from '../algebra/layout.js';
import type { Profile, Tuple } from '../algebra/tuple.js';
import { badRequestError } from '../algebra/errors.js';
import { carryDeadline } from '../algebra/deadline.js';
import { carryIntTexts, integerTexts, withIntTexts } from '../algebra/int-text.js';
import { formatLayout, formatProfile, formatTuple } from '../algebra/notation.js';
import { coalesce, coalesceRelative, isCoalesced, isCoalescedOver } from '../algebra/coalesce.js';
import { complement, isComplementable, isNComplementable } from '../algebra/complement.js';
import { isCompact, isTractable } from '../algebra/properties.js';
import type { ArgSpec, Json, OpContext, OpSpec } from './spec.js';
import { bulkOps } from './bulk.js';
import { composeByMode, logicalDivideByMode } from '../cute/divide.js';
import { logicalProductByMode } from '../cute/product.js';
import { cuteOps } from './cute.js';
import type { Tiler } from '../cute/tiler.js';
import { verifyOps } from './verify.js';
import { withComposed } from './composed.js';
import { coordToOffsetLayoutFunction, cosizeLayoutFunction, phiLayoutFunctionBig } from '../cute/composed.js';
import { parseArgs } from './args.js';
import { memoryOps } from './memory.js';
import { cuteMoreOps } from './cute-more.js';
import { cuteNameOps, didYouMean } from './cute-names.js';
import { atomsOps } from './atoms.js';
import { tiledOps } from './tiled.js';
import { linearOps } from './linear.js';
import { linearBridgeOps } from './linear-bridge.js';
import { descriptorOps } from './descriptors.js';
import { plannerOps } from './planner.js';

export type { ArgSpec, Json, OpContext, OpSpec } from './spec.js';
export { parseArgs } from './args.js';

const layout = (name: string, optional = false): ArgSpec => ({ name, kind: 'layout', optional });
/** a layout of any size (structural ops; size and cosize exact as BigInt) */
const anyLayout = (name: string): ArgSpec => ({ name, kind: 'any-layout' });
const tiler = (name: string): ArgSpec => ({ name, kind: 'tiler' });
const int = (name: string, optional = false): ArgSpec => ({ name, kind: 'int', optional });
const sizeArg = (name: string, optional = false): ArgSpec => ({ name, kind: 'int', optional, huge: 'overflow' });
const show = formatLayout;

/** A JSON integer: a number while exact, else a decimal string (docs/protocol.md). */
export function jsonInt(n: number | bigint): Json {
  if (typeof n === 'bigint') return n <= BigInt(Number.MAX_SAFE_INTEGER) && n >= -BigInt(Number.MAX_SAFE_INTEGER) ? Number(n) : n.toString();
  return n;
}

/** An op of one layout L; `row` adds the rest of its row (its page group, how it takes a composed layout). */
const unary = (name: string, summary: string, f: (l: Layout) => Json, anySize = false, row: Partial<OpSpec> = {}): OpSpec => ({
  name,
  summary,
  args: [anySize ? anyLayout('L') : layout('L')],
  run: ([l]) => f(l as Layout),
  ...row,
});

/** the rows of the page's groups (web/main.ts's chooser) */
const measure = { page: 'Measures and Φ' } as const;
const operation = { page: 'Operations' } as const;
const property = { page: 'Properties' } as const;

export const algebraOps: OpSpec[] = [
  unary('parse', 'L in canonical form', show, true, { ...measure, composed: 'inner' }),
  unary('size', 'size(L): the product of the shape entries', (l) => jsonInt(L.sizeBig(l)), true, { ...measure, composed: 'shape', fact: 'size' }),
  unary('cosize', 'cosize(L) = Φ_L(size − 1) + 1', (l) => jsonInt(L.cosizeBig(l)), true, {
    ...measure,
    composed: (c) => jsonInt(cosizeLayoutFunction(c)),
    fact: 'cosize',
  }),
  unary('rank', 'rank(L): the number of top-level modes', (l) => L.rank(l), true, { ...measure, composed: 'shape', fact: 'rank' }),
  unary('length', 'len(L): the number of entries', (l) => L.length(l), true, { ...measure, composed: 'shape' }),
  unary('depth', 'depth(L): nesting depth of the shape', (l) => L.depth(l), true, { ...measure, composed: 'shape', fact: 'depth' }),
  unary('profile', 'prof(L), e.g. (*,(*,*))', (l) => formatProfile(L.profile(l)), true, { ...measure, composed: 'shape' }),
  unary('flatten', 'L♭ (Def. 2.3.1.13)', (l) => show(L.flatten(l)), true, { ...operation, composed: 'inner' }),
  {
    name: 'mode',
    summary: 'mode_i(L), 1 ≤ i ≤ rank(L) (Def. 2.3.1.9)',
    args: [anyLayout('L'), int('i')],
    run: ([l, i]) => show(L.mode(l as Layout, i as number)),
    ...operation,
    composed: 'inner',
  },
  {
    name: 'entry',
    summary: 'entry_i(L) = s_i:d_i, 1 ≤ i ≤ len(L) (Def. 2.3.1.9)',
    args: [anyLayout('L'), int('i')],
    run: ([l, i]) => show(L.entry(l as Layout, i as number)),
    ...operation,
    composed: 'inner',
  },
  {
    name: 'concat',
    summary: 'the concatenation (L1, …, Lk) (Def. 2.3.2.5)',
    args: [{ name: 'L', kind: 'any-layout', variadic: true }],
    run: (ls) => show(L.concatUnchecked(ls as Layout[])),
    ...operation,
  },
  {
    name: 'substitute',
    summary: 'L_P, the modes of L substituted into profile P (Def. 2.3.2.12)',
    args: [anyLayout('L'), { name: 'P', kind: 'profile' }],
    run: ([l, p]) => show(L.substitute(l as Layout, p as Profile)),
    ...operation,
  },
  {
    name: 'eval',
    summary: 'Φ_L(x), 0 ≤ x < size(L) (Construction 2.3.1.17)',
    args: [anyLayout('L'), int('x')],
    run: ([l, x]) => jsonInt(L.phiBig(l as Layout, x as number)),
    ...measure,
    composed: (c, [x]) => jsonInt(phiLayoutFunctionBig(c, x as number)),
  },
  {
    name: 'coord',
    summary: 'the nested coordinate of index x in L',
    args: [layout('L'), int('x')],
    run: ([l, x]) => formatTuple(L.indexToCoord(l as Layout, x as number)),
    ...measure,
    composed: 'shape',
  },
  {
    name: 'eval_coord',
    summary: 'Φ_L at a nested coordinate, e.g. (1,(2,0))',
    args: [layout('L'), { name: 'coordinate', kind: 'coord' }],
    run: ([l, c]) => L.coordToOffset(l as Layout, c as Tuple),
    ...measure,
    composed: (c, [coord]) => coordToOffsetLayoutFunction(c, coord as Tuple),
  },
  {
    name: 'coalesce',
    summary: 'coal(L), or the relative coalesce coal(L, S̄) (Defs. 2.3.3.7, 2.3.4.7)',
    args: [layout('L'), { name: 'S̄', kind: 'tuple', optional: true }],
    run: ([l, bar]) => show(bar === undefined ? coalesce(l as Layout) : coalesceRelative(l as Layout, bar as Tuple)),
    ...operation,
    composed: 'inner',
    symbol: 'coal',
  },
  {
    name: 'is_coalesced',
    summary: 'whether L is coalesced, or coalesced over S̄ (Defs. 2.3.3.1, 2.3.4.4)',
    args: [layout('L'), { name: 'S̄', kind: 'tuple', optional: true }],
    run: ([l, bar]) => (bar === undefined ? isCoalesced(l as Layout) : isCoalescedOver(l as Layout, bar as Tuple)),
    ...property,
    fact: 'coalesced',
  },
  unary('is_compact', 'whether Φ_L is a bijection onto [0, size) (Def. 2.3.5.1)', isCompact, false, { ...property, fact: 'compact' }),
  unary('is_nondegenerate', 'whether every shape-1 entry has stride 0 (Def. 2.3.1.24)', L.isNondegenerate, true, { ...property, fact: 'non-degenerate' }),
  unary('is_tractable', 'whether L is tractable (Def. 2.3.10.1)', isTractable, true, { ...property, fact: 'tractable' }),
  {
    name: 'is_complementable',
    summary: 'whether A is complementable, or N-complementable (Defs. 2.3.6.3, 2.3.6.8)',
    args: [layout('A'), sizeArg('N', true)],
    run: ([a, n]) => (n === undefined ? isComplementable(a as Layout) : isNComplementable(a as Layout, n as number)),
    ...property,
    fact: 'complementable',
  },
  {
    name: 'complement',
    summary: 'comp(A), or comp(A, N) (Defs. 2.3.6.5, 2.3.6.7)',
    args: [layout('A'), sizeArg('N', true)],
    run: ([a, n]) => show(complement(a as Layout, n as number | undefined)),
    ...operation,
    symbol: 'comp',
  },
  {
    name: 'compose',
    summary: "B∘A, outer first (Def. 2.3.7.1); by mode for a tiler A, B's modes beyond it dropped (docs/semantics.md §8.3)",
    args: [layout('B'), tiler('A')],
    run: ([b, a]) => show(composeByMode(b as Layout, a as Tiler)),
    ...operation,
    composed: 'inner',
    symbol: '∘',
  },
  {
    name: 'logical_divide',
    summary: 'A ⊘ B = A ∘ (B, comp(B, size(A))) (Def. 2.3.8.1); by mode for a tiler B (docs/semantics.md §8.3)',
    args: [layout('A'), tiler('B')],
    run: ([a, b]) => show(logicalDivideByMode(a as Layout, b as Tiler)),
    ...operation,
    composed: 'inner',
    symbol: '⊘',
    tiling: { argument: true, result: true },
  },
  {
    name: 'logical_product',
    summary: 'A ⊗ B = (A, comp(A, N) ∘ B) (Def. 2.3.9.1); by mode for a tiler B (docs/semantics.md §8.3)',
    args: [layout('A'), tiler('B')],
    run: ([a, b]) => show(logicalProductByMode(a as Layout, b as Tiler)),
    ...operation,
    composed: 'inner',
    symbol: '⊗',
    tiling: { result: true },
  },
];

/**
 * Every operation of the protocol, in --help order: the algebra (algebraOps), CuTe's vocabulary
 * (cute/), the bulk checks (ops/bulk.ts), verification (ops/verify.ts), the CuTe extras
 * and the memory ops; layout arguments may be composed layouts where the op says so
 * (withComposed). Each is a CLI subcommand and a `batch` op.
 * @example ops.map((o) => o.name).includes('logical_divide') // true
 */
export const ops: OpSpec[] = withComposed([
  ...algebraOps,
  ...cuteOps,
  ...bulkOps,
  ...verifyOps,
  ...cuteMoreOps,
  ...cuteNameOps,
  ...memoryOps,
  ...atomsOps,
  ...tiledOps,
  ...linearOps,
  ...linearBridgeOps,
  ...descriptorOps,
  ...plannerOps,
]);
/**
 * The ops table by protocol name.
 * @example opsByName.get('compose')!.summary
 */
export const opsByName: ReadonlyMap<string, OpSpec> = new Map(ops.map((o) => [o.name, o]));

/** Run an op on raw arguments: the one path shared by batch, the CLI and the page.
 *  Algebra ops answer synchronously (a plain value); bulk checks answer with a Promise. */
export function runOpDirect(name: string, raw: readonly unknown[], ctx: OpContext, fromText = false): Json | Promise<Json> {
  const spec = opsByName.get(name);
  if (!spec) throw badRequestError(`unknown op '${name}'${didYouMean(name, [...opsByName.keys()])}`);
  const loading = spec.load?.();
  if (loading) {
    // its room is loaded on first use (ops/lazy.ts): run it then, under the deadline and integer texts in force now
    const due = carryDeadline();
    const texts = carryIntTexts();
    return loading.then(() => texts(() => due.within(() => runOpDirect(name, raw, ctx, fromText))));
  }
  if (!fromText) return spec.run(parseArgs(spec, raw, fromText), ctx);
  // the arguments are the text the request wrote: its integers beyond 2^53 − 1 are quoted from it
  const texts = integerTexts(raw.filter((v) => typeof v === 'string').join(' '));
  return withIntTexts(texts, () => spec.run(parseArgs(spec, raw, fromText), ctx));
}

/** A Promise while op `name`'s room is still to be loaded (ops/lazy.ts), else undefined (an unknown op too): callers
 *  that run an op synchronously (`batch`, the page) settle it first. */
export function loadOp(name: string): Promise<void> | undefined {
  return opsByName.get(name)?.load?.();
}

/** Settles once every op's room is loaded (the page, before its first synchronous run). */
export async function loadAllOps(): Promise<void> {
  await Promise.all(ops.map((o) => o.load?.()));
}

/**
 * Runs op `name` on raw arguments (JSON values as in `batch`, or strings from the command line
 * with fromText) and returns the protocol's `result`. Errors: LayoutError `bad-request` (unknown
 * op, wrong arity, an argument of the wrong kind), `parse`, and whatever the op throws (`domain`,
 * `not-composable`, `not-complementable`, `overflow`, `gpu`, `timeout`).
 * @example await runOp('compose', ['(100):(7)', '(3,5):(10,2)'], ctx) // '(3,5):(70,14)'
 */
export async function runOp(name: string, raw: readonly unknown[], ctx: OpContext, fromText = false): Promise<Json> {
  return await runOpDirect(name, raw, ctx, fromText);
}

/**
 * THE table of operations. The CLI, `batch` and the page all read it, so argument checking,
 * results and printing never drift. Each entry names the paper's operation; arguments are
 * parsed by `parseArgs` below from JSON (batch, page) or strings (CLI).
 */
import * as L from '../algebra/layout.js';
import type { Layout } from '../algebra/layout.js';
import type { Profile, Tuple } from '../algebra/tuple.js';
import { LayoutError, badRequestError } from '../algebra/errors.js';
import { carryDeadline } from '../algebra/deadline.js';
import { BEYOND_SAFE, carryIntTexts, integerTexts, knownIntText, withIntTexts } from '../algebra/int-text.js';
import { formatLayout, formatProfile, formatTuple, parseProfile, parseTuple } from '../algebra/notation.js';
import { coalesce, coalesceRelative, isCoalesced, isCoalescedOver } from '../algebra/coalesce.js';
import { complement, isComplementable, isNComplementable } from '../algebra/complement.js';
import { isCompact, isTractable } from '../algebra/properties.js';
import type { ArgSpec, Json, OpContext, OpSpec } from './spec.js';
import { bulkOps } from './bulk.js';
import { composeByMode, logicalDivideByMode } from '../cute/divide.js';
import { logicalProductByMode } from '../cute/product.js';
import { cuteOps, parseOrder } from './cute.js';
import { parseLayoutArg, parseTiler, type Tiler } from '../cute/tiler.js';
import { verifyOps } from './verify.js';
import { looksComposed, parseLayoutFunction } from '../cute/composed.js';
import { plainNeeded, plainTiler, withComposed } from './composed.js';
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

const unary = (name: string, summary: string, f: (l: Layout) => Json, anySize = false): OpSpec => ({
  name,
  summary,
  args: [anySize ? anyLayout('L') : layout('L')],
  run: ([l]) => f(l as Layout),
});

export const algebraOps: OpSpec[] = [
  unary('parse', 'L in canonical form', show, true),
  unary('size', 'size(L): the product of the shape entries', (l) => jsonInt(L.sizeBig(l)), true),
  unary('cosize', 'cosize(L) = Φ_L(size − 1) + 1', (l) => jsonInt(L.cosizeBig(l)), true),
  unary('rank', 'rank(L): the number of top-level modes', (l) => L.rank(l), true),
  unary('length', 'len(L): the number of entries', (l) => L.length(l), true),
  unary('depth', 'depth(L): nesting depth of the shape', (l) => L.depth(l), true),
  unary('profile', 'prof(L), e.g. (*,(*,*))', (l) => formatProfile(L.profile(l)), true),
  unary('flatten', 'L♭ (Def. 2.3.1.13)', (l) => show(L.flatten(l)), true),
  {
    name: 'mode',
    summary: 'mode_i(L), 1 ≤ i ≤ rank(L) (Def. 2.3.1.9)',
    args: [anyLayout('L'), int('i')],
    run: ([l, i]) => show(L.mode(l as Layout, i as number)),
  },
  {
    name: 'entry',
    summary: 'entry_i(L) = s_i:d_i, 1 ≤ i ≤ len(L) (Def. 2.3.1.9)',
    args: [anyLayout('L'), int('i')],
    run: ([l, i]) => show(L.entry(l as Layout, i as number)),
  },
  {
    name: 'concat',
    summary: 'the concatenation (L1, …, Lk) (Def. 2.3.2.5)',
    args: [{ name: 'L', kind: 'any-layout', variadic: true }],
    run: (ls) => show(L.concatUnchecked(ls as Layout[])),
  },
  {
    name: 'substitute',
    summary: 'L_P, the modes of L substituted into profile P (Def. 2.3.2.12)',
    args: [anyLayout('L'), { name: 'P', kind: 'profile' }],
    run: ([l, p]) => show(L.substitute(l as Layout, p as Profile)),
  },
  {
    name: 'eval',
    summary: 'Φ_L(x), 0 ≤ x < size(L) (Construction 2.3.1.17)',
    args: [anyLayout('L'), int('x')],
    run: ([l, x]) => jsonInt(L.phiBig(l as Layout, x as number)),
  },
  {
    name: 'coord',
    summary: 'the nested coordinate of index x in L',
    args: [layout('L'), int('x')],
    run: ([l, x]) => formatTuple(L.indexToCoord(l as Layout, x as number)),
  },
  {
    name: 'eval_coord',
    summary: 'Φ_L at a nested coordinate, e.g. (1,(2,0))',
    args: [layout('L'), { name: 'coordinate', kind: 'coord' }],
    run: ([l, c]) => L.coordToOffset(l as Layout, c as Tuple),
  },
  {
    name: 'coalesce',
    summary: 'coal(L), or the relative coalesce coal(L, S̄) (Defs. 2.3.3.7, 2.3.4.7)',
    args: [layout('L'), { name: 'S̄', kind: 'tuple', optional: true }],
    run: ([l, bar]) => show(bar === undefined ? coalesce(l as Layout) : coalesceRelative(l as Layout, bar as Tuple)),
  },
  {
    name: 'is_coalesced',
    summary: 'whether L is coalesced, or coalesced over S̄ (Defs. 2.3.3.1, 2.3.4.4)',
    args: [layout('L'), { name: 'S̄', kind: 'tuple', optional: true }],
    run: ([l, bar]) => (bar === undefined ? isCoalesced(l as Layout) : isCoalescedOver(l as Layout, bar as Tuple)),
  },
  unary('is_compact', 'whether Φ_L is a bijection onto [0, size) (Def. 2.3.5.1)', isCompact),
  unary('is_nondegenerate', 'whether every shape-1 entry has stride 0 (Def. 2.3.1.24)', L.isNondegenerate, true),
  unary('is_tractable', 'whether L is tractable (Def. 2.3.10.1)', isTractable, true),
  {
    name: 'is_complementable',
    summary: 'whether A is complementable, or N-complementable (Defs. 2.3.6.3, 2.3.6.8)',
    args: [layout('A'), sizeArg('N', true)],
    run: ([a, n]) => (n === undefined ? isComplementable(a as Layout) : isNComplementable(a as Layout, n as number)),
  },
  {
    name: 'complement',
    summary: 'comp(A), or comp(A, N) (Defs. 2.3.6.5, 2.3.6.7)',
    args: [layout('A'), sizeArg('N', true)],
    run: ([a, n]) => show(complement(a as Layout, n as number | undefined)),
  },
  {
    name: 'compose',
    summary: "B∘A, outer first (Def. 2.3.7.1); by mode for a tiler A, B's modes beyond it dropped (docs/semantics.md §8.3)",
    args: [layout('B'), tiler('A')],
    run: ([b, a]) => show(composeByMode(b as Layout, a as Tiler)),
  },
  {
    name: 'logical_divide',
    summary: 'A ⊘ B = A ∘ (B, comp(B, size(A))) (Def. 2.3.8.1); by mode for a tiler B (docs/semantics.md §8.3)',
    args: [layout('A'), tiler('B')],
    run: ([a, b]) => show(logicalDivideByMode(a as Layout, b as Tiler)),
  },
  {
    name: 'logical_product',
    summary: 'A ⊗ B = (A, comp(A, N) ∘ B) (Def. 2.3.9.1); by mode for a tiler B (docs/semantics.md §8.3)',
    args: [layout('A'), tiler('B')],
    run: ([a, b]) => show(logicalProductByMode(a as Layout, b as Tiler)),
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

function arityText(spec: OpSpec): string {
  const req = spec.args.filter((a) => !a.optional && !a.variadic).length;
  if (spec.args.some((a) => a.variadic)) return `at least ${Math.max(req, 1)} argument(s)`;
  const max = spec.args.length;
  return req === max ? `${max} argument(s)` : `${req} to ${max} argument(s)`;
}

/** The count of required arguments of an arg list and whether it ends variadic (once per list: a request's hot path). */
const arities = new WeakMap<readonly ArgSpec[], { req: number; variadic: boolean }>();
function arityOf(args: readonly ArgSpec[]): { req: number; variadic: boolean } {
  let a = arities.get(args);
  if (a === undefined) {
    a = { req: args.filter((x) => !x.optional && !x.variadic).length, variadic: args.some((x) => x.variadic) };
    arities.set(args, a);
  }
  return a;
}

/** Whether n raw arguments fit the spec's count. */
function arityOk(spec: OpSpec, n: number): boolean {
  const { req, variadic } = arityOf(spec.args);
  return variadic ? n >= Math.max(req, 1) : n >= req && n <= spec.args.length;
}

/** plainTiler's answer for an argument of an op, made once per (op, argument) rather than per request. */
const composedTilerItems = new Map<string, (item: string) => never>();
function composedTilerItem(op: string, arg: string): (item: string) => never {
  const key = `${op}\u0000${arg}`;
  let f = composedTilerItems.get(key);
  if (f === undefined) composedTilerItems.set(key, (f = plainTiler(op, arg)));
  return f;
}

/** Check the count of raw arguments against the spec. */
export function checkArity(spec: OpSpec, n: number): void {
  if (!arityOk(spec, n)) throw badRequestError(`${spec.name} takes ${arityText(spec)}, got ${n}`);
}

/** An integer argument beyond 2^53 − 1, quoted as written (`text`; null when not known: then named, never rounded). */
function huge(a: ArgSpec, what: string, text: string | null): LayoutError {
  if (text === null) return new LayoutError(a.huge === 'overflow' ? 'overflow' : 'domain', `${what} is ${BEYOND_SAFE}`);
  return a.huge === 'overflow'
    ? new LayoutError('overflow', `${what} = ${text} exceeds 2^53-1`)
    : new LayoutError('domain', `${what} = ${text} is out of range (beyond 2^53-1)`);
}

function parseOne(spec: OpSpec, a: ArgSpec, v: unknown, fromText: boolean): unknown {
  const what = `${spec.name} argument ${a.name}`;
  switch (a.kind) {
    case 'layout-fn':
    case 'any-layout-fn':
      if (typeof v !== 'string') throw badRequestError(`${what} must be a string`);
      // a plain layout through parseLayoutArg, so a tiler here is named as such (domain)
      return looksComposed(v) ? parseLayoutFunction(v, a.name, a.kind === 'any-layout-fn') : parseLayoutArg(v, a.name, a.kind === 'any-layout-fn');
    case 'layout':
    case 'any-layout':
    case 'tuple':
    case 'profile':
    case 'coord':
    case 'tiler': {
      if (typeof v !== 'string') throw badRequestError(`${what} must be a string`);
      // a composed layout where a plain one (or a tiler) is needed (docs/semantics.md §9.1): domain, once it parses
      if (a.kind !== 'tuple' && a.kind !== 'profile' && a.kind !== 'coord' && looksComposed(v))
        throw plainNeeded(spec.name, a.name, parseLayoutFunction(v, a.name, true));
      if (a.kind === 'tiler') return parseTiler(v, a.name, composedTilerItem(spec.name, a.name));
      if (a.kind === 'layout') return parseLayoutArg(v, a.name);
      if (a.kind === 'any-layout') return parseLayoutArg(v, a.name, true);
      if (a.kind === 'tuple') return parseTuple(v, a.name);
      if (a.kind === 'coord') return parseTuple(v, a.name, true);
      return parseProfile(v, a.name);
    }
    case 'int': {
      if (fromText && typeof v === 'string') {
        if (!/^\s*-?\d+\s*$/.test(v)) throw badRequestError(`${what} must be an integer, got '${v}'`);
        const n = Number(v);
        if (!Number.isSafeInteger(n)) throw huge(a, what, v.trim());
        return n;
      }
      if (typeof v !== 'number' || !Number.isInteger(v)) throw badRequestError(`${what} must be a JSON integer`);
      if (!Number.isSafeInteger(v)) throw huge(a, what, knownIntText(v));
      return v;
    }
    case 'order':
      return parseOrder(v, spec.name);
    default:
      return v;
  }
}

/** Whether raw argument v is an options object (ArgKind 'options'): a JSON object, or text of one on the command line. */
const isOptionsArg = (v: unknown, fromText: boolean): boolean =>
  fromText && typeof v === 'string' ? v.trimStart().startsWith('{') : typeof v === 'object' && v !== null && !Array.isArray(v);

/** An options argument as its object (command-line text parsed as JSON; `bad-request` when it is no object). */
function optionsOf(spec: OpSpec, a: ArgSpec, v: unknown, fromText: boolean): Record<string, unknown> {
  let o = v;
  if (fromText && typeof v === 'string') {
    try {
      o = JSON.parse(v);
    } catch {
      throw badRequestError(`${spec.name} argument ${a.name} must be a JSON object, got '${v}'`);
    }
  }
  if (typeof o !== 'object' || o === null || Array.isArray(o)) throw badRequestError(`${spec.name} argument ${a.name} must be a JSON object`);
  return o as Record<string, unknown>;
}

/** Parse raw arguments (JSON values, or strings when `fromText`) against an op's spec. A trailing 'options' argument
 *  is taken when the last raw argument is an object, and lands in its own place (the spec's last), the optional ones
 *  before it left undefined. */
export function parseArgs(spec: OpSpec, raw: readonly unknown[], fromText = false): unknown[] {
  const last = spec.args[spec.args.length - 1];
  if (last?.kind === 'options') {
    const rest = { ...spec, args: spec.args.slice(0, -1) };
    const n = raw.length;
    // a trailing object with too few arguments before it is one of them (a tiled copy alone), not the options
    if (n > 0 && isOptionsArg(raw[n - 1], fromText) && n - 1 >= rest.args.filter((a) => !a.optional).length) {
      if (!arityOk(rest, n - 1)) throw badRequestError(`${spec.name} takes ${arityText(rest)} before its options object, got ${n - 1}`);
      const out = parseArgs(rest, raw.slice(0, -1), fromText);
      while (out.length < rest.args.length) out.push(undefined);
      out.push(optionsOf(spec, last, raw[n - 1], fromText));
      return out;
    }
    if (!arityOk(rest, n)) throw badRequestError(`${spec.name} takes ${arityText(rest)}, optionally followed by an options object, got ${n}`);
    return parseArgs(rest, raw, fromText);
  }
  checkArity(spec, raw.length);
  const out: unknown[] = [];
  for (let i = 0; i < raw.length; i++) {
    const a = spec.args[Math.min(i, spec.args.length - 1)]!;
    out.push(parseOne(spec, a, raw[i], fromText));
  }
  return out;
}

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

/**
 * The one argument reader of the ops table (docs/protocol.md, "Error kinds"): every ArgKind of ops/spec.ts is read
 * here from a JSON value (`batch`, the page) or a command-line string (`fromText`), with one error policy —
 * `bad-request` for a value of the wrong JSON type, a wrong count or JSON text that is none; the notation's
 * `parse` for text that does not read; `domain` for a composed layout where a plain one is needed and for an
 * integer beyond 2^53 − 1 (`overflow` where it is a size). The ops' own JSON arguments (objects, coordinates,
 * strings in notation) are read by the helpers below, and the page reads its fields through them too, so that it
 * imports no parser of its own (test/architecture.test.ts).
 */
import { LayoutError, badRequestError, domainError } from '../algebra/errors.js';
import { BEYOND_SAFE, intText, isIntegerText, knownIntText } from '../algebra/int-text.js';
import type { Layout } from '../algebra/layout.js';
import { parseIntegerTuple, parseProfile, parseTuple } from '../algebra/notation.js';
import type { Tuple } from '../algebra/tuple.js';
import { formatLayoutFunction, looksComposed, parseLayoutFunction, type LayoutFunction } from '../cute/composed.js';
import type { LayoutOrder } from '../cute/make.js';
import { parseSliceCoord, type SliceCoord } from '../cute/slice.js';
import { isByMode, parseLayoutArg, parseTiler, type Tiler } from '../cute/tiler.js';
import type { ArgSpec, OpSpec } from './spec.js';

// ---------------------------------------------------------------------------------------------
// the notations, read as an op reads them

/** Whether text is written as a composed layout Sw<B,M,S> o K o L (docs/semantics.md §9.1): the page's fields ask. */
export const isComposedText = looksComposed;

/** A plain layout (docs/semantics.md §8.1's forms; size and cosize ≤ 2^53 − 1 unless `anySize`). Errors: `parse`,
 *  `domain` for a tiler that is no layout (`<4>`, `_`), `overflow`. Example: readLayout('(4,8):(1,4)'). */
export function readLayout(text: string, what = 'layout', anySize = false): Layout {
  return parseLayoutArg(text, what, anySize);
}

/** A layout function: a plain layout or a composed Sw o K o L (cute/composed.ts). Errors as readLayout's and the
 *  swizzle's own. Example: readLayoutFunction('Sw<3,4,3> o (8,64):(64,1)'). */
export function readLayoutFunction(text: string, what = 'layout', anySize = false): LayoutFunction {
  return parseLayoutFunction(text, what, anySize);
}

/** A tuple of positive integers (a shape; `coord`: entries ≥ 0). Example: readTuple('(4,(9,25))'). */
export function readTuple(text: string, what = 'tuple', coord = false): Tuple {
  return parseTuple(text, what, coord);
}

/** A composed layout (or its text) in an argument that needs a plain layout: `domain`. */
export function plainNeeded(op: string, arg: string, l: LayoutFunction | string): LayoutError {
  const text = typeof l === 'string' ? l.trim() : formatLayoutFunction(l);
  return new LayoutError('domain', `${op} needs a plain layout as its argument ${arg}; ${text} is a composed layout`);
}

/** A layout argument that must be plain (an atom layout, a thread or value layout): a composed layout is `domain`
 *  once it parses (plainNeeded), every other text readLayout's answer. */
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

/** plainTiler's answer for an argument of an op, made once per (op, argument) rather than per request. */
const composedTilerItems = new Map<string, (item: string) => never>();
function composedTilerItem(op: string, arg: string): (item: string) => never {
  const key = `${op}\u0000${arg}`;
  let f = composedTilerItems.get(key);
  if (f === undefined) composedTilerItems.set(key, (f = plainTiler(op, arg)));
  return f;
}

/** A tiler (docs/semantics.md §8.2): a layout, an integer, `_`, a shape or `<T1,…,Tk>`; with `op`, an item written
 *  as a composed layout is that op's `domain` (plainNeeded), else the tiler parser's answer. */
export function readTiler(text: string, what = 'tiler', op?: string): Tiler {
  return parseTiler(text, what, op === undefined ? undefined : composedTilerItem(op, what));
}

/** An order argument (ArgKind 'order'): "col", "row", or a nested tuple of non-negative integers
 *  (docs/semantics.md §8.4), parsed (congruence with the shape is make_layout's to check). Errors:
 *  `bad-request` for a value that is not a string, `parse` for other text and for a negative
 *  entry (naming its offset). Example: parseOrder('(1,0)', 'make_layout') = [1, 0]. */
export function parseOrder(v: unknown, what: string): LayoutOrder {
  if (v === undefined) return 'col';
  if (typeof v !== 'string') throw new LayoutError('bad-request', `${what} argument O must be a string: "col", "row" or a tuple`);
  const s = v.trim();
  if (s === 'col' || s === 'row') return s;
  const o = parseIntegerTuple(v, 'O');
  const neg = /-\s*\d+/.exec(v);
  if (neg) {
    throw new LayoutError(
      'parse',
      `O: entry ${neg[0].replace(/\s/g, '')} at offset ${neg.index} is negative; an order is a tuple of non-negative integers, e.g. (1,0)`,
    );
  }
  return o;
}

// ---------------------------------------------------------------------------------------------
// the ops' own JSON arguments

/** A JSON value that may arrive as JSON text (the CLI passes every argument as a string): text parsed, any other
 *  value as is; text that is no JSON is the caller's `bad-request` (`bad`, its message naming the argument). */
export function jsonText(v: unknown, bad: () => string): unknown {
  if (typeof v !== 'string') return v;
  try {
    return JSON.parse(v) as unknown;
  } catch {
    throw badRequestError(bad());
  }
}

/** A JSON object argument (a tiled MMA, a tiled copy): the object, or on the command line the JSON text of one
 *  (text that starts with `{`); `bad-request` when it is no valid JSON or no object (`what` names it). */
export function objectArg(v: unknown, what: string): Record<string, unknown> {
  const o = typeof v === 'string' && v.trim().startsWith('{') ? jsonText(v, () => `${what} is not valid JSON`) : v;
  if (typeof o !== 'object' || o === null || Array.isArray(o)) throw badRequestError(`${what} must be a JSON object`);
  return o as Record<string, unknown>;
}

/** A JSON argument of op `op` that may arrive as JSON text (the linear layouts' ops): `bad-request` naming it. */
export function jsonArg(op: string, what: string, v: unknown): unknown {
  return jsonText(v, () => `${op}: ${what} must be JSON, got '${(v as string).slice(0, 40)}'`);
}

/** A JSON argument that must be a string in notation (`bad-request` naming an example otherwise). */
export function textArg(op: string, name: string, v: unknown, example: string): string {
  if (typeof v !== 'string') throw badRequestError(`${op} argument ${name} must be a string such as "${example}"`);
  return v;
}

/** An integer coordinate of a JSON argument: a safe non-negative JSON integer (`what` names it in the messages:
 *  `bad-request` for a fraction, `domain` beyond 2^53 − 1, quoted as written, or below 0). */
function intCoordinate(op: string, v: number): number {
  // a fraction or a number beyond a double (1e400) is no JSON integer; one beyond 2^53 − 1 was rounded on reading
  if (!Number.isInteger(v)) throw badRequestError(`${op}: an integer coordinate must be a JSON integer`);
  if (!Number.isSafeInteger(v)) {
    const t = knownIntText(v);
    throw new LayoutError('domain', t === null ? `${op}: the coordinate is ${BEYOND_SAFE}` : `${op}: the coordinate ${t} is beyond 2^53-1`);
  }
  if (v < 0) throw new LayoutError('domain', `${op}: coordinate ${v} is not a non-negative integer`);
  return v;
}

/** A coordinate of crd2idx: a JSON integer, or a string such as "(1,(2,0))" (entries ≥ 0). */
export function coordinateArg(op: string, v: unknown): Tuple {
  if (typeof v === 'number') return intCoordinate(op, v);
  return parseTuple(textArg(op, 'C', v, '(1,(2,0))'), 'C', true);
}

/** A slice coordinate of local_tile: a coordinate string with `_`, or a JSON integer (CLI: the text of either). */
export function sliceCoordArg(v: unknown): SliceCoord {
  if (typeof v === 'number') {
    if (!Number.isInteger(v)) throw badRequestError('the coordinate must be a string or a JSON integer');
    if (!Number.isSafeInteger(v)) throw domainError(`the coordinate is ${intText(v)}: it must be a non-negative integer below 2^53`);
    if (v < 0) throw domainError(`coordinate ${v} must be a non-negative integer below 2^53`);
    return v;
  }
  if (typeof v !== 'string') throw badRequestError('the coordinate must be a string or a JSON integer');
  return parseSliceCoord(v, 'coordinate');
}

// ---------------------------------------------------------------------------------------------
// an op's arguments by its spec

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

/** An 'int' argument: a JSON integer, or on the command line the text of one (isIntegerText). */
function readInt(a: ArgSpec, what: string, v: unknown, fromText: boolean): number {
  if (fromText && typeof v === 'string') {
    if (!isIntegerText(v.trim(), true)) throw badRequestError(`${what} must be an integer, got '${v}'`);
    const n = Number(v);
    if (!Number.isSafeInteger(n)) throw huge(a, what, v.trim());
    return n;
  }
  if (typeof v !== 'number' || !Number.isInteger(v)) throw badRequestError(`${what} must be a JSON integer`);
  if (!Number.isSafeInteger(v)) throw huge(a, what, knownIntText(v));
  return v;
}

/** A composed layout where a plain one (or a tiler) is needed (docs/semantics.md §9.1): `domain`, once it parses. */
function refuseComposed(op: string, a: ArgSpec, v: string): void {
  if ((a.kind === 'layout' || a.kind === 'any-layout' || a.kind === 'tiler') && looksComposed(v))
    throw plainNeeded(op, a.name, parseLayoutFunction(v, a.name, true));
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
      refuseComposed(spec.name, a, v);
      if (a.kind === 'tiler') return readTiler(v, a.name, spec.name);
      if (a.kind === 'layout') return parseLayoutArg(v, a.name);
      if (a.kind === 'any-layout') return parseLayoutArg(v, a.name, true);
      if (a.kind === 'tuple') return parseTuple(v, a.name);
      if (a.kind === 'coord') return parseTuple(v, a.name, true);
      return parseProfile(v, a.name);
    }
    case 'int':
      return readInt(a, what, v, fromText);
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
  const o = fromText ? jsonText(v, () => `${spec.name} argument ${a.name} must be a JSON object, got '${v as string}'`) : v;
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

// ---------------------------------------------------------------------------------------------
// a field of the page

/** A field's reading: the plain layout it holds (for a picture; null for a composed layout, a by-mode tiler, `_`,
 *  a layout beyond 2^53 − 1 or an empty field) and the error the op would give (null when it reads). */
export interface FieldReading {
  layout: Layout | null;
  error: LayoutError | null;
}

/** Reads a page field (named `what` in messages) as argument `arg` of op `op` reads it (docs/page.md, the inline
 *  check; without `of`: a plain layout, e.g. a result): a layout kind of any size (`any-layout`, `any-layout-fn`) takes a layout beyond 2^53 − 1
 *  without an error (the op's exact answer is then the one outcome shown; there is just no picture), a layout
 *  function takes a composed layout, a tiler `<…>` and `_`, and a plain kind refuses a composed layout as the op
 *  does (`domain`). Any other kind is read as a plain layout. */
export function readField(text: string, what: string, of?: { op: string; arg: ArgSpec }): FieldReading {
  if (!text.trim()) return { layout: null, error: null };
  const kind = of?.arg.kind;
  const anySize = kind === 'any-layout' || kind === 'any-layout-fn';
  try {
    if (of) refuseComposed(of.op, of.arg, text);
    if ((kind === 'layout-fn' || kind === 'any-layout-fn') && looksComposed(text)) {
      // a composed layout (Sw<B,M,S> o L) where the op takes one: its own errors; no picture
      parseLayoutFunction(text, what, anySize);
      return { layout: null, error: null };
    }
    if (kind === 'tiler') {
      // a tiler field: `<…>` and `_` are fine; only a one-dimensional tiler is a layout
      const t = readTiler(text, what, of?.op);
      return { layout: isByMode(t) || t === '_' ? null : (t as Layout), error: null };
    }
    return { layout: parseLayoutArg(text, what), error: null };
  } catch (e) {
    const err = e instanceof LayoutError ? e : new LayoutError('parse', String(e));
    if (anySize && err.kind === 'overflow') {
      try {
        parseLayoutArg(text, what, true);
        return { layout: null, error: null };
      } catch {
        /* another error: report the first */
      }
    }
    return { layout: null, error: err };
  }
}

/**
 * Tilers (docs/semantics.md §8.2): the second argument of CuTe's by-mode operations (`Tiler` in CuTe's
 * layout.hpp). A tiler is one of
 *   - a layout: one-dimensional, applied to the whole first argument (an integer N is N:1);
 *   - a by-mode list <T1,…,Tk>: Ti applies to mode i of the first argument;
 *   - `_`: leave the layout (or that mode) as it is (CuTe's Underscore).
 * A shape tuple in tiler position is the by-mode tiler of its members, recursively:
 * `(32,16)` = `<32:1,16:1>`, `((4,4),8)` = `<<4:1,4:1>,8:1>` (CuTe's `Shape` tiler), while a
 * layout with strides is one-dimensional: `(32,16):(1,32)` tiles the whole layout.
 *
 * Here also: the by-mode application of an operation (CuTe's `transform_layout`) and the
 * unzipping of a divided or multiplied layout along the tiler's profile (CuTe's `zip2_by`).
 */
import { LayoutError, domainError } from '../algebra/errors.js';
import { concat, concatUnchecked, makeLayout, mode, modes, rank, sizeBig, type Layout } from '../algebra/layout.js';
import { Parser, formatLayout, isShapeOnly, parseLayout } from '../algebra/notation.js';
import type { Tuple } from '../algebra/tuple.js';

/** `_`: leave the layout, or that mode of it, as it is. */
export const UNDERSCORE = '_';
export type Underscore = typeof UNDERSCORE;
/** A by-mode tiler <T1,…,Tk>: Ti applies to mode i. */
export type ByModeTiler = readonly Tiler[];
/** A tiler (docs/semantics.md §8.2): a one-dimensional layout, a by-mode list, or `_`. */
export type Tiler = Layout | ByModeTiler | Underscore;

/** Whether T is a by-mode tiler <T1,…,Tk> (docs/semantics.md §8.2). Example: isByMode(parseTiler('(32,16)')). */
export const isByMode = (t: Tiler): t is ByModeTiler => Array.isArray(t);
/** Whether T is `_`, which leaves a layout as it is (CuTe's Underscore). */
export const isUnderscore = (t: Tiler): t is Underscore => t === UNDERSCORE;

// ---------------------------------------------------------------------------- notation

const isDigitOrMinus = (c: number): boolean => (c >= 48 && c <= 57) || c === 45;

/** A shape in tiler position: an integer N is the layout N:1, a tuple the by-mode tiler of its
 *  members (docs/semantics.md §8.2). Errors: `domain` for a non-positive entry.
 *  Example: shapeTiler([4, [2, 2]]) is <4:1,<2:1,2:1>>. */
export function shapeTiler(s: Tuple): Tiler {
  if (typeof s === 'number') return makeLayout(s, 1);
  return s.map(shapeTiler);
}

/** The text of a composed layout in a by-mode tiler (an item beginning with a swizzle `S`), up to the item's end:
 *  the ',' or closing bracket at its own depth. Read so that the whole tiler is parsed before its answer. */
function composedItem(p: Parser): string {
  const t = p.text;
  const start = p.pos;
  let depth = 0;
  for (; p.pos < t.length; p.pos++) {
    const c = t[p.pos];
    if (c === '(' || c === '<') depth++;
    else if (c === ')' || c === '>') {
      if (depth === 0) break;
      depth--;
    } else if (c === ',' && depth === 0) break;
  }
  return t.slice(start, p.pos);
}

/** One tiler: `_`, `<…>`, a layout, a shape tuple or integer, or a parenthesised list of
 *  tilers as CuTe prints a `Tile` (`(_3:_4,_8:_1)`, `(32,_)`), which is by-mode too. An item that begins with a
 *  swizzle is set aside in `composed` (when given) as `_`, for parseTiler to answer once the text is read. */
function item(p: Parser, composed?: string[]): Tiler {
  p.skipSpace();
  const t = p.text;
  const c = t.charCodeAt(p.pos);
  if (c === 83 /* S */ && composed !== undefined) {
    composed.push(composedItem(p));
    return UNDERSCORE;
  }
  const next = (q: Parser): Tiler => item(q, composed);
  if (c === 95 /* _ */ && !isDigitOrMinus(t.charCodeAt(p.pos + 1))) {
    p.pos++;
    return UNDERSCORE;
  }
  if (c === 60 /* < */) {
    p.pos++;
    return p.list(next, '>', 'brackets');
  }
  if (c === 40 /* ( */) {
    // a plain tuple first (a layout or a shape); else a list of tilers
    const start = p.pos;
    const depth = p.depth;
    let shape: Tuple;
    try {
      shape = p.tuple();
    } catch (e) {
      if (!(e instanceof LayoutError) || e.kind !== 'parse') throw e;
      p.pos = start + 1;
      p.depth = depth;
      return p.list(next, ')', 'brackets');
    }
    return layoutOrShape(p, shape);
  }
  if (!isDigitOrMinus(c) && c !== 95) p.fail("a tiler (a layout, a shape, '_' or '<')");
  return layoutOrShape(p, p.integer(true));
}

/** A layout or shape item as read, not yet validated: the whole text is read first, so that a
 *  syntax error anywhere is `parse` before any item's `domain` (validated by `checked`). */
function layoutOrShape(p: Parser, shape: Tuple): Tiler {
  if (p.eat(':')) return { shape, stride: p.tuple() };
  const raw = (s: Tuple): Tiler => (typeof s === 'number' ? { shape: s, stride: 1 } : s.map(raw));
  return raw(shape);
}

/** The tiler with every layout item validated (makeLayout: congruence, signs, bounds). */
function checked(t: Tiler): Tiler {
  if (t === UNDERSCORE) return t;
  if (isByMode(t)) return t.map(checked);
  const l = t as Layout;
  return makeLayout(l.shape, l.stride);
}

/** Parse a tiler (docs/semantics.md §8.2): `<3:4,8:1>`, `(32,16)`, `_`, `8`, `(2,2):(1,2)`, and CuTe's print of
 *  a tile `(_32,_16)`. Errors: `parse` naming the offset; `domain` for a layout that is not
 *  one (zero shape, incongruent). `composed`, when given, answers an item written as a composed layout (a tiler's
 *  items are plain layouts), once the whole text has parsed: it throws (`parse` if the item does not read as one,
 *  else `domain`; ops/args.ts's plainTiler). Example: `parseTiler('(32,16)')` is `<32:1,16:1>`. */
export function parseTiler(text: string, what = 'tiler', composed?: (item: string) => never): Tiler {
  const p = new Parser(text, what);
  const seen: string[] | undefined = composed === undefined ? undefined : [];
  const t = item(p, seen);
  p.end();
  if (seen !== undefined && seen.length > 0) composed!(seen[0]!);
  return checked(t);
}

/** A tiler as the library's by-mode operations read it (docs/semantics.md §8.2, CuTe's meaning):
 *  a layout that was written as a shape alone (`parseLayout('(32,32)')`, isShapeOnly) is the
 *  by-mode tiler of that shape, as the same text is in the CLI, `batch` and the page; every other
 *  tiler is itself. Example: asTiler(parseLayout('(32,16)')) is <32:1,16:1>. */
export function asTiler(t: Tiler): Tiler {
  if (isByMode(t) || t === UNDERSCORE) return t;
  const l = t as Layout;
  return typeof l.shape !== 'number' && isShapeOnly(l) ? shapeTiler(l.shape) : t;
}

/** Canonical print of a tiler (docs/semantics.md §8.2): `<…>` of its items, `_`, or the layout's canonical
 *  form; an integer prints as N:1. Never fails. Example: formatTiler(parseTiler('(3,8)')) = '<3:1,8:1>'. */
export function formatTiler(t: Tiler): string {
  if (t === UNDERSCORE) return '_';
  if (isByMode(t)) {
    let out = '<';
    for (let i = 0; i < t.length; i++) out += (i > 0 ? ',' : '') + formatTiler(t[i]!);
    return out + '>';
  }
  return formatLayout(t as Layout);
}

/** Parse a layout argument (with the CuTe/pycute forms of docs/semantics.md §8.1). Text that is a tiler but
 *  no layout (`_`, `<4>`, `(32,_)`) is `domain` ("a tiler, not a layout"); text that is neither
 *  keeps the layout parser's `parse` error. Example: `parseLayoutArg('<4>')` throws domain. */
export function parseLayoutArg(text: string, what = 'layout', unbounded = false): Layout {
  try {
    return parseLayout(text, what, unbounded);
  } catch (e) {
    if (!(e instanceof LayoutError) || e.kind !== 'parse') throw e;
    let tiler = false;
    try {
      parseTiler(text, what);
      tiler = true;
    } catch {
      // neither: the layout parser's error stands
    }
    const shown = text.length > 60 ? `${text.slice(0, 57)}...` : text;
    if (tiler) throw domainError(`${what}: '${shown.trim()}' is a tiler, not a layout`);
    throw e;
  }
}

// ---------------------------------------------------------------------------- application

function where(path: string): string {
  return path === '' ? '' : ` (at mode ${path})`;
}

/** CuTe's `transform_layout` over a tiler (docs/semantics.md §8.3): with a by-mode T of length k ≤ rank(A),
 *  mode i of the result is apply(mode_i(A), T_i), recursively for a nested T_i; `_` keeps
 *  mode_i(A); modes beyond k are kept (divide, product) or dropped (compose). A layout T is
 *  applied to the whole of A, and a whole `_` returns A. Errors: `domain` when T has more
 *  modes than A, naming both counts. `sizeKept` declares that apply(X, T) always has the size
 *  and cosize of X (logical_divide: X ∘ a bijection of [0, size X)), so that with keepRest the
 *  result has A's and the concatenation needs no overflow check. */
export function byMode(op: string, a: Layout, t: Tiler, apply: (a: Layout, t: Layout) => Layout, keepRest: boolean, path = '', sizeKept = false): Layout {
  // Example: byMode('compose', (12,(4,8)):(59,(13,1)), <3:4,8:2>, compose, false) = (3,(2,4)):(236,(26,1))
  if (t === UNDERSCORE) return a;
  if (!isByMode(t)) return apply(a, t as Layout);
  const k = t.length;
  const r = rank(a);
  if (k > r) {
    throw domainError(`${op}: the tiler ${formatTiler(t)} has ${k} modes but the layout ${formatLayout(a)} has rank ${r}${where(path)}`);
  }
  const out: Layout[] = new Array(keepRest ? r : k);
  for (let i = 0; i < k; i++) {
    const ti = t[i]!;
    const ai = modeAt(a, i);
    if (ti === UNDERSCORE) out[i] = ai;
    else if (!isByMode(ti)) out[i] = inMode(op, path, i, ai, ti as Layout, apply);
    else out[i] = byMode(op, ai, ti, apply, keepRest, path === '' ? `${i + 1}` : `${path}.${i + 1}`, sizeKept);
  }
  if (keepRest) for (let i = k; i < r; i++) out[i] = modeAt(a, i);
  // with sizeKept, each mode has its A mode's size and cosize, and so has the whole: no checks; ():() for no modes
  return (sizeKept && keepRest) || out.length === 0 ? concatUnchecked(out) : concat(...out);
}

/** The failures of one mode's operation that say why the mode cannot take its tiler; other kinds
 *  (timeout, bad-request) pass unchanged. */
const MODE_FAILURES = new Set(['domain', 'not-composable', 'not-complementable', 'overflow']);

/** apply(mode, tiler) for mode i + 1 (under `path`) of a by-mode operation; its failure names the mode, the mode's
 *  layout and size, and the tiler's, before the reason. Example message: "logical_divide: mode 1
 *  (8:1, size 8) by 3:1 (size 3): 3:1 is not 8-complementable: …". */
function inMode(op: string, path: string, i: number, a: Layout, t: Layout, apply: (a: Layout, t: Layout) => Layout): Layout {
  try {
    return apply(a, t);
  } catch (e) {
    if (!(e instanceof LayoutError) || !MODE_FAILURES.has(e.kind)) throw e;
    throw new LayoutError(
      e.kind,
      `${op}: mode ${path === '' ? `${i + 1}` : `${path}.${i + 1}`} (${formatLayout(a)}, size ${sizeBig(a)}) by ${formatLayout(t)} (size ${sizeBig(t)}): ${e.message}`,
    );
  }
}

/** Mode i + 1 of a valid layout (0-based i < rank, unchecked: the callers loop below rank). */
const modeAt = (a: Layout, i: number): Layout => (typeof a.shape === 'number' ? a : { shape: a.shape[i]!, stride: (a.stride as readonly Tuple[])[i]! });

/** CuTe's `zip2_by` (docs/semantics.md §8.3): R is the by-mode divide or product of A by T. With a by-mode T
 *  of length k, every mode i ≤ k of R splits into (tile_i, rest_i) (recursively for a nested
 *  T_i) and the result is ((tile_1,…,tile_k), (rest_1,…,rest_k, mode_{k+1}(R), …)). With a
 *  layout T or `_`, R itself, which must have rank 2 (a `_` leaves a mode of A: `domain` when
 *  that mode does not have rank 2). */
export function tileUnzip(op: string, r: Layout, t: Tiler, path = ''): Layout {
  // Example: tileUnzip(op, ((4,3),(8,4)):((1,4),(12,96)), <4:1,8:1>) = ((4,8),(3,4)):((1,12),(4,96))
  if (isByMode(t)) {
    const k = t.length;
    const n = rank(r);
    const tileS: Tuple[] = new Array(k);
    const tileD: Tuple[] = new Array(k);
    const restS: Tuple[] = new Array(n);
    const restD: Tuple[] = new Array(n);
    for (let i = 0; i < k; i++) {
      const z = tileUnzip(op, modeAt(r, i), t[i]!, path === '' ? `${i + 1}` : `${path}.${i + 1}`);
      // z has rank 2 (checked below, or built so by the by-mode branch)
      tileS[i] = (z.shape as readonly Tuple[])[0]!;
      tileD[i] = (z.stride as readonly Tuple[])[0]!;
      restS[i] = (z.shape as readonly Tuple[])[1]!;
      restD[i] = (z.stride as readonly Tuple[])[1]!;
    }
    for (let i = k; i < n; i++) {
      const m = modeAt(r, i);
      restS[i] = m.shape;
      restD[i] = m.stride;
    }
    return { shape: [tileS, restS], stride: [tileD, restD] };
  }
  if (typeof r.shape === 'number' || r.shape.length !== 2) {
    throw domainError(
      `${op}: '_' leaves ${path === '' ? 'the layout' : `mode ${path}`} ${formatLayout(r)} of rank ${rank(r)}, which cannot be split into (tile, rest)`,
    );
  }
  return r;
}

/** The tiled form of a zipped Z = (tile, rest): (tile, the top-level members of rest) (CuTe's
 *  `result(_, repeat<R1>(_))`). Pre-condition: Z has rank 2. Example: ((4,8),(3,4)) → ((4,8),3,4). */
export function unpackRest(z: Layout): Layout {
  return concatUnchecked([mode(z, 1), ...modes(mode(z, 2))]);
}

/** The flat form of a zipped Z = (tile, rest): (the members of tile, the members of rest) (CuTe's
 *  `result(repeat<R0>(_), repeat<R1>(_))`). Pre-condition: Z has rank 2. Example: ((4,8),(3,4)) → (4,8,3,4). */
export function unpackBoth(z: Layout): Layout {
  return concatUnchecked([...modes(mode(z, 1)), ...modes(mode(z, 2))]);
}

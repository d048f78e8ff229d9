/**
 * Slicing (docs/semantics.md §8.5; CuTe `slice`, `dice` of include/cute/int_tuple.hpp and layout.hpp).
 * A slice coordinate has the nesting of L's shape down to where it stops: each member is an
 * integer (an integer may stand for a whole sub-tuple, read colexicographically), `_`, or a
 * tuple that goes one level deeper. `slice` keeps the sub-layouts at the `_` positions, `dice`
 * those at the integer positions, left to right at any level, as one flat tuple.
 */
import { LayoutError, domainError } from '../algebra/errors.js';
import { phi, type Layout } from '../algebra/layout.js';
import * as T from '../algebra/tuple.js';
import type { Tuple } from '../algebra/tuple.js';
import { Parser, formatTuple } from '../algebra/notation.js';

/** A slice coordinate: `_`, a non-negative integer, or a tuple of coordinates. */
export type SliceCoord = '_' | number | readonly SliceCoord[];

/** A parsed coordinate with the offsets of its members in the text (-1: not from text). */
interface Node {
  readonly at: number;
  readonly v: '_' | number | readonly Node[];
}

/** The digits at p.pos (already known to start there) as a coordinate; beyond 2^53 − 1 is `domain`. */
function digits(p: Parser): number {
  const t = p.text;
  const start = p.pos;
  let q = start;
  let v = 0;
  for (;;) {
    const c = t.charCodeAt(q);
    if (!(c >= 48 && c <= 57)) break;
    v = v * 10 + (c - 48);
    q++;
  }
  p.pos = q;
  if (q - start > 15) {
    v = Number(t.slice(start, q));
    if (!Number.isSafeInteger(v)) throw new LayoutError('domain', `${p.what}: coordinate ${t.slice(start, q)} at offset ${start} exceeds 2^53-1`);
  }
  return v;
}

/** One slice coordinate read by the notation's parser (algebra/notation.ts: its white space and tuple reader): an
 *  integer ≥ 0 (also CuTe's `_N`), `_` or a tuple of them; an integer beyond 2^53 − 1 is `domain`, a sign `parse`. */
function node(p: Parser): Node {
  p.skipSpace();
  const t = p.text;
  const at = p.pos;
  const c = t.charCodeAt(at);
  if (c === 95 /* _ */) {
    p.pos++;
    const d = t.charCodeAt(p.pos);
    if (d >= 48 && d <= 57) return { at, v: digits(p) }; // CuTe's static integer _N
    return { at, v: '_' };
  }
  if (c >= 48 && c <= 57) return { at, v: digits(p) };
  // the coordinate grammar has no sign (docs/semantics.md §8.5), as an order's (§8.4): a '-' does not parse
  if (c === 45 /* - */) throw new LayoutError('parse', `${p.what}: a coordinate is a non-negative integer, '_' or a tuple; got '-' at offset ${at}`);
  if (c !== 40 /* ( */) return p.fail("an integer, '_' or '('");
  p.pos++;
  // a 1-tuple may carry a trailing comma, as Python prints it: (3,)
  return { at, v: p.list(node) };
}

function parseNodes(text: string, what: string): Node {
  const p = new Parser(text, what, false); // a slice coordinate has no pasted CuTe forms to name
  const n = node(p);
  p.end();
  return n;
}

/**
 * Parse a slice coordinate such as `(_,(2,_))`: integers ≥ 0 (also CuTe's `_N`), `_`, tuples
 * (a 1-tuple may end with a comma). Errors: `parse` naming the offset (a negative integer
 * included: the grammar has no sign); `domain` beyond 2^53 − 1. Example: parseSliceCoord('(_,(1,_))') is ['_', [1, '_']].
 */
export function parseSliceCoord(text: string, what = 'coordinate'): SliceCoord {
  const strip = (n: Node): SliceCoord => (typeof n.v === 'object' ? n.v.map(strip) : n.v);
  return strip(parseNodes(text, what));
}

function toNode(c: SliceCoord): Node {
  return { at: -1, v: typeof c === 'object' ? c.map(toNode) : c };
}

const nodeOf = (c: SliceCoord | string, what: string): Node => (typeof c === 'string' ? parseNodes(c, what) : toNode(c));

function showNode(n: Node): string {
  return typeof n.v === 'object' ? `(${n.v.map(showNode).join(',')})` : String(n.v);
}

/** The collection of one walk: the kept sub-layouts and the offset of the integers. */
interface Acc {
  readonly op: string;
  /** keep the `_` leaves (slice) or the integer leaves (dice) */
  readonly keepFree: boolean;
  readonly shape: Tuple[];
  readonly stride: Tuple[];
  offset: number;
}

function where(n: Node): string {
  return n.at >= 0 ? ` at offset ${n.at}` : '';
}

/** Walk C over (s, d): keep the sub-layouts of the chosen leaves, add up the integers'
 *  offsets. A leaf that does not fit is `domain`, naming it (and its offset in the text). */
function walk(acc: Acc, n: Node, s: Tuple, d: Tuple): void {
  const v = n.v;
  if (v === '_') {
    if (acc.keepFree) {
      acc.shape.push(s);
      acc.stride.push(d);
    }
    return;
  }
  if (typeof v === 'number') {
    if (typeof s === 'number') {
      if (v >= s) throw domainError(`${acc.op}: coordinate ${v}${where(n)} is outside [0, ${s}) for the mode of shape ${s}`);
      acc.offset += v * (d as number);
    } else {
      const sz = T.size(s);
      if (v >= sz) throw domainError(`${acc.op}: coordinate ${v}${where(n)} is outside [0, ${sz}) for the mode of shape ${formatTuple(s)}`);
      acc.offset += phi({ shape: s, stride: d }, v);
    }
    if (!acc.keepFree) {
      acc.shape.push(s);
      acc.stride.push(d);
    }
    return;
  }
  if (typeof s === 'number' || v.length !== s.length) {
    throw domainError(`${acc.op}: coordinate ${showNode(n)}${where(n)} does not fit the shape ${formatTuple(s)}`);
  }
  const dd = d as readonly Tuple[];
  for (let i = 0; i < v.length; i++) walk(acc, v[i]!, s[i]!, dd[i]!);
}

function gather(op: string, l: Layout, c: Node, keepFree: boolean): Acc {
  const acc: Acc = { op, keepFree, shape: [], stride: [], offset: 0 };
  walk(acc, c, l.shape, l.stride);
  return acc;
}

/**
 * CuTe's `slice(C, L)` (docs/semantics.md §8.5): the tuple of L's sub-layouts at the `_` positions of C,
 * left to right at any level; C = `_` gives L itself. C as text or parsed.
 * Errors: `parse` (text), `domain` when C does not fit L's shape or an integer is beyond its
 * mode's size. Example: sliceLayout(parseLayout('(4,(2,3)):(1,(4,8))'), '(_,(1,_))') is (4,3):(1,8).
 */
export function sliceLayout(l: Layout, c: SliceCoord | string): Layout {
  const n = nodeOf(c, 'slice coordinate');
  if (n.v === '_') return l;
  const acc = gather('slice', l, n, true);
  return { shape: acc.shape, stride: acc.stride };
}

/**
 * CuTe's `dice(C, L)` (docs/semantics.md §8.5): the tuple of L's sub-layouts at the integer positions of C,
 * left to right at any level; C = `_` gives ():(), an integer C gives the 1-tuple (L).
 * Errors as for sliceLayout. Example: dice(parseLayout('(4,(2,3)):(1,(4,8))'), '(_,5)') is
 * ((2,3)):((4,8)).
 */
export function dice(l: Layout, c: SliceCoord | string): Layout {
  const acc = gather('dice', l, nodeOf(c, 'dice coordinate'), false);
  return { shape: acc.shape, stride: acc.stride };
}

/**
 * The offset of a slice (docs/semantics.md §8.5, CuTe `slice_and_offset`): Φ_L at C with every `_` read as
 * 0, i.e. Σ over C's integers of the sub-layout's function there. Errors as for sliceLayout.
 * Example: sliceOffset(parseLayout('(4,(2,3)):(1,(4,8))'), '(_,(1,_))') is 4.
 */
export function sliceOffset(l: Layout, c: SliceCoord | string): number {
  return gather('slice', l, nodeOf(c, 'slice coordinate'), true).offset;
}

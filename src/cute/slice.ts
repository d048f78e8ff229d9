/**
 * Slicing (SPEC §8.5; CuTe `slice`, `dice` of include/cute/int_tuple.hpp and layout.hpp).
 * A slice coordinate has the nesting of L's shape down to where it stops: each member is an
 * integer (an integer may stand for a whole sub-tuple, read colexicographically), `_`, or a
 * tuple that goes one level deeper. `slice` keeps the sub-layouts at the `_` positions, `dice`
 * those at the integer positions, left to right at any level, as one flat tuple.
 */
import { LayoutError, domainError } from '../algebra/errors.js';
import { phi, type Layout } from '../algebra/layout.js';
import * as T from '../algebra/tuple.js';
import type { Tuple } from '../algebra/tuple.js';
import { formatTuple } from '../algebra/notation.js';
import type { ComposedLayout } from './composed.js';

/** A slice coordinate: `_`, a non-negative integer, or a tuple of coordinates. */
export type SliceCoord = '_' | number | readonly SliceCoord[];

/** A parsed coordinate with the offsets of its members in the text (-1: not from text). */
interface Node {
  readonly at: number;
  readonly v: '_' | number | readonly Node[];
}

const MAX_NESTING = 256;

/** Unicode White_Space, as the layout notation reads it (NEL yes, BOM no). */
function isSpace(text: string, p: number): boolean {
  const c = text.charCodeAt(p);
  if (c === 32 || (c >= 9 && c <= 13)) return true;
  return c > 127 && c !== 0xfeff && (c === 0x85 || /\s/.test(text[p]!));
}

function parseNodes(text: string, what: string): Node {
  let p = 0;
  let depth = 0;
  const skip = (): void => {
    while (p < text.length && isSpace(text, p)) p++;
  };
  const fail = (expected: string): never => {
    skip();
    const got = p >= text.length ? 'end of input' : `'${text[p]}'`;
    throw new LayoutError('parse', `${what}: expected ${expected} at offset ${p}, got ${got}`);
  };
  const digits = (): number => {
    const start = p;
    while (p < text.length && text.charCodeAt(p) >= 48 && text.charCodeAt(p) <= 57) p++;
    const lexeme = text.slice(start, p);
    const v = Number(lexeme);
    if (!Number.isSafeInteger(v)) throw new LayoutError('domain', `${what}: coordinate ${lexeme} at offset ${start} exceeds 2^53-1`);
    return v;
  };
  const node = (): Node => {
    skip();
    const at = p;
    const c = text.charCodeAt(p);
    if (c === 95 /* _ */) {
      p++;
      const d = text.charCodeAt(p);
      if (d >= 48 && d <= 57) return { at, v: digits() }; // CuTe's static integer _N
      return { at, v: '_' };
    }
    if (c >= 48 && c <= 57) return { at, v: digits() };
    if (c === 45 /* - */) throw new LayoutError('domain', `${what}: a negative coordinate at offset ${at}`);
    if (c !== 40 /* ( */) return fail("an integer, '_' or '('");
    p++;
    if (++depth > MAX_NESTING) fail(`at most ${MAX_NESTING} nested parentheses`);
    const items: Node[] = [];
    skip();
    if (text.charCodeAt(p) === 41 /* ) */) {
      p++;
      depth--;
      return { at, v: items };
    }
    for (;;) {
      items.push(node());
      skip();
      const e = text.charCodeAt(p);
      if (e === 44 /* , */) {
        p++;
        skip();
        // a 1-tuple may carry a trailing comma, as Python prints it: (3,)
        if (items.length === 1 && text.charCodeAt(p) === 41) {
          p++;
          break;
        }
        continue;
      }
      if (e === 41) {
        p++;
        break;
      }
      fail("',' or ')'");
    }
    depth--;
    return { at, v: items };
  };
  const n = node();
  skip();
  if (p < text.length) fail('end of input');
  return n;
}

/**
 * Parse a slice coordinate such as `(_,(2,_))`: integers ≥ 0 (also CuTe's `_N`), `_`, tuples
 * (a 1-tuple may end with a comma). Errors: `parse` naming the offset; `domain` for a
 * negative integer. Example: parseSliceCoord('(_,(1,_))') is ['_', [1, '_']].
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

/** Walk C over L's shape: `visit` gets each leaf of C (`_` or an integer) with its sub-layout.
 *  A leaf that does not fit is `domain`, naming it (and its offset when C came as text). */
function walk(op: string, l: Layout, c: Node, visit: (leaf: '_' | number, sub: Layout) => void): void {
  const where = (n: Node): string => (n.at >= 0 ? ` at offset ${n.at}` : '');
  const go = (n: Node, s: Tuple, d: Tuple): void => {
    if (n.v === '_') return visit('_', { shape: s, stride: d });
    if (typeof n.v === 'number') {
      const sz = T.size(s);
      if (n.v >= sz) {
        throw domainError(`${op}: coordinate ${n.v}${where(n)} is outside [0, ${sz}) for the mode of shape ${formatTuple(s)}`);
      }
      return visit(n.v, { shape: s, stride: d });
    }
    if (typeof s === 'number' || n.v.length !== s.length) {
      throw domainError(`${op}: coordinate ${showNode(n)}${where(n)} does not fit the shape ${formatTuple(s)}`);
    }
    const dd = d as readonly Tuple[];
    for (let i = 0; i < n.v.length; i++) go(n.v[i]!, s[i]!, dd[i]!);
  };
  go(c, l.shape, l.stride);
}

function gather(op: string, l: Layout, c: Node, keep: '_' | 'int'): Layout {
  const shape: Tuple[] = [];
  const stride: Tuple[] = [];
  walk(op, l, c, (leaf, sub) => {
    if ((leaf === '_') === (keep === '_')) {
      shape.push(sub.shape);
      stride.push(sub.stride);
    }
  });
  return { shape, stride };
}

/**
 * CuTe's `slice(C, L)` (SPEC §8.5): the tuple of L's sub-layouts at the `_` positions of C,
 * left to right at any level; C = `_` gives L itself. C as text or parsed.
 * Errors: `parse` (text), `domain` when C does not fit L's shape or an integer is beyond its
 * mode's size. Example: sliceLayout(parseLayout('(4,(2,3)):(1,(4,8))'), '(_,(1,_))') is (4,3):(1,8).
 */
export function sliceLayout(l: Layout, c: SliceCoord | string): Layout {
  const n = nodeOf(c, 'slice coordinate');
  if (n.v === '_') return l;
  return gather('slice', l, n, '_');
}

/**
 * CuTe's `dice(C, L)` (SPEC §8.5): the tuple of L's sub-layouts at the integer positions of C,
 * left to right at any level; C = `_` gives ():(), an integer C gives the 1-tuple (L).
 * Errors as for sliceLayout. Example: dice(parseLayout('(4,(2,3)):(1,(4,8))'), '(_,5)') is
 * ((2,3)):((4,8)).
 */
export function dice(l: Layout, c: SliceCoord | string): Layout {
  return gather('dice', l, nodeOf(c, 'dice coordinate'), 'int');
}

/**
 * The offset of a slice (SPEC §8.5, CuTe `slice_and_offset`): Φ_L at C with every `_` read as
 * 0, i.e. Σ over C's integers of the sub-layout's function there. Errors as for sliceLayout.
 * Example: sliceOffset(parseLayout('(4,(2,3)):(1,(4,8))'), '(_,(1,_))') is 4.
 */
export function sliceOffset(l: Layout, c: SliceCoord | string): number {
  let off = 0;
  walk('slice', l, nodeOf(c, 'slice coordinate'), (leaf, sub) => {
    if (leaf !== '_') off += phi(sub, leaf);
  });
  return off;
}

/**
 * slice and dice of a composed layout Sw o K o L (SPEC §9.1): the swizzle is kept and the
 * offset grows by that of the slice, Sw o (K + o) o slice(L, C); dice drops the `_` modes
 * (read as 0), so its offset is K. Errors as for sliceLayout.
 * Example: sliceComposed(Sw<3,3,3> o (8,64):(64,1), '(2,_)') is Sw<3,3,3> o 128 o (64):(1).
 */
export function sliceComposed(l: ComposedLayout, c: SliceCoord | string): ComposedLayout {
  const n = nodeOf(c, 'slice coordinate');
  const inner = n.v === '_' ? l.inner : gather('slice', l.inner, n, '_');
  let off = 0;
  walk('slice', l.inner, n, (leaf, sub) => {
    if (leaf !== '_') off += phi(sub, leaf);
  });
  return { kind: 'composed', swizzle: l.swizzle, offset: l.offset + off, inner };
}

/** dice of a composed layout: Sw o K o dice(L, C) (see sliceComposed). */
export function diceComposed(l: ComposedLayout, c: SliceCoord | string): ComposedLayout {
  return { ...l, inner: dice(l.inner, c) };
}

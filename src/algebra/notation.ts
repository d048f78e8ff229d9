/**
 * Parsing and canonical printing (docs/protocol.md, "Notation").
 * Layouts are written `shape:stride` as in CuTe: `(3,(3,2)):(3,(1,10))`. Any whitespace is
 * accepted between tokens; anything else is a `parse` error naming the offset and what was
 * expected. Canonical printing: decimal integers, no spaces, `(…)` with commas; a depth-0
 * layout prints bare (`10:4`), a 1-tuple keeps its parentheses (`(512):(4)`).
 *
 * Input as CuTe and pycute print it (docs/semantics.md §8.1) is accepted too: `_N` is the integer N
 * (`(_4,_8):(_1,_4)`), a 1-tuple may carry a trailing comma (`(4,):(1,)`), and a shape with no
 * `:stride` is the compact column-major layout of that shape (`(2,1,3)` = `(2,1,3):(1,2,2)`).
 */
import { LayoutError } from './errors.js';
import { makeLayout, makeLayoutUnbounded, type Layout } from './layout.js';
import type { Profile, Tuple } from './tuple.js';

/** Deeper nesting is refused (a parse error), so no input can exhaust the stack. */
export const MAX_NESTING = 256;

/** Unicode White_Space, the one whitespace rule of every notation here (layouts, tilers, slice coordinates,
 *  composed layouts): JavaScript's \s plus NEL (U+0085), less the byte-order mark U+FEFF. `c` is a UTF-16 code
 *  unit (NaN past the end of a text: no space). */
export function isWhiteSpace(c: number): boolean {
  // ASCII whitespace fast; anything else non-ASCII checked against \s
  if (c === 32 || (c >= 9 && c <= 13)) return true;
  return c > 127 && c !== 0xfeff && (c === 0x85 || /\s/.test(String.fromCharCode(c)));
}

/** The offset of the first character at or after `pos` that is not white space (isWhiteSpace). */
export function skipWhiteSpace(text: string, pos: number): number {
  let p = pos;
  while (isWhiteSpace(text.charCodeAt(p))) p++;
  return p;
}

/** The tokenizer and recursive-descent parser of the notation, and its tuple reader (`list`); shared by the
 *  three small grammars of cute/ — tilers (tiler.ts, docs/semantics.md §8.2), slice coordinates (slice.ts, §8.5)
 *  and composed layouts (composed.ts, §9.1) — so that all read white space, integers and tuples alike. */
export class Parser {
  pos = 0;
  /**
   * @param text the text read
   * @param what the name its messages give it
   * @param pastedForms whether a failure names what CuTe or pycute prints that is no input here (pastedForm): the
   *   layout grammars do, slice coordinates do not. One class for every grammar (no subclass), so that the reader's
   *   methods see one kind of object wherever they run.
   */
  constructor(
    readonly text: string,
    readonly what: string,
    readonly pastedForms = true,
  ) {}

  fail(expected: string): never {
    this.skipSpace();
    const pasted = this.pastedForms ? pastedForm(this.text, this.pos, this.what) : null;
    if (pasted) throw pasted;
    const got = this.pos >= this.text.length ? 'end of input' : `'${this.text[this.pos]}'`;
    throw new LayoutError('parse', `${this.what}: expected ${expected} at offset ${this.pos}, got ${got}`);
  }

  skipSpace(): void {
    // most positions hold no white space: one character tells
    const c = this.text.charCodeAt(this.pos);
    if (c === 32 || (c >= 9 && c <= 13) || c > 127) this.pos = skipWhiteSpace(this.text, this.pos);
  }

  peek(): string | undefined {
    this.skipSpace();
    return this.text[this.pos];
  }

  eat(c: string): boolean {
    this.skipSpace();
    if (this.text.charCodeAt(this.pos) === c.charCodeAt(0)) {
      this.pos++;
      return true;
    }
    return false;
  }

  /** Eat the token `w` (several characters, after white space): whether it was there. */
  word(w: string): boolean {
    this.skipSpace();
    if (!this.text.startsWith(w, this.pos)) return false;
    this.pos += w.length;
    return true;
  }

  /** A decimal integer, optionally `_`-prefixed as CuTe prints static integers (docs/semantics.md §8.1). */
  integer(allowNegative: boolean): number {
    this.skipSpace();
    const t = this.text;
    const start = this.pos;
    if (t.charCodeAt(this.pos) === 95 /* _ */) this.pos++;
    let neg = false;
    if (allowNegative && t.charCodeAt(this.pos) === 45 /* - */) {
      this.pos++;
      neg = true;
    }
    const digitsAt = this.pos;
    let v = 0;
    for (;;) {
      const c = t.charCodeAt(this.pos);
      if (!(c >= 48 && c <= 57)) break; // NaN past the end breaks too
      v = v * 10 + (c - 48);
      this.pos++;
    }
    if (this.pos === digitsAt) {
      this.pos = start;
      this.fail(allowNegative ? "an integer or '('" : 'an integer');
    }
    if (this.pos - digitsAt > 15) v = Number(t.slice(digitsAt, this.pos));
    if (neg) v = -v;
    if (!Number.isSafeInteger(v)) {
      throw new LayoutError('overflow', `${this.what}: integer ${t.slice(start, this.pos)} at offset ${start} exceeds 2^53-1`);
    }
    return v === 0 ? 0 : v; // normalise -0
  }

  depth = 0;

  tuple(): Tuple {
    this.skipSpace();
    if (this.text.charCodeAt(this.pos) !== 40 /* ( */) return this.integer(true);
    this.pos++;
    return this.tupleItems();
  }

  /** list(tupleItem), written out: the members of a `(…)` tuple, read for every layout of every request, so that
   *  the tuple reader's call of its item stays one target (profiles, tilers and slice coordinates take list). */
  private tupleItems(): Tuple[] {
    if (++this.depth > MAX_NESTING) this.fail(`at most ${MAX_NESTING} nested parentheses`);
    const items: Tuple[] = [];
    this.skipSpace();
    if (this.text.charCodeAt(this.pos) !== 41 /* ) */) {
      for (;;) {
        items.push(this.tuple());
        this.skipSpace();
        const c = this.text.charCodeAt(this.pos);
        if (c === 41 /* ) */) break;
        if (c !== 44 /* , */) this.fail("',' or ')'");
        this.pos++;
        if (items.length === 1) {
          this.skipSpace();
          if (this.text.charCodeAt(this.pos) === 41 /* ) */) break;
        }
      }
    }
    this.pos++;
    this.depth--;
    return items;
  }

  /**
   * The tuple reader: the members of a bracketed list whose opening bracket was just read — `item(this)` for each,
   * commas between, up to `close`. With `oneTupleComma` (the default for `)`), a 1-tuple may end in a comma, as
   * Python prints it: `(4,)` (docs/semantics.md §8.1); `(4,2,)` may not. Nesting deeper than MAX_NESTING is a
   * parse error (`at most 256 nested <nested>`), so no input can exhaust the stack.
   */
  list<T>(item: (p: this) => T, close = ')', nested = 'parentheses', oneTupleComma = close === ')'): T[] {
    if (++this.depth > MAX_NESTING) this.fail(`at most ${MAX_NESTING} nested ${nested}`);
    const end = close.charCodeAt(0);
    const items: T[] = [];
    this.skipSpace();
    if (this.text.charCodeAt(this.pos) !== end) {
      for (;;) {
        items.push(item(this)); // a module function: no closure made per tuple
        this.skipSpace();
        const c = this.text.charCodeAt(this.pos);
        if (c === end) break;
        if (c !== 44 /* , */) this.fail(`',' or '${close}'`);
        this.pos++;
        if (oneTupleComma && items.length === 1) {
          this.skipSpace();
          if (this.text.charCodeAt(this.pos) === end) break;
        }
      }
    }
    this.pos++;
    this.depth--;
    return items;
  }

  profile(): Profile {
    if (this.eat('*')) return '*';
    if (this.eat('(')) return this.list(profileItem, ')', 'parentheses', false);
    return this.fail("'*' or '('");
  }

  end(): void {
    if (this.peek() !== undefined) this.fail('end of input');
  }
}

/** The profile reader as the tuple reader's item. */
const profileItem = (p: Parser): Profile => p.profile();

/** A CuTe `print(tensor)` line: an engine pointer (`ptr[16b](0x…)`, `smem_ptr[…]`, the DSL's
 *  `ptr<f16, smem, …>`, `tensor<…>`) composed with a layout. */
const TENSOR_PRINT = /^\s*(?:tensor\s*<\s*)?(?:[a-z]+_)?ptr\s*[[<]/;

/**
 * What CuTe and pycute print that is no layout here (docs/semantics.md §8.1), as a `parse` error
 * that names it and says what to paste instead, or null when the text at `pos` is none of them:
 * a `print(tensor)` line (a pointer o a layout), a scaled-basis stride `1@0` (CuTe's E<i>, the
 * strides of a coordinate tensor) and a dynamic integer `?`.
 * Example: pastedForm('(8,?):(1,8)', 3, 'L') is a parse error about '?' at offset 3.
 */
export function pastedForm(text: string, pos: number, what: string): LayoutError | null {
  if (TENSOR_PRINT.test(text)) {
    const o = / o (?=\s*[_(\dS])/.exec(text.slice(text.search(/[\])>]/) + 1));
    const rest = o
      ? text
          .slice(text.search(/[\])>]/) + 1 + o.index + 3)
          .trim()
          .replace(/>\s*$/, '')
      : '';
    return new LayoutError(
      'parse',
      `${what}: this is a print(tensor) line (a pointer composed with a layout), not a layout; paste the layout after the pointer's ' o '${rest ? `: ${rest}` : ''}`,
    );
  }
  const c = text[pos];
  if (c === '?') {
    return new LayoutError(
      'parse',
      `${what}: '?' at offset ${pos} is a dynamic integer (CuTe prints a value known only at run time as ?); every integer here must be known: write its value`,
    );
  }
  const basis = /[_\d]*\d@\d+/y;
  for (let start = pos; start >= 0 && /[_\d@]/.test(text[start] ?? ''); start--) {
    basis.lastIndex = start;
    const m = basis.exec(text);
    if (m && start + m[0].length > pos && (start === 0 || !/[_\d]/.test(text[start - 1]!))) {
      return new LayoutError(
        'parse',
        `${what}: '${m[0]}' at offset ${start} is a scaled-basis stride (CuTe's E<i>, the stride of a coordinate tensor such as make_identity_tensor's); ` +
          `strides here are integers: paste the layout of a data tensor, or the shape alone for its compact layout`,
      );
    }
  }
  return null;
}

/** Parse a nested tuple such as `(4,(9,25))`. */
export function parseTuple(text: string, what = 'tuple', allowZero = false): Tuple {
  const p = new Parser(text, what);
  const t = p.tuple();
  p.end();
  for (const x of flatInts(t)) {
    if (x < (allowZero ? 0 : 1)) {
      throw new LayoutError('domain', `${what}: entry ${x} is not a ${allowZero ? 'non-negative' : 'positive'} integer`);
    }
  }
  return t;
}

/** Parse a nested tuple of integers of any sign, e.g. the order `(0,2,-1)` of make_layout.
 *  Errors: `parse` naming the offset, `overflow` beyond 2^53 − 1. Example: parseIntegerTuple('(_1,-2)') = [1, -2]. */
export function parseIntegerTuple(text: string, what = 'tuple'): Tuple {
  const p = new Parser(text, what);
  const t = p.tuple();
  p.end();
  return t;
}

function flatInts(t: Tuple): number[] {
  return typeof t === 'number' ? [t] : t.flatMap(flatInts);
}

/** The layouts parseLayout made from a tuple shape written alone (`(32,32)`): a tiler where a
 *  tiler is read (docs/semantics.md §8.2). Membership is invisible to equality and printing. */
const shapeOnly = new WeakSet<Layout>();

/** Whether parseLayout made this layout from a tuple shape written without strides, such as
 *  `(32,32)`: in a tiler position (the second argument of the library's compose, divides and
 *  products) it is the by-mode tiler of that shape, as CuTe reads a Shape (docs/semantics.md
 *  §8.2); everywhere else it is the compact column-major layout. An integer shape `8` is 8:1
 *  either way. Example: isShapeOnly(parseLayout('(32,32)')) // true; isShapeOnly(parseLayout('(32,32):(1,32)')) // false */
export const isShapeOnly = (l: Layout): boolean => shapeOnly.has(l);

/** Parse a layout `shape:stride` and validate it (congruence, signs, size). A shape alone is
 *  the compact column-major layout of that shape (docs/semantics.md §8.1, CuTe `make_layout(shape)`); a tuple
 *  shape alone is remembered as such (isShapeOnly). */
export function parseLayout(text: string, what = 'layout', unbounded = false): Layout {
  const p = new Parser(text, what);
  const shape = p.tuple();
  let stride: Tuple;
  let bare = false;
  if (p.eat(':')) {
    stride = p.tuple();
    p.end();
  } else {
    if (p.peek() !== undefined) p.fail("':' or end of input");
    stride = colMajorStride(shape);
    bare = typeof shape !== 'number';
  }
  const l = unbounded ? makeLayoutUnbounded(shape, stride) : makeLayout(shape, stride);
  if (bare) shapeOnly.add(l);
  return l;
}

/** The strides of the compact column-major layout of a shape (CuTe `compact_major<LayoutLeft>`):
 *  each entry's stride is the product of the entries before it, shape-1 entries included
 *  (docs/semantics.md §8.1: `(2,1,3)` gets `(1,2,2)`). A product beyond 2^53 − 1 is left inexact here; the
 *  layout's validation refuses it with `overflow`. Example: colMajorStride([4, [2, 3]]) = [1, [4, 8]]. */
export function colMajorStride(shape: Tuple): Tuple {
  return majorFrom(shape, { run: 1 }, false);
}

/** Row-major strides (CuTe `LayoutRight`): each entry's stride is the product of the entries
 *  after it. Example: rowMajorStride([4, [2, 3]]) = [6, [3, 1]]. */
export function rowMajorStride(shape: Tuple): Tuple {
  return majorFrom(shape, { run: 1 }, true);
}

/** The compact strides of s, the running product in `at.run`, first entry first (column-major)
 *  or last entry first (row-major). */
function majorFrom(s: Tuple, at: { run: number }, lastFirst: boolean): Tuple {
  if (typeof s === 'number') {
    const d = at.run;
    at.run *= s;
    return d;
  }
  const out: Tuple[] = new Array(s.length);
  if (lastFirst) for (let i = s.length - 1; i >= 0; i--) out[i] = majorFrom(s[i]!, at, true);
  else for (let i = 0; i < s.length; i++) out[i] = majorFrom(s[i]!, at, false);
  return out;
}

/** Parse a profile such as `(*,(*,*))`. */
export function parseProfile(text: string, what = 'profile'): Profile {
  const p = new Parser(text, what);
  const prof = p.profile();
  p.end();
  return prof;
}

/**
 * A nested tuple in canonical notation, without spaces: `(4,(9,25))`, `7`, `()`.
 * @example formatTuple([4, [9, 25]]) // '(4,(9,25))'
 */
export function formatTuple(t: Tuple): string {
  if (typeof t === 'number') return '' + t;
  let out = '(';
  for (let i = 0; i < t.length; i++) {
    if (i > 0) out += ',';
    const u = t[i]!;
    out += typeof u === 'number' ? '' + u : formatTuple(u);
  }
  return out + ')';
}

/**
 * A profile in notation: `*`, `(*,(*,*))`.
 * @example formatProfile(['*', ['*', '*']]) // '(*,(*,*))'
 */
export function formatProfile(p: Profile): string {
  return p === '*' ? '*' : `(${p.map(formatProfile).join(',')})`;
}

/** Canonical form of a layout: `(3,(3,2)):(3,(1,10))`, `10:4`, `():()`. */
export function formatLayout(l: Layout): string {
  return `${formatTuple(l.shape)}:${formatTuple(l.stride)}`;
}

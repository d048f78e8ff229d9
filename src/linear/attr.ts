/**
 * A reader for Triton's MLIR attributes as Triton prints them (docs/linear.md, "Forms"):
 * `#ttg.NAME<{key = value, …}>` with an optional leading `#alias = ` and optional parameters after
 * the dictionary (`#ttg.shared_linear<{…}, alignment = 16>`). Values are integers, `true`/`false`,
 * lists of values and nested attributes. Broken syntax is a `parse` error pointing at the offence;
 * what the keys mean is up to the caller (`forms.ts` for `#ttg.linear`, the encodings for the rest).
 */
import { LayoutError } from '../algebra/errors.js';

/** One attribute: `#dialect.name<{params}, extra>`. */
export interface Attr {
  readonly kind: 'attr';
  readonly dialect: string;
  readonly name: string;
  /** the dictionary's entries, in the order written */
  readonly params: ReadonlyMap<string, AttrValue>;
  /** `key = value` entries after the dictionary (e.g. alignment), in order */
  readonly extra: ReadonlyMap<string, AttrValue>;
  /** where the attribute starts in the text (for messages) */
  readonly offset: number;
}

/** A value inside an attribute: an integer (possibly beyond 2^53: check it), a boolean, a list or an attribute. */
export type AttrValue = number | boolean | readonly AttrValue[] | Attr;

export const isAttr = (v: unknown): v is Attr => typeof v === 'object' && v !== null && (v as Attr).kind === 'attr';

/** The match of a sticky regex at `pos` (no copy of the rest of the text: linear on long input). */
export function stickyAt(re: RegExp, text: string, pos: number): RegExpExecArray | null {
  re.lastIndex = pos;
  return re.exec(text);
}

/** A small cursor over the text: `what` names the form in messages. */
class Reader {
  pos = 0;
  constructor(
    readonly text: string,
    readonly what: string,
  ) {}
  skipSpace(): void {
    while (this.pos < this.text.length && /\s/.test(this.text[this.pos]!)) this.pos++;
  }
  peek(): string {
    this.skipSpace();
    return this.text[this.pos] ?? '';
  }
  got(): string {
    this.skipSpace();
    if (this.pos >= this.text.length) return 'end of input';
    return `'${this.text.slice(this.pos, this.pos + 12).split(/[\s]/)[0] || this.text[this.pos]}'`;
  }
  fail(expected: string): never {
    throw new LayoutError('parse', `${this.what}: expected ${expected} at offset ${this.pos}, got ${this.got()}`);
  }
  eat(s: string): boolean {
    this.skipSpace();
    if (this.text.startsWith(s, this.pos)) {
      this.pos += s.length;
      return true;
    }
    return false;
  }
  expect(s: string): void {
    if (!this.eat(s)) this.fail(`'${s}'`);
  }
  ident(): string {
    this.skipSpace();
    const m = stickyAt(/[A-Za-z_][A-Za-z0-9_$.]*/y, this.text, this.pos);
    if (!m) this.fail('a name');
    this.pos += m[0].length;
    return m[0];
  }
  int(): number {
    this.skipSpace();
    const m = stickyAt(/-?[0-9]+/y, this.text, this.pos);
    if (!m) this.fail('an integer');
    this.pos += m[0].length;
    return Number(m[0]);
  }
  atEnd(): boolean {
    this.skipSpace();
    return this.pos >= this.text.length;
  }
}

/** Deeper nesting than any Triton attribute has (lists of lists, a few parents) is refused. */
const MAX_DEPTH = 32;

function readValue(r: Reader, depth: number): AttrValue {
  if (depth > MAX_DEPTH) r.fail(`at most ${MAX_DEPTH} nested lists or attributes`);
  const c = r.peek();
  if (c === '[') {
    r.expect('[');
    const items: AttrValue[] = [];
    if (r.eat(']')) return items;
    for (;;) {
      items.push(readValue(r, depth + 1));
      if (r.eat(']')) return items;
      if (!r.eat(',')) r.fail("',' or ']'");
    }
  }
  if (c === '#') return readAttr(r, depth + 1);
  if (c === '-' || (c >= '0' && c <= '9')) return r.int();
  if (r.eat('true')) return true;
  if (r.eat('false')) return false;
  return r.fail('a value (an integer, true, false, a list or an attribute)');
}

function readEntries(r: Reader, into: Map<string, AttrValue>, close: string, depth: number): void {
  if (r.eat(close)) return;
  for (;;) {
    const at = r.pos;
    const key = r.ident();
    if (into.has(key)) {
      r.pos = at;
      r.skipSpace();
      throw new LayoutError('parse', `${r.what}: key '${key}' appears twice (offset ${r.pos})`);
    }
    r.expect('=');
    into.set(key, readValue(r, depth));
    if (r.eat(close)) return;
    if (!r.eat(',')) r.fail(`',' or '${close}'`);
  }
}

function readAttr(r: Reader, depth: number): Attr {
  r.skipSpace();
  const offset = r.pos;
  r.expect('#');
  const full = r.ident();
  const dot = full.indexOf('.');
  if (dot <= 0 || dot === full.length - 1) {
    r.pos = offset;
    r.fail("an attribute '#dialect.name<…>'");
  }
  r.expect('<');
  const params = new Map<string, AttrValue>();
  r.expect('{');
  readEntries(r, params, '}', depth);
  const extra = new Map<string, AttrValue>();
  if (r.eat(',')) readEntries(r, extra, '>', depth);
  else r.expect('>');
  return { kind: 'attr', dialect: full.slice(0, dot), name: full.slice(dot + 1), params, extra, offset };
}

/**
 * Reads one attribute from the whole text (an optional leading `#alias = ` allowed); `parse`
 * pointing at the offence otherwise. `what` names the form in messages.
 * @example parseAttr('#ttg.blocked<{order = [1, 0]}>').params.get('order') // [1, 0]
 */
export function parseAttr(text: string, what = 'MLIR attribute'): Attr {
  const r = new Reader(text, what);
  const alias = /^\s*#[A-Za-z_][A-Za-z0-9_$.]*\s*=/.exec(text);
  if (alias && !alias[0].includes('.')) r.pos = alias[0].length;
  const a = readAttr(r, 0);
  if (!r.atEnd()) r.fail('end of input');
  return a;
}

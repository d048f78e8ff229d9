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
  /** the aliases defined so far (`#mma = #ttg.nvidia_mma<…>` lines of a TTGIR dump) */
  readonly aliases = new Map<string, Attr>();
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
  if (c === '#') return aliasAt(r) ?? readAttr(r, depth + 1);
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
  // Triton before 3.0 printed the dialect as triton_gpu
  const dialect = full.slice(0, dot) === 'triton_gpu' ? 'ttg' : full.slice(0, dot);
  const name = full.slice(dot + 1);
  if (dialect === 'ttg') dropTrivialCtaLayout(name, params);
  return { kind: 'attr', dialect, name, params, extra, offset };
}

/** `#name` where an attribute is read: the attribute an earlier `#name = …` line defined, else null (a full attribute follows). */
function aliasAt(r: Reader): Attr | null {
  const m = stickyAt(/#([A-Za-z_][A-Za-z0-9_$]*)(?![A-Za-z0-9_$.])/y, r.text, r.pos);
  if (!m) return null;
  const a = r.aliases.get(m[1]!);
  if (a === undefined) r.fail(`an attribute ('#${m[1]}' is no alias defined above it)`);
  r.pos += m[0].length;
  return a;
}

/** The CTA layout keys of Triton before 3.8 (CTALayoutAttr); 3.8 writes CGALayout, the block in-dim's bases. */
const LEGACY_CTA = ['CTAsPerCGA', 'CTASplitNum', 'CTAOrder'];

/**
 * The pre-3.8 CTA layout keys read as Triton 3.8 reads an absent CGALayout when they describe one CTA
 * (CTAsPerCGA and CTASplitNum all ones, CTAOrder a permutation: the order of one CTA is moot), and
 * removed; otherwise `domain`, saying what they are in 3.8 (a multi-CTA layout is a CGALayout).
 */
function dropTrivialCtaLayout(name: string, params: Map<string, AttrValue>): void {
  const given = LEGACY_CTA.filter((k) => params.has(k));
  if (given.length === 0) return;
  const ints = (k: string): number[] | null => {
    const v = params.get(k);
    return Array.isArray(v) && v.every((x) => typeof x === 'number') ? (v as number[]) : null;
  };
  const ones = ['CTAsPerCGA', 'CTASplitNum'].every((k) => !params.has(k) || (ints(k)?.every((x) => x === 1) ?? false));
  const order = ints('CTAOrder');
  const perm = !params.has('CTAOrder') || (order !== null && [...order].sort((a, b) => a - b).every((x, i) => x === i));
  if (!ones || !perm) {
    const text = given.map((k) => `${k} = ${JSON.stringify(params.get(k)).replace(/,/g, ', ')}`).join(', ');
    throw new LayoutError(
      'domain',
      `#ttg.${name}: ${text} is a pre-3.8 CTA layout of more than one CTA; Triton 3.8 writes it as CGALayout = [[…], …], ` +
        'one vector per bit of the block in-dim (the tensor coordinate that block 2^i starts at): write that instead',
    );
  }
  for (const k of given) params.delete(k);
  if (params.has('CGALayout')) throw new LayoutError('domain', `#ttg.${name}: give CGALayout or the pre-3.8 ${given.join(', ')}, not both`);
}

/**
 * Reads one attribute from the whole text as a TTGIR dump prints it: alias lines `#mma = #ttg.…<…>`
 * first (each may use the ones above it, `parent = #mma`), then the attribute; without one after
 * them, the last alias defined is the answer. `parse` pointing at the offence otherwise (an alias
 * used before it is defined too). `what` names the form in messages.
 * @example parseAttr('#ttg.blocked<{order = [1, 0]}>').params.get('order') // [1, 0]
 * @example parseAttr('#b = #ttg.blocked<{order = [1, 0]}>\n#ttg.slice<{dim = 1, parent = #b}>').name // 'slice'
 */
export function parseAttr(text: string, what = 'MLIR attribute'): Attr {
  const r = new Reader(text, what);
  let last: Attr | null = null;
  for (;;) {
    r.skipSpace();
    const def = stickyAt(/#([A-Za-z_][A-Za-z0-9_$]*)\s*=/y, text, r.pos);
    if (!def) break;
    r.pos += def[0].length;
    last = readAttr(r, 0);
    r.aliases.set(def[1]!, last);
  }
  if (last !== null && r.atEnd()) return last;
  const a = aliasAt(r) ?? readAttr(r, 0);
  if (!r.atEnd()) r.fail('end of input');
  return a;
}

/** A shape as written where a tile or tensor shape is taken, and its element type's bits when it says one. */
export interface ShapeText {
  readonly shape: number[];
  readonly elementBits?: number;
  readonly elementType?: string;
}

/**
 * One shape syntax for every command: `128x64` (or `128`), the JSON array `[128, 64]`, or an MLIR
 * tensor type as a TTGIR dump prints it, `tensor<128x64xf16>` (an encoding after a comma is
 * ignored), which also gives the element type and its bits (f16 → 16, bf16 → 16, f8E4M3FN → 8,
 * i1 → 1). The entries are left for the caller to check; anything else is `bad-request` naming `what`.
 * @example parseShapeText('tensor<128x64xf16, #blocked>', 'the shape') // { shape: [128, 64], elementBits: 16, elementType: 'f16' }
 */
export function parseShapeText(text: string, what: string): ShapeText {
  const t = text.trim();
  if (/^\d+(\s*x\s*\d+)*$/.test(t)) return { shape: t.split('x').map((s) => Number(s.trim())) };
  const tensor = /^tensor\s*<\s*((?:\d+\s*x\s*)+)([A-Za-z][A-Za-z0-9]*)\s*(?:,[^>]*)?>$/.exec(t);
  if (tensor) {
    const shape = tensor[1]!
      .split('x')
      .filter((s) => s.trim() !== '')
      .map((s) => Number(s.trim()));
    const type = tensor[2]!;
    const bits = /^(?:bf|tf|f|ui|si|i)(\d+)/.exec(type);
    return bits ? { shape, elementBits: Number(bits[1]), elementType: type } : { shape, elementType: type };
  }
  if (t.startsWith('[')) {
    let v: unknown;
    try {
      v = JSON.parse(t);
    } catch {
      v = null;
    }
    if (Array.isArray(v) && v.every((n) => typeof n === 'number' && Number.isInteger(n))) return { shape: v as number[] };
  }
  throw new LayoutError('bad-request', `${what} must be like 128x64, [128,64] or tensor<128x64xf16>, got '${text.slice(0, 40)}'`);
}

/**
 * The forms of a linear layout (docs/linear.md, "Forms"): the canonical JSON object (explicit
 * sizes, or out-dim names with inferred sizes), JSON text, Triton's `toString()` print, Gluon's
 * `DistributedLinearLayout(…)` / `SharedLinearLayout(…)` reprs and the `#ttg.linear` /
 * `#ttg.shared_linear` attributes. `parseLL` reads any of them; `formatLL` prints the last three
 * back byte for byte as Triton and Gluon print them; `toCanonicalJson` is the form of every result.
 *
 * Errors: broken syntax is `parse` (pointing at the offence); well-formed text that breaks a rule
 * of the value is `domain`; a JSON argument of the wrong JSON types is `bad-request`.
 */
import { LayoutError, type ErrorKind } from '../algebra/errors.js';
import { BEYOND_SAFE, integerTexts, intText, knownIntText, withIntTexts } from '../algebra/int-text.js';
import type { Json } from '../algebra/json.js';
import { isAttr, parseAttr, stickyAt, type Attr, type AttrValue } from './attr.js';
import { isSurjective } from './operations.js';
import { MAX_DIM_LOG2, makeLinearLayout, withInferredSizes, type InDim, type LinearLayout, type OutDim } from './value.js';

const domain = (msg: string): LayoutError => new LayoutError('domain', msg);

/** An alignment: a positive power of two (of any size: it is not part of the layout). */
const isAlignment = (n: number): boolean => Number.isSafeInteger(n) && n > 0 && 2 ** Math.round(Math.log2(n)) === n;

/**
 * A layout read with out-dim names only (Triton's `LinearLayout(bases, outDimNames)`, Gluon's
 * `shape`): the values checked (non-negative integers below 2^30, one per out-dim), the sizes
 * inferred (`withInferredSizes`), the layout checked; it must then be surjective (`domain`,
 * naming `what`).
 */
function readInferred(inDims: readonly InDim[], names: readonly string[], what: string): LinearLayout {
  for (const d of inDims) {
    d.bases.forEach((b, i) => {
      if (b.length !== names.length) throw domain(`${what}: basis ${d.name}=${2 ** i} has ${b.length} values for ${names.length} out-dims`);
      for (const v of b) {
        if (!Number.isInteger(v) || v < 0) throw domain(`${what}: basis ${d.name}=${2 ** i} has the value ${v}, not a non-negative integer`);
        if (v >= 2 ** MAX_DIM_LOG2) {
          const t = knownIntText(v);
          throw domain(`${what}: basis ${d.name}=${2 ** i} has ${t === null ? BEYOND_SAFE : `the value ${t}`}, beyond 2^${MAX_DIM_LOG2} - 1`);
        }
      }
    });
  }
  const l = makeLinearLayout(inDims, withInferredSizes(inDims, names).outDims);
  if (!isSurjective(l)) {
    throw domain(`${what} is not surjective: some out coordinate is reached by no input (sizes inferred from the bases need a surjective layout)`);
  }
  return l;
}

// ---------------------------------------------------------------------------------------------
// Form 1 and 2: the JSON object

const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v);

/** Reads the canonical object; `bad` is the kind for wrong JSON types (bad-request, or parse for JSON text). */
function fromJsonObject(x: unknown, bad: ErrorKind): LinearLayout {
  const fail = (msg: string): never => {
    throw new LayoutError(bad, `LL object: ${msg}`);
  };
  if (typeof x !== 'object' || x === null || Array.isArray(x)) return fail('expected an object {"bases": …, "outDims": …}');
  const o = x as Record<string, unknown>;
  const keys = Object.keys(o);
  const extra = keys.find((k) => k !== 'bases' && k !== 'outDims');
  if (extra !== undefined) fail(`unexpected key '${extra}' (only "bases" and "outDims")`);
  if (!('bases' in o)) fail('missing key "bases"');
  if (!('outDims' in o)) fail('missing key "outDims"');
  if (!Array.isArray(o.bases)) fail('"bases" must be an array of [in-dim, [[v, …], …]] pairs');
  const inDims = (o.bases as unknown[]).map((e, k): InDim => {
    if (!Array.isArray(e) || e.length !== 2 || typeof e[0] !== 'string' || !Array.isArray(e[1])) {
      return fail(`bases[${k}] must be a pair [in-dim name, [[v, …], …]]`);
    }
    const bases = (e[1] as unknown[]).map((b, i) => {
      if (!Array.isArray(b)) return fail(`basis ${e[0]}=${2 ** i} must be an array of integers`);
      b.forEach((v) => {
        // an array or object is named, not printed: it may be nested 100,000 deep
        const shown = Array.isArray(v) ? 'an array' : typeof v === 'object' && v !== null ? 'an object' : JSON.stringify(v);
        if (!isInt(v)) fail(`basis ${e[0]}=${2 ** i} has ${shown}, not an integer`);
      });
      return b as number[];
    });
    return { name: e[0], bases };
  });
  if (!Array.isArray(o.outDims)) fail('"outDims" must be an array of [name, size] pairs or of names');
  const outs = o.outDims as unknown[];
  if (outs.length > 0 && outs.every((n) => typeof n === 'string')) return readInferred(inDims, outs as string[], 'LL object');
  const outDims = outs.map((e, j): OutDim => {
    if (!Array.isArray(e) || e.length !== 2 || typeof e[0] !== 'string' || !isInt(e[1])) {
      return fail(`outDims[${j}] must be a pair [name, size] (or every entry a name)`);
    }
    return { name: e[0], size: e[1] };
  });
  return makeLinearLayout(inDims, outDims);
}

// ---------------------------------------------------------------------------------------------
// Form 3: Triton's print

/** Reads Triton's `LinearLayout::toString()` (whitespace around tokens and a missing leading newline accepted). */
function fromTritonPrint(text: string): LinearLayout {
  let pos = 0;
  const what = 'Triton print';
  const skip = (): void => {
    while (pos < text.length && /\s/.test(text[pos]!)) pos++;
  };
  const got = (): string => {
    skip();
    if (pos >= text.length) return 'end of input';
    const m = stickyAt(/[^\s]+/y, text, pos)!;
    return `'${m[0].slice(0, 24)}'`;
  };
  const fail = (expected: string): never => {
    throw new LayoutError('parse', `${what}: expected ${expected} at offset ${pos}, got ${got()}`);
  };
  const eat = (s: string): boolean => {
    skip();
    if (text.startsWith(s, pos)) {
      pos += s.length;
      return true;
    }
    return false;
  };
  const expect = (s: string): void => {
    if (!eat(s)) fail(`'${s}'`);
  };
  const name = (): string => {
    skip();
    const m = stickyAt(/[^\s=(),[\]]+/y, text, pos);
    if (!m) return fail('a dim name');
    pos += m[0].length;
    return m[0];
  };
  const int = (): number => {
    skip();
    const m = stickyAt(/-?[0-9]+/y, text, pos);
    if (!m) return fail('an integer');
    pos += m[0].length;
    return Number(m[0]);
  };
  const outList = (): OutDim[] => {
    expect('[');
    const outs: OutDim[] = [];
    if (eat(']')) return outs;
    for (;;) {
      const n = name();
      expect('(');
      expect('size');
      outs.push({ name: n, size: int() });
      expect(')');
      if (eat(']')) return outs;
      expect(',');
    }
  };
  const tuple = (): number[] => {
    expect('(');
    const vs: number[] = [];
    if (eat(')')) return vs;
    for (;;) {
      vs.push(int());
      if (eat(')')) return vs;
      expect(',');
    }
  };
  const end = (l: LinearLayout): LinearLayout => {
    skip();
    if (pos < text.length) fail('end of input');
    return l;
  };
  if (eat('(empty layout')) {
    if (eat(')')) return end(makeLinearLayout([], []));
    expect('with');
    expect('out-dims');
    const outs = outList();
    expect(')');
    return end(makeLinearLayout([], outs));
  }
  const inDims: InDim[] = [];
  while (!eat('where')) {
    if (!eat('-')) fail(inDims.length === 0 ? "' - NAME=1 -> (…)' or '(empty layout)'" : "' - ' or 'where out dims are:'");
    const n = name();
    if (eat('is')) {
      expect('a');
      expect('size');
      expect('1');
      expect('dimension');
      inDims.push({ name: n, bases: [] });
      continue;
    }
    const bases: number[][] = [];
    for (;;) {
      expect('=');
      const at = pos;
      const p = int();
      if (p !== 2 ** bases.length) {
        pos = at;
        skip();
        throw new LayoutError('parse', `${what}: expected ${n}=${2 ** bases.length}, got ${n}=${intText(p)}`);
      }
      expect('->');
      bases.push(tuple());
      skip();
      const save = pos;
      if (text.startsWith('-', pos) || text.startsWith('where', pos)) break;
      const next = name();
      if (next !== n) {
        pos = save;
        throw new LayoutError('parse', `${what}: expected ${n}=${2 ** bases.length}, ' - ' or 'where out dims are:' at offset ${save}, got ${got()}`);
      }
    }
    inDims.push({ name: n, bases });
  }
  expect('out');
  expect('dims');
  expect('are');
  expect(':');
  return end(makeLinearLayout(inDims, outList()));
}

// ---------------------------------------------------------------------------------------------
// Form 4: Gluon's reprs (a Python call with keyword arguments and list literals)

type PyValue = number | PyValue[];

function fromGluon(text: string): LinearLayout {
  let pos = 0;
  const what = 'Gluon layout';
  const skip = (): void => {
    while (pos < text.length && /\s/.test(text[pos]!)) pos++;
  };
  const got = (): string => {
    skip();
    return pos >= text.length ? 'end of input' : `'${text[pos]}'`;
  };
  const fail = (expected: string): never => {
    skip();
    throw new LayoutError('parse', `${what}: expected ${expected} at offset ${pos}, got ${got()}`);
  };
  const eat = (s: string): boolean => {
    skip();
    if (text.startsWith(s, pos)) {
      pos += s.length;
      return true;
    }
    return false;
  };
  const value = (depth = 0): PyValue => {
    if (depth > 8) fail('at most 8 nested lists');
    if (eat('[')) {
      const items: PyValue[] = [];
      if (eat(']')) return items;
      for (;;) {
        items.push(value(depth + 1));
        if (eat(']')) return items;
        if (!eat(',')) fail("',' or ']'");
        if (eat(']')) return items;
      }
    }
    skip();
    const m = stickyAt(/-?[0-9]+/y, text, pos);
    if (!m) return fail('an integer or a list');
    pos += m[0].length;
    return Number(m[0]);
  };
  skip();
  const head = stickyAt(/DistributedLinearLayout|SharedLinearLayout/y, text, pos);
  if (!head) return fail("'DistributedLinearLayout(' or 'SharedLinearLayout('");
  pos += head[0].length;
  const shared = head[0] === 'SharedLinearLayout';
  const allowed = shared ? ['offset_bases', 'block_bases', 'alignment'] : ['reg_bases', 'lane_bases', 'warp_bases', 'block_bases', 'shape'];
  const required = shared ? ['offset_bases'] : allowed;
  if (!eat('(')) fail("'('");
  const args = new Map<string, PyValue>();
  const missing = (): boolean => required.some((k) => !args.has(k));
  if (!eat(')')) {
    for (;;) {
      skip();
      const at = pos;
      const m = stickyAt(/[A-Za-z_][A-Za-z0-9_]*/y, text, pos);
      if (!m) fail('a keyword argument');
      const key = m![0];
      if (!allowed.includes(key))
        throw new LayoutError('parse', `${what}: unexpected keyword argument '${key}' at offset ${at} (expected one of ${allowed.join(', ')})`);
      if (args.has(key)) throw new LayoutError('parse', `${what}: keyword argument '${key}' given twice (offset ${at})`);
      pos += key.length;
      if (!eat('=')) fail("'='");
      args.set(key, value());
      if (eat(')')) break;
      if (!eat(',')) fail(missing() ? "','" : "',' or ')'");
      if (eat(')')) break;
    }
  }
  skip();
  if (pos < text.length) fail('end of input');
  const absent = required.find((k) => !args.has(k));
  if (absent !== undefined) throw new LayoutError('parse', `${what}: missing keyword argument '${absent}'`);
  const basesOf = (key: string): number[][] => {
    const v = args.get(key) ?? [];
    if (!Array.isArray(v) || !v.every((b) => Array.isArray(b) && b.every((x) => typeof x === 'number'))) {
      throw new LayoutError('parse', `${what}: ${key} must be a list of lists of integers`);
    }
    return v as number[][];
  };
  if (shared) {
    const offset = basesOf('offset_bases');
    const block = basesOf('block_bases');
    const alignment = args.get('alignment') ?? 16;
    if (typeof alignment !== 'number') throw new LayoutError('parse', `${what}: alignment must be an integer`);
    if (!isAlignment(alignment)) {
      throw domain(`SharedLinearLayout alignment must be a positive power of two (got ${intText(alignment)})`);
    }
    if (offset.length === 0) throw domain('SharedLinearLayout offset_bases must not be empty');
    const rank = offset[0]!.length;
    if (rank === 0) throw domain('SharedLinearLayout offset_bases must not be empty (rank 0)');
    return readInferred(
      [
        { name: 'offset', bases: offset },
        { name: 'block', bases: block },
      ],
      Array.from({ length: rank }, (_, j) => `dim${j}`),
      'SharedLinearLayout',
    );
  }
  const shape = args.get('shape')!;
  if (!Array.isArray(shape) || !shape.every((x) => typeof x === 'number')) throw new LayoutError('parse', `${what}: shape must be a list of integers`);
  const l = makeLinearLayout(
    [
      { name: 'register', bases: basesOf('reg_bases') },
      { name: 'lane', bases: basesOf('lane_bases') },
      { name: 'warp', bases: basesOf('warp_bases') },
      { name: 'block', bases: basesOf('block_bases') },
    ],
    (shape as number[]).map((size, j) => ({ name: `dim${j}`, size })),
  );
  if (!isSurjective(l))
    throw domain(
      'DistributedLinearLayout is not surjective: some out coordinate is reached by no input (sizes inferred from the bases need a surjective layout)',
    );
  return l;
}

// ---------------------------------------------------------------------------------------------
// Form 5: the MLIR attributes

function basesFromAttr(a: Attr, key: string): number[][] {
  const v = a.params.get(key) as AttrValue | undefined;
  const bad = (): never => {
    throw new LayoutError('parse', `#ttg.${a.name}: '${key}' must be a list of lists of integers`);
  };
  if (!Array.isArray(v)) return bad();
  return (v as readonly AttrValue[]).map((b) => {
    if (!Array.isArray(b) || !(b as readonly AttrValue[]).every((x) => typeof x === 'number')) bad();
    return b as number[];
  });
}

function fromMlir(text: string): LinearLayout {
  const a = parseAttr(text, 'MLIR attribute');
  if (a.dialect !== 'ttg' || (a.name !== 'linear' && a.name !== 'shared_linear')) {
    throw new LayoutError(
      'parse',
      `#${a.dialect}.${a.name} is not a linear layout attribute (#ttg.linear or #ttg.shared_linear); an encoding is read by ll_from_encoding`,
    );
  }
  const keys = a.name === 'linear' ? ['register', 'lane', 'warp', 'block'] : ['offset', 'block'];
  for (const k of a.params.keys()) {
    if (!keys.includes(k)) throw new LayoutError('parse', `#ttg.${a.name}: unexpected key '${k}' (expected ${keys.join(', ')})`);
  }
  if (a.name === 'linear') {
    if (a.extra.size > 0) throw new LayoutError('parse', `#ttg.linear: unexpected '${[...a.extra.keys()][0]}' after the dictionary`);
    const absent = keys.find((k) => !a.params.has(k));
    if (absent !== undefined) throw new LayoutError('parse', `#ttg.linear: missing key '${absent}'`);
    const inDims = keys.map((k) => ({ name: k, bases: basesFromAttr(a, k) }));
    const first = inDims.flatMap((d) => d.bases)[0];
    const rank = first ? first.length : 0;
    return readInferred(
      inDims,
      Array.from({ length: rank }, (_, j) => `dim${j}`),
      '#ttg.linear',
    );
  }
  if (!a.params.has('offset')) throw new LayoutError('parse', "#ttg.shared_linear: missing key 'offset'");
  for (const k of a.extra.keys()) {
    if (k !== 'alignment') throw new LayoutError('parse', `#ttg.shared_linear: unexpected '${k}' after the dictionary (only alignment)`);
  }
  const alignment = a.extra.get('alignment');
  if (alignment === undefined) throw new LayoutError('parse', "#ttg.shared_linear: missing ', alignment = N' after the dictionary");
  if (typeof alignment !== 'number') throw new LayoutError('parse', '#ttg.shared_linear: alignment must be an integer');
  if (!isAlignment(alignment)) {
    throw domain(`#ttg.shared_linear: alignment must be a positive power of two (got ${intText(alignment)})`);
  }
  const offset = basesFromAttr(a, 'offset');
  const block = a.params.has('block') ? basesFromAttr(a, 'block') : [];
  if (offset.length === 0) throw domain('#ttg.shared_linear: offset must not be empty');
  return readInferred(
    [
      { name: 'offset', bases: offset },
      { name: 'block', bases: block },
    ],
    Array.from({ length: offset[0]!.length }, (_, j) => `dim${j}`),
    '#ttg.shared_linear',
  );
}

// ---------------------------------------------------------------------------------------------
// Reading any form

/**
 * Reads an LL argument in any form (docs/linear.md, "Forms"): a JSON object, or a string holding
 * JSON text, Triton's print, a Gluon repr or a `#ttg.linear` / `#ttg.shared_linear` attribute.
 * @example parseLL('#ttg.linear<{register = [[1]], lane = [], warp = [], block = []}>').outDims // [{name: 'dim0', size: 2}]
 */
export function parseLL(x: unknown): LinearLayout {
  if (typeof x !== 'string') {
    if (typeof x !== 'object' || x === null || Array.isArray(x)) {
      throw new LayoutError('bad-request', 'an LL argument must be a JSON object {"bases": …, "outDims": …} or a string in one of its printed forms');
    }
    return fromJsonObject(x, 'bad-request');
  }
  // a message quotes the text's integers beyond 2^53 − 1 as written
  return withIntTexts(integerTexts(x), () => fromText(x));
}

/** parseLL of a string: JSON text or one of the printed forms. */
function fromText(x: string): LinearLayout {
  const t = x.trimStart();
  if (t.startsWith('{')) {
    let v: unknown;
    try {
      v = JSON.parse(x);
    } catch (e) {
      throw new LayoutError('parse', `LL JSON text: ${(e as Error).message}`);
    }
    return fromJsonObject(v, 'parse');
  }
  if (t.startsWith('DistributedLinearLayout') || t.startsWith('SharedLinearLayout')) return fromGluon(x);
  if (t.startsWith('#')) return fromMlir(x);
  if (t.startsWith('-') || t.startsWith('(empty layout')) return fromTritonPrint(x);
  throw new LayoutError(
    'parse',
    `not a linear layout: expected a JSON object, Triton's print (' - register=1 -> …'), DistributedLinearLayout(…), SharedLinearLayout(…), #ttg.linear<…> or #ttg.shared_linear<…>, got '${t.slice(0, 24)}'`,
  );
}

/** An attribute value tree, for encodings that carry one (re-exported for the encodings). */
export { isAttr, parseAttr };

// ---------------------------------------------------------------------------------------------
// Printing

/** The canonical JSON object of every result: `{"bases": [[in-dim, bases], …], "outDims": [[out-dim, size], …]}`. */
export function toCanonicalJson(l: LinearLayout): Json {
  // the bases arrays are shared, not copied: a layout is immutable, and so is this view of it
  return {
    bases: l.inDims.map((d) => [d.name, d.bases as Json]),
    outDims: l.outDims.map((o) => [o.name, o.size]),
  };
}

/** Triton `LinearLayout::toString()`, byte for byte. */
export function tritonString(l: LinearLayout): string {
  const outs = `[${l.outDims.map((o) => `${o.name} (size ${o.size})`).join(', ')}]`;
  if (l.inDims.length === 0) return l.outDims.length === 0 ? '\n(empty layout)' : `\n(empty layout with out-dims ${outs})`;
  let s = '\n';
  for (const d of l.inDims) {
    if (d.bases.length === 0) {
      s += ` - ${d.name} is a size 1 dimension\n`;
      continue;
    }
    s += ` - ${d.bases.map((b, i) => `${d.name}=${2 ** i} -> (${b.join(', ')})`).join('\n   ')}\n`;
  }
  return `${s}where out dims are: ${outs}`;
}

/** A Python list repr of bases: `[[0, 1], [8, 0]]`. */
const pyList = (bs: readonly (readonly number[])[]): string => `[${bs.map((b) => `[${b.join(', ')}]`).join(', ')}]`;

type Kind = 'distributed' | 'shared';

/** Which Gluon / MLIR layout L can be printed as (docs/linear.md, "Forms"); `domain` otherwise. */
function printableKind(l: LinearLayout, form: string): Kind {
  const ins = l.inDims.map((d) => d.name).join(',');
  const kind: Kind | null = ins === 'register,lane,warp,block' ? 'distributed' : ins === 'offset,block' ? 'shared' : null;
  if (kind === null) throw domain(`ll_format ${form}: the in-dims must be exactly register, lane, warp, block or offset, block (got ${ins || 'none'})`);
  l.outDims.forEach((o, j) => {
    if (o.name !== `dim${j}`) throw domain(`ll_format ${form}: out-dim ${j} must be named dim${j} (got '${o.name}')`);
  });
  if (!isSurjective(l)) throw domain(`ll_format ${form}: the layout is not surjective, and this form infers its sizes from the bases`);
  if (kind === 'shared' && l.inDims[0]!.bases.length === 0) throw domain(`ll_format ${form}: a shared layout needs at least one offset basis`);
  if (kind === 'shared' && l.outDims.length === 0) throw domain(`ll_format ${form}: a shared layout needs at least one out-dim`);
  return kind;
}

/**
 * Prints L as `form` (Triton's `ll_format`, docs/linear.md, "Forms"): "triton" (toString), "gluon"
 * (DistributedLinearLayout / SharedLinearLayout repr) or "mlir" (#ttg.linear / #ttg.shared_linear).
 * `alignment` (default 16, a power of two) only for the shared gluon/mlir forms; `domain` otherwise.
 */
export function formatLL(l: LinearLayout, form: string, alignment?: number): string {
  if (form !== 'triton' && form !== 'gluon' && form !== 'mlir') throw domain(`ll_format: unknown form '${form}' (triton, gluon or mlir)`);
  if (form === 'triton') {
    if (alignment !== undefined) throw domain('ll_format triton: no alignment in this form');
    return tritonString(l);
  }
  const kind = printableKind(l, form);
  if (alignment !== undefined) {
    if (kind !== 'shared') throw domain(`ll_format ${form}: alignment is only for a shared layout`);
    if (!isAlignment(alignment)) {
      throw domain(`ll_format ${form}: alignment must be a positive power of two (got ${intText(alignment)})`);
    }
  }
  const al = alignment ?? 16;
  const b = (k: number): string => pyList(l.inDims[k]!.bases);
  if (form === 'gluon') {
    if (kind === 'shared') return `SharedLinearLayout(offset_bases=${b(0)}, block_bases=${b(1)}, alignment=${al})`;
    return `DistributedLinearLayout(reg_bases=${b(0)}, lane_bases=${b(1)}, warp_bases=${b(2)}, block_bases=${b(3)}, shape=[${l.outDims.map((o) => o.size).join(', ')}])`;
  }
  if (kind === 'shared') {
    const block = l.inDims[1]!.bases.length > 0 ? `, block = ${b(1)}` : '';
    return `#ttg.shared_linear<{offset = ${b(0)}${block}}, alignment = ${al}>`;
  }
  return `#ttg.linear<{register = ${b(0)}, lane = ${b(1)}, warp = ${b(2)}, block = ${b(3)}}>`;
}

/**
 * Composed layouts Sw<B,M,S> o K o L (docs/semantics.md §9.1, CuTe `layout_composed.hpp`): the layout
 * function Φ(x) = Sw(K + Φ_L(x)). Shape, size, rank, coordinates are L's; the algebra acts on
 * the inner layout L and keeps the outer function (Sw, K).
 *
 * A plain `Layout` has no `kind`; a composed one is tagged, so `isComposed` tells them apart.
 * `LayoutFunction` is what the evaluator (engine/) runs: either of the two.
 *
 * One naming scheme for the functions here (and wherever else they are used):
 * - over a `LayoutFunction` (plain or composed), a plain layout answering as the algebra's own function does: that
 *   function's name with `LayoutFunction` after the operation, before a `Big` qualifier — `formatLayoutFunction`
 *   (formatLayout), `parseLayoutFunction` (parseLayout), `cosizeLayoutFunction` (cosizeBig), `phiLayoutFunctionBig`
 *   (phiBig), `coordToOffsetLayoutFunction` (coordToOffset);
 * - over a `ComposedLayout` only: `Composed` in the name — `makeComposed`, `isComposed`, `looksComposed`,
 *   `phiComposed`, `composedPrefix`;
 * - on the inner layout L, keeping the outer function (Sw, K): `Inner` in the name — `innerLayout`, `mapInner`.
 * The ops table's side (ops/composed.ts) has one wrapper, `withComposed`, and the argument kinds `layout-fn` and
 * `any-layout-fn`.
 */
import { MAX_EXACT } from '../algebra/arith.js';
import { LayoutError } from '../algebra/errors.js';
import type { Layout } from '../algebra/layout.js';
import { coordToOffset, cosizeBig, flat, makeLayoutUnbounded, phi, phiBig, sizeBig } from '../algebra/layout.js';
import { Parser, formatLayout, parseLayout, skipWhiteSpace } from '../algebra/notation.js';
import { parseLayoutArg } from './tiler.js';
import type { Tuple } from '../algebra/tuple.js';
import { applySwizzle, applySwizzleBig, formatSwizzle, makeSwizzle, swizzleWithin, targetLow, topBit, type Swizzle } from './swizzle.js';
import { checkDeadline } from '../algebra/deadline.js';
import { isCompact } from '../algebra/properties.js';

/**
 * A composed layout Sw ∘ K ∘ L (docs/semantics.md §9.1; CuTe's ComposedLayout of a Swizzle, an offset and a
 * layout): Φ(x) = Sw(K + Φ_L(x)). Its shape, size and coordinates are L's.
 * @example phiComposed({ kind: 'composed', swizzle: { bits: 1, base: 0, shift: 1 }, offset: 0, inner: parseLayout('4:1') }, 2) // 3
 */
export interface ComposedLayout {
  /** the tag that tells a ComposedLayout from a plain Layout */
  readonly kind: 'composed';
  /** the outer function Sw (CuTe `Swizzle<B,M,S>`) */
  readonly swizzle: Swizzle;
  /** K ≥ 0, added to Φ_L before the swizzle */
  readonly offset: number;
  /** the inner layout L: shape, size and coordinates */
  readonly inner: Layout;
}

/** What the evaluator runs: a plain layout or a composed one. */
export type LayoutFunction = Layout | ComposedLayout;

/**
 * Whether a layout function is a ComposedLayout (it carries `kind: 'composed'`).
 * @example isComposed(parseLayout('4:1')) // false
 */
export const isComposed = (l: LayoutFunction): l is ComposedLayout => (l as ComposedLayout).kind === 'composed';

/** The layout whose shape, size and coordinates a layout function has. */
export const innerLayout = (l: LayoutFunction): Layout => (isComposed(l) ? l.inner : l);

/** Φ(x) = Sw(K + Φ_L(x)), for 0 ≤ x < size(L). */
export function phiComposed(c: ComposedLayout, x: number): number {
  return applySwizzle(c.swizzle, c.offset + phi(c.inner, x));
}

// ---------------------------------------------------------------------------------------------
// Making, printing and parsing (docs/semantics.md §9.1, docs/protocol.md, "Memory")

/**
 * Sw o K o L as a value. With `bounded` (the default), every value of Φ must be an exact
 * integer: K + cosize(L) − 1 and the swizzle's reach stay ≤ 2^53 − 1, else `overflow`.
 * Pre-condition: sw is valid (makeSwizzle), K ≥ 0 an exact integer. Example:
 * makeComposed(makeSwizzle(3,3,3), 0, parseLayout('(8,64):(64,1)')).
 */
export function makeComposed(sw: Swizzle, offset: number, inner: Layout, bounded = true): ComposedLayout {
  if (bounded) {
    const top = K_BOUND(offset, inner);
    // Sw(y) < 2^max(bitlength(y), top bit of Sw): both must stay within 53 bits, Sw taken as it
    // acts on the offsets reached (bits it reads above them are 0: swizzleWithin), and the reach decided on the
    // offsets themselves where the field could pass bit 52 (reachesPast53)
    const reach = top > BigInt(MAX_EXACT) ? null : reachedSwizzle(sw, offset, inner);
    if (reach === null || (reach.bits > 0 && targetLow(reach) + reach.bits > 53)) {
      throw new LayoutError('overflow', `${formatSwizzle(sw)} o ${offset} o ${formatLayout(inner)}: offsets beyond 2^53-1 cannot be represented exactly`);
    }
  }
  return { kind: 'composed', swizzle: sw, offset, inner };
}

/**
 * The swizzle as it acts on the offsets y = K + Φ_L(x) reached, equal to Sw on each of them: the bits it reads above
 * the largest are 0 (swizzleWithin), and where its field would move a bit past bit 52 that no offset reached sets
 * (reachesPast53 false) the field stops below it. Its target then passes bit 52 only where some Φ does.
 * Example: reachedSwizzle(Sw<8,8,-40>, 2147483651, ((16),2):((1),64)) is Sw<5,8,-40>.
 */
export function reachedSwizzle(sw: Swizzle, offset: number, inner: Layout): Swizzle {
  const top = K_BOUND(offset, inner);
  const eff = swizzleWithin(sw, top <= 0n ? 0 : top.toString(2).length);
  if (eff.bits === 0 || eff.shift >= 0 || targetLow(eff) + eff.bits <= 53 || top > BigInt(MAX_EXACT)) return eff;
  return reachesPast53(eff, offset, inner) ? eff : { ...eff, bits: Math.max(0, 53 + eff.shift - eff.base) };
}

/** The most residues reachesPast53 works through (each mode's, their sumset, and the work of one sum). */
export const MAX_REACH_RESIDUES = 1 << 22;

/** (a + b) mod m, exact for a, b < m ≤ 2^53. */
const addMod = (a: number, b: number, m: number): number => (a >= m - b ? a - (m - b) : a + b);

/**
 * Whether Sw(y) passes 2^53 − 1 for an offset y = K + Φ_L(x) reached, all y ≤ 2^53 − 1 and S < 0 (the field moves up
 * by −S): exactly when some y has a set bit j of the source field with j − S ≥ 53, bits [lo, hi). Decided on the
 * residues y mod 2^hi, the sumset of K's and each mode's residues (s·c mod 2^hi, c < n; a stride that is a multiple
 * of 2^hi adds none); more than MAX_REACH_RESIDUES of them is answered as reaching (`overflow`, as before).
 * Example: Sw<8,8,-40> o 2147483651 o ((16),2):((1),64) reaches no bit 13–15 (every offset has bits 8–15 zero).
 */
function reachesPast53(sw: Swizzle, offset: number, inner: Layout): boolean {
  const hi = sw.base + sw.bits;
  const lo = Math.max(sw.base, 53 + sw.shift);
  const m = 2 ** hi;
  let sums = new Set([offset % m]);
  const { shapes, strides } = flat(inner);
  for (let q = 0; q < shapes.length; q++) {
    const s = strides[q]! % m;
    if (s === 0 || shapes[q]! === 1) continue;
    const residues: number[] = [];
    for (let c = 0, r = 0; c < shapes[q]!; c++, r = addMod(r, s, m)) {
      if (c > 0 && r === 0) break; // the residues repeat from here
      residues.push(r);
      if (residues.length > MAX_REACH_RESIDUES) return true;
    }
    if (sums.size * residues.length > MAX_REACH_RESIDUES) return true;
    checkDeadline('the reach of a swizzle');
    const next = new Set<number>();
    for (const a of sums) for (const r of residues) next.add(addMod(a, r, m));
    sums = next;
  }
  const floor = 2 ** lo;
  for (const y of sums) if (y >= floor) return true;
  return false;
}

/** the largest K + Φ_L(x) */
const K_BOUND = (offset: number, inner: Layout): bigint => BigInt(offset) + cosizeBig(inner) - 1n;

/** Canonical print: `Sw<3,3,3> o (8,64):(64,1)`, the offset printed only when K > 0
 *  (`Sw<3,3,3> o 8 o (8,64):(64,1)`); a plain layout prints as formatLayout. */
export function formatLayoutFunction(l: LayoutFunction): string {
  return isComposed(l) ? composedPrefix(l) + formatLayout(l.inner) : formatLayout(l);
}

/** `Sw<B,M,S> o ` or `Sw<B,M,S> o K o `: what precedes the inner layout in the print. */
export const composedPrefix = (c: ComposedLayout): string => `${formatSwizzle(c.swizzle)} o ${c.offset > 0 ? `${c.offset} o ` : ''}`;

/** Whether the text is a composed layout: after whitespace it starts with a swizzle as CuTe C++
 *  (`Sw<`), the CuTe DSL (`S<`) or pycute (`SW_`) prints it. Example: looksComposed('S<3,4,3> o 0 o 8:1'). */
export function looksComposed(text: string): boolean {
  const p = skipWhiteSpace(text, 0);
  // most texts are plain layouts: one character tells
  return text.charCodeAt(p) === 83 /* S */ && (text.startsWith('Sw', p) || text.startsWith('SW_', p) || /^S\s*</.test(text.slice(p, p + 40)));
}

/**
 * Parse a layout function: a plain layout (parseLayout), or `Sw<B,M,S> o L`,
 * `Sw<B,M,S> o K o L`, with CuTe's `_N` integers (`Sw<3,3,3> o _0 o (_8,_64):(_64,_1)`), and the
 * swizzle as the CuTe DSL (`S<3,4,3> o 0 o …`) and pycute (`SW_3_4_3 o 0 o …`) print it.
 * Errors: `parse` naming the offset (CuTe's pointer form `… o smem_ptr[16b](unset) o …`
 * included), `domain` for |S| < B or a negative B or M (makeSwizzle), `overflow` as
 * makeComposed. Example: parseLayoutFunction('Sw<3,3,3> o (8,64):(64,1)').
 */
export function parseLayoutFunction(text: string, what = 'layout', unbounded = false): LayoutFunction {
  if (!looksComposed(text)) return parseLayoutArg(text, what, unbounded);
  // the notation's parser (its white space, failures and pasted forms) with the swizzle's tokens
  const p = new Parser(text, what);
  /** an integer, `_`-prefixed as CuTe prints it, signed where a swizzle parameter is read */
  const int = (signed: boolean): number => {
    p.skipSpace();
    const start = p.pos;
    if (text[p.pos] === '_') p.pos++;
    if (signed && text[p.pos] === '-') p.pos++;
    const digits = p.pos;
    while (p.pos < text.length && text.charCodeAt(p.pos) >= 48 && text.charCodeAt(p.pos) <= 57) p.pos++;
    if (p.pos === digits) {
      p.pos = start;
      p.fail('an integer');
    }
    const lexeme = text.slice(start, p.pos).replace('_', '');
    const v = Number(lexeme);
    if (!Number.isSafeInteger(v)) throw new LayoutError('overflow', `${what}: integer ${lexeme} at offset ${start} exceeds 2^53-1`);
    return v === 0 ? 0 : v;
  };
  let b: number;
  let m: number;
  let s: number;
  if (p.word('SW_')) {
    // pycute's Swizzle.__str__: SW_B_M_S
    p.pos--;
    const part = (): number => {
      if (text[p.pos] !== '_') p.fail("'_'");
      return int(true);
    };
    [b, m, s] = [part(), part(), part()];
  } else {
    if (!p.word('Sw')) p.word('S');
    if (!p.eat('<')) p.fail("'<'");
    b = int(true);
    if (!p.eat(',')) p.fail("','");
    m = int(true);
    if (!p.eat(',')) p.fail("','");
    s = int(true);
    if (!p.eat('>')) p.fail("'>'");
  }
  const sw = makeSwizzle(b, m, s);
  // `o` is a token like any other (docs/protocol.md, "Notation": any white space between tokens, none included), so
  // `Sw<3,3,3>o32o(8,64):(64,1)` reads as its spaced form; nothing else after a swizzle begins with 'o'
  const composeSign = (): void => {
    p.skipSpace();
    if (text[p.pos] !== 'o') p.fail("'o'");
    p.pos++;
  };
  composeSign();
  p.skipSpace();
  if (/^(smem_|gmem_|rmem_)?ptr/.test(text.slice(p.pos))) {
    throw new LayoutError(
      'parse',
      `${what}: a swizzle on a pointer (CuTe's '${text.slice(p.pos).split(/[\s(]/)[0]}') is not accepted at offset ${p.pos}; write Sw<B,M,S> o L`,
    );
  }
  // an offset K: an integer followed by ` o ` (a layout's first integer is followed by ':')
  let offset = 0;
  const save = p.pos;
  if (/^_?\d/.test(text.slice(p.pos))) {
    const k = int(false);
    p.skipSpace();
    if (text[p.pos] === 'o') {
      composeSign();
      offset = k;
    } else p.pos = save;
  }
  // the inner layout, parsed in place (offsets in its messages are those of the whole text);
  // CuTe's `_N` integers read as N
  const rest = text.slice(p.pos).replace(/_(?=\d)/g, ' ');
  if (looksComposed(rest)) p.fail('a layout (one swizzle per composed layout)');
  const inner = parseLayout(' '.repeat(p.pos) + rest, what, unbounded);
  return makeComposed(sw, offset, inner, !unbounded);
}

// ---------------------------------------------------------------------------------------------
// Φ, cosize and the operations on the inner layout (docs/semantics.md §9.1)

/** Φ(x) = Sw(K + Φ_L(x)) exactly for any size (a number while exact, else a BigInt);
 *  x outside [0, size(L)) is `domain`. Example: Φ of Sw<3,3,3> o (8,64):(64,1) at 9 is 73. */
export function phiLayoutFunctionBig(l: LayoutFunction, x: number): number | bigint {
  if (!isComposed(l)) return phiBig(l, x);
  const y = applySwizzleBig(l.swizzle, BigInt(l.offset) + BigInt(phiBig(l.inner, x)));
  return y <= BigInt(MAX_EXACT) ? Number(y) : y;
}

/** Φ at a nested coordinate: Sw(K + Φ_L(c)) (coordToOffset for a plain layout). */
export function coordToOffsetLayoutFunction(l: LayoutFunction, c: Tuple): number {
  if (!isComposed(l)) return coordToOffset(l, c);
  return applySwizzle(l.swizzle, l.offset + coordToOffset(l.inner, c));
}

/** The most index combinations cosize enumerates before it answers `overflow`. */
export const MAX_COSIZE_ENUMERATION = 1 << 24;

/**
 * cosize = 1 + max_x Φ(x), exact (docs/semantics.md §9.1; CuTe C++ returns cosize(L) instead): the definition
 * (cosizeComposedByDefinition) after two named accelerators, each tested against it
 * (test/cute/composed-accelerators.test.ts): cosizeWithinBlock, then cosizeBySplit. More than
 * MAX_COSIZE_ENUMERATION combinations left to enumerate is `overflow`.
 * Example: cosize(Sw<3,3,3> o 8 o (8,64):(64,1)) = 520.
 */
export function cosizeLayoutFunction(l: LayoutFunction): bigint {
  if (!isComposed(l)) return cosizeBig(l);
  return cosizeWithinBlock(l) ?? cosizeBySplit(l);
}

/** The largest offset K + Φ_L(x) reached and the swizzle as it acts on the offsets reached (all ≤ it): the bits
 *  it reads above them are 0 (swizzleWithin). */
function reached(c: ComposedLayout): { ymax: bigint; sw: Swizzle } {
  const ymax = K_BOUND(c.offset, c.inner);
  return { ymax, sw: swizzleWithin(c.swizzle, ymax === 0n ? 0 : ymax.toString(2).length) };
}

/**
 * The definition: 1 + the largest Φ(x) = Sw(K + Φ_L(x)) over every x < size(L), each evaluated. More than
 * MAX_COSIZE_ENUMERATION points is `overflow`. Example: cosizeComposedByDefinition(Sw<1,0,1> o 4:1) = 4.
 */
export function cosizeComposedByDefinition(c: ComposedLayout): bigint {
  const n = sizeBig(c.inner);
  if (n > BigInt(MAX_COSIZE_ENUMERATION)) {
    throw new LayoutError('overflow', `cosize of ${formatLayoutFunction(c)}: more than 2^24 points to evaluate`);
  }
  let best = 0n;
  for (let x = 0; x < Number(n); x++) {
    if ((x & 0xffff) === 0xffff) checkDeadline('cosize');
    const y = BigInt(phiLayoutFunctionBig(c, x));
    if (y > best) best = y;
  }
  return best + 1n;
}

/**
 * Accelerator: where the swizzle reads no bit of the offsets reached, or maps every aligned block of P =
 * 2^topBit(Sw) onto itself and the offsets reached are the interval [K, ymax] (L compact) holding the whole block
 * of ymax, the largest value is ymax: cosize = K + cosize(L). Else null (undecided).
 */
export function cosizeWithinBlock(c: ComposedLayout): bigint | null {
  const { ymax, sw } = reached(c);
  if (sw.bits === 0) return ymax + 1n;
  const P = 2n ** BigInt(topBit(sw));
  if ((ymax + 1n) % P === 0n && ymax + 1n - P >= BigInt(c.offset) && compactInner(c.inner)) return ymax + 1n;
  return null;
}

/**
 * Accelerator: with P = 2^topBit(Sw), Sw(a + c·P) = Sw(a) + c·P, so every entry s:d splits into a part that moves
 * bits below P (enumerated) and a part whose stride is a multiple of P (its largest value simply adds): an entry
 * with m·d ≡ 0 (mod P), m | s, becomes (m:d, s/m : m·d). More than MAX_COSIZE_ENUMERATION combinations left to
 * enumerate is `overflow`.
 */
export function cosizeBySplit(c: ComposedLayout): bigint {
  const { ymax, sw } = reached(c);
  if (sw.bits === 0) return ymax + 1n;
  const P = 2n ** BigInt(topBit(sw));
  const { shapes, strides } = flat(c.inner);
  const ms: number[] = [];
  const md: number[] = [];
  let high = 0n; // Σ of the largest values of the parts with stride ≡ 0 (mod P)
  let count = 1;
  for (let i = 0; i < shapes.length; i++) {
    const s = shapes[i]!;
    const d = BigInt(strides[i]!);
    if (s === 1 || d === 0n) continue;
    const m = P / gcdBig(d, P); // the least m with m·d ≡ 0 (mod P)
    if (m === 1n) {
      high += BigInt(s - 1) * d;
    } else if (m < BigInt(s) && BigInt(s) % m === 0n) {
      const mm = Number(m);
      ms.push(mm);
      md.push(strides[i]!);
      high += BigInt(s / mm - 1) * m * d;
      count *= mm;
    } else {
      ms.push(s);
      md.push(strides[i]!);
      count *= s;
    }
    if (count > MAX_COSIZE_ENUMERATION) {
      throw new LayoutError('overflow', `cosize of ${formatLayoutFunction(c)}: more than 2^24 offsets below the swizzle's bits to enumerate`);
    }
  }
  // enumerate K + Σ x_i·d_i over the parts that reach below P (an odometer)
  let best = -1n;
  const x = new Array<number>(ms.length).fill(0);
  const bigSum = K_BOUND(c.offset, makeLayoutUnbounded(ms, md)) > BigInt(MAX_EXACT);
  let v = c.offset;
  let vb = BigInt(c.offset);
  for (let steps = 1; ; steps++) {
    if ((steps & 0xffff) === 0) checkDeadline('cosize');
    const y = bigSum ? applySwizzleBig(sw, vb) : BigInt(applySwizzle(sw, v));
    if (y > best) best = y;
    let i = 0;
    for (; i < ms.length; i++) {
      if (++x[i]! < ms[i]!) {
        if (bigSum) vb += BigInt(md[i]!);
        else v += md[i]!;
        break;
      }
      if (bigSum) vb -= BigInt(md[i]!) * BigInt(ms[i]! - 1);
      else v -= md[i]! * (ms[i]! - 1);
      x[i] = 0;
    }
    if (i === ms.length) break;
  }
  return best + high + 1n;
}

/** whether Φ_L is a bijection onto [0, size(L)) (false where the check cannot be made exactly) */
function compactInner(inner: Layout): boolean {
  try {
    return isCompact(inner);
  } catch {
    return false;
  }
}

function gcdBig(a: bigint, b: bigint): bigint {
  while (b !== 0n) [a, b] = [b, a % b];
  return a;
}

/** The same outer function (Sw, K) around another inner layout: CuTe's rule that the algebra
 *  on Sw o K o L acts on L (docs/semantics.md §9.1). A plain layout maps to f(l). */
export function mapInner(l: LayoutFunction, f: (inner: Layout) => Layout): LayoutFunction {
  return isComposed(l) ? { ...l, inner: f(l.inner) } : f(l);
}

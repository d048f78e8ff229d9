/**
 * Triton's encodings as linear layouts (docs/linear.md, "Encodings"): `llFromEncoding(attr,
 * shape)` is Triton 3.8.0's `toLinearLayout(shape, attr)` for `#ttg.blocked`, `slice`,
 * `nvidia_mma` (v2, v3), `dot_op` (parents nvidia_mma, blocked, amd_mfma), `amd_mfma`,
 * `swizzled_shared`, `nvmma_shared`, `linear` and `shared_linear`, with the CTA layout fitted to
 * the shape and the CGA layout (`combineCtaCgaWithShape`).
 *
 * Register encodings have in-dims register, lane, warp, block; shared ones offset, block; the
 * out-dims are dim0 … dim(r−1) with sizes = shape. Errors: `parse` for an unknown name or key, a
 * missing key or broken syntax; `domain` for a parameter Triton's verifier refuses (or on which
 * Triton aborts) and for a shape that is not r powers of two; `bad-request` is the op's (JSON types).
 */
import { LayoutError } from '../algebra/errors.js';
import { integerTexts, intText, withIntTexts } from '../algebra/int-text.js';
import { isAttr, parseAttr, type Attr, type AttrValue } from './attr.js';
import { parseLL } from './forms.js';
import { isSurjective } from './operations.js';
import { log2, makeLinearLayout, MAX_DIM_LOG2, type InDim, type LinearLayout } from './value.js';

const domain = (msg: string): LayoutError => new LayoutError('domain', msg);
const parseError = (msg: string): LayoutError => new LayoutError('parse', msg);

const isPow2 = (n: number): boolean => Number.isSafeInteger(n) && n >= 1 && n <= 2 ** MAX_DIM_LOG2 && (n & (n - 1)) === 0;
/** llvm `NextPowerOf2`: the smallest power of two strictly greater than v (1 for 0). */
const nextPowerOf2 = (v: number): number => 2 ** (32 - Math.clz32(v));
const dimName = (d: number): string => `dim${d}`;
const standardNames = (r: number): string[] => Array.from({ length: r }, (_, d) => dimName(d));

// ---------------------------------------------------------------------------------------------
// Reading the parameters of an attribute

/** The keys an encoding reads: required ones, then optional ones. */
interface Keys {
  readonly required: readonly string[];
  readonly optional: readonly string[];
}

/** Checks the keys of `a` (an unknown key, a missing one or extra parameters after the dictionary: `parse`). */
function checkKeys(a: Attr, keys: Keys): void {
  const what = `#ttg.${a.name}`;
  for (const k of a.params.keys()) {
    if (!keys.required.includes(k) && !keys.optional.includes(k)) throw parseError(`${what}: unknown key '${k}'`);
  }
  for (const k of keys.required) if (!a.params.has(k)) throw parseError(`${what}: missing key '${k}'`);
  if (a.extra.size > 0) throw parseError(`${what}: unexpected '${[...a.extra.keys()][0]}' after the dictionary`);
}

function intParam(a: Attr, key: string): number {
  const v = a.params.get(key);
  if (typeof v !== 'number') throw parseError(`#ttg.${a.name}: '${key}' must be an integer`);
  if (!Number.isSafeInteger(v)) throw domain(`#ttg.${a.name}: ${key} is out of range (beyond 2^53-1)`);
  return v;
}

function boolParam(a: Attr, key: string, dflt: boolean): boolean {
  const v = a.params.get(key);
  if (v === undefined) return dflt;
  if (typeof v !== 'boolean') throw parseError(`#ttg.${a.name}: '${key}' must be true or false`);
  return v;
}

function intsOf(a: Attr, key: string, v: AttrValue | undefined): number[] {
  if (!Array.isArray(v) || !(v as readonly AttrValue[]).every((x) => typeof x === 'number')) {
    throw parseError(`#ttg.${a.name}: '${key}' must be a list of integers`);
  }
  const xs = v as number[];
  for (const x of xs) if (!Number.isSafeInteger(x)) throw domain(`#ttg.${a.name}: ${key} has an entry out of range (beyond 2^53-1)`);
  return xs;
}

const intsParam = (a: Attr, key: string): number[] => intsOf(a, key, a.params.get(key));

/** A list of powers of two of length r. */
function pow2List(a: Attr, key: string, r: number): number[] {
  const xs = intsParam(a, key);
  if (xs.length !== r) throw domain(`#ttg.${a.name}: ${key} has ${xs.length} entries for rank ${r}`);
  for (const x of xs) if (!isPow2(x)) throw domain(`#ttg.${a.name}: ${key} = [${xs.join(', ')}] has ${x}, not a power of two`);
  return xs;
}

/** `order`: a permutation of 0 … r−1. */
function orderParam(a: Attr, key: string, r: number): number[] {
  const xs = intsParam(a, key);
  const seen = new Set(xs);
  if (xs.length !== r || seen.size !== r || xs.some((x) => x < 0 || x >= r)) {
    throw domain(`#ttg.${a.name}: ${key} = [${xs.join(', ')}] is not a permutation of 0..${r - 1}`);
  }
  return xs;
}

/** The CGALayout vectors (one per block bit, r entries each), or null when absent. */
function cgaParam(a: Attr, r: number): number[][] | null {
  const v = a.params.get('CGALayout');
  if (v === undefined) return null;
  if (!Array.isArray(v)) throw parseError(`#ttg.${a.name}: 'CGALayout' must be a list of lists of integers`);
  return (v as readonly AttrValue[]).map((b) => {
    const xs = intsOf(a, 'CGALayout', b);
    if (xs.length !== r) throw domain(`#ttg.${a.name}: a CGALayout vector has ${xs.length} entries for rank ${r}`);
    for (const x of xs) if (x < 0 || x >= 2 ** MAX_DIM_LOG2) throw domain(`#ttg.${a.name}: CGALayout has ${x}, out of range`);
    return xs;
  });
}

// ---------------------------------------------------------------------------------------------
// Layout helpers (Triton's LinearLayout methods and LayoutUtils)

/**
 * A layout under construction, multiplied in place by Triton's `identity1D` and `zeros1D`
 * (Triton `operator*` with a one-dim layout: a new in-dim or out-dim goes last, as `supremum`
 * puts it; the new bases of `inDim` move `outDim` by multiples of its size so far).
 */
class Draft {
  readonly ins: { name: string; bases: number[][] }[] = [];
  readonly outs: { name: string; size: number }[] = [];

  /** A draft that takes over the arrays of a fresh layout (no copy). */
  static wrap(l: LinearLayout): Draft {
    const d = new Draft();
    d.ins.push(...(l.inDims as { name: string; bases: number[][] }[]));
    d.outs.push(...(l.outDims as { name: string; size: number }[]));
    return d;
  }

  static of(l: LinearLayout): Draft {
    const d = new Draft();
    for (const x of l.inDims) d.ins.push({ name: x.name, bases: x.bases.map((b) => [...b]) });
    for (const o of l.outDims) d.outs.push({ name: o.name, size: o.size });
    return d;
  }

  private out(name: string): number {
    let j = this.outs.findIndex((o) => o.name === name);
    if (j < 0) {
      j = this.outs.length;
      this.outs.push({ name, size: 1 });
      for (const d of this.ins) for (const b of d.bases) b.push(0);
    }
    return j;
  }

  private in(name: string): number[][] {
    let d = this.ins.find((x) => x.name === name);
    if (d === undefined) {
      d = { name, bases: [] };
      this.ins.push(d);
    }
    return d.bases;
  }

  /** this × identity1D(size, inDim, outDim) */
  id(size: number, inDim: string, outDim: string): this {
    const j = this.out(outDim);
    const bases = this.in(inDim);
    const o = this.outs[j]!;
    for (let v = 1; v < size; v *= 2) {
      const b = new Array<number>(this.outs.length).fill(0);
      b[j] = v * o.size;
      bases.push(b);
    }
    o.size *= size;
    return this;
  }

  /** this × zeros1D(size, inDim, outDim): broadcast bits */
  zeros(size: number, inDim: string, outDim: string): this {
    this.out(outDim);
    const bases = this.in(inDim);
    for (let v = 1; v < size; v *= 2) bases.push(new Array<number>(this.outs.length).fill(0));
    return this;
  }

  /** this × identityStandardND(inDim, sizes, order): identity1D(sizes[d], inDim, dim d) for d in order */
  idND(inDim: string, sizes: readonly number[], order: readonly number[]): this {
    for (const d of order) this.id(sizes[d]!, inDim, dimName(d));
    return this;
  }

  /** this × broadcastedDotOperandLayout: idND with zeros along kDim */
  broadcastND(inDim: string, sizes: readonly number[], order: readonly number[], kDim: number): this {
    for (const d of order) {
      if (d === kDim) this.zeros(sizes[d]!, inDim, dimName(d));
      else this.id(sizes[d]!, inDim, dimName(d));
    }
    return this;
  }

  /** Triton `transposeOuts` */
  transpose(names: readonly string[]): this {
    if (names.every((n, j) => this.outs[j]?.name === n)) return this;
    const idx = names.map((n) => this.outs.findIndex((o) => o.name === n));
    const outs = idx.map((j) => this.outs[j]!);
    this.outs.splice(0, this.outs.length, ...outs);
    for (const d of this.ins) for (let i = 0; i < d.bases.length; i++) d.bases[i] = idx.map((j) => d.bases[i]![j]!);
    return this;
  }

  layout(): LinearLayout {
    return { inDims: this.ins, outDims: this.outs };
  }
}

/** Sizes inferred from the bases (Triton's `LinearLayout(bases, outDimNames)`), which must be surjective
 *  (checked unless `surjective` says the construction guarantees it). */
function inferred(inDims: readonly InDim[], names: readonly string[], what: string, surjective = false): LinearLayout {
  const sizes = names.map(() => 1);
  for (const d of inDims) for (const b of d.bases) for (let j = 0; j < b.length; j++) sizes[j] = Math.max(sizes[j]!, nextPowerOf2(b[j]!));
  // valid by construction: every value is below its inferred size (the values were checked where they were read)
  const l: LinearLayout = { inDims, outDims: names.map((name, j) => ({ name, size: sizes[j]! })) };
  if (!surjective && !spansByUnits(l) && !isSurjective(l)) throw domain(`${what}: the layout is not surjective (Triton asserts here)`);
  return l;
}

/** A quick sufficient test of surjectivity: every out-dim's bits are images of bases that move
 *  that dim alone by a power of two (what the encodings build), so no elimination is needed. */
function spansByUnits(l: LinearLayout): boolean {
  const k = l.outDims.length;
  const seen = new Array<number>(k).fill(0);
  for (const d of l.inDims) {
    for (const b of d.bases) {
      let at = -1;
      for (let j = 0; j < k; j++) {
        if (b[j] === 0) continue;
        if (at >= 0) {
          at = -2;
          break;
        }
        at = j;
      }
      if (at >= 0 && (b[at]! & (b[at]! - 1)) === 0) seen[at] = seen[at]! | b[at]!;
    }
  }
  return l.outDims.every((o, j) => seen[j] === o.size - 1);
}

const sizeOf = (l: LinearLayout, name: string): number => l.outDims.find((o) => o.name === name)?.size ?? 1;

/** LayoutUtils `ensureLayoutNotSmallerThan`: each out-dim (in the draft's order) below its size
 *  grows by identity bits of `inDim`. */
function growTo(l: Draft, shape: ReadonlyMap<string, number>, inDim: string): Draft {
  for (const o of [...l.outs]) {
    const want = shape.get(o.name)!;
    if (o.size < want) l.id(want / o.size, inDim, o.name);
  }
  return l;
}

/**
 * LayoutUtils `ensureLayoutNotLargerThan`: each out-dim above its size loses its largest basis
 * values, one per halving (zeroed; register bases removed when `removeRegisters`); the sizes are
 * then inferred (surjective, else `domain`).
 */
function shrinkTo(l: LinearLayout, shape: ReadonlyMap<string, number>, removeRegisters: boolean, what: string): LinearLayout {
  if (l.outDims.every((o) => o.size <= shape.get(o.name)!)) return l;
  const bases = l.inDims.map((d) => d.bases.map((b) => [...b]));
  const removed = new Set<number>();
  let changed = false;
  l.outDims.forEach((o, j) => {
    let size = o.size;
    const want = shape.get(o.name)!;
    if (size <= want) return;
    changed = true;
    const sorted: [number, number, number][] = [];
    bases.forEach((bs, k) => bs.forEach((b, i) => b[j] !== 0 && sorted.push([k, i, b[j]!])));
    sorted.sort((x, y) => y[2] - x[2]);
    for (const [k, i] of sorted) {
      if (size <= want) break;
      if (removeRegisters && l.inDims[k]!.name === 'register') removed.add(i);
      else bases[k]![i]![j] = 0;
      size /= 2;
    }
  });
  if (!changed) return l;
  const inDims = l.inDims.map((d, k) => ({
    name: d.name,
    bases: d.name === 'register' && removeRegisters ? bases[k]!.filter((_, i) => !removed.has(i)) : bases[k]!,
  }));
  return inferred(
    inDims,
    l.outDims.map((o) => o.name),
    what,
  );
}

/**
 * `combineCtaCgaWithShape` (docs/linear.md, "Fitting to the shape"): G (block → dims, the CGA
 * vectors) shrunk to the shape; the per-CTA shape s_d = max(1, shape_d / size_d(G)); the CTA
 * layout grown by `inDim` bits and shrunk to s; then C × G with out-dims dim0, dim1, ….
 */
function fit(cta: Draft, cga: number[][] | null, shape: readonly number[], inDim: string, what: string): LinearLayout {
  const names = standardNames(shape.length);
  const full = new Map(names.map((n, d) => [n, shape[d]!]));
  const g = cga === null ? null : shrinkTo(cgaLayout(cga, shape.length, what), full, false, what);
  const perCta = g === null ? full : new Map(names.map((n, d) => [n, Math.max(1, shape[d]! / sizeOf(g, n))]));
  const c = Draft.wrap(shrinkTo(growTo(cta, perCta, inDim).layout(), perCta, false, what));
  if (g !== null) {
    // C × G: the block bases scaled by C's sizes, the sizes multiplied
    const at = c.outs.map((o) => g.outDims.findIndex((x) => x.name === o.name));
    const block = g.inDims[0]!.bases.map((b) => at.map((j, k) => b[j]! * c.outs[k]!.size));
    c.outs.forEach((o, k) => (o.size *= g.outDims[at[k]!]!.size));
    c.ins.push({ name: 'block', bases: block });
  } else c.ins.push({ name: 'block', bases: [] });
  // the values are in range by construction; only the in-dims can pass the limits
  for (const d of c.ins) {
    if (d.bases.length > MAX_DIM_LOG2) {
      throw new LayoutError('overflow', `${what}: in-dim '${d.name}' has 2^${d.bases.length} elements, beyond 2^${MAX_DIM_LOG2}`);
    }
  }
  if (c.ins.reduce((a, d) => a + d.bases.length, 0) > 64) throw new LayoutError('overflow', `${what}: more than 64 in-bits`);
  return c.transpose(names).layout();
}

/** The CGA layout G: block → dims with the given vectors (sizes inferred); none: block of size 1. */
function cgaLayout(cga: number[][] | null, r: number, what: string): LinearLayout {
  const names = standardNames(r);
  if (cga === null)
    return makeLinearLayout(
      [{ name: 'block', bases: [] }],
      names.map((name) => ({ name, size: 1 })),
    );
  if (cga.length > MAX_DIM_LOG2) throw domain(`${what}: CGALayout has ${cga.length} vectors, beyond 2^${MAX_DIM_LOG2} blocks`);
  const seen = new Set<string>();
  for (const v of cga) {
    const nz = v.filter((x) => x !== 0);
    if (nz.length === 0) continue;
    const key = v.join(',');
    if (nz.length > 1 || !isPow2(nz[0]!) || seen.has(key)) {
      throw domain(`${what}: CGALayout vector [${v.join(', ')}] is not a unit vector distinct from the others (Triton's verifier)`);
    }
    seen.add(key);
  }
  return inferred([{ name: 'block', bases: cga }], names, `${what} CGALayout`);
}

/** The per-CTA shape of a shared encoding: shape_d / size_d(G) after G is shrunk to the shape. */
function perCtaShape(cga: number[][] | null, shape: readonly number[], what: string): number[] {
  if (cga === null) return [...shape];
  const names = standardNames(shape.length);
  const g = shrinkTo(cgaLayout(cga, shape.length, what), new Map(names.map((n, d) => [n, shape[d]!])), false, what);
  return shape.map((s, d) => Math.max(1, s / sizeOf(g, names[d]!)));
}

// ---------------------------------------------------------------------------------------------
// The encodings

type Kind = 'register' | 'shared';
interface Built {
  readonly kind: Kind;
  readonly layout: LinearLayout;
}

/** The rank of an encoding, read from its parameters (for checking the shape and for slice). */
function rankOf(a: Attr): number {
  switch (a.name) {
    case 'blocked':
      return intsParamLoose(a, 'order');
    case 'slice': {
      const p = a.params.get('parent');
      if (!isAttr(p)) throw parseError("#ttg.slice: 'parent' must be an attribute");
      return rankOf(p) - 1;
    }
    case 'nvidia_mma':
    case 'amd_mfma':
      return intsParamLoose(a, 'warpsPerCTA');
    case 'dot_op': {
      const p = a.params.get('parent');
      if (!isAttr(p)) throw parseError("#ttg.dot_op: 'parent' must be an attribute");
      return rankOf(p);
    }
    case 'swizzled_shared':
      return intsParamLoose(a, 'order');
    case 'nvmma_shared': {
      // `rank` when printed, else the CGALayout vectors' length, else 2 (Triton's default)
      const rank = a.params.get('rank');
      if (typeof rank === 'number') return rank;
      const cga = a.params.get('CGALayout');
      if (Array.isArray(cga) && cga.length > 0 && Array.isArray(cga[0])) return (cga[0] as readonly AttrValue[]).length;
      return 2;
    }
    default:
      return -1;
  }
}

const intsParamLoose = (a: Attr, key: string): number => {
  const v = a.params.get(key);
  return Array.isArray(v) ? v.length : -1;
};

/** #ttg.blocked: id(register, sizePerThread) × id(lane, threadsPerWarp) × id(warp, warpsPerCTA), all over `order`. */
function blocked(a: Attr, shape: readonly number[]): LinearLayout {
  checkKeys(a, { required: ['sizePerThread', 'threadsPerWarp', 'warpsPerCTA', 'order'], optional: ['CGALayout'] });
  const r = shape.length;
  const order = orderParam(a, 'order', r);
  const spt = pow2List(a, 'sizePerThread', r);
  const tpw = pow2List(a, 'threadsPerWarp', r);
  const wpc = pow2List(a, 'warpsPerCTA', r);
  const cta = new Draft().idND('register', spt, order).idND('lane', tpw, order).idND('warp', wpc, order);
  return fit(cta, cgaParam(a, r), shape, 'register', '#ttg.blocked');
}

/** #ttg.slice: the parent's LL over the shape with a 1 at `dim`, out-dim `dim` dropped, zero register bases removed. */
function slice(a: Attr, shape: readonly number[]): LinearLayout {
  checkKeys(a, { required: ['dim', 'parent'], optional: [] });
  const parent = a.params.get('parent');
  if (!isAttr(parent)) throw parseError("#ttg.slice: 'parent' must be an attribute");
  const k = intParam(a, 'dim');
  if (k < 0 || k > shape.length) throw domain(`#ttg.slice: dim = ${intText(k)} is not a dim of the parent (rank ${shape.length + 1})`);
  const parentShape = [...shape.slice(0, k), 1, ...shape.slice(k)];
  const p = build(parent, parentShape);
  if (p.kind !== 'register') throw domain(`#ttg.slice: the parent #ttg.${parent.name} is not a distributed (register) encoding`);
  const l = p.layout;
  const inDims = l.inDims.map((d) => {
    const bases = d.bases.map((b) => b.filter((_, j) => j !== k));
    return { name: d.name, bases: d.name === 'register' ? bases.filter((b) => b.some((v) => v !== 0)) : bases };
  });
  return inferred(inDims, standardNames(shape.length), '#ttg.slice');
}

/** Triton's `nvidiaMmaTile`: kWidth registers, 4 lanes on the inner dim, 8 lanes on the outer,
 *  registers up to m on the outer dim, then up to n on the inner dim. */
function mmaTile(tileShape: readonly number[], kWidth: number, order: readonly number[], repOrder: readonly number[], what: string): Draft {
  const inner = order[0]!;
  const outer = order[1]!;
  const m = tileShape[outer]!;
  const n = tileShape[inner]!;
  if (m % 8 !== 0 || !isPow2(m / 8) || n % (kWidth * 4) !== 0 || !isPow2(n / (kWidth * 4))) {
    throw domain(`${what}: the tile ${m} x ${n} does not split into kWidth = ${kWidth} registers, 4 x 8 lanes and whole repeats`);
  }
  return new Draft()
    .idND(
      'register',
      repOrder.map(() => 1),
      repOrder,
    )
    .id(kWidth, 'register', dimName(inner))
    .id(4, 'lane', dimName(inner))
    .id(8, 'lane', dimName(outer))
    .id(m / 8, 'register', dimName(outer))
    .id(n / (kWidth * 4), 'register', dimName(inner));
}

/** getMatrixOrder(rank, rowMajor): [r−1, r−2, …, 0], the first two swapped when column-major. */
function matrixOrder(r: number, rowMajor: boolean): number[] {
  const o = Array.from({ length: r }, (_, i) => r - 1 - i);
  if (!rowMajor && r >= 2) [o[0], o[1]] = [o[1]!, o[0]!];
  return o;
}

/** getOrderForDotOperand(opIdx, rank, kContig = true): the K dim first, then the other of the last two, then the rest. */
function dotOrder(opIdx: number, r: number): number[] {
  return opIdx === 0 ? matrixOrder(r, true) : matrixOrder(r, false);
}

interface Mma {
  readonly version: number;
  readonly warps: number[];
  readonly instr: number[];
  readonly cga: number[][] | null;
}

function mmaParams(a: Attr, r: number): Mma {
  checkKeys(a, { required: ['versionMajor', 'versionMinor', 'warpsPerCTA', 'instrShape'], optional: ['CGALayout'] });
  const version = intParam(a, 'versionMajor');
  const minor = intParam(a, 'versionMinor');
  if (version !== 2 && version !== 3) throw domain(`#ttg.nvidia_mma: versionMajor = ${intText(version)} (2 or 3 are covered)`);
  if (minor < 0) throw domain(`#ttg.nvidia_mma: versionMinor = ${intText(minor)} is negative`);
  const warps = pow2List(a, 'warpsPerCTA', r);
  // Triton's verifier does not read instrShape; the accumulator layout does (nvidiaMma), the operands do not
  const instr = intsParam(a, 'instrShape');
  return { version, warps, instr, cga: cgaParam(a, r) };
}

/** #ttg.nvidia_mma: the accumulator tile (kWidth 2) and the warps (v2: inner dim first; v3: outer first). */
function nvidiaMma(a: Attr, shape: readonly number[]): LinearLayout {
  const r = shape.length;
  const mma = mmaParams(a, r);
  // v2: the tile is instrShape (one entry per dim); v3 (rank 2 only): its M and N (Triton asserts otherwise)
  if (mma.version === 2 && mma.instr.length !== r) {
    throw domain(`#ttg.nvidia_mma v2: instrShape = [${mma.instr.join(', ')}] needs ${r} entries, one per dim (Triton asserts)`);
  }
  if (mma.version === 3 && (r !== 2 || mma.instr.length < 2)) {
    throw domain(`#ttg.nvidia_mma v3: rank ${r} with instrShape = [${mma.instr.join(', ')}]: rank 2 and [M, N, …] (Triton asserts)`);
  }
  const tileShape = mma.version === 2 ? mma.instr : [mma.instr[0]!, mma.instr[1]!];
  const order = matrixOrder(r, true);
  const tile = mmaTile(tileShape, 2, order, order, '#ttg.nvidia_mma');
  return fit(tile.idND('warp', mma.warps, matrixOrder(r, mma.version === 2)), mma.cga, shape, 'register', '#ttg.nvidia_mma');
}

/** #ttg.dot_op: the operand layouts of nvidia_mma (v2, v3 opIdx 0), blocked (FMA) and amd_mfma parents. */
function dotOp(a: Attr, shape: readonly number[]): LinearLayout {
  checkKeys(a, { required: ['opIdx', 'parent'], optional: ['kWidth'] });
  const parent = a.params.get('parent');
  if (!isAttr(parent) || parent.dialect !== 'ttg') throw parseError("#ttg.dot_op: 'parent' must be a #ttg attribute");
  const opIdx = intParam(a, 'opIdx');
  if (opIdx !== 0 && opIdx !== 1) throw domain(`#ttg.dot_op: opIdx = ${opIdx} (0 or 1)`);
  const kWidth = a.params.has('kWidth') ? intParam(a, 'kWidth') : 0;
  const r = shape.length;
  if (r < 2) throw domain(`#ttg.dot_op: an operand has rank at least 2 (got ${intText(r)})`);
  const kDim = opIdx === 0 ? r - 1 : r - 2;
  if (parent.name === 'blocked') {
    if (kWidth !== 0) throw domain(`#ttg.dot_op: kWidth = ${kWidth}, but a blocked parent takes kWidth 0`);
    return fmaDot(parent, shape, kDim);
  }
  if (!isPow2(kWidth)) throw domain(`#ttg.dot_op: kWidth = ${kWidth} must be a power of two for a #ttg.${parent.name} parent`);
  if (parent.name === 'amd_mfma') return mfmaDot(parent, shape, opIdx, kWidth);
  if (parent.name !== 'nvidia_mma') {
    // an encoding of another kind is one Triton's verifier refuses as a parent; an unknown one does not parse
    if (BUILDERS[parent.name] !== undefined) throw domain(`#ttg.dot_op: the parent must be nvidia_mma, blocked or amd_mfma, not #ttg.${parent.name}`);
    throw parseError(`#ttg.dot_op: parent #ttg.${parent.name} is not a covered encoding (nvidia_mma, blocked, amd_mfma)`);
  }
  const mma = mmaParams(parent, r);
  if (mma.version === 3 && opIdx !== 0) throw domain('#ttg.dot_op: a v3 (Hopper) parent takes operand B from shared memory; only opIdx 0');
  const tileShape = shape.map(() => 1);
  tileShape[r - 2] = opIdx === 0 ? 16 : kWidth * 8;
  tileShape[r - 1] = opIdx === 0 ? kWidth * 8 : 8;
  const order = dotOrder(opIdx, r);
  const tile = mmaTile(tileShape, kWidth, order, order, '#ttg.dot_op');
  return fit(tile.broadcastND('warp', mma.warps, matrixOrder(r, mma.version === 2), kDim), operandCga(mma.cga, kDim), shape, 'register', '#ttg.dot_op');
}

/** A dot operand's CGA layout: the parent's with the K entries zeroed (the CTAs along K hold the same data). */
const operandCga = (cga: number[][] | null, kDim: number): number[][] | null => cga?.map((v) => v.map((x, d) => (d === kDim ? 0 : x))) ?? null;

/** The FMA operand of a blocked parent: K held whole per thread, lanes and warps broadcast along K. */
function fmaDot(b: Attr, shape: readonly number[], kDim: number): LinearLayout {
  checkKeys(b, { required: ['sizePerThread', 'threadsPerWarp', 'warpsPerCTA', 'order'], optional: ['CGALayout'] });
  const r = shape.length;
  const order = orderParam(b, 'order', r);
  const spt = pow2List(b, 'sizePerThread', r);
  const tpw = pow2List(b, 'threadsPerWarp', r);
  const wpc = pow2List(b, 'warpsPerCTA', r);
  const threadSize = spt.map((s, d) => (d === kDim ? shape[d]! : s));
  const cta = new Draft().idND('register', threadSize, order).broadcastND('lane', tpw, order, kDim).broadcastND('warp', wpc, order, kDim);
  return fit(cta, operandCga(cgaParam(b, r), kDim), shape, 'register', '#ttg.dot_op');
}

interface Mfma {
  readonly warps: number[];
  readonly mDim: number;
  readonly nDim: number;
  readonly transposed: boolean;
  readonly tilesPerWarp: number[];
  readonly height: number;
  readonly cga: number[][] | null;
}

function mfmaParams(a: Attr, r: number): Mfma {
  checkKeys(a, { required: ['version', 'warpsPerCTA', 'instrShape', 'isTransposed'], optional: ['tilesPerWarp', 'elementBitWidth', 'CGALayout'] });
  if (r !== 2 && r !== 3) throw domain(`#ttg.amd_mfma: rank ${r} (2 or 3)`);
  const version = intParam(a, 'version');
  if (version < 0 || version > 4) throw domain(`#ttg.amd_mfma: version = ${intText(version)} (0 to 4, Triton's verifier)`);
  const warps = pow2List(a, 'warpsPerCTA', r);
  const instr = intsParam(a, 'instrShape');
  const [mDim, nDim] = instr;
  if (instr.length < 2 || instr.length > 3 || !['32,32', '16,16', '64,4', '4,64'].includes(`${mDim},${nDim}`)) {
    throw domain(`#ttg.amd_mfma: instrShape = [${instr.join(', ')}]: (M, N) must be (32, 32), (16, 16), (64, 4) or (4, 64) (Triton's verifier)`);
  }
  const tilesPerWarp = a.params.has('tilesPerWarp') ? pow2List(a, 'tilesPerWarp', r) : warps.map(() => 1);
  const bits = a.params.has('elementBitWidth') ? intParam(a, 'elementBitWidth') : 32;
  if (bits !== 32 && bits !== 64) throw domain(`#ttg.amd_mfma: elementBitWidth = ${intText(bits)} (32 or 64, Triton's verifier)`);
  return { warps, mDim: mDim!, nDim: nDim!, transposed: boolParam(a, 'isTransposed', false), tilesPerWarp, height: bits === 64 ? 1 : 4, cga: cgaParam(a, r) };
}

/** #ttg.amd_mfma (64 lanes): Triton's `AMDMfmaEncodingAttr::toLinearLayout`. */
function amdMfma(a: Attr, shape: readonly number[]): LinearLayout {
  const r = shape.length;
  const p = mfmaParams(a, r);
  if (p.mDim === 64 && p.nDim === 4 && !p.transposed) throw domain('#ttg.amd_mfma: a 64x4 instruction must be transposed (Triton asserts here)');
  const batch = r === 3;
  const mIndex = batch ? 1 : 0;
  const nIndex = mIndex + 1;
  const order = matrixOrder(r, true);
  const dimM = dimName(order[1]!);
  const dimN = dimName(order[0]!);
  const tiles = (p.mDim * p.nDim) / (64 * p.height);
  // registers (height) on M, lanes on N then M; repeats on M (roles swapped when transposed)
  const [rows, cols] = p.transposed ? [dimN, dimM] : [dimM, dimN];
  const tile = new Draft()
    .id(p.height, 'register', rows)
    .id(p.transposed ? p.mDim : p.nDim, 'lane', cols)
    .id(64 / (p.transposed ? p.mDim : p.nDim), 'lane', rows);
  if (tiles > 0) tile.id(tiles, 'register', rows);
  tile.transpose([dimN, dimM]);
  const tilesN = p.tilesPerWarp[nIndex]!;
  const warpsN = p.warps[nIndex]!;
  tile.id(tilesN, 'register', dimN).id(warpsN, 'warp', dimN);
  // Triton's identity1D(0) is the empty layout: no repeats when N is below one CTA tile
  const repeats = Math.floor(shape[nIndex]! / (p.nDim * warpsN * tilesN));
  if (repeats > 0) tile.id(repeats, 'register', dimN);
  tile.id(p.tilesPerWarp[mIndex]!, 'register', dimM).id(p.warps[mIndex]!, 'warp', dimM);
  if (batch) tile.id(1, 'register', dimName(order[2]!)).id(1, 'lane', dimName(order[2]!)).id(p.warps[0]!, 'warp', dimName(order[2]!));
  return fit(tile, p.cga, shape, 'register', '#ttg.amd_mfma');
}

/** The mfma operand (Triton's `mfmaDotToLinearLayout`): kWidth registers on K, lanes on the
 *  non-K dim then K, registers repeating along K and over tilesPerWarp; warps as the parent's. */
function mfmaDot(parent: Attr, shape: readonly number[], opIdx: number, kWidth: number): LinearLayout {
  const r = shape.length;
  const p = mfmaParams(parent, r);
  const nonKIndex = opIdx === 0 ? r - 2 : r - 1;
  const kIndex = opIdx === 0 ? r - 1 : r - 2;
  const nonKDim = opIdx === 0 ? p.mDim : p.nDim;
  const order = dotOrder(opIdx, r);
  const dimK = dimName(order[0]!);
  const dimNonK = dimName(order[1]!);
  const tile = new Draft()
    .id(kWidth, 'register', dimK)
    .id(nonKDim, 'lane', dimNonK)
    .id(64 / nonKDim, 'lane', dimK);
  let kTile = (64 / nonKDim) * kWidth;
  // the 64x4 and 4x64 instructions: the 64-wide operand repeats the tile 16 times along K
  if ((p.mDim === 64 && p.nDim === 4 && opIdx === 0) || (p.mDim === 4 && p.nDim === 64 && opIdx === 1)) {
    tile.id(16, 'register', dimK);
    kTile *= 16;
  }
  const kSize = shape[kIndex]!;
  if (kSize > kTile) tile.id(kSize / kTile, 'register', dimK);
  tile.id(p.tilesPerWarp[nonKIndex]!, 'register', dimNonK).transpose([dimK, dimNonK]);
  if (r === 3) tile.id(1, 'register', dimName(order[2]!)).id(1, 'lane', dimName(order[2]!));
  return fit(tile.idND('warp', p.warps, matrixOrder(r, true)), p.cga, shape, 'register', '#ttg.dot_op');
}

/** #ttg.swizzled_shared: column bits, then the swizzled row bits, then the other dims by order, over the per-CTA shape. */
function swizzledShared(a: Attr, shape: readonly number[]): LinearLayout {
  checkKeys(a, { required: ['vec', 'perPhase', 'maxPhase', 'order'], optional: ['CGALayout'] });
  const r = shape.length;
  const order = orderParam(a, 'order', r);
  const vec = intParam(a, 'vec');
  const perPhase = intParam(a, 'perPhase');
  const maxPhase = intParam(a, 'maxPhase');
  // vec may be 0 (no swizzle); perPhase or maxPhase 0 divide by zero in Triton
  for (const [k, v, lo] of [
    ['vec', vec, 0],
    ['perPhase', perPhase, 1],
    ['maxPhase', maxPhase, 1],
  ] as const) {
    if (v < lo || v > 2 ** MAX_DIM_LOG2) throw domain(`#ttg.swizzled_shared: ${k} = ${intText(v)} must be an integer from ${lo} up`);
  }
  const cga = cgaParam(a, r);
  const s = perCtaShape(cga, shape, '#ttg.swizzled_shared');
  if (r === 1) return fit(new Draft().id(s[0]!, 'offset', 'dim0'), cga, shape, 'offset', '#ttg.swizzled_shared');
  const col = order[0]!;
  const row = order[1]!;
  const numCols = s[col]!;
  const bases: number[][] = [];
  for (let c = 1; c < numCols; c *= 2) bases.push([0, c]);
  for (let w = 1; w < s[row]!; w *= 2) bases.push([w, (vec * (Math.floor(w / perPhase) % maxPhase)) % numCols]);
  const cta = Draft.wrap(inferred([{ name: 'offset', bases }], [dimName(row), dimName(col)], '#ttg.swizzled_shared', true));
  for (const d of order.slice(2)) cta.id(s[d]!, 'offset', dimName(d));
  return fit(cta, cga, shape, 'offset', '#ttg.swizzled_shared');
}

const NVMMA_PHASES: Record<number, [number, number]> = { 32: [4, 2], 64: [2, 4], 128: [1, 8] };

/** LayoutUtils `reshapeLayout`: the out-dims flattened row-major (the last dim fastest) and split
 *  again row-major into `sizes` (dim0, dim1, …); all sizes powers of two, the same product. */
function reshapeOuts(l: LinearLayout, sizes: readonly number[]): Draft {
  // exact beyond 2^53 (the block may hold up to 64 bits): the flat index as a BigInt
  const from = l.outDims.map((o) => BigInt(o.size));
  const flat = (b: readonly number[]): bigint => b.reduce((acc, v, j) => acc * from[j]! + BigInt(v), 0n);
  const split = (v: bigint): number[] => {
    const out = new Array<number>(sizes.length).fill(0);
    for (let j = sizes.length - 1; j >= 0; j--) {
      out[j] = Number(v % BigInt(sizes[j]!));
      v /= BigInt(sizes[j]!);
    }
    return out;
  };
  const d = new Draft();
  for (const x of l.inDims) d.ins.push({ name: x.name, bases: x.bases.map((b) => split(flat(b))) });
  sizes.forEach((size, j) => d.outs.push({ name: dimName(j), size }));
  return d;
}

/** Grows the draft to `sizes` by `offset` bits, dim by dim in `order` (LayoutUtils `ensureLayoutNotSmallerThan`). */
function growInOrder(d: Draft, sizes: readonly number[], order: readonly number[] = sizes.map((_, j) => j)): Draft {
  for (const j of order) {
    const have = d.outs.find((o) => o.name === dimName(j))?.size ?? 1;
    if (have < sizes[j]!) d.id(sizes[j]! / have, 'offset', dimName(j));
  }
  return d;
}

/**
 * #ttg.nvmma_shared (Triton's `nvmmaSharedToLinearLayout`), over the per-CTA shape s: the TMA block
 * (each dim at most 256; the contiguous dim, the last or with `transposed` the first, one swizzle
 * row of 8·W/b elements); W = 0: the identity over the block, last dim first; else the dims but the
 * last collapsed into rows (swapped with the columns when transposed), one swizzle atom (8 rows,
 * the row bits xor-ed into the columns) grown to that 2-D block, reshaped row-major to the block
 * (transposed: to it rotated by one, then the last dim moved first); then grown to s, dim0 first.
 */
function nvmmaShared(a: Attr, shape: readonly number[]): LinearLayout {
  checkKeys(a, { required: ['swizzlingByteWidth', 'transposed', 'elementBitWidth'], optional: ['fp4Padded', 'rank', 'CGALayout'] });
  const what = '#ttg.nvmma_shared';
  const r = shape.length;
  const w = intParam(a, 'swizzlingByteWidth');
  const b = intParam(a, 'elementBitWidth');
  const transposed = boolParam(a, 'transposed', false);
  const fp4 = boolParam(a, 'fp4Padded', false);
  if (![0, 32, 64, 128].includes(w)) throw domain(`${what}: swizzlingByteWidth = ${intText(w)} (0, 32, 64 or 128)`);
  if (![8, 16, 32, 64].includes(b)) throw domain(`${what}: elementBitWidth = ${intText(b)} (8, 16, 32 or 64)`);
  if (fp4 && (w !== 128 || b !== 8)) throw domain(`${what}: fp4Padded needs swizzlingByteWidth = 128 and elementBitWidth = 8`);
  if (a.params.has('rank') && intParam(a, 'rank') !== r) throw domain(`${what}: rank = ${intParam(a, 'rank')} but the shape has rank ${r}`);
  const cga = cgaParam(a, r);
  const s = perCtaShape(cga, shape, what);
  // getTMABlockShape(s, b, w, fp4, transposed, packedSize = true)
  const contig = transposed ? 0 : r - 1;
  const tma = s.map((x, d) => Math.min(d === contig && fp4 ? 2 * x : x, 256));
  if (w !== 0) {
    const atom = (8 * w) / b;
    if (tma[contig]! < atom) {
      throw domain(`${what}: a ${w}-byte swizzle of ${b}-bit elements needs a block of at least ${atom} elements along dim ${contig} (Triton aborts)`);
    }
    tma[contig] = atom;
  }
  if (fp4) tma[contig] = tma[contig]! / 2;
  if (w === 0) {
    // The identity over the block, the last dim first, out-dims in the order dim r−1, …, dim0 (the order in which
    // they are grown). Transposed: Triton builds it over the block rotated by one and moves the entries by
    // position, so rotated dim 0 lands on dim r−1 and rotated dim q ≥ 1 on dim q−1 (right for rank 2; for
    // rank 3 some dims get another dim's size, then broadcast or grow when fitted).
    const rotated = transposed ? [...tma.slice(1), tma[0]!] : tma;
    const target = (q: number): number => (!transposed ? q : q === 0 ? r - 1 : q - 1);
    const d = new Draft();
    for (let j = r - 1; j >= 0; j--) d.id(1, 'offset', dimName(j));
    for (let q = r - 1; q >= 0; q--) d.id(rotated[q]!, 'offset', dimName(target(q)));
    return fit(d, cga, shape, 'offset', what);
  }
  if (r < 2) throw domain(`${what}: a ${w}-byte swizzle needs rank at least 2 (Triton asserts)`);
  const lead = tma.slice(0, r - 1).reduce((x, y) => x * y, 1);
  const collapsed = transposed ? [tma[r - 1]!, lead] : [lead, tma[r - 1]!];
  // getCoreMatrixLinearLayout: 8 rows x 8·W/b columns (fp4Padded: each column c read as c/16·8 + c mod 8)
  const [perPhase, maxPhase] = NVMMA_PHASES[w]!;
  const vec = 128 / b;
  const packed = (c: number): number => (fp4 ? Math.floor(c / 16) * 8 + (c % 8) : c);
  const bases: number[][] = [];
  for (let c = 1; c < (8 * w) / b; c *= 2) bases.push([0, packed(c)]);
  for (let row = 1; row < 8; row *= 2) bases.push([row, packed(vec * (Math.floor(row / perPhase) % maxPhase))]);
  const tile = Draft.wrap(inferred([{ name: 'offset', bases }], standardNames(2), what, true));
  const tileCols = tile.outs[1]!.size;
  if (collapsed[1]! * (fp4 ? 2 : 1) < tileCols || collapsed[0]! < 8) {
    throw domain(`${what}: the per-CTA block collapses to ${collapsed[0]} x ${collapsed[1]}, below one ${8} x ${tileCols} swizzle atom (Triton aborts)`);
  }
  const grown = growInOrder(tile, collapsed).layout();
  const target = transposed ? [...tma.slice(1), tma[0]!] : tma;
  let nd = reshapeOuts(grown, target);
  if (transposed) nd = Draft.wrap(moveLastFirst(nd.layout()));
  return fit(growInOrder(nd, s), cga, shape, 'offset', what);
}

/** LayoutUtils `transposeLinearLayout` with order [r−1, 0, 1, …, r−2]: the last out-dim becomes dim0. */
function moveLastFirst(l: LinearLayout): LinearLayout {
  const r = l.outDims.length;
  const perm = [r - 1, ...Array.from({ length: r - 1 }, (_, j) => j)];
  return {
    inDims: l.inDims.map((d) => ({ name: d.name, bases: d.bases.map((b) => perm.map((j) => b[j]!)) })),
    outDims: perm.map((j, k) => ({ name: dimName(k), size: l.outDims[j]!.size })),
  };
}

/** Text of an attribute value (to hand a nested `#ttg.linear` to the forms reader). */
function valueText(v: AttrValue): string {
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (isAttr(v)) {
    const entries = (m: ReadonlyMap<string, AttrValue>): string => [...m].map(([k, x]) => `${k} = ${valueText(x)}`).join(', ');
    return `#${v.dialect}.${v.name}<{${entries(v.params)}}${v.extra.size > 0 ? `, ${entries(v.extra)}` : ''}>`;
  }
  return `[${(v as readonly AttrValue[]).map(valueText).join(', ')}]`;
}

/** #ttg.linear: its own LL, verified (distinct unit vectors) and fitted to the shape. */
function linear(a: Attr, shape: readonly number[]): LinearLayout {
  const l = parseLL(valueText(a));
  const seen = new Set<string>();
  for (const d of l.inDims) {
    d.bases.forEach((b, i) => {
      const nz = b.filter((v) => v !== 0);
      if (nz.length === 0) return;
      if (nz.length > 1 || !isPow2(nz[0]!)) throw domain(`#ttg.linear: basis ${d.name}=${2 ** i} is (${b.join(', ')}), not a unit vector (Triton's verifier)`);
      const key = b.join(',');
      if (seen.has(key)) throw domain(`#ttg.linear: the basis (${b.join(', ')}) appears twice (Triton's verifier wants distinct unit vectors)`);
      seen.add(key);
    });
  }
  if (l.outDims.length !== shape.length) throw domain(`#ttg.linear: rank ${l.outDims.length} but the shape has rank ${shape.length}`);
  // Triton's getRepOrder (= getOrder): the dims in the order the register bases first move them, then the rest
  // from the last dim down
  const reach: string[] = [];
  for (const b of l.inDims.find((d) => d.name === 'register')?.bases ?? []) {
    const j = b.findIndex((v) => v !== 0);
    if (j >= 0 && !reach.includes(dimName(j))) reach.push(dimName(j));
  }
  for (const n of standardNames(shape.length).reverse()) if (!reach.includes(n)) reach.push(n);
  const want = new Map(standardNames(shape.length).map((n, d) => [n, shape[d]!]));
  const grown = growTo(Draft.of(l).transpose(reach), want, 'register').layout();
  return Draft.of(shrinkTo(grown, want, true, '#ttg.linear'))
    .transpose(standardNames(shape.length))
    .layout();
}

/** #ttg.shared_linear: its own LL; the shape must be its sizes. */
function sharedLinear(a: Attr, shape: readonly number[]): LinearLayout {
  const l = parseLL(valueText(a));
  const sizes = l.outDims.map((o) => o.size);
  if (sizes.length !== shape.length || sizes.some((s, d) => s !== shape[d])) {
    throw domain(`#ttg.shared_linear: its sizes [${sizes.join(', ')}] are not the shape [${shape.join(', ')}]`);
  }
  return l;
}

const BUILDERS: Record<string, [Kind, (a: Attr, shape: readonly number[]) => LinearLayout]> = {
  blocked: ['register', blocked],
  slice: ['register', slice],
  nvidia_mma: ['register', nvidiaMma],
  dot_op: ['register', dotOp],
  amd_mfma: ['register', amdMfma],
  swizzled_shared: ['shared', swizzledShared],
  nvmma_shared: ['shared', nvmmaShared],
  linear: ['register', linear],
  shared_linear: ['shared', sharedLinear],
};

function build(a: Attr, shape: readonly number[]): Built {
  const entry = a.dialect === 'ttg' ? BUILDERS[a.name] : undefined;
  if (entry === undefined) {
    throw parseError(
      `#${a.dialect}.${a.name} is not a covered encoding ` +
        '(#ttg.blocked, slice, nvidia_mma, dot_op, amd_mfma, swizzled_shared, nvmma_shared, linear, shared_linear)',
    );
  }
  const r = rankOf(a);
  if (r >= 0 && r !== shape.length) throw domain(`#ttg.${a.name} has rank ${r} but the shape [${shape.join(', ')}] has ${shape.length} dims`);
  return { kind: entry[0], layout: entry[1](a, shape) };
}

/** Checks a shape: r ≥ 1 powers of two (each ≤ 2^30), else `domain`. */
export function checkShape(shape: readonly number[]): void {
  if (shape.length === 0) throw domain('the shape must have at least one dim');
  let bits = 0;
  shape.forEach((s, d) => {
    if (!isPow2(s)) throw domain(`shape entry ${d} is ${intText(s)}, not a power of two (at most 2^${MAX_DIM_LOG2})`);
    bits += log2(s);
  });
  if (bits > 64) throw domain(`the shape has ${bits} bits, beyond 64`);
}

/**
 * ll_from_encoding (docs/linear.md, "Encodings"): Triton 3.8.0's `toLinearLayout(shape, attr)`
 * for an encoding attribute as Triton prints it (aliases resolved, a parent written in place).
 * Errors: `parse` (unknown name or key, missing key, broken syntax), `domain` (a parameter
 * Triton's verifier refuses or on which Triton aborts, a shape that is not r powers of two).
 * @example llFromEncoding('#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [1, 1], instrShape = [16, 8]}>', [16, 8])
 */
export function llFromEncoding(attr: string, shape: readonly number[]): LinearLayout {
  // the attribute's integers beyond 2^53 − 1 are quoted as written in its messages (intText)
  return withIntTexts(integerTexts(attr), () => {
    const a = parseAttr(attr, 'encoding');
    checkShape(shape);
    return build(a, shape).layout;
  });
}

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
import { boolParam, cgaParam, checkKeys, intParam, intsParam, isPow2, orderParam, pow2List } from './encoding-params.js';
import { parseLL } from './forms.js';
import {
  broadcastedDotOperandLayout,
  dimName,
  ensureLayoutNotLargerThan,
  ensureLayoutNotSmallerThan,
  identityStandardND,
  inferredSurjective,
  moveLastOutFirst,
  outSizeOf,
  productOf,
  reshapeLayout,
  standardNames,
  transposeOuts,
} from './layout-utils.js';
import { identity1D, log2, MAX_DIM_LOG2, productUnchecked, totalInBits, type LinearLayout } from './value.js';

const domain = (msg: string): LayoutError => new LayoutError('domain', msg);
const parseError = (msg: string): LayoutError => new LayoutError('parse', msg);

// ---------------------------------------------------------------------------------------------
// The fit to the shape (Triton's `combineCtaCgaWithShape`)

/**
 * `combineCtaCgaWithShape` (docs/linear.md, "Fitting to the shape"): G (block → dims, the CGA
 * vectors) shrunk to the shape; the per-CTA shape s_d = max(1, shape_d / size_d(G)); the CTA
 * layout grown by `inDim` bits and shrunk to s; then C × G with out-dims dim0, dim1, ….
 */
function fit(cta: LinearLayout, cga: number[][] | null, shape: readonly number[], inDim: string, what: string): LinearLayout {
  const names = standardNames(shape.length);
  const full = new Map(names.map((n, d) => [n, shape[d]!]));
  const g = cga === null ? null : ensureLayoutNotLargerThan(cgaLayout(cga, shape.length, what), full, false, what);
  const perCta = g === null ? full : new Map(names.map((n, d) => [n, Math.max(1, shape[d]! / outSizeOf(g, n))]));
  const c = ensureLayoutNotLargerThan(ensureLayoutNotSmallerThan(cta, perCta, inDim), perCta, false, what);
  // C × G (no CGALayout: one block), the block bases scaled by C's sizes, the sizes multiplied
  const cg = productUnchecked(c, g ?? { inDims: [{ name: 'block', bases: [] }], outDims: [] });
  // the values are in range by construction; only the in-dims can pass the limits
  for (const d of cg.inDims) {
    if (d.bases.length > MAX_DIM_LOG2) {
      throw new LayoutError('overflow', `${what}: in-dim '${d.name}' has 2^${d.bases.length} elements, beyond 2^${MAX_DIM_LOG2}`);
    }
  }
  if (totalInBits(cg) > 64) throw new LayoutError('overflow', `${what}: more than 64 in-bits`);
  return transposeOuts(cg, names);
}

/** The CGA layout G: block → dims with the given vectors (sizes inferred). */
function cgaLayout(cga: number[][], r: number, what: string): LinearLayout {
  const names = standardNames(r);
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
  return inferredSurjective([{ name: 'block', bases: cga }], names, `${what} CGALayout`);
}

/** The per-CTA shape of a shared encoding: shape_d / size_d(G) after G is shrunk to the shape. */
function perCtaShape(cga: number[][] | null, shape: readonly number[], what: string): number[] {
  if (cga === null) return [...shape];
  const names = standardNames(shape.length);
  const g = ensureLayoutNotLargerThan(cgaLayout(cga, shape.length, what), new Map(names.map((n, d) => [n, shape[d]!])), false, what);
  return shape.map((s, d) => Math.max(1, s / outSizeOf(g, names[d]!)));
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
  const cta = productOf([identityStandardND('register', spt, order), identityStandardND('lane', tpw, order), identityStandardND('warp', wpc, order)]);
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
  return inferredSurjective(inDims, standardNames(shape.length), '#ttg.slice');
}

/** Triton's `nvidiaMmaTile`: kWidth registers, 4 lanes on the inner dim, 8 lanes on the outer,
 *  registers up to m on the outer dim, then up to n on the inner dim. */
function mmaTile(tileShape: readonly number[], kWidth: number, order: readonly number[], repOrder: readonly number[], what: string): LinearLayout {
  const inner = order[0]!;
  const outer = order[1]!;
  const m = tileShape[outer]!;
  const n = tileShape[inner]!;
  if (m % 8 !== 0 || !isPow2(m / 8) || n % (kWidth * 4) !== 0 || !isPow2(n / (kWidth * 4))) {
    throw domain(`${what}: the tile ${m} x ${n} does not split into kWidth = ${kWidth} registers, 4 x 8 lanes and whole repeats`);
  }
  return productOf([
    identityStandardND(
      'register',
      repOrder.map(() => 1),
      repOrder,
    ),
    identity1D(kWidth, 'register', dimName(inner)),
    identity1D(4, 'lane', dimName(inner)),
    identity1D(8, 'lane', dimName(outer)),
    identity1D(m / 8, 'register', dimName(outer)),
    identity1D(n / (kWidth * 4), 'register', dimName(inner)),
  ]);
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
  return fit(productUnchecked(tile, identityStandardND('warp', mma.warps, matrixOrder(r, mma.version === 2))), mma.cga, shape, 'register', '#ttg.nvidia_mma');
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
  const warps = broadcastedDotOperandLayout('warp', mma.warps, matrixOrder(r, mma.version === 2), kDim);
  return fit(productUnchecked(tile, warps), operandCga(mma.cga, kDim), shape, 'register', '#ttg.dot_op');
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
  const cta = productOf([
    identityStandardND('register', threadSize, order),
    broadcastedDotOperandLayout('lane', tpw, order, kDim),
    broadcastedDotOperandLayout('warp', wpc, order, kDim),
  ]);
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
  const tile = [
    identity1D(p.height, 'register', rows),
    identity1D(p.transposed ? p.mDim : p.nDim, 'lane', cols),
    identity1D(64 / (p.transposed ? p.mDim : p.nDim), 'lane', rows),
  ];
  if (tiles > 0) tile.push(identity1D(tiles, 'register', rows));
  const tilesN = p.tilesPerWarp[nIndex]!;
  const warpsN = p.warps[nIndex]!;
  const cta = [transposeOuts(productOf(tile), [dimN, dimM]), identity1D(tilesN, 'register', dimN), identity1D(warpsN, 'warp', dimN)];
  // Triton's identity1D(0) is the empty layout: no repeats when N is below one CTA tile
  const repeats = Math.floor(shape[nIndex]! / (p.nDim * warpsN * tilesN));
  if (repeats > 0) cta.push(identity1D(repeats, 'register', dimN));
  cta.push(identity1D(p.tilesPerWarp[mIndex]!, 'register', dimM), identity1D(p.warps[mIndex]!, 'warp', dimM));
  if (batch) {
    const dimB = dimName(order[2]!);
    cta.push(identity1D(1, 'register', dimB), identity1D(1, 'lane', dimB), identity1D(p.warps[0]!, 'warp', dimB));
  }
  return fit(productOf(cta), p.cga, shape, 'register', '#ttg.amd_mfma');
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
  const tile = [identity1D(kWidth, 'register', dimK), identity1D(nonKDim, 'lane', dimNonK), identity1D(64 / nonKDim, 'lane', dimK)];
  let kTile = (64 / nonKDim) * kWidth;
  // the 64x4 and 4x64 instructions: the 64-wide operand repeats the tile 16 times along K
  if ((p.mDim === 64 && p.nDim === 4 && opIdx === 0) || (p.mDim === 4 && p.nDim === 64 && opIdx === 1)) {
    tile.push(identity1D(16, 'register', dimK));
    kTile *= 16;
  }
  const kSize = shape[kIndex]!;
  if (kSize > kTile) tile.push(identity1D(kSize / kTile, 'register', dimK));
  tile.push(identity1D(p.tilesPerWarp[nonKIndex]!, 'register', dimNonK));
  const cta = [transposeOuts(productOf(tile), [dimK, dimNonK])];
  if (r === 3) cta.push(identity1D(1, 'register', dimName(order[2]!)), identity1D(1, 'lane', dimName(order[2]!)));
  cta.push(identityStandardND('warp', p.warps, matrixOrder(r, true)));
  return fit(productOf(cta), p.cga, shape, 'register', '#ttg.dot_op');
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
  if (r === 1) return fit(identity1D(s[0]!, 'offset', 'dim0'), cga, shape, 'offset', '#ttg.swizzled_shared');
  const col = order[0]!;
  const row = order[1]!;
  const numCols = s[col]!;
  const bases: number[][] = [];
  for (let c = 1; c < numCols; c *= 2) bases.push([0, c]);
  for (let w = 1; w < s[row]!; w *= 2) bases.push([w, (vec * (Math.floor(w / perPhase) % maxPhase)) % numCols]);
  const cta = inferredSurjective([{ name: 'offset', bases }], [dimName(row), dimName(col)], '#ttg.swizzled_shared');
  return fit(productOf([cta, ...order.slice(2).map((d) => identity1D(s[d]!, 'offset', dimName(d)))]), cga, shape, 'offset', '#ttg.swizzled_shared');
}

const NVMMA_PHASES: Record<number, [number, number]> = { 32: [4, 2], 64: [2, 4], 128: [1, 8] };

/** Grows L to `sizes` by `offset` bits, dim by dim in `order` (LayoutUtils `ensureLayoutNotSmallerThan`). */
const growInOrder = (l: LinearLayout, sizes: readonly number[], order: readonly number[] = sizes.map((_, j) => j)): LinearLayout =>
  ensureLayoutNotSmallerThan(l, new Map(sizes.map((x, j) => [dimName(j), x])), 'offset', order.map(dimName));

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
    const dims = Array.from({ length: r }, (_, k) => r - 1 - k);
    const d = productOf([...dims.map((j) => identity1D(1, 'offset', dimName(j))), ...dims.map((q) => identity1D(rotated[q]!, 'offset', dimName(target(q))))]);
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
  const tile = inferredSurjective([{ name: 'offset', bases }], standardNames(2), what);
  const tileCols = tile.outDims[1]!.size;
  if (collapsed[1]! * (fp4 ? 2 : 1) < tileCols || collapsed[0]! < 8) {
    throw domain(`${what}: the per-CTA block collapses to ${collapsed[0]} x ${collapsed[1]}, below one ${8} x ${tileCols} swizzle atom (Triton aborts)`);
  }
  const target = transposed ? [...tma.slice(1), tma[0]!] : tma;
  const nd = reshapeLayout(growInOrder(tile, collapsed), target);
  return fit(growInOrder(transposed ? moveLastOutFirst(nd) : nd, s), cga, shape, 'offset', what);
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
  const grown = ensureLayoutNotSmallerThan(transposeOuts(l, reach), want, 'register');
  return transposeOuts(ensureLayoutNotLargerThan(grown, want, true, '#ttg.linear'), standardNames(shape.length));
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

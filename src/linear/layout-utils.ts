/**
 * Triton's layout helpers (`lib/Tools/LayoutUtils.cpp` and the `LinearLayout` constructors the
 * encodings build from; docs/linear.md, "Encodings"): products of identities over an order, the
 * broadcast of a dot operand, out-dims transposed or reshaped, and a layout grown to a shape or
 * shrunk to it. Pure functions over the value (value.ts); the products are `productUnchecked`,
 * since a CTA tile may pass the limits before it is fitted to the shape.
 */
import { LayoutError } from '../algebra/errors.js';
import { isSurjective } from './operations.js';
import { dimNamed, emptyLayout, identity1D, log2, productUnchecked, withInferredSizes, type InDim, type LinearLayout } from './value.js';

/** Triton `standardOutDimNames`: dim0, dim1, …. */
export const dimName = (d: number): string => `dim${d}`;
export const standardNames = (r: number): string[] => Array.from({ length: r }, (_, d) => dimName(d));

/** The size of L's out-dim `name` (1 when L has none: the unit of the product). */
export const outSizeOf = (l: LinearLayout, name: string): number => dimNamed(l.outDims, name)?.size ?? 1;

/** Triton `f1 * f2 * …` (operator*, a new in-dim or out-dim last, as `supremum` puts it), from the empty layout. */
export const productOf = (factors: readonly LinearLayout[]): LinearLayout => factors.reduce(productUnchecked, emptyLayout);

/**
 * LayoutUtils `identityStandardND(inDim, sizes, order)`: identity1D(sizes[d], inDim, dim d) for
 * d = order[0], order[1], … multiplied, written at once: one in-dim whose bits walk dim order[0]
 * first, then order[1], …; out-dims in that order. `kDim` (Triton's `broadcastedDotOperandLayout`):
 * that dim's factor is zeros1D instead (broadcast bits, the out-dim of size 1).
 */
export function identityStandardND(inDim: string, sizes: readonly number[], order: readonly number[], kDim = -1): LinearLayout {
  const r = order.length;
  const bases: number[][] = [];
  for (let p = 0; p < r; p++) {
    const d = order[p]!;
    for (let i = 0, k = log2(sizes[d]!); i < k; i++) {
      const b = new Array<number>(r).fill(0);
      if (d !== kDim) b[p] = 2 ** i;
      bases.push(b);
    }
  }
  return { inDims: [{ name: inDim, bases }], outDims: order.map((d) => ({ name: dimName(d), size: d === kDim ? 1 : sizes[d]! })) };
}

/** Triton's `broadcastedDotOperandLayout`: identityStandardND with zeros1D (broadcast bits) along `kDim`. */
export const broadcastedDotOperandLayout = (inDim: string, sizes: readonly number[], order: readonly number[], kDim: number): LinearLayout =>
  identityStandardND(inDim, sizes, order, kDim);

/** Triton `transposeOuts`: the out-dims in the order `names` (each an out-dim of L), every basis permuted likewise. */
export function transposeOuts(l: LinearLayout, names: readonly string[]): LinearLayout {
  if (names.every((n, j) => l.outDims[j]?.name === n)) return l;
  const idx = names.map((n) => l.outDims.findIndex((o) => o.name === n));
  return permuteOuts(l, idx);
}

/** The out-dims taken at positions `idx` (out-dim k of the result is L's idx[k]), every basis likewise. */
function permuteOuts(l: LinearLayout, idx: readonly number[]): LinearLayout {
  return {
    inDims: l.inDims.map((d) => ({ name: d.name, bases: d.bases.map((b) => idx.map((j) => b[j]!)) })),
    outDims: idx.map((j) => l.outDims[j]!),
  };
}

/** LayoutUtils `transposeLinearLayout` with order [r−1, 0, 1, …, r−2]: the last out-dim becomes dim0, the others follow. */
export function moveLastOutFirst(l: LinearLayout): LinearLayout {
  const r = l.outDims.length;
  const moved = permuteOuts(l, [r - 1, ...Array.from({ length: r - 1 }, (_, j) => j)]);
  return { inDims: moved.inDims, outDims: moved.outDims.map((o, k) => ({ name: dimName(k), size: o.size })) };
}

/**
 * The layout of `inDims` onto `names` with inferred sizes (`withInferredSizes`), which Triton
 * asserts is surjective: else `domain`, naming `what`.
 */
export function inferredSurjective(inDims: readonly InDim[], names: readonly string[], what: string): LinearLayout {
  const l = withInferredSizes(inDims, names);
  if (!isSurjective(l)) throw new LayoutError('domain', `${what}: the layout is not surjective (Triton asserts here)`);
  return l;
}

/**
 * LayoutUtils `ensureLayoutNotSmallerThan`: each out-dim named in `order` (default: L's, in its
 * order) whose size is below `shape`'s grows by identity bits of `inDim` (L × identity1D); an
 * out-dim L lacks counts size 1 and is added.
 */
export function ensureLayoutNotSmallerThan(
  l: LinearLayout,
  shape: ReadonlyMap<string, number>,
  inDim: string,
  order: readonly string[] = l.outDims.map((o) => o.name),
): LinearLayout {
  let grown = l;
  for (const name of order) {
    const have = outSizeOf(grown, name);
    const want = shape.get(name)!;
    if (have < want) grown = productUnchecked(grown, identity1D(want / have, inDim, name));
  }
  return grown;
}

/**
 * LayoutUtils `ensureLayoutNotLargerThan`: each out-dim above its size in `shape` loses its
 * largest basis values, one per halving (zeroed; register bases removed when `removeRegisters`);
 * the sizes are then inferred (surjective, else `domain`).
 */
export function ensureLayoutNotLargerThan(l: LinearLayout, shape: ReadonlyMap<string, number>, removeRegisters: boolean, what: string): LinearLayout {
  if (l.outDims.every((o) => o.size <= shape.get(o.name)!)) return l;
  const bases = l.inDims.map((d) => d.bases.map((b) => [...b]));
  const removed = new Set<number>();
  l.outDims.forEach((o, j) => {
    let size = o.size;
    const want = shape.get(o.name)!;
    if (size <= want) return;
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
  const inDims = l.inDims.map((d, k) => ({
    name: d.name,
    bases: d.name === 'register' && removeRegisters ? bases[k]!.filter((_, i) => !removed.has(i)) : bases[k]!,
  }));
  return inferredSurjective(
    inDims,
    l.outDims.map((o) => o.name),
    what,
  );
}

/**
 * LayoutUtils `reshapeLayout`: the out-dims flattened row-major (the last dim fastest) and split
 * again row-major into `sizes` (out-dims dim0, dim1, …); all sizes powers of two, the same product.
 */
export function reshapeLayout(l: LinearLayout, sizes: readonly number[]): LinearLayout {
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
  return {
    inDims: l.inDims.map((x) => ({ name: x.name, bases: x.bases.map((b) => split(flat(b))) })),
    outDims: sizes.map((size, j) => ({ name: dimName(j), size })),
  };
}

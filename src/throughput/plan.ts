/**
 * What a benchmark runs on: the layout as given, or — when it is larger than the caps of the
 * run (indices, bytes per buffer) — a sub-layout of it: the same modes and strides with some
 * shapes cut down to a prefix of their coordinates (a box of the domain), so the access
 * pattern of the innermost modes is kept. The cut goes greedily to the entry that spans most
 * of the offsets ((s − 1)·d largest), halving its shape, until the footprint fits.
 *
 * With `--tile B` the layout benchmarked is A ⊘ B (flat), whose first entries form one tile;
 * those are never cut, only the number of tiles is.
 *
 * Pure: no device, no I/O.
 */
import { LayoutError } from '../algebra/errors.js';
import { flat, mode, type Layout } from '../algebra/layout.js';
import { formatLayout } from '../algebra/notation.js';
import { logicalDivide } from '../algebra/divide.js';
import { makeFlat } from '../algebra/layout.js';
import { composedPrefix, cosizeLayoutFunction, formatLayoutFunction, innerLayout, isComposed, makeComposed, type LayoutFunction } from '../cute/composed.js';
import { applySwizzle, type Swizzle } from '../cute/swizzle.js';
import { swizzleBound } from '../engine/prep.js';

/** The outer function of a composed layout Sw o K o L (docs/semantics.md §9.1): Φ(x) = Sw(K + Φ_L(x)). */
export interface Outer {
  readonly swizzle: Swizzle;
  readonly offset: number;
}

/** 1 + the largest offset of Sw o K o L (cosizeLayoutFunction), or the bound reachOf where that
 *  is too long to enumerate: what the buffers of a composed layout hold. */
function composedCosize(outer: Outer, inner: Layout): number {
  try {
    return Number(cosizeLayoutFunction(makeComposed(outer.swizzle, outer.offset, inner, false)));
  } catch (e) {
    if (!(e instanceof LayoutError)) throw e;
    return reachOf(cosizeOf(flat(inner).shapes, flat(inner).strides), outer);
  }
}

/** the outer function of a layout function, or undefined for a plain layout */
const outerOf = (l: LayoutFunction): Outer | undefined => (isComposed(l) ? { swizzle: l.swizzle, offset: l.offset } : undefined);

/** One past the largest offset that Φ can reach, from the inner cosize: cosize for a plain
 *  layout, the bound of Sw over [0, K + cosize − 1] for a composed one (prep.ts swizzleBound). */
export const reachOf = (cosize: number, outer?: Outer): number => (outer ? swizzleBound(outer.swizzle, outer.offset + cosize - 1) : cosize);

export interface Caps {
  /** at most this many indices */
  maxIndices: number;
  /** at most this many bytes in any one buffer */
  maxBufferBytes: number;
}

export interface SubLayout {
  /** the layout asked for, as printed */
  text: string;
  /** the flat layout benchmarked (equal to the asked one's function when `capped` is false) */
  shapes: number[];
  strides: number[];
  /** size and cosize of the benchmarked layout */
  size: number;
  cosize: number;
  capped: boolean;
  /** the benchmarked layout, printed */
  benched: string;
  /** the outer function Sw o K of a composed layout (absent: plain); `cosize` is then one past
   *  the largest offset Φ can reach (reachOf) */
  outer?: Outer;
}

export const sizeOf = (shapes: readonly number[]): number => shapes.reduce((a, b) => a * b, 1);
export const cosizeOf = (shapes: readonly number[], strides: readonly number[]): number => shapes.reduce((acc, s, i) => acc + (s - 1) * strides[i]!, 0) + 1;

/**
 * Cut `shapes` (all but the first `keep` entries) until size ≤ maxIndices and
 * max(size, cosize)·elemBytes ≤ maxBufferBytes.
 */
export function cutToCaps(
  text: string,
  shapes0: readonly number[],
  strides: readonly number[],
  elemBytes: number,
  caps: Caps,
  keep = 0,
  outer?: Outer,
): SubLayout {
  const shapes = [...shapes0];
  const fits = (): boolean => {
    const n = sizeOf(shapes);
    const co = reachOf(cosizeOf(shapes, strides), outer);
    return n <= caps.maxIndices && Math.ceil((Math.max(n, co) * elemBytes) / 16) * 16 <= caps.maxBufferBytes && co <= 2 ** 32 && n <= 2 ** 32;
  };
  let capped = false;
  while (!fits()) {
    let best = -1;
    let bestKey = -1;
    let bestS = 0;
    for (let i = keep; i < shapes.length; i++) {
      const s = shapes[i]!;
      if (s <= 1) continue;
      const key = (s - 1) * strides[i]!;
      if (key > bestKey || (key === bestKey && s > bestS)) {
        best = i;
        bestKey = key;
        bestS = s;
      }
    }
    if (best < 0) {
      throw new LayoutError(
        'domain',
        keep > 0
          ? `one tile of ${text} (${sizeOf(shapes.slice(0, keep))} elements) does not fit the buffers of this run (${caps.maxBufferBytes} bytes, ${caps.maxIndices} indices)`
          : `${text} cannot be cut to fit the buffers of this run`,
      );
    }
    shapes[best] = Math.ceil(shapes[best]! / 2);
    capped = true;
  }
  const l = makeFlat(shapes, strides);
  return {
    text,
    shapes,
    strides: [...strides],
    size: sizeOf(shapes),
    cosize: outer ? composedCosize(outer, l) : cosizeOf(shapes, strides),
    capped,
    benched: outer ? composedPrefix(makeComposed(outer.swizzle, outer.offset, l, false)) + formatLayout(l) : formatLayout(l),
    ...(outer ? { outer } : {}),
  };
}

/** The layout benchmarked for L: L itself, or a box of its domain within the caps; a composed
 *  Sw o K o L keeps its outer function around the cut inner layout. */
export function planLayout(l: LayoutFunction, elemBytes: number, caps: Caps): SubLayout {
  const f = flat(innerLayout(l));
  return cutToCaps(formatLayoutFunction(l), f.shapes, f.strides, elemBytes, caps, 0, outerOf(l));
}

export interface TilePlan extends SubLayout {
  /** elements per tile (size(B)) */
  tileSize: number;
  /** tiles benchmarked */
  tiles: number;
  /** A ⊘ B, printed */
  divided: string;
}

/** A ⊘ B, flat, tiles cut to the caps (never a tile itself); a composed A = Sw o K o L divides
 *  L and keeps its outer function (docs/semantics.md §9.1). */
export function planTiles(a: LayoutFunction, b: Layout, elemBytes: number, caps: Caps): TilePlan {
  const outer = outerOf(a);
  const d = logicalDivide(innerLayout(a), b);
  const tileFlat = flat(mode(d, 1));
  const f = flat(d);
  const keep = tileFlat.shapes.length;
  const sub = cutToCaps(`${formatLayoutFunction(a)} ⊘ ${formatLayout(b)}`, f.shapes, f.strides, elemBytes, caps, keep, outer);
  const tileSize = sizeOf(tileFlat.shapes);
  const divided = outer ? formatLayoutFunction(makeComposed(outer.swizzle, outer.offset, d, false)) : formatLayout(d);
  return { ...sub, tileSize, tiles: sub.size / tileSize, divided };
}

/** Φ of a flat layout by a division per entry (the independent reference of the checks). */
export function phiFlat(shapes: readonly number[], strides: readonly number[], x: number): number {
  let r = x;
  let o = 0;
  for (let i = 0; i < shapes.length; i++) {
    const s = shapes[i]!;
    const c = r % s;
    r = (r - c) / s;
    o += c * strides[i]!;
  }
  return o;
}

/** All offsets of a flat layout (cosize < 2^32), by divisions: the reference of every check;
 *  with an outer function, Sw(K + Φ) by the algebra's applySwizzle (the kernels generate theirs). */
export function referenceOffsets(shapes: readonly number[], strides: readonly number[], outer?: Outer): Uint32Array {
  const n = sizeOf(shapes);
  const out = new Uint32Array(n);
  // an odometer would be faster, but the reference is meant to share no code with the kernels
  for (let x = 0; x < n; x++) out[x] = outer ? applySwizzle(outer.swizzle, outer.offset + phiFlat(shapes, strides, x)) : phiFlat(shapes, strides, x);
  return out;
}

/** Whether the offsets are pairwise distinct (a bitmap over [0, cosize)). */
export function isInjective(offsets: Uint32Array, cosize: number): boolean {
  if (offsets.length > cosize) return false;
  const bits = new Uint32Array(Math.ceil(cosize / 32));
  for (let i = 0; i < offsets.length; i++) {
    const v = offsets[i]!;
    const w = v >>> 5;
    const b = 1 << (v & 31);
    if (bits[w]! & b) return false;
    bits[w] = bits[w]! | b;
  }
  return true;
}

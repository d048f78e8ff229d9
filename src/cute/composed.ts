/**
 * Composed layouts Sw<B,M,S> o K o L (SPEC §9.1, CuTe `layout_composed.hpp`): the layout
 * function Φ(x) = Sw(K + Φ_L(x)). Shape, size, rank, coordinates are L's; the algebra acts on
 * the inner layout L and keeps the outer function (Sw, K).
 *
 * A plain `Layout` has no `kind`; a composed one is tagged, so `isComposed` tells them apart.
 * `LayoutFunction` is what the evaluator (engine/) runs: either of the two.
 */
import type { Layout } from '../algebra/layout.js';
import { phi } from '../algebra/layout.js';
import { applySwizzle, type Swizzle } from './swizzle.js';

/**
 * A composed layout Sw ∘ K ∘ L (SPEC §9.1; CuTe's ComposedLayout of a Swizzle, an offset and a
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

/**
 * Pictures of composed layouts (docs/semantics.md §9.1): the grid of the inner
 * layout L (its shape and coordinates), each cell labelled with the swizzled offset
 * Sw(K + Φ_L(x)); the picture carries the composed layout's name and the field of bits its
 * swizzle writes, by which the media colour the cells (the swizzle made visible).
 */
import type { ComposedLayout, LayoutFunction } from '../cute/composed.js';
import { formatLayoutFunction, isComposed } from '../cute/composed.js';
import { applySwizzle, targetLow } from '../cute/swizzle.js';
import { makePicture, type Picture } from './grid.js';
import type { Tiling } from './tiles.js';

/**
 * The picture of a layout function: makePicture of the inner layout with every offset passed
 * through Sw(K + ·). Errors as makePicture.
 * @example composedPicture(parseLayoutFunction('Sw<1,0,1> o 4:1')).offsets // [0, 1, 3, 2]
 */
export function composedPicture(l: LayoutFunction, opts: { tiling?: Tiling; max?: number } = {}): Picture {
  if (!isComposed(l)) return makePicture(l, opts);
  const p = makePicture(l.inner, opts);
  const c: ComposedLayout = l;
  for (let x = 0; x < p.offsets.length; x++) p.offsets[x] = applySwizzle(c.swizzle, c.offset + p.offsets[x]!);
  const sw = c.swizzle;
  return { ...p, name: formatLayoutFunction(l), ...(sw.bits > 0 ? { swizzle: { low: targetLow(sw), bits: sw.bits } } : {}) };
}

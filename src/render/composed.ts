/**
 * Pictures of composed layouts (SPEC §9.1): the grid of the inner layout L (its shape and
 * coordinates), each cell labelled with the swizzled offset Sw(K + Φ_L(x)).
 */
import type { ComposedLayout, LayoutFunction } from '../cute/composed.js';
import { isComposed } from '../cute/composed.js';
import { applySwizzle } from '../cute/swizzle.js';
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
  return p;
}

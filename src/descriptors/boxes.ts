/**
 * Which TMA box each element of a tile belongs to (docs/descriptors.md, "Boxes"; CuTe's `tma_partition`): the smem
 * tile's contiguous vector I = right_inverse(S) is tiled to the whole tile (tile_to_shape(I, size(S))) and cut into
 * runs of ∏ boxDim elements, one TMA instruction each. For every tile index y this gives its box, its smem offset
 * (Φ_S(y), swizzled) and the offset of its global element (Φ_G(V(y))): what a picture needs to colour a box over the
 * smem tile and over the global tile.
 */
import { domainError } from '../algebra/errors.js';
import { phi, size } from '../algebra/layout.js';
import { innerLayout, phiComposed, isComposed } from '../cute/composed.js';
import { tileToShape } from '../cute/product.js';
import { tmaPlan, type TmaDescriptor, type TmaInput } from './tma.js';

/** The box map of a TMA descriptor over its tile (all arrays indexed by the tile index y, 0 ≤ y < size(S)). */
export interface TmaBoxMap {
  readonly desc: TmaDescriptor;
  /** elements per box, ∏ boxDim */
  readonly boxElements: number;
  /** y → its box, 0 ≤ box < desc.boxes */
  readonly boxOf: Int32Array;
  /** y → Φ_S(y), the smem element offset (the swizzle applied) */
  readonly smemOffset: Float64Array;
  /** y → the offset in G of the element the TMA copies there */
  readonly gmemOffset: Float64Array;
  /** y → its position within its box's run, 0 ≤ t < boxElements (box coordinate t in boxDim, innermost first) */
  readonly inBox: Int32Array;
  /** a smem offset (swizzled, 0 ≤ o ≤ max smemOffset) → the lowest tile index stored there, −1 for none: the box of an
   *  smem offset is boxOf[tileAt[o]] */
  readonly tileAt: Int32Array;
}

/** the largest tile mapped element by element */
export const MAX_BOX_MAP = 1 << 20;

/**
 * The box map of the descriptor tma_desc gives for `input` (docs/descriptors.md §2). Errors: those of tmaDescriptor, and `domain`
 * for a tile of more than MAX_BOX_MAP elements. Example: the padded (64,32):(40,1) fp16 tile has 64 boxes, row r of
 * the tile in box r.
 */
export function tmaBoxMap(input: TmaInput): TmaBoxMap {
  const plan = tmaPlan(input);
  const s = innerLayout(input.smem);
  const n = size(s);
  if (n > MAX_BOX_MAP) throw domainError(`tma boxes: the tile has ${n} elements, more than ${MAX_BOX_MAP} to map one by one`);
  // make_layout(I): one mode, repeated to the whole tile
  const runs = tileToShape({ shape: [plan.inverse.shape], stride: [plan.inverse.stride] }, n);
  const boxOf = new Int32Array(n).fill(-1);
  const inBox = new Int32Array(n);
  const p = plan.boxElements;
  for (let v = 0; v < n; v++) {
    const y = phi(runs, v);
    boxOf[y] = Math.floor(v / p);
    inBox[y] = v % p;
  }
  const smemOffset = new Float64Array(n);
  const gmemOffset = new Float64Array(n);
  const smem = input.smem;
  const v = plan.tileBasis;
  const d = plan.leaves.d;
  for (let y = 0; y < n; y++) {
    smemOffset[y] = isComposed(smem) ? phiComposed(smem, y) : phi(s, y);
    // V(y): the tile index's coordinate along each entry of V, times its step in G
    let rest = y;
    let g = 0;
    for (const e of v) {
      const c = rest % e.size;
      rest = (rest - c) / e.size;
      if (e.coef !== 0) g += c * e.coef * d[e.leaf]!;
    }
    gmemOffset[y] = g;
  }
  let top = 0;
  for (let y = 0; y < n; y++) top = Math.max(top, smemOffset[y]!);
  if (top >= 4 * MAX_BOX_MAP) throw domainError(`tma boxes: the tile spans ${top + 1} smem elements, more than ${4 * MAX_BOX_MAP} to map one by one`);
  const tileAt = new Int32Array(top + 1).fill(-1);
  for (let y = n - 1; y >= 0; y--) tileAt[smemOffset[y]!] = y;
  return { desc: plan.desc, boxElements: p, boxOf, smemOffset, gmemOffset, inBox, tileAt };
}

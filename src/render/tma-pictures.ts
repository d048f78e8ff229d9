/**
 * The picture of a TMA descriptor (docs/descriptors.md §2.3): the descriptors room's box map (which box each element
 * of the tile belongs to, src/descriptors/boxes.ts) laid out as the two panels of src/render/tma-boxes.ts — the
 * shared-memory tile by address (offsets after the swizzle, in rows of the box's inner extent) and the global tile
 * by coordinate (the tile's modes: rows the first, columns the rest) — with one label per box: where it starts, in G and in the tile.
 */
import { LayoutError } from '../algebra/errors.js';
import { indexToCoord, makeLayout, phi, size, type Layout } from '../algebra/layout.js';
import { colMajorStride, formatTuple } from '../algebra/notation.js';
import { size as tupleSize } from '../algebra/tuple.js';
import { innerLayout } from '../cute/composed.js';
import { composeByMode } from '../cute/divide.js';
import { isByMode } from '../cute/tiler.js';
import { readTmaArgs, tmaDescChecked, type TmaArgs } from '../descriptors/api.js';
import { tmaBoxMap, type TmaBoxMap } from '../descriptors/boxes.js';
import { defaultTiler } from '../descriptors/tma.js';
import { MAX_SHOW } from './grid.js';
import type { BoxPanel, BoxPicture } from './tma-boxes.js';

/** tma_desc's argument, as the CLI and the page give it. */
export type TmaPictureArg = TmaArgs;

/** The tile's grid: its first mode down, the rest across (a by-mode tiler's modes, else S's top-level modes). */
function tileGrid(shape: readonly number[]): { rows: number; cols: number } {
  const rows = shape[0] ?? 1;
  return { rows, cols: shape.slice(1).reduce((a, b) => a * b, 1) };
}

/** The global tile by coordinate: cell (r, c) is tile index y = r + rows·c, in the box the map gives y. */
function globalPanel(m: TmaBoxMap, shape: readonly number[]): BoxPanel {
  const { rows, cols } = tileGrid(shape);
  return { title: `global tile ${shape.join('×')}: tile coordinates`, rows, cols, box: m.boxOf.slice() };
}

/** The shared-memory tile by address: offset o at row ⌊o / w⌋, column o mod w (w = boxDim[0]), in the box of the
 *  lowest tile element stored there (the map's tileAt: a stride-0 mode writes an offset again), none for padding. */
function sharedPanel(m: TmaBoxMap): BoxPanel {
  const w = m.desc.boxDim[0]!;
  const rows = Math.ceil(m.tileAt.length / w);
  const box = new Int32Array(rows * w).fill(-1);
  m.tileAt.forEach((y, o) => {
    if (y >= 0) box[Math.floor(o / w) + rows * (o % w)] = m.boxOf[y]!;
  });
  return { title: `shared memory: offsets after the swizzle, rows of ${w}`, rows, cols: w, box };
}

/**
 * The picture of the TMA boxes of tma_desc's argument (docs/descriptors.md §2): both panels and each box's label — the tile
 * its first element's coordinate in G (what the tiler maps it to) and in the tile. Errors: those of tma_desc (the rule that fails),
 * `bad-request` for a tile of more than `max` elements (the bound `show` draws).
 * @example tmaBoxPicture({ gmem: '(64,32):(32,1)', smem: '(64,32):(40,1)', dtype: 'half_t' }).labels.length // 64
 */
export function tmaBoxPicture(arg: TmaPictureArg, max = MAX_SHOW): BoxPicture {
  const input = readTmaArgs(arg);
  const s: Layout = innerLayout(input.smem);
  const n = size(s);
  if (n > max) throw new LayoutError('bad-request', `the tile has ${n} elements, too many to show (at most ${max})`);
  const desc = tmaDescChecked(input); // the rule that fails, with the atom that would pass
  const m = tmaBoxMap(input);
  const t = input.tiler;
  const sizes = t !== undefined && isByMode(t) && t.every((x) => !isByMode(x) && x !== '_') ? t.map((x) => size(x as Layout)) : null;
  const modes = sizes ?? (typeof s.shape === 'number' ? [n] : s.shape.map(tupleSize));
  const shape = modes.reduce((a, b) => a * b, 1) === n ? modes : [n];
  const { rows } = tileGrid(shape);
  const first = new Array<number>(desc.boxes).fill(-1);
  for (let y = 0; y < n; y++) if (m.inBox[y] === 0 && first[m.boxOf[y]!] === -1) first[m.boxOf[y]!] = y;
  const grid = makeLayout([rows, n / rows], [1, rows]);
  // where a box starts in G: the coordinate the tiler gives its first element (identity(shape G) ∘ T, as CuTe's V)
  const ident = makeLayout(input.gmem.shape, colMajorStride(input.gmem.shape));
  const v = composeByMode(ident, input.tiler ?? defaultTiler(s));
  const labels = first.map((y) => (y < 0 ? '(none)' : `G ${formatTuple(indexToCoord(ident, phi(v, y)))}, tile ${formatTuple(indexToCoord(grid, y))}`));
  const title = `TMA boxes: ${desc.boxes} box${desc.boxes === 1 ? '' : 'es'} of [${desc.boxDim.join(', ')}] (innermost first), swizzle ${desc.swizzle}`;
  return { title, labels, panels: [sharedPanel(m), globalPanel(m, shape)] };
}

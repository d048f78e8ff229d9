/**
 * Pictures as text: the grid of offsets that `layoutgpu show` prints, as CuTe's print_layout
 * draws rank-2 layouts (row indices on the left, column indices on top, cells boxed). A tiled
 * picture adds a second grid giving each cell's tile.
 */
import type { Layout } from '../algebra/layout.js';
import { makePicture, pictureName, type GridShape, type Picture } from './grid.js';

/** The boxed grid of cell texts, with row and column indices. */
function box(grid: GridShape, text: (x: number) => string): string[] {
  const { rows, cols, index } = grid;
  let w = Math.max(1, String(Math.max(cols - 1, 0)).length);
  const cells: string[][] = [];
  for (let r = 0; r < rows; r++) {
    const row: string[] = [];
    for (let c = 0; c < cols; c++) {
      const s = text(index(r, c));
      if (s.length > w) w = s.length;
      row.push(s);
    }
    cells.push(row);
  }
  const rw = String(Math.max(rows - 1, 0)).length;
  const rule = `${' '.repeat(rw + 1)}+${Array.from({ length: cols }, () => '-'.repeat(w + 2)).join('+')}+`;
  const lines = [`${' '.repeat(rw + 1)} ${Array.from({ length: cols }, (_, c) => ` ${String(c).padStart(w)} `).join(' ')}`, rule];
  for (let r = 0; r < rows; r++) {
    lines.push(`${String(r).padStart(rw)} |${cells[r]!.map((s) => ` ${s.padStart(w)} `).join('|')}|`);
    lines.push(rule);
  }
  return lines;
}

/**
 * The picture as text: the layout, then its grid of offsets Φ(x); with a tiling, a second grid
 * of tile numbers (`tile.entry`). Pre-condition: a Picture from makePicture.
 * @example asciiPicture(makePicture(parseLayout('2:1'))) // '2:1\n    0   1 \n  +---+---+\n0 | 0 | 1 |\n  +---+---+'
 */
export function asciiPicture(p: Picture): string {
  const lines = [pictureName(p), ...box(p.grid, (x) => String(p.offsets[x]))];
  const t = p.tiling;
  if (t) {
    lines.push('', `tile.entry (${t.tiles} tile${t.tiles === 1 ? '' : 's'} of ${t.tileSize}):`);
    lines.push(
      ...box(p.grid, (x) => {
        const te = t.tileOf(x);
        return te ? `${te.tile}.${te.entry}` : '-';
      }),
    );
  }
  return lines.join('\n');
}

/**
 * The grid of offsets of L, as CuTe's print_layout prints it (see gridShape for the grouping).
 * Errors: `bad-request` beyond MAX_SHOW cells, `overflow` for inexact sizes.
 * @example renderGrid(parseLayout('(2,2):(2,1)')) // rows '0 | 0 | 1 |' and '1 | 2 | 3 |'
 */
export function renderGrid(l: Layout): string {
  return asciiPicture(makePicture(l));
}

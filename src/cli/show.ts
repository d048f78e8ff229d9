/**
 * `layoutgpu show <L>`: the layout as a grid of offsets, as CuTe's print_layout draws rank-2
 * layouts. Rank 1 is one row; higher ranks group the modes after the first into columns
 * (column j is the colexicographic index over modes 2..r).
 */
import { formatLayout } from '../algebra/notation.js';
import { modes, phi, size, type Layout } from '../algebra/layout.js';

/** Rows × columns of the grid: rank 1 is 1 × size, otherwise mode 1 × the rest. */
export function gridShape(l: Layout): { rows: number; cols: number; index: (r: number, c: number) => number } {
  const ms = modes(l);
  if (ms.length <= 1 || typeof l.shape === 'number') {
    return { rows: 1, cols: size(l), index: (_r, c) => c };
  }
  const rows = size(ms[0]!);
  return { rows, cols: size(l) / rows, index: (r, c) => r + rows * c };
}

export const MAX_SHOW = 1 << 16;

export function renderGrid(l: Layout): string {
  const n = size(l);
  if (n > MAX_SHOW) throw new RangeError(`size ${n} is too large to show (at most ${MAX_SHOW})`);
  const { rows, cols, index } = gridShape(l);
  const cells: string[][] = [];
  let w = 1;
  for (let r = 0; r < rows; r++) {
    const row: string[] = [];
    for (let c = 0; c < cols; c++) {
      const s = String(phi(l, index(r, c)));
      w = Math.max(w, s.length);
      row.push(s);
    }
    cells.push(row);
  }
  const rw = String(rows - 1).length;
  w = Math.max(w, String(cols - 1).length);
  const pad = (s: string, k: number): string => s.padStart(k);
  const rule = `${' '.repeat(rw + 1)}+${Array.from({ length: cols }, () => '-'.repeat(w + 2)).join('+')}+`;
  const lines = [formatLayout(l)];
  lines.push(`${' '.repeat(rw + 1)} ${Array.from({ length: cols }, (_, c) => ` ${pad(String(c), w)} `).join(' ')}`);
  lines.push(rule);
  for (let r = 0; r < rows; r++) {
    lines.push(`${pad(String(r), rw)} |${cells[r]!.map((s) => ` ${pad(s, w)} `).join('|')}|`);
    lines.push(rule);
  }
  return lines.join('\n');
}

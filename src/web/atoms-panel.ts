/**
 * The atoms panel of the page (issue 20, "Pictures"): a searchable list of the MMA atoms, an atom layout and a
 * permutation, and the three TV pictures of the tiled MMA (docs/atoms.md, "Tiled MMA"; what CuTe's
 * `print_latex(tiled_mma)` draws): A (M×K), B (N×K, shown K×N as CuTe does) and C (M×N), each cell labelled
 * `T<t> V<v>` with the first (thread, value) that holds it and coloured by thread (neighbouring threads differ).
 * Hovering a cell names its thread, value, coordinate and index (and how many (thread, value) pairs hold it).
 * Stable test hooks: data-testid `atoms-search`, `atoms-list` (a select), `atoms-layout`, `atoms-perm`,
 * `atoms-info` (data-threads, data-tile), `atoms-error`, `atoms-picture` (data-operand, data-rows, data-cols),
 * `atoms-cell` (data-thread, data-value, data-row, data-col, data-index, data-holders), `atoms-hover`.
 */
import { LayoutError } from '../algebra/errors.js';
import { mode, phi, size, type Layout } from '../algebra/layout.js';
import { formatLayout, parseLayout } from '../algebra/notation.js';
import { parseTiler } from '../cute/tiler.js';
import { mmaAtomNames } from '../atoms/registry.js';
import { makeTiledMma } from '../atoms/tiled-mma.js';
import { fill, h, s } from './dom.js';

const DEFAULTS = { atom: 'SM80_16x8x16_F32F16F16F32_TN', layout: '(2,2,1)', perm: '(32,32,16)' };
/** Most cells one operand picture draws (a 128×256 tile; larger ones say so). */
const MAX_CELLS = 32768;

/** One cell of an operand picture: the first (thread, value) holding it, and how many hold it. */
interface Cell {
  thread: number;
  value: number;
  holders: number;
}

/**
 * The cells of a TV layout over a rows × cols picture: (t, v) ↦ index Φ(t + T·v) (column-major in the operand's
 * I × J tile), placed at `at(index)` = [row, col]; each cell keeps the first (t, v) in the order of x = t + T·v.
 */
export function tvCells(tv: Layout, rows: number, cols: number, at: (index: number) => readonly [number, number]): (Cell | null)[] {
  const T = size(mode(tv, 1));
  const V = size(mode(tv, 2));
  const cells: (Cell | null)[] = new Array(rows * cols).fill(null);
  for (let v = 0; v < V; v++) {
    for (let t = 0; t < T; t++) {
      const [r, c] = at(phi(tv, t + T * v));
      const k = r + rows * c;
      const cell = cells[k];
      if (cell) cell.holders++;
      else cells[k] = { thread: t, value: v, holders: 1 };
    }
  }
  return cells;
}

/** A thread's colour: hues a golden angle apart, so neighbouring threads never look alike. */
export function threadColour(t: number): string {
  const hue = (t * 137.508) % 360;
  return `hsl(${hue.toFixed(1)}, 70%, ${t % 2 ? 72 : 82}%)`;
}

/** One operand's picture: an SVG grid with axis indices, cells labelled T<t> V<v> where they are large enough. */
function operandPicture(
  operand: string,
  caption: string,
  cells: readonly (Cell | null)[],
  rows: number,
  cols: number,
  indexOf: (row: number, col: number) => number,
): SVGSVGElement {
  // up to 32 columns every cell is labelled (the box scrolls); wider tiles are an overview that fits, details on hover
  const labels = cols <= 32;
  const cw = labels ? 50 : Math.max(6, Math.floor(1100 / cols));
  const ch = labels ? 24 : Math.max(6, Math.min(20, cw));
  const left = 30;
  const top = 34;
  const width = left + cols * cw + 2;
  const height = top + rows * ch + 2;
  const svg = s('svg', {
    class: 'grid atoms-grid',
    width,
    height,
    viewBox: `0 0 ${width} ${height}`,
    role: 'img',
    'aria-label': caption,
    'data-testid': 'atoms-picture',
    'data-operand': operand,
    'data-rows': rows,
    'data-cols': cols,
  });
  svg.append(s('text', { x: 2, y: 12, class: 'axis' }, caption));
  const step = Math.max(1, Math.ceil(16 / cw));
  for (let c = 0; c < cols; c += step) svg.append(s('text', { class: 'axis', x: left + c * cw + cw / 2, y: top - 6, 'text-anchor': 'middle', 'font-size': 9 }, c));
  const rstep = Math.max(1, Math.ceil(12 / ch));
  for (let r = 0; r < rows; r += rstep) svg.append(s('text', { class: 'axis', x: left - 4, y: top + r * ch + ch / 2 + 3, 'text-anchor': 'end', 'font-size': 9 }, r));
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const cell = cells[r + rows * c];
      const x = left + c * cw;
      const y = top + r * ch;
      const g = s('g', {
        'data-testid': 'atoms-cell',
        'data-row': r,
        'data-col': c,
        'data-index': indexOf(r, c),
        'data-thread': cell ? cell.thread : undefined,
        'data-value': cell ? cell.value : undefined,
        'data-holders': cell ? cell.holders : 0,
      });
      g.append(s('rect', { x, y, width: cw, height: ch, fill: cell ? threadColour(cell.thread) : '#fff', stroke: '#8884', 'stroke-width': 0.5 }));
      if (cell && labels) g.append(s('text', { x: x + cw / 2, y: y + ch / 2 + 3, 'text-anchor': 'middle', 'font-size': 9, 'pointer-events': 'none' }, `T${cell.thread} V${cell.value}`));
      svg.append(g);
    }
  }
  return svg;
}

function row(label: string, input: HTMLElement): HTMLElement {
  return h('div', { class: 'field' }, h('label', {}, label), input);
}

/** Build the panel into `host` (a card of the page). */
export function mountAtomsPanel(host: HTMLElement): void {
  const names = mmaAtomNames();
  const search = h('input', { type: 'search', class: 'layout-in', 'data-testid': 'atoms-search', spellcheck: 'false', placeholder: 'search, e.g. 16x8x16 F32' });
  const list = h('select', { size: '8', 'data-testid': 'atoms-list', 'aria-label': 'MMA atoms' });
  const layoutIn = h('input', { type: 'text', class: 'layout-in', 'data-testid': 'atoms-layout', spellcheck: 'false', value: DEFAULTS.layout });
  const permIn = h('input', { type: 'text', class: 'layout-in', 'data-testid': 'atoms-perm', spellcheck: 'false', value: DEFAULTS.perm });
  const info = h('p', { class: 'muted', 'data-testid': 'atoms-info' });
  const err = h('p', { class: 'inline-error', 'data-testid': 'atoms-error', hidden: '' });
  const pics = h('div', { class: 'atoms-pictures', style: 'display:flex;flex-wrap:wrap;gap:12px;align-items:flex-start;overflow:auto;max-height:80vh' });
  const hover = h('div', { class: 'hover-line', 'data-testid': 'atoms-hover' });
  fill(
    host,
    h('h2', {}, 'Hardware atoms: tiled MMA'),
    row('Search the MMA atoms', search),
    list,
    row('Atom layout (atoms along M, N, K)', layoutIn),
    row('Permutation (tiler of M, N, K)', permIn),
    info,
    err,
    hover,
    pics,
  );

  let selected = DEFAULTS.atom;
  const fillList = (): void => {
    const words = search.value.toLowerCase().split(/[\s_]+/).filter((w) => w !== '');
    const shown = names.filter((n) => words.every((w) => n.toLowerCase().includes(w)));
    fill(list, ...shown.slice(0, 500).map((n) => h('option', { value: n }, n)));
    if (shown.includes(selected)) list.value = selected;
  };

  const update = (): void => {
    try {
      const layout = layoutIn.value.trim() === '' ? undefined : parseLayout(layoutIn.value, 'atom layout');
      const perm = permIn.value.trim() === '' ? undefined : parseTiler(permIn.value, 'permutation');
      const m = makeTiledMma(selected, layout, perm);
      const [tM, tN, tK] = m.tileShape;
      err.hidden = true;
      info.dataset['threads'] = String(m.threads);
      info.dataset['tile'] = `(${tM},${tN},${tK})`;
      fill(info, `${selected}: ${m.threads} threads, tile (M,N,K) = (${tM},${tN},${tK}); A ${formatLayout(m.layoutA_TV)}, B ${formatLayout(m.layoutB_TV)}, C ${formatLayout(m.layoutC_TV)}`);
      if (Math.max(tM * tK, tN * tK, tM * tN) > MAX_CELLS) {
        fill(pics, h('p', { class: 'placeholder' }, `a tile of more than ${MAX_CELLS} cells: too many to draw`));
        return;
      }
      fill(
        pics,
        // A: M×K, index m + tM·k
        operandPicture('A', `A (M×K = ${tM}×${tK})`, tvCells(m.layoutA_TV, tM, tK, (i) => [i % tM, Math.floor(i / tM)]), tM, tK, (r, c) => r + tM * c),
        // B: N×K, index n + tN·k, drawn K×N (row k, column n)
        operandPicture('B', `B (K×N = ${tK}×${tN})`, tvCells(m.layoutB_TV, tK, tN, (i) => [Math.floor(i / tN), i % tN]), tK, tN, (r, c) => c + tN * r),
        // C: M×N, index m + tM·n
        operandPicture('C', `C (M×N = ${tM}×${tN})`, tvCells(m.layoutC_TV, tM, tN, (i) => [i % tM, Math.floor(i / tM)]), tM, tN, (r, c) => r + tM * c),
      );
    } catch (e) {
      err.hidden = false;
      err.dataset['errorKind'] = e instanceof LayoutError ? e.kind : 'internal';
      fill(err, e instanceof Error ? e.message : String(e));
      fill(pics);
      fill(info);
    }
  };

  pics.addEventListener('mouseover', (ev) => {
    const g = (ev.target as Element).closest('[data-testid="atoms-cell"]');
    const svg = g?.closest('svg');
    if (!g || !svg) return;
    const d = (k: string): string => g.getAttribute(`data-${k}`) ?? '';
    const op = svg.getAttribute('data-operand');
    const [r, c] = [d('row'), d('col')];
    const coord = op === 'B' ? `(n,k) = (${c},${r})` : op === 'A' ? `(m,k) = (${r},${c})` : `(m,n) = (${r},${c})`;
    const holders = Number(d('holders'));
    fill(
      hover,
      holders === 0
        ? `${op}: ${coord}, index ${d('index')}: held by no thread`
        : `${op}: thread ${d('thread')}, value ${d('value')}, ${coord}, index ${d('index')}${holders > 1 ? ` (held by ${holders} (thread, value) pairs)` : ''}`,
    );
  });
  search.addEventListener('input', fillList);
  list.addEventListener('change', () => {
    selected = list.value;
    update();
  });
  for (const el of [layoutIn, permIn]) el.addEventListener('input', update);
  fillList();
  update();
}

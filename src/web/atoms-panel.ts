/**
 * The atoms panel of the page (issue 20, "Pictures"): a searchable list of the MMA atoms, an atom layout and a
 * permutation, and the three TV pictures of the tiled MMA (docs/atoms.md, "Tiled MMA"; what CuTe's
 * `print_latex(tiled_mma)` draws): A (M×K), B (N×K, shown K×N as CuTe does) and C (M×N), each cell labelled
 * `T<t> V<v>` with the first (thread, value) that holds it and coloured by thread in print_latex's palette (render/colour.ts).
 * Hovering a cell names its thread, value, coordinate and index (and how many (thread, value) pairs hold it).
 * Below, a tiled copy (docs/atoms.md, "Tiled copy"): a copy atom at a value size, from thread and value layouts or
 * from an operand of the tiled MMA above (CuTe `make_tiled_copy_A/B/C`); its source and destination pictures side by
 * side, and a button that sends the shared-memory side's TV layout, the tile and the element size to the memory panel,
 * whose bank picture then labels its cells T#V#.
 * Stable test hooks: data-testid `atoms-search`, `atoms-list` (a select), `atoms-layout`, `atoms-perm`,
 * `atoms-info` (data-threads, data-tile), `atoms-error`, `atoms-picture` (data-operand, data-rows, data-cols),
 * `atoms-cell` (data-thread, data-value, data-row, data-col, data-index, data-holders), `atoms-hover`; for the copy
 * `copy-atom`, `copy-bits`, `copy-from` (A, B, C or thr), `copy-thr`, `copy-val`, `copy-info` (data-tiler),
 * `copy-error`, pictures with data-operand `S` and `D`, `copy-send` (data-side).
 */
import { LayoutError } from '../algebra/errors.js';
import { mode, modes, phi, size, type Layout } from '../algebra/layout.js';
import { innerLayout } from '../cute/composed.js';
import { defaultSide } from '../atoms/conflicts.js';
import { checkCopyTensor } from '../atoms/partition.js';
import { formatLayout } from '../algebra/notation.js';
import { plainLayoutArg, readLayoutFunction, readTiler } from '../ops/args.js';
import { copyAtomNames, mmaAtomNames } from '../atoms/registry.js';
import { makeTiledMma, type TiledMma } from '../atoms/tiled-mma.js';
import { makeTiledCopy, makeTiledCopyFromMma, type TiledCopy } from '../atoms/tiled-copy.js';
import { threadColour } from '../render/colour.js';
import { fill, h, s } from './dom.js';
import { isIntegerText } from '../algebra/int-text.js';

const DEFAULTS = { atom: 'SM80_16x8x16_F32F16F16F32_TN', layout: '(2,2,1)', perm: '(32,32,16)' };
/** The tiled copy's defaults: ldmatrix .x4 of 16-bit values for A of the tiled MMA above (docs/atoms.md's example). */
const COPY_DEFAULTS = { atom: 'SM75_U32x4_LDSM_N', bits: '16', from: 'A', thr: '(32,8):(8,1)', val: '(1,8)' };
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
  for (let c = 0; c < cols; c += step)
    svg.append(s('text', { class: 'axis', x: left + c * cw + cw / 2, y: top - 6, 'text-anchor': 'middle', 'font-size': 9 }, c));
  const rstep = Math.max(1, Math.ceil(12 / ch));
  for (let r = 0; r < rows; r += rstep)
    svg.append(s('text', { class: 'axis', x: left - 4, y: top + r * ch + ch / 2 + 3, 'text-anchor': 'end', 'font-size': 9 }, r));
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
      if (cell && labels)
        g.append(
          s('text', { x: x + cw / 2, y: y + ch / 2 + 3, 'text-anchor': 'middle', 'font-size': 9, 'pointer-events': 'none' }, `T${cell.thread} V${cell.value}`),
        );
      svg.append(g);
    }
  }
  return svg;
}

/** The side copy_bank_conflicts takes for the atom, or null when its name does not say (then the panel asks for src). */
function defaultSideOrNull(name: string): 'src' | 'dst' | null {
  try {
    return defaultSide(name);
  } catch {
    return null;
  }
}

/** Whether the copy's tile divides the memory layout text's shape (partition_S/D of the whole tile exists). */
function tilesMemory(c: TiledCopy, text: string): boolean {
  try {
    const ns = modes(innerLayout(readLayoutFunction(text, 'M'))).map(size);
    checkCopyTensor(c, ns, 'copy_bank_conflicts');
    return true;
  } catch {
    return false;
  }
}

/** A one-line text field that grows with its text (style.css, textarea.layout-in). */
function textField(testid: string, value: string): HTMLTextAreaElement {
  const t = h('textarea', { rows: '1', class: 'layout-in', 'data-testid': testid, spellcheck: 'false' });
  t.value = value;
  return t;
}

function row(label: string, input: HTMLElement): HTMLElement {
  return h('div', { class: 'field' }, h('label', {}, label), input);
}

/** Build the panel into `host` (a card of the page). */
export function mountAtomsPanel(host: HTMLElement): void {
  const names = mmaAtomNames();
  const search = h('input', {
    type: 'search',
    class: 'layout-in',
    'data-testid': 'atoms-search',
    spellcheck: 'false',
    placeholder: 'search, e.g. 16x8x16 F32',
  });
  const list = h('select', { size: '8', 'data-testid': 'atoms-list', 'aria-label': 'MMA atoms' });
  const layoutIn = textField('atoms-layout', DEFAULTS.layout);
  const permIn = textField('atoms-perm', DEFAULTS.perm);
  const info = h('p', { class: 'muted', 'data-testid': 'atoms-info' });
  const err = h('p', { class: 'inline-error', 'data-testid': 'atoms-error', hidden: '' });
  const pics = h('div', { class: 'atoms-pictures', style: 'display:flex;flex-wrap:wrap;gap:12px;align-items:flex-start;overflow-x:auto' });
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

  const copySel = h('select', { 'data-testid': 'copy-atom', 'aria-label': 'copy atom' }, ...copyAtomNames().map((n) => h('option', { value: n }, n)));
  copySel.value = COPY_DEFAULTS.atom;
  const bitsIn = textField('copy-bits', COPY_DEFAULTS.bits);
  const fromSel = h(
    'select',
    { 'data-testid': 'copy-from', 'aria-label': 'tile of the copy' },
    ...['A', 'B', 'C'].map((x) => h('option', { value: x }, `operand ${x} of the tiled MMA (make_tiled_copy_${x})`)),
    h('option', { value: 'thr' }, 'thread and value layouts (make_tiled_copy)'),
  );
  fromSel.value = COPY_DEFAULTS.from;
  const thrIn = textField('copy-thr', COPY_DEFAULTS.thr);
  const valIn = textField('copy-val', COPY_DEFAULTS.val);
  const copyInfo = h('p', { class: 'muted', 'data-testid': 'copy-info' });
  const copyErr = h('p', { class: 'inline-error', 'data-testid': 'copy-error', hidden: '' });
  const sendBtn = h('button', { type: 'button', 'data-testid': 'copy-send' }, 'Send the shared-memory side to the memory panel');
  const copyPics = h('div', { class: 'atoms-pictures', style: 'display:flex;flex-wrap:wrap;gap:12px;align-items:flex-start;overflow-x:auto' });
  host.append(
    h('h2', {}, 'Tiled copy'),
    row('Copy atom', copySel),
    row('Value size (bits)', bitsIn),
    row('Tile', fromSel),
    row('Thread layout (make_tiled_copy)', thrIn),
    row('Value layout (make_tiled_copy)', valIn),
    copyInfo,
    copyErr,
    sendBtn,
    copyPics,
  );

  let selected = DEFAULTS.atom;
  let mma: TiledMma | null = null;
  let tiled: TiledCopy | null = null;

  const updateCopy = (): void => {
    tiled = null;
    try {
      const bits = Number(bitsIn.value.trim());
      if (!isIntegerText(bitsIn.value.trim())) throw new LayoutError('domain', `the value size must be a positive integer of bits, got '${bitsIn.value}'`);
      const from = fromSel.value;
      thrIn.disabled = valIn.disabled = from !== 'thr';
      let c: TiledCopy;
      if (from === 'thr') {
        // plain layouts, as the CLI and batch read them (a composed one is domain: ops/composed.ts)
        const plain = (text: string, what: string): Layout => plainLayoutArg(text, 'the tiled copy', what);
        c = makeTiledCopy({ atom: copySel.value, bits, thr: plain(thrIn.value, 'thread layout'), val: plain(valIn.value || '1', 'value layout') });
      } else {
        if (!mma) throw new LayoutError('domain', 'no tiled MMA above to take the operand from');
        c = makeTiledCopyFromMma({ atom: copySel.value, bits, mma, operand: from as 'A' | 'B' | 'C' });
      }
      tiled = c;
      copyErr.hidden = true;
      const rows = c.tiler[0]!;
      const cols = c.tiler.slice(1).reduce((a, b) => a * b, 1);
      copyInfo.dataset['tiler'] = `(${c.tiler.join(',')})`;
      fill(
        copyInfo,
        `${c.threads} threads × ${c.values} values of ${bits} bits, tile (${c.tiler.join(',')}); S ${formatLayout(c.layoutS_TV)}, D ${formatLayout(c.layoutD_TV)}`,
      );
      if (rows * cols > MAX_CELLS) {
        fill(copyPics, h('p', { class: 'placeholder' }, `a tile of more than ${MAX_CELLS} cells: too many to draw`));
        return;
      }
      const at = (i: number): [number, number] => [i % rows, Math.floor(i / rows)];
      const index = (r: number, col: number): number => r + rows * col;
      fill(
        copyPics,
        operandPicture('S', `source (${rows}×${cols})`, tvCells(c.layoutS_TV, rows, cols, at), rows, cols, index),
        operandPicture('D', `destination (${rows}×${cols})`, tvCells(c.layoutD_TV, rows, cols, at), rows, cols, index),
      );
    } catch (e) {
      copyErr.hidden = false;
      copyErr.dataset['errorKind'] = e instanceof LayoutError ? e.kind : 'internal';
      fill(copyErr, e instanceof Error ? e.message : String(e));
      fill(copyPics);
      fill(copyInfo);
    }
  };

  /** The tiled copy as the protocol's JSON object (docs/protocol.md), as `copy_bank_conflicts` and the memory panel read it. */
  const copyObject = (): Record<string, unknown> => {
    const o: Record<string, unknown> = { atom: copySel.value, bits: Number(bitsIn.value.trim()) };
    if (fromSel.value === 'thr') return { ...o, thr: thrIn.value, ...(valIn.value.trim() ? { val: valIn.value } : {}) };
    const mma: Record<string, string> = { atom: selected };
    if (layoutIn.value.trim()) mma['layout'] = layoutIn.value;
    if (permIn.value.trim()) mma['permutation'] = permIn.value;
    return { ...o, mma, operand: fromSel.value };
  };
  // the copy goes to the memory panel whole: it prices every thread's partition of the WHOLE memory tile M
  // (copy_bank_conflicts), so M is kept when the copy tiles it, else it becomes one copy tile, row-major
  sendBtn.addEventListener('click', () => {
    if (!tiled) return;
    const c = tiled;
    const put = (testid: string, value: string): void => {
      const el = document.querySelector<HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>(`[data-testid="${testid}"]`);
      if (!el) return;
      el.value = value;
      el.dispatchEvent(new Event('input', { bubbles: true }));
      el.dispatchEvent(new Event('change', { bubbles: true }));
    };
    const mEl = document.querySelector<HTMLTextAreaElement>('[data-testid="mem-layout"]');
    if (mEl && !tilesMemory(c, mEl.value)) {
      const rows = c.tiler[0]!;
      const cols = c.tiler.slice(1).reduce((a, b) => a * b, 1);
      put('mem-layout', `(${rows},${cols}):(${cols},1)`);
    }
    sendBtn.dataset['side'] = defaultSideOrNull(c.atom.name) ?? 'src';
    put('mem-side', defaultSideOrNull(c.atom.name) ? 'auto' : 'src');
    put('mem-form', 'copy');
    put('mem-tv', JSON.stringify(copyObject()));
    // the bank picture then names each cell by the thread and value of the copy that accesses it (T5 V2)
    put('mem-label', 'tv');
    document.getElementById('memory-card')?.scrollIntoView({ behavior: 'smooth', block: 'start' });
  });
  for (const el of [bitsIn, thrIn, valIn]) el.addEventListener('input', updateCopy);
  for (const el of [copySel, fromSel]) el.addEventListener('change', updateCopy);
  const fillList = (): void => {
    const words = search.value
      .toLowerCase()
      .split(/[\s_]+/)
      .filter((w) => w !== '');
    const shown = names.filter((n) => words.every((w) => n.toLowerCase().includes(w)));
    fill(list, ...shown.slice(0, 500).map((n) => h('option', { value: n }, n)));
    if (shown.includes(selected)) list.value = selected;
  };

  const update = (): void => {
    try {
      const layout = layoutIn.value.trim() === '' ? undefined : plainLayoutArg(layoutIn.value, 'the tiled MMA', 'atom layout');
      const perm = permIn.value.trim() === '' ? undefined : readTiler(permIn.value, 'permutation', 'the tiled MMA');
      const m = makeTiledMma(selected, layout, perm);
      mma = m;
      const [tM, tN, tK] = m.tileShape;
      err.hidden = true;
      info.dataset['threads'] = String(m.threads);
      info.dataset['tile'] = `(${tM},${tN},${tK})`;
      fill(
        info,
        `${selected}: ${m.threads} threads, tile (M,N,K) = (${tM},${tN},${tK}); A ${formatLayout(m.layoutA_TV)}, B ${formatLayout(m.layoutB_TV)}, C ${formatLayout(m.layoutC_TV)}`,
      );
      if (Math.max(tM * tK, tN * tK, tM * tN) > MAX_CELLS) {
        fill(pics, h('p', { class: 'placeholder' }, `a tile of more than ${MAX_CELLS} cells: too many to draw`));
        return;
      }
      fill(
        pics,
        // A: M×K, index m + tM·k
        operandPicture(
          'A',
          `A (M×K = ${tM}×${tK})`,
          tvCells(m.layoutA_TV, tM, tK, (i) => [i % tM, Math.floor(i / tM)]),
          tM,
          tK,
          (r, c) => r + tM * c,
        ),
        // B: N×K, index n + tN·k, drawn K×N (row k, column n)
        operandPicture(
          'B',
          `B (K×N = ${tK}×${tN})`,
          tvCells(m.layoutB_TV, tK, tN, (i) => [Math.floor(i / tN), i % tN]),
          tK,
          tN,
          (r, c) => c + tN * r,
        ),
        // C: M×N, index m + tM·n
        operandPicture(
          'C',
          `C (M×N = ${tM}×${tN})`,
          tvCells(m.layoutC_TV, tM, tN, (i) => [i % tM, Math.floor(i / tM)]),
          tM,
          tN,
          (r, c) => r + tM * c,
        ),
      );
    } catch (e) {
      mma = null;
      err.hidden = false;
      err.dataset['errorKind'] = e instanceof LayoutError ? e.kind : 'internal';
      fill(err, e instanceof Error ? e.message : String(e));
      fill(pics);
      fill(info);
    } finally {
      updateCopy();
    }
  };

  const onHover = (ev: Event): void => {
    const g = (ev.target as Element).closest('[data-testid="atoms-cell"]');
    const svg = g?.closest('svg');
    if (!g || !svg) return;
    const d = (k: string): string => g.getAttribute(`data-${k}`) ?? '';
    const op = svg.getAttribute('data-operand');
    const [r, c] = [d('row'), d('col')];
    const coord = op === 'B' ? `(n,k) = (${c},${r})` : op === 'A' ? `(m,k) = (${r},${c})` : op === 'C' ? `(m,n) = (${r},${c})` : `(${r},${c})`;
    const holders = Number(d('holders'));
    fill(
      hover,
      holders === 0
        ? `${op}: ${coord}, index ${d('index')}: held by no thread`
        : `${op}: thread ${d('thread')}, value ${d('value')}, ${coord}, index ${d('index')}${holders > 1 ? ` (held by ${holders} (thread, value) pairs)` : ''}`,
    );
  };
  pics.addEventListener('mouseover', onHover);
  copyPics.addEventListener('mouseover', onHover);
  search.addEventListener('input', fillList);
  list.addEventListener('change', () => {
    selected = list.value;
    update();
  });
  for (const el of [layoutIn, permIn]) el.addEventListener('input', update);
  fillList();
  update();
}

/**
 * Pictures of thread-value layouts (docs/atoms.md, "Pictures"), as CuTe's `print_latex(tiled_mma)`
 * and `print_latex(tiled_copy)` draw them: a tiled MMA as its A (M×K), B (shown K×N, as CuTe does)
 * and C (M×N) tiles, B above C and A to its left; a tiled copy as its source and destination tiles
 * side by side. Each cell is labelled `T<t> V<v>` with the (thread, value) that holds it (the lowest
 * thread, then value, when several do) and coloured by thread, with a palette of eight in which
 * neighbouring threads differ (t mod 8). ASCII, SVG and TikZ (a standalone document for pdflatex). A descriptor
 * operand (GMMA/UMMA A or B in shared memory, read whole by every thread) is drawn as what it is: its tile as one
 * block per part that a set of threads reads whole, with one line of text (docs/atoms.md, "Descriptor operands").
 */
import { phiTable } from '../memory/access.js';
import { mode, size, type Layout } from '../algebra/layout.js';
import { darkBackground, THREAD_COLOURS, threadColour } from './colour.js';
import { svgFace, svgUseGrid, xmlEscape } from './svg.js';
import type { Operand, TiledMma } from '../atoms/tiled-mma.js';
import { descriptorLine, descriptorParts, runsText } from '../atoms/descriptor-operand.js';
import type { TiledCopy } from '../atoms/tiled-copy.js';

export { threadColour } from './colour.js';

/** One tile of a TV picture: rows × cols cells, each the (thread, value) holding it or -1. */
export interface TvPanel {
  readonly title: string;
  readonly rows: number;
  readonly cols: number;
  /** thread at cell (r, c) = thread[r + rows·c] (−1: no thread holds it) */
  readonly thread: Int32Array;
  readonly value: Int32Array;
  /** how many (t, v) hold the cell */
  readonly holders: Int32Array;
  /** the tile index of each cell (the TV layout's value there) */
  readonly index: Int32Array;
  /** a descriptor operand: drawn as these blocks and `note`, not cell by cell */
  readonly parts?: readonly PanelPart[];
  readonly note?: string;
}

/** A block of a descriptor operand's panel: rows and columns (inclusive) read whole by `threads` (their runs as
 *  text); coloured by its lowest thread. */
export interface PanelPart {
  readonly rows: readonly [number, number];
  readonly cols: readonly [number, number];
  readonly lowest: number;
  readonly threads: string;
}

/** A picture: panels placed on a grid of panel slots (column, row), as print_latex arranges them. */
export interface TvPicture {
  readonly title: string;
  readonly panels: readonly { readonly panel: TvPanel; readonly slot: readonly [number, number] }[];
}

/**
 * The panel of TV layout `tv` ((t, v) → index) over a rows × cols tile; the tile index of cell
 * (r, c) is r·rs + c·cs (column-major: rs = 1, cs = rows; B shown K×N: rs = N, cs = 1).
 */
export function tvPanel(title: string, tv: Layout, rows: number, cols: number, rs = 1, cs = rows): TvPanel {
  const T = size(mode(tv, 1));
  const tab = phiTable(tv);
  const n = rows * cols;
  const thread = new Int32Array(n).fill(-1);
  const value = new Int32Array(n).fill(-1);
  const holders = new Int32Array(n);
  // the index of cell (r, c) is r·rs + c·cs: invert it once
  const cell = new Int32Array(n);
  const index = new Int32Array(n);
  for (let c = 0; c < cols; c++) {
    for (let r = 0; r < rows; r++) {
      cell[r * rs + c * cs] = r + rows * c;
      index[r + rows * c] = r * rs + c * cs;
    }
  }
  for (let x = 0; x < tab.length; x++) {
    const i = tab[x]!;
    if (i >= n) continue;
    const at = cell[i]!;
    const t = x % T;
    const v = (x - t) / T;
    holders[at]!++;
    if (thread[at] === -1 || t < thread[at]! || (t === thread[at] && v < value[at]!)) {
      thread[at] = t;
      value[at] = v;
    }
  }
  return { title, rows, cols, thread, value, holders, index };
}

/** Panel `p` of operand x as a descriptor operand's blocks when it is one (B's panel is shown K×N: `shownKN`). */
function asDescriptor(p: TvPanel, m: TiledMma, x: Operand, shownKN: boolean): TvPanel {
  const parts = descriptorParts(m, x);
  if (!parts) return p;
  return {
    ...p,
    note: descriptorLine(m, x)!,
    parts: parts.map((q) => ({ rows: shownKN ? q.j : q.i, cols: shownKN ? q.i : q.j, lowest: q.threads[0]!, threads: runsText(q.threads) })),
  };
}

/** A tiled MMA as print_latex(tiled_mma) draws it: B (K×N) above C (M×N), A (M×K) to the left of C; a descriptor
 *  operand as its blocks. */
export function mmaPicture(m: TiledMma, title = `${m.atom.name}`): TvPicture {
  const [tM, tN, tK] = m.tileShape;
  return {
    title,
    panels: [
      { panel: asDescriptor(tvPanel(`A (M×K = ${tM}×${tK})`, m.layoutA_TV, tM, tK), m, 'A', false), slot: [0, 1] },
      { panel: asDescriptor(tvPanel(`B (shown K×N = ${tK}×${tN})`, m.layoutB_TV, tK, tN, tN, 1), m, 'B', true), slot: [1, 0] },
      { panel: tvPanel(`C (M×N = ${tM}×${tN})`, m.layoutC_TV, tM, tN), slot: [1, 1] },
    ],
  };
}

/** The rows and columns of a tiler: the first mode down, the rest across. */
function tileGrid(tiler: readonly number[]): [number, number] {
  const rows = tiler[0] ?? 1;
  return [rows, tiler.slice(1).reduce((a, b) => a * b, 1)];
}

/** A tiled copy as print_latex(tiled_copy) draws it: the source and destination tiles side by side. */
export function copyPicture(c: TiledCopy, title = `${c.atom.name} (${c.atom.bits}-bit values)`): TvPicture {
  const [rows, cols] = tileGrid(c.tiler);
  return {
    title,
    panels: [
      { panel: tvPanel(`source (${rows}×${cols})`, c.layoutS_TV, rows, cols), slot: [0, 0] },
      { panel: tvPanel(`destination (${rows}×${cols})`, c.layoutD_TV, rows, cols), slot: [1, 0] },
    ],
  };
}

const label = (p: TvPanel, i: number): string => (p.thread[i]! < 0 ? '' : `T${p.thread[i]}V${p.value[i]}`);

/** The picture as text: each panel a grid of `T<t>V<v>` cells with row and column indices. */
export function tvAscii(pic: TvPicture): string {
  const out = [pic.title];
  for (const { panel: p } of pic.panels) {
    if (p.parts) {
      out.push('', p.title, p.note ?? '');
      continue;
    }
    let w = 2;
    for (let i = 0; i < p.thread.length; i++) w = Math.max(w, label(p, i).length);
    w = Math.max(w, String(p.cols - 1).length);
    const rw = String(p.rows - 1).length;
    out.push('', p.title, `${' '.repeat(rw)} ${Array.from({ length: p.cols }, (_, c) => String(c).padStart(w)).join(' ')}`);
    for (let r = 0; r < p.rows; r++) {
      const cells = Array.from({ length: p.cols }, (_, c) => label(p, r + p.rows * c).padStart(w));
      out.push(`${String(r).padStart(rw)} ${cells.join(' ')}`);
    }
  }
  return out.join('\n') + '\n';
}

const CW = 44;
const CH = 30;
const GAP = 40;

/** Where each panel goes (px): slot columns and rows sized by their widest and tallest panel. */
function placement(pic: TvPicture): { x: number[]; y: number[]; width: number; height: number } {
  const colW = new Map<number, number>();
  const rowH = new Map<number, number>();
  for (const {
    panel: p,
    slot: [sc, sr],
  } of pic.panels) {
    colW.set(sc, Math.max(colW.get(sc) ?? 0, p.cols * CW + GAP));
    rowH.set(sr, Math.max(rowH.get(sr) ?? 0, p.rows * CH + GAP));
  }
  const offs = (m: Map<number, number>, k: number): number => [...m.entries()].filter(([j]) => j < k).reduce((a, [, v]) => a + v, 0);
  const x = pic.panels.map(({ slot: [sc] }) => 30 + offs(colW, sc));
  const y = pic.panels.map(({ slot: [, sr] }) => 40 + offs(rowH, sr));
  const width = 30 + [...colW.values()].reduce((a, b) => a + b, 0);
  const height = 40 + [...rowH.values()].reduce((a, b) => a + b, 0);
  return { x, y, width, height };
}

/** One block of a descriptor operand: a rectangle over its cells, labelled with its threads. */
function svgPart(p: TvPanel, q: PanelPart): string {
  const [r0, r1] = q.rows;
  const [c0, c1] = q.cols;
  const w = (c1 - c0 + 1) * CW;
  const h = (r1 - r0 + 1) * CH;
  const tip = `${p.note ?? ''}: rows ${r0}–${r1}, columns ${c0}–${c1}, read whole by threads ${q.threads}`;
  return (
    `<g class="tv-part" data-threads="${q.threads.replace(/–/g, '-')}" data-rows="${r0}-${r1}" data-cols="${c0}-${c1}" transform="translate(${c0 * CW},${r0 * CH})">` +
    `<title>${xmlEscape(tip)}</title><rect width="${w}" height="${h}" fill="${threadColour(q.lowest)}" stroke="#000" stroke-width="0.5"/>` +
    `<text x="${w / 2}" y="${h / 2 - 6}" text-anchor="middle">descriptor operand (smem)</text>` +
    `<text x="${w / 2}" y="${h / 2 + 8}" text-anchor="middle">threads ${xmlEscape(q.threads)}</text></g>`
  );
}

/** The picture as a standalone SVG document, compact (render/svg.ts svgUseGrid): each thread's face (its colour, T<t>)
 *  once, each cell a `<use href="#t<t>">` in its row's group (`data-row`) and its V<v> in the row's text. */
export function tvSvg(pic: TvPicture): string {
  const { x, y, width, height } = placement(pic);
  const out = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="monospace" font-size="10">`,
    `<title>${xmlEscape(pic.title)}</title>`,
    `<text x="10" y="20" font-size="14">${xmlEscape(pic.title)}</text>`,
  ];
  // the faces: a white one for a cell no thread holds, one per thread that holds some
  const faces = new Set<number>();
  for (const { panel: p } of pic.panels) for (const t of p.thread) faces.add(t);
  const face = (t: number): string => (t < 0 ? 'e' : `t${t}`);
  out.push(
    '<defs>',
    ...[...faces]
      .sort((a, b) => a - b)
      .map((t) => svgFace(face(t), CW, CH, t < 0 ? '#ffffff' : threadColour(t), t < 0 ? undefined : { x: CW / 2, y: 12, s: `T${t}` })),
    '</defs>',
  );
  pic.panels.forEach(({ panel: p }, k) => {
    const x0 = x[k]!;
    const y0 = y[k]!;
    out.push(`<g class="tv-panel" transform="translate(${x0},${y0})">`, `<text x="0" y="-8" font-size="12">${xmlEscape(p.title)}</text>`);
    if (p.parts) {
      out.push(...p.parts.map((q) => svgPart(p, q)), '</g>');
      return;
    }
    // one face per thread (its colour and T<t>) and the cells as uses of it, V<v> per cell (render/svg.ts)
    const cell = (r: number, c: number): number => r + p.rows * c;
    out.push(
      ...svgUseGrid(
        { rows: p.rows, cols: p.cols, cw: CW, ch: CH, labelY: 24 },
        (r, c) => face(p.thread[cell(r, c)]!),
        (r, c) => (p.thread[cell(r, c)]! < 0 ? null : `V${p.value[cell(r, c)]}`),
      ),
    );
    out.push('</g>');
  });
  out.push('</svg>');
  return out.join('\n') + '\n';
}

/** One block of a descriptor operand in TikZ, the panel's origin at (r0, c0): a filled rectangle and its threads. */
function tikzPart(q: PanelPart, r0: number, c0: number): string[] {
  const [a, b] = q.rows;
  const [c, d] = q.cols;
  const k = q.lowest % THREAD_COLOURS.length;
  const text = darkBackground(threadColour(q.lowest), 1) ? ',text=white' : '';
  return [
    `\\draw[fill=thr${k}] (${r0 + a - 0.5},${c0 + c - 0.5}) rectangle (${r0 + b + 0.5},${c0 + d + 0.5});`,
    `\\node[minimum size=0pt${text}] at (${r0 + (a + b) / 2},${c0 + (c + d) / 2}) {descriptor operand (smem)\\\\threads ${q.threads.replace(/–/g, '--')}};`,
  ];
}

/** The picture as TikZ: a standalone LaTeX document (base classes and TikZ only), or with
 *  `body` only the tikzpicture; print_latex's style (1 cm cells, x down the rows). */
export function tvTikz(pic: TvPicture, opts: { body?: boolean } = {}): string {
  const out: string[] = [`% ${pic.title.replace(/[%\\]/g, ' ')}`];
  if (!opts.body) {
    out.push('\\documentclass{article}', '\\usepackage{tikz}', '\\newsavebox{\\tvpicture}', '', '\\begin{document}', '\\begin{lrbox}{\\tvpicture}');
  }
  out.push('\\begin{tikzpicture}[x={(0cm,-1cm)},y={(1cm,0cm)},every node/.style={minimum size=1cm, outer sep=0pt, align=center, font=\\tiny}]');
  THREAD_COLOURS.forEach((c, k) => out.push(`\\definecolor{thr${k}}{HTML}{${c.slice(1).toUpperCase()}}`));
  // panel origins in cells: slot columns and rows sized by their widest and tallest panel
  const colW = new Map<number, number>();
  const rowH = new Map<number, number>();
  for (const {
    panel: p,
    slot: [sc, sr],
  } of pic.panels) {
    colW.set(sc, Math.max(colW.get(sc) ?? 0, p.cols + 2));
    rowH.set(sr, Math.max(rowH.get(sr) ?? 0, p.rows + 2));
  }
  const offs = (m: Map<number, number>, k: number): number => [...m.entries()].filter(([j]) => j < k).reduce((a, [, v]) => a + v, 0);
  for (const {
    panel: p,
    slot: [sc, sr],
  } of pic.panels) {
    const r0 = offs(rowH, sr);
    const c0 = offs(colW, sc);
    const title = p.title.replace(/×/g, '$\\times$');
    out.push('', `% ${p.title}`, `\\node[anchor=south west,minimum size=0pt,font=\\small] at (${r0 - 0.5},${c0 - 0.5}) {${title}};`);
    if (p.parts) {
      for (const q of p.parts) out.push(...tikzPart(q, r0, c0));
      continue;
    }
    for (let c = 0; c < p.cols; c++) {
      for (let r = 0; r < p.rows; r++) {
        const i = r + p.rows * c;
        const t = p.thread[i]!;
        const style = t < 0 ? 'fill=white' : `fill=thr${t % THREAD_COLOURS.length}${darkBackground(threadColour(t), 1) ? ',text=white' : ''}`;
        out.push(`\\node[${style},draw] at (${r0 + r},${c0 + c}) {${t < 0 ? '' : `T${t}\\\\V${p.value[i]}`}};`);
      }
    }
  }
  out.push('\\end{tikzpicture}');
  if (!opts.body) {
    out.push(
      '\\end{lrbox}',
      '\\ifdefined\\pdfpagewidth\\else\\let\\pdfpagewidth\\pagewidth\\let\\pdfpageheight\\pageheight\\fi',
      '\\pdfpagewidth=\\wd\\tvpicture',
      '\\pdfpageheight=\\dimexpr\\ht\\tvpicture+\\dp\\tvpicture\\relax',
      '\\hoffset=-1in \\voffset=-1in',
      '\\shipout\\hbox{\\usebox{\\tvpicture}}',
      '\\end{document}',
    );
  }
  return out.join('\n') + '\n';
}

/**
 * Pictures of a TMA descriptor (docs/descriptors.md §2.3, §7): the boxes the TMA moves,
 * drawn over the shared-memory tile and over the global tile, colour = box and one label per box
 * (its TMA coordinates), in ASCII, SVG and TikZ. Values in, strings out: a BoxPicture holds, for
 * every cell of each panel, the box it belongs to (the descriptors room decides it); this file
 * only draws. Big tiles are drawn compact: a drawn block stands for br × bc cells only where every
 * such block is one box (boxBlocks), so the compact picture says exactly what the full one does.
 */
import { darkBackground, tileColour } from './colour.js';
import { xmlEscape } from './svg.js';

/** One panel: a rows × cols grid of cells, each in one box or in none. */
export interface BoxPanel {
  /** what the grid shows, e.g. `shared memory: offsets, rows of 64` */
  readonly title: string;
  readonly rows: number;
  readonly cols: number;
  /** the box of cell (r, c) is box[r + rows·c]; −1: no box writes the cell */
  readonly box: Int32Array;
}

/** A TMA descriptor's picture: its panels and, per box, the one label drawn for it. */
export interface BoxPicture {
  readonly title: string;
  /** labels[k]: box k's TMA coordinates, innermost first (`(0,64)`) */
  readonly labels: readonly string[];
  readonly panels: readonly BoxPanel[];
}

/** The drawn grid of a panel: blocks of br × bc cells, each one box. */
export interface BoxBlocks {
  /** cells per block, down and across */
  readonly br: number;
  readonly bc: number;
  /** blocks down and across: ⌈rows / br⌉, ⌈cols / bc⌉ */
  readonly rows: number;
  readonly cols: number;
  /** the box of block (i, j): that of its first cell (i·br, j·bc) */
  readonly box: (i: number, j: number) => number;
}

/** Most blocks a panel draws down or across before it is drawn compact. */
export const MAX_BLOCKS = 32;

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));

/** The least divisor d of n with ⌈cells / d⌉ ≤ MAX_BLOCKS, or n itself when none is. */
function blockSize(cells: number, n: number): number {
  for (let d = 1; d < n; d++) if (n % d === 0 && Math.ceil(cells / d) <= MAX_BLOCKS) return d;
  return n;
}

/**
 * The compact grid of a panel: u, the gcd of the rows and of every row at which some column
 * changes box (v likewise across), makes every aligned u × v block one box — within it no step
 * down or across changes box. A panel of at most MAX_BLOCKS rows (columns) is drawn cell by
 * cell down (across); a bigger one by the least divisor of u (v) that brings it within bounds.
 * @example boxBlocks({ title: '', rows: 4, cols: 2, box: Int32Array.of(0, 0, 1, 1, 0, 0, 1, 1) }).br // 1
 */
export function boxBlocks(p: BoxPanel): BoxBlocks {
  const at = (r: number, c: number): number => p.box[r + p.rows * c]!;
  let u = p.rows;
  let v = p.cols;
  for (let c = 0; c < p.cols; c++) {
    for (let r = 0; r < p.rows; r++) {
      if (r > 0 && at(r, c) !== at(r - 1, c)) u = gcd(u, r);
      if (c > 0 && at(r, c) !== at(r, c - 1)) v = gcd(v, c);
    }
  }
  const br = p.rows <= MAX_BLOCKS ? 1 : blockSize(p.rows, u);
  const bc = p.cols <= MAX_BLOCKS ? 1 : blockSize(p.cols, v);
  return { br, bc, rows: Math.ceil(p.rows / br), cols: Math.ceil(p.cols / bc), box: (i, j) => at(i * br, j * bc) };
}

/** Where box k's one label goes in a panel: the middle of its blocks' bounding rectangle when
 *  they fill it, else its first block (column by column); null when the panel lacks the box. */
function labelSpots(b: BoxBlocks, boxes: number): ({ i: number; j: number } | null)[] {
  const lo = Array.from({ length: boxes }, () => ({ i0: Infinity, j0: Infinity, i1: -1, j1: -1, n: 0, fi: 0, fj: 0 }));
  for (let j = 0; j < b.cols; j++) {
    for (let i = 0; i < b.rows; i++) {
      const k = b.box(i, j);
      const s = lo[k];
      if (k < 0 || !s) continue;
      if (s.n === 0) [s.fi, s.fj] = [i, j];
      s.n++;
      [s.i0, s.j0, s.i1, s.j1] = [Math.min(s.i0, i), Math.min(s.j0, j), Math.max(s.i1, i), Math.max(s.j1, j)];
    }
  }
  return lo.map((s) => {
    if (s.n === 0) return null;
    if (s.n === (s.i1 - s.i0 + 1) * (s.j1 - s.j0 + 1)) return { i: (s.i0 + s.i1) / 2, j: (s.j0 + s.j1) / 2 };
    return { i: s.fi, j: s.fj };
  });
}

const SYMBOLS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** The text of box k in an ASCII cell: a symbol while there are at most 62 boxes, else its number. */
const symbol = (k: number, boxes: number): string => (k < 0 ? '.' : boxes <= SYMBOLS.length ? SYMBOLS[k]! : String(k));

const blockNote = (b: BoxBlocks): string => (b.br === 1 && b.bc === 1 ? '' : ` (each mark ${b.br}×${b.bc} cells, one box)`);

/**
 * The picture as text: per panel a grid of box marks (a letter per box, `.` for a cell no box
 * writes; numbers beyond 62 boxes) with the first cell index of each row and column of marks,
 * then the key: each box's mark and TMA coordinates.
 * @example boxAscii({ title: 't', labels: ['(0)'], panels: [{ title: 'p', rows: 1, cols: 2, box: Int32Array.of(0, 0) }] }).includes('A = box 0 at (0)') // true
 */
export function boxAscii(pic: BoxPicture): string {
  const n = pic.labels.length;
  const out = [pic.title];
  for (const p of pic.panels) {
    const b = boxBlocks(p);
    let w = 1;
    for (let j = 0; j < b.cols; j++) for (let i = 0; i < b.rows; i++) w = Math.max(w, symbol(b.box(i, j), n).length);
    const rw = String(Math.max(p.rows - 1, 0)).length;
    out.push('', `${p.title}${blockNote(b)}`);
    // column indices written vertically, one digit per line, so that every column keeps its width
    const heads = Array.from({ length: b.cols }, (_, j) => String(j * b.bc));
    const hw = Math.max(...heads.map((t) => t.length));
    for (let d = 0; d < hw; d++) out.push(`${' '.repeat(rw + 1)}${heads.map((t) => (t.padStart(hw)[d] ?? ' ').padStart(w)).join(' ')}`);
    for (let i = 0; i < b.rows; i++) {
      const marks = Array.from({ length: b.cols }, (_, j) => symbol(b.box(i, j), n).padStart(w));
      out.push(`${String(i * b.br).padStart(rw)} ${marks.join(' ')}`);
    }
  }
  out.push('', `${n} box${n === 1 ? '' : 'es'}:`, ...pic.labels.map((l, k) => `  ${symbol(k, n)} = box ${k} at ${l}`));
  return out.join('\n') + '\n';
}

/** Pixels of a drawn block: 36 for small grids, down to 8 so that a panel stays near 400 px. */
const blockPx = (b: BoxBlocks): number => Math.max(8, Math.min(36, Math.floor(400 / Math.max(b.rows, b.cols, 1))));

const GAP = 48;

/** Panels side by side: each panel's origin and pixels per block. */
function layoutPanels(pic: BoxPicture): { x: number; y: number; px: number; b: BoxBlocks }[] {
  let x = 48;
  return pic.panels.map((p) => {
    const b = boxBlocks(p);
    const px = blockPx(b);
    const at = { x, y: 88, px, b };
    x += b.cols * px + GAP + 24;
    return at;
  });
}

/**
 * The picture as a standalone SVG document: per panel one `<rect class="box-block">` per drawn
 * block with `data-box`, `data-row`, `data-col` (its first cell), `data-rows`, `data-cols` (its
 * extent in cells) and a `<title>` naming the box and its coordinates; per box present in a panel
 * one `<text class="box-label" data-box>`; index marks along the edges.
 * @example boxSvg({ title: 't', labels: ['(0)'], panels: [{ title: 'p', rows: 1, cols: 1, box: Int32Array.of(0) }] }).startsWith('<?xml') // true
 */
export function boxSvg(pic: BoxPicture): string {
  const at = layoutPanels(pic);
  const width = Math.max(320, ...at.map((a) => a.x + a.b.cols * a.px + 24));
  const height = Math.max(...at.map((a) => a.y + a.b.rows * a.px), 88) + 24;
  const out = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="${xmlEscape(pic.title)}">`,
    `<title>${xmlEscape(pic.title)}</title>`,
    '<style>text{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:12px;fill:#1b1f24}.axis{font-size:10px;fill:#6a737d}' +
      '.box-label{font-size:13px;font-weight:600}.on-dark{fill:#fff}.box-block{stroke:#fff;stroke-width:0.5}' +
      '.outer{fill:none;stroke:#1b1f24;stroke-width:1.5}</style>',
    `<text x="8" y="18" font-size="14">${xmlEscape(pic.title)}</text>`,
  ];
  pic.panels.forEach((p, q) => {
    const { x, y, px, b } = at[q]!;
    out.push(`<g class="box-panel" data-panel="${q}" data-rows="${p.rows}" data-cols="${p.cols}" transform="translate(${x},${y})">`);
    out.push(`<text x="0" y="-44">${xmlEscape(p.title)}</text>`);
    if (blockNote(b)) out.push(`<text class="axis" x="0" y="-28">${xmlEscape(blockNote(b).trim())}</text>`);
    const step = Math.max(1, Math.ceil(28 / px));
    for (let j = 0; j < b.cols; j += step) out.push(`<text class="axis" x="${j * px + px / 2}" y="-6" text-anchor="middle">${j * b.bc}</text>`);
    for (let i = 0; i < b.rows; i += Math.max(1, Math.ceil(14 / px)))
      out.push(`<text class="axis" x="-4" y="${i * px + px / 2 + 3}" text-anchor="end">${i * b.br}</text>`);
    for (let j = 0; j < b.cols; j++) {
      for (let i = 0; i < b.rows; i++) {
        const k = b.box(i, j);
        const rows = Math.min(b.br, p.rows - i * b.br);
        const cols = Math.min(b.bc, p.cols - j * b.bc);
        const tip = k < 0 ? 'no box' : `box ${k} at ${pic.labels[k]}`;
        out.push(
          `<rect class="box-block" data-box="${k}" data-row="${i * b.br}" data-col="${j * b.bc}" data-rows="${rows}" data-cols="${cols}" ` +
            `x="${j * px}" y="${i * px}" width="${px}" height="${px}" fill="${k < 0 ? '#ffffff' : tileColour(k)}"><title>${xmlEscape(tip)}</title></rect>`,
        );
      }
    }
    labelSpots(b, pic.labels.length).forEach((s, k) => {
      if (!s) return;
      const cls = darkBackground(tileColour(k), 1) ? 'box-label on-dark' : 'box-label';
      out.push(`<text class="${cls}" data-box="${k}" x="${(s.j + 0.5) * px}" y="${(s.i + 0.5) * px + 4}" text-anchor="middle">${k}</text>`);
    });
    out.push(`<rect class="outer" width="${b.cols * px}" height="${b.rows * px}"/>`, '</g>');
  });
  out.push('</svg>', '');
  return out.join('\n');
}

const TEX_SYMBOLS: Record<string, string> = { '×': '$\\times$', Φ: '$\\Phi$', '·': '$\\cdot$', '’': "'" };

/** Text for a TikZ node: TeX's specials escaped, the few symbols of the titles in math mode (pdfTeX's base fonts). */
const texText = (t: string): string =>
  t.replace(/[%&#_$^~{}\\]/g, (c) => (c === '\\' ? '/' : `\\${c === '^' || c === '~' ? c + '{}' : c}`)).replace(/[^\x20-\x7e]/g, (c) => TEX_SYMBOLS[c] ?? '?');

/**
 * The picture as TikZ (print_latex's axes: x down the rows, y across; one unit per drawn block):
 * per panel (`% panel q: title`) a `\fill` per block in its box's colour (`% block r c rows cols box k` above it), one
 * `\node` label per box, and the key of coordinates as a comment. Standalone by default (a LaTeX
 * document needing only TikZ), `{ body: true }` the bare tikzpicture.
 * @example boxTikz({ title: 't', labels: ['(0)'], panels: [{ title: 'p', rows: 1, cols: 1, box: Int32Array.of(0) }] }).includes('\\fill[box0]') // true
 */
export function boxTikz(pic: BoxPicture, opts: { body?: boolean } = {}): string {
  const plain = (t: string): string => t.replace(/[%\\{}$&#_^~]/g, ' ');
  const out: string[] = [`% ${plain(pic.title)}`];
  if (!opts.body)
    out.push('\\documentclass{article}', '\\usepackage{tikz}', '\\newsavebox{\\boxpicture}', '', '\\begin{document}', '\\begin{lrbox}{\\boxpicture}');
  out.push('\\begin{tikzpicture}[x={(0cm,-0.4cm)},y={(0.4cm,0cm)},every node/.style={font=\\scriptsize}]');
  pic.labels.forEach((l, k) => out.push(`\\definecolor{box${k}}{HTML}{${tileColour(k).slice(1).toUpperCase()}} % box ${k} at ${l}`));
  let c0 = 0;
  for (const [q, p] of pic.panels.entries()) {
    const b = boxBlocks(p);
    out.push(
      '',
      `% panel ${q}: ${plain(p.title + blockNote(b))}`,
      `\\node[anchor=south west,font=\\small] at (-1.5,${c0}) {${texText(p.title + blockNote(b))}};`,
    );
    for (let j = 0; j < b.cols; j++) {
      for (let i = 0; i < b.rows; i++) {
        const k = b.box(i, j);
        const rows = Math.min(b.br, p.rows - i * b.br);
        const cols = Math.min(b.bc, p.cols - j * b.bc);
        out.push(`% block ${i * b.br} ${j * b.bc} ${rows} ${cols} box ${k}`, `\\fill[${k < 0 ? 'white' : `box${k}`}] (${i},${c0 + j}) rectangle ++(1,1);`);
      }
    }
    labelSpots(b, pic.labels.length).forEach((s, k) => {
      if (s) out.push(`\\node${darkBackground(tileColour(k), 1) ? '[text=white]' : ''} at (${s.i + 0.5},${c0 + s.j + 0.5}) {${k}};`);
    });
    out.push(`\\draw[thick] (0,${c0}) rectangle (${b.rows},${c0 + b.cols});`);
    c0 += b.cols + 4;
  }
  out.push('\\end{tikzpicture}');
  if (!opts.body) {
    out.push(
      '\\end{lrbox}',
      '\\ifdefined\\pdfpagewidth\\else\\let\\pdfpagewidth\\pagewidth\\let\\pdfpageheight\\pageheight\\fi',
      '\\pdfpagewidth=\\wd\\boxpicture',
      '\\pdfpageheight=\\dimexpr\\ht\\boxpicture+\\dp\\boxpicture\\relax',
      '\\hoffset=-1in \\voffset=-1in',
      '\\shipout\\hbox{\\usebox{\\boxpicture}}',
      '\\end{document}',
    );
  }
  return out.join('\n') + '\n';
}

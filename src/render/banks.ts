/**
 * The bank picture of a memory layout (`layoutgpu conflicts --svg`/`--tikz`, the page's memory
 * panel): the tile drawn as `show` draws it, each cell filled with the colour of its
 * shared-memory bank (docs/semantics.md §9.2: the 4-byte word w is in bank w mod 32) and
 * labelled with its (swizzled) offset, the thread and value that access it (`T5 V2`, as CuTe's
 * print_latex labels a TV layout) or its bank; cells whose bank held more than one distinct word
 * in a phase that accessed them are outlined in red and marked with the number of ways.
 */
import { darkBackground, hslHex } from './colour.js';
import { metrics, svgUseGrid, xmlEscape } from './svg.js';
import { pictureName, type Picture } from './grid.js';

/**
 * 32 bank colours that tell the banks apart: 16 hues 22.5° apart, light for banks 0–15 and dark
 * for banks 16–31 (bank b and b + 16 share a hue, neighbours differ by one hue step).
 * @example BANK_PALETTE.length // 32, all distinct
 */
export const BANK_PALETTE: readonly string[] = Array.from({ length: 32 }, (_, b) => hslHex((b % 16) * 22.5, 0.7, b < 16 ? 0.74 : 0.44));

/** What a bank picture's cells say. */
export type BankLabel = 'offset' | 'tv' | 'bank' | 'none';

/** The first (thread, value) of a TV layout that accesses each tile index (−1: none). */
export interface Accessors {
  readonly thread: Int32Array;
  readonly value: Int32Array;
}

/**
 * For every tile index x < n, the first (thread t, value j) in (t, j) order with Φ_TV(t, j) = x,
 * from the TV table `index` (Φ_TV at t + T·j, as memory/access.ts threadValues builds it).
 * @example accessorsOf(Float64Array.of(0, 2, 1, 3), 2, 4).value // Int32Array [0, 1, 0, 1]
 */
export function accessorsOf(index: Float64Array, threads: number, n: number): Accessors {
  const thread = new Int32Array(n).fill(-1);
  const value = new Int32Array(n).fill(-1);
  const values = threads === 0 ? 0 : index.length / threads;
  for (let t = 0; t < threads; t++) {
    for (let j = 0; j < values; j++) {
      const x = index[t + threads * j]!;
      if (x < n && thread[x] === -1) {
        thread[x] = t;
        value[x] = j;
      }
    }
  }
  return { thread, value };
}

/** The label of cell x. */
export function bankCellLabel(label: BankLabel, x: number, offset: number, bank: number, acc?: Accessors): string {
  if (label === 'none') return '';
  if (label === 'bank') return `B${bank}`;
  if (label === 'tv') return acc && acc.thread[x]! >= 0 ? `T${acc.thread[x]} V${acc.value[x]}` : '';
  return String(offset);
}

/** Options of the bank pictures: the labels, and the accessors for `tv` labels. */
export interface BankPictureOptions {
  readonly label?: BankLabel;
  readonly accessors?: Accessors;
}

const KEY =
  'fill: bank (32 colours: 16 hues, light for banks 0–15, dark for 16–31); red outline: a conflicted bank in a phase that accessed the cell (n× = distinct words)';

/**
 * The SVG document: bank[x] and ways[x] per tile index x (bankMap), the picture's grid and
 * offsets (composedPicture), compact for big tiles: each (bank, ways) face once in <defs>, a
 * `<use href="#b<bank>[w<ways>]">` per cell in its row's group, the labels one text per row.
 * Pre-condition: bank and ways have one entry per cell.
 * @example bankSvg(pic, map.bank, map.ways, 'Sw<3,3,3> o (8,64):(64,1)').startsWith('<?xml')
 */
export function bankSvg(p: Picture, bank: Int32Array, ways: Int32Array, caption: string, o: BankPictureOptions = {}): string {
  const label = o.label ?? 'offset';
  const m = metrics(p);
  const cw = label === 'tv' ? Math.max(m.cw, 64) : m.cw;
  const width = m.left + p.grid.cols * cw + 2;
  const legend = 22;
  const { rows, cols, index } = p.grid;
  const out: string[] = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${m.height + legend}" viewBox="0 0 ${width} ${m.height + legend}" role="img" aria-label="${xmlEscape(caption)}">`,
    `<title>${xmlEscape(caption)}</title>`,
    '<style>text{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:13px;fill:#1b1f24}' +
      '.axis{font-size:12px;fill:#6a737d}.bg{stroke:#8a939c;stroke-width:1}.on-dark text{fill:#fff}' +
      '.conflict .bg{stroke:#d00;stroke-width:3}.ways{font-size:9px;fill:#d00;font-weight:bold}.on-dark .ways{fill:#ffd0d0}' +
      '.outer{fill:none;stroke:#1b1f24;stroke-width:1.5}tspan.light{fill:#fff}</style>',
  ];
  for (let c = 0; c < cols; c++) out.push(`<text class="axis" x="${m.left + c * cw + cw / 2}" y="${m.top - 8}" text-anchor="middle">${c}</text>`);
  for (let r = 0; r < rows; r++) out.push(`<text class="axis" x="${m.left - 8}" y="${m.top + r * m.ch + m.ch / 2 + 4}" text-anchor="end">${r}</text>`);
  // compact (render/svg.ts svgUseGrid): a face per (bank, conflict ways) once, a <use> of it per cell, the labels per row
  const faceOf = (x: number): string => (ways[x]! > 1 ? `b${bank[x]}w${ways[x]}` : `b${bank[x]}`);
  const faces = new Map<string, string>();
  for (let x = 0; x < bank.length; x++) {
    const id = faceOf(x);
    if (faces.has(id)) continue;
    const b = bank[x]!;
    const w = ways[x]!;
    const colour = BANK_PALETTE[b]!;
    const cls = `cell${darkBackground(colour, 1) ? ' on-dark' : ''}${w > 1 ? ' conflict' : ''}`;
    faces.set(
      id,
      `<g id="${id}" class="${cls}"><rect class="bg" width="${cw}" height="${m.ch}" style="fill:${colour}"/>` +
        (w > 1 ? `<text class="ways" x="${cw - 3}" y="10" text-anchor="end">${w}×</text>` : '') +
        '</g>',
    );
  }
  out.push('<defs>', ...faces.values(), '</defs>', `<g transform="translate(${m.left},${m.top})">`);
  const at = (r: number, c: number): number => index(r, c);
  out.push(
    ...svgUseGrid(
      { rows, cols, cw, ch: m.ch, labelY: m.ch / 2 + 5 },
      (r, c) => faceOf(at(r, c)),
      (r, c) => bankCellLabel(label, at(r, c), p.offsets[at(r, c)]!, bank[at(r, c)]!, o.accessors) || null,
      (r, c) => (darkBackground(BANK_PALETTE[bank[at(r, c)]!]!, 1) ? 'light' : null),
    ),
    '</g>',
  );
  out.push(`<rect class="outer" x="${m.left}" y="${m.top}" width="${cols * cw}" height="${rows * m.ch}"/>`);
  out.push(`<text class="axis" x="${m.left}" y="${m.height + 14}">${xmlEscape(KEY)}</text>`);
  out.push('</svg>', '');
  return out.join('\n');
}

/**
 * The bank picture as TikZ (a bare tikzpicture: `\usepackage{tikz}` is all it needs), in the
 * style of `show --tikz`: 1 cm cells, x down the rows, y along the columns; fill = bank colour,
 * conflicted cells framed in red with their ways. The first line names the memory layout.
 * @example bankTikz(pic, map.bank, map.ways).startsWith('% Banks: ')
 */
export function bankTikz(p: Picture, bank: Int32Array, ways: Int32Array, o: BankPictureOptions = {}): string {
  const label = o.label ?? 'offset';
  const { rows, cols, index } = p.grid;
  const out = [`% Banks: ${pictureName(p)}`, `% ${KEY}`];
  const used = new Set<number>(bank);
  for (const b of [...used].sort((a, c) => a - c)) out.push(`\\definecolor{bank${b}}{HTML}{${BANK_PALETTE[b]!.slice(1).toUpperCase()}}`);
  out.push('\\begin{tikzpicture}[x={(0cm,-1cm)},y={(1cm,0cm)},every node/.style={minimum size=1cm, outer sep=0pt}]', '');
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const x = index(r, c);
      const b = bank[x]!;
      const w = ways[x]!;
      let style = `fill=bank${b}`;
      if (darkBackground(BANK_PALETTE[b]!, 1)) style += ',text=white';
      if (w > 1) style += ',draw=red,line width=1.5pt';
      const text = bankCellLabel(label, x, p.offsets[x]!, b, o.accessors);
      out.push(`\\node[${style}] at (${r},${c}) {${label === 'tv' ? `\\tiny ${text}` : text}};${w > 1 ? ` % ${w}-way` : ''}`);
    }
  }
  out.push(`\\draw[color=black,thick,shift={(-0.5,-0.5)}] (0,0) grid (${rows},${cols});`, '');
  for (let r = 0; r < rows; r++) out.push(`\\node at (${r},-1) {\\texttt{${r}}};`);
  for (let c = 0; c < cols; c++) out.push(`\\node at (-1,${c}) {\\texttt{${c}}};`);
  out.push('\\end{tikzpicture}', '');
  return out.join('\n');
}

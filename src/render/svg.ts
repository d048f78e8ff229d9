/**
 * Pictures as standalone SVG documents, in the style of the page and the paper's figures: a
 * grid of cells labelled with Φ(x), row and column indices along the edges; in a tiled picture
 * the colour of a cell is its tile and the opacity its entry within the tile (Remark 2.3.8.3).
 * Text only: no DOM, so the CLI writes it to a file and the page could embed it.
 */
import { darkBackground, entryOpacity, tileColour } from './colour.js';
import { pictureName, swizzleClass, type Picture } from './grid.js';

/** Cell metrics shared with the page: width fits the widest label, height fixed. */
export interface CellMetrics {
  /** cell width (px) */
  readonly cw: number;
  /** cell height (px) */
  readonly ch: number;
  /** x of the grid's left edge (room for the row indices) */
  readonly left: number;
  /** y of the grid's top edge (room for the column indices) */
  readonly top: number;
  /** width of the whole picture (px) */
  readonly width: number;
  /** height of the whole picture (px) */
  readonly height: number;
}

/**
 * Cell size and margins of a picture: cells 36 px high and wide enough for the widest offset
 * or column index; room on the left for the row indices.
 * @example metrics(makePicture(parseLayout('(4,8):(1,4)'))).cw // 38
 */
export function metrics(p: Picture): CellMetrics {
  let widest = String(Math.max(p.grid.cols - 1, 0)).length;
  for (let x = 0; x < p.offsets.length; x++) {
    const v = p.offsets[x]!;
    if (v >= 10 ** widest) widest = String(v).length;
  }
  const cw = Math.max(38, 10 * widest + 16);
  const ch = 36;
  const left = 10 + 8 * String(Math.max(p.grid.rows - 1, 0)).length + 8;
  const top = 26;
  return { cw, ch, left, top, width: left + p.grid.cols * cw + 2, height: top + p.grid.rows * ch + 2 };
}

/** The key of a swizzled picture's colours (SVG, TikZ, the page). */
export function swizzleKey(sw: { low: number; bits: number }): string {
  return `colour = offset bits [${sw.low}, ${sw.low + sw.bits}), the ${sw.bits} bit${sw.bits === 1 ? '' : 's'} the swizzle writes (⌊offset / ${2 ** sw.low}⌋ mod ${2 ** sw.bits})`;
}

/** XML text escaping (&, <, >, "). */
export function xmlEscape(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/**
 * The picture as a standalone SVG document (UTF-8 text): one `<g class="cell">` per index with
 * `data-index`, `data-offset` (and `data-tile`, `data-entry` when tiled) and a `<title>` naming
 * x, Φ(x) and the tile. Pre-condition: a Picture from makePicture.
 * @example svgPicture(makePicture(parseLayout('(4,8):(1,4)'))).startsWith('<?xml') // true
 */
export function svgPicture(p: Picture, caption = `picture of ${pictureName(p)}`): string {
  const m = metrics(p);
  const { rows, cols, index } = p.grid;
  // a swizzled picture (untiled) is coloured by the bits its swizzle writes, with a key below
  const sw = p.tiling ? undefined : p.swizzle;
  const key = sw ? 22 : 0;
  const out: string[] = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<svg xmlns="http://www.w3.org/2000/svg" width="${m.width}" height="${m.height + key}" viewBox="0 0 ${m.width} ${m.height + key}" role="img" aria-label="${xmlEscape(caption)}">`,
    `<title>${xmlEscape(caption)}</title>`,
    '<style>text{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:14px;fill:#1b1f24}' +
      '.axis{font-size:12px;fill:#6a737d}.bg{fill:#fff;stroke:#8a939c;stroke-width:1}' +
      '.on-dark text{fill:#fff}.outer{fill:none;stroke:#1b1f24;stroke-width:1.5}</style>',
  ];
  for (let c = 0; c < cols; c++) out.push(`<text class="axis" x="${m.left + c * m.cw + m.cw / 2}" y="${m.top - 8}" text-anchor="middle">${c}</text>`);
  for (let r = 0; r < rows; r++) out.push(`<text class="axis" x="${m.left - 8}" y="${m.top + r * m.ch + m.ch / 2 + 4}" text-anchor="end">${r}</text>`);
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const x = index(r, c);
      const v = p.offsets[x]!;
      const t = p.tiling?.tileOf(x) ?? null;
      let cls = 'cell';
      let fill = '';
      let data = `data-index="${x}" data-offset="${v}"`;
      let tip = `x = ${x}, Φ(x) = ${v}`;
      if (t && p.tiling) {
        const colour = tileColour(t.tile);
        const op = entryOpacity(t.entry, p.tiling.tileSize);
        if (darkBackground(colour, op)) cls += ' on-dark';
        fill = ` style="fill:${colour};fill-opacity:${op.toFixed(3)}"`;
        data += ` data-tile="${t.tile}" data-entry="${t.entry}"`;
        tip += `, tile ${p.tiling.coordOf?.(t.tile) ?? t.tile}, entry ${t.entry}`;
      } else if (sw) {
        const k = swizzleClass(v, sw);
        const colour = tileColour(k);
        const op = 0.55;
        if (darkBackground(colour, op)) cls += ' on-dark';
        fill = ` style="fill:${colour};fill-opacity:${op}"`;
        data += ` data-swizzle="${k}"`;
        tip += `, offset bits [${sw.low}, ${sw.low + sw.bits}) = ${k}`;
      }
      out.push(
        `<g class="${cls}" ${data} transform="translate(${m.left + c * m.cw},${m.top + r * m.ch})"><title>${tip}</title>` +
          `<rect class="bg" width="${m.cw}" height="${m.ch}"${fill}/><text x="${m.cw / 2}" y="${m.ch / 2 + 5}" text-anchor="middle">${v}</text></g>`,
      );
    }
  }
  out.push(`<rect class="outer" x="${m.left}" y="${m.top}" width="${cols * m.cw}" height="${rows * m.ch}"/>`);
  if (sw) out.push(`<text class="axis" x="${m.left}" y="${m.height + 14}">${xmlEscape(swizzleKey(sw))}</text>`);
  out.push('</svg>', '');
  return out.join('\n');
}

/**
 * A grid of cells written compactly, for pictures of thousands of cells (a 128×64 tile, a CTA's MMA): each distinct
 * face (a filled, outlined rect with its fixed text, e.g. a thread's colour and `T5`) once in `<defs>` as `<g id>`,
 * each cell a `<use>` of its face in a group per row (`data-row`, the row's y once), and each cell's own label in one
 * `<text>` per row of `<tspan>`s. Exact: every cell's face and label are in the document; only the repetition goes.
 * `face(r, c)` names a face of `faces` (or null: no cell drawn); `label(r, c)` the cell's own text (or null), in the
 * class `labelClass(r, c)` when given (a light label on a dark face).
 */
export function svgUseGrid(
  g: { readonly rows: number; readonly cols: number; readonly cw: number; readonly ch: number; readonly labelY: number },
  face: (r: number, c: number) => string | null,
  label: (r: number, c: number) => string | null,
  labelClass?: (r: number, c: number) => string | null,
): string[] {
  const out: string[] = [];
  for (let r = 0; r < g.rows; r++) {
    const uses: string[] = [];
    const spans: string[] = [];
    for (let c = 0; c < g.cols; c++) {
      const f = face(r, c);
      if (f !== null) uses.push(`<use href="#${f}" x="${c * g.cw}"/>`);
      const l = label(r, c);
      const cls = l === null ? null : (labelClass?.(r, c) ?? null);
      if (l !== null) spans.push(`<tspan x="${c * g.cw + g.cw / 2}"${cls ? ` class="${cls}"` : ''}>${xmlEscape(l)}</tspan>`);
    }
    const text = spans.length > 0 ? `<text y="${g.labelY}" text-anchor="middle">${spans.join('')}</text>` : '';
    out.push(`<g data-row="${r}" transform="translate(0,${r * g.ch})">${uses.join('')}${text}</g>`);
  }
  return out;
}

/** The `<defs>` entry of one face of svgUseGrid: a rect of w × h filled `fill` (outlined), with an optional text. */
export const svgFace = (id: string, w: number, h: number, fill: string, text?: { x: number; y: number; s: string }): string =>
  `<g id="${id}"><rect width="${w}" height="${h}" fill="${fill}" stroke="#000" stroke-width="0.5"/>` +
  (text ? `<text x="${text.x}" y="${text.y}" text-anchor="middle">${xmlEscape(text.s)}</text>` : '') +
  '</g>';

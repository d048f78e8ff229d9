/**
 * The bank picture of a memory layout (`layoutgpu conflicts --svg`, the page's memory panel):
 * the tile drawn as `show` draws it, each cell labelled with its (swizzled) offset and filled
 * with the colour of its shared-memory bank; cells whose bank held more than one distinct word
 * in a phase that accessed them are outlined in red and marked with the number of ways.
 */
import { darkBackground } from './colour.js';
import { metrics, xmlEscape } from './svg.js';
import type { Picture } from './grid.js';

/** The 32 bank colours of CuTe DSL's bank-conflict pictures (the anchor the issue names): a grey
 *  ramp from white, bank b at level 255 − ⌊b·175/32⌋, so bank order reads as lightness and the
 *  red conflict marks stand out on every cell. */
export const BANK_PALETTE: readonly string[] = Array.from({ length: 32 }, (_, b) => {
  const v = (255 - Math.floor((b * (255 - 80)) / 32)).toString(16).padStart(2, '0');
  return `#${v}${v}${v}`;
});

/**
 * The SVG document: bank[x] and ways[x] per tile index x (bankMap), the picture's grid and
 * offsets (composedPicture). Pre-condition: bank and ways have one entry per cell.
 * @example bankSvg(pic, map.bank, map.ways, 'Sw<3,3,3> o (8,64):(64,1)').startsWith('<?xml')
 */
export function bankSvg(p: Picture, bank: Int32Array, ways: Int32Array, caption: string): string {
  const m = metrics(p);
  const legend = 22;
  const { rows, cols, index } = p.grid;
  const out: string[] = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<svg xmlns="http://www.w3.org/2000/svg" width="${m.width}" height="${m.height + legend}" viewBox="0 0 ${m.width} ${m.height + legend}" role="img" aria-label="${xmlEscape(caption)}">`,
    `<title>${xmlEscape(caption)}</title>`,
    '<style>text{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:13px;fill:#1b1f24}' +
      '.axis{font-size:12px;fill:#6a737d}.bg{stroke:#8a939c;stroke-width:1}.on-dark text{fill:#fff}' +
      '.conflict .bg{stroke:#d00;stroke-width:3}.ways{font-size:9px;fill:#d00;font-weight:bold}' +
      '.outer{fill:none;stroke:#1b1f24;stroke-width:1.5}</style>',
  ];
  for (let c = 0; c < cols; c++) out.push(`<text class="axis" x="${m.left + c * m.cw + m.cw / 2}" y="${m.top - 8}" text-anchor="middle">${c}</text>`);
  for (let r = 0; r < rows; r++) out.push(`<text class="axis" x="${m.left - 8}" y="${m.top + r * m.ch + m.ch / 2 + 4}" text-anchor="end">${r}</text>`);
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const x = index(r, c);
      const b = bank[x]!;
      const w = ways[x]!;
      const colour = BANK_PALETTE[b]!;
      const cls = `cell${darkBackground(colour, 1) ? ' on-dark' : ''}${w > 1 ? ' conflict' : ''}`;
      out.push(
        `<g class="${cls}" data-index="${x}" data-offset="${p.offsets[x]}" data-bank="${b}" data-ways="${w}" transform="translate(${m.left + c * m.cw},${m.top + r * m.ch})">` +
          `<title>x = ${x}, offset ${p.offsets[x]}, bank ${b}${w > 1 ? `, ${w}-way conflict` : w === 1 ? ', no conflict' : ', not accessed'}</title>` +
          `<rect class="bg" width="${m.cw}" height="${m.ch}" style="fill:${colour}"/><text x="${m.cw / 2}" y="${m.ch / 2 + 5}" text-anchor="middle">${p.offsets[x]}</text>` +
          (w > 1 ? `<text class="ways" x="${m.cw - 3}" y="10" text-anchor="end">${w}×</text>` : '') +
          '</g>',
      );
    }
  }
  out.push(`<rect class="outer" x="${m.left}" y="${m.top}" width="${cols * m.cw}" height="${rows * m.ch}"/>`);
  out.push(`<text class="axis" x="${m.left}" y="${m.height + 14}">fill: bank (CuTe DSL's 32 greys, white = bank 0); red outline: a conflicted bank in a phase that accessed the cell (n× = distinct words)</text>`);
  out.push('</svg>', '');
  return out.join('\n');
}

/**
 * Pictures as TikZ, in the style of CuTe's print_latex: a standalone LaTeX document (or just
 * the tikzpicture) with the x axis pointing down the rows and the y axis along the columns,
 * 1 cm cells labelled with Φ(x), a thick grid, and the row and column indices in large
 * typewriter figures. Untiled cells are shaded by Φ(x) mod 8 in grey (print_latex's default
 * colouring); in a tiled picture the colour is the tile and its strength the entry (as on the
 * page and in SVG).
 */
import { darkBackground, entryOpacity, tileColour } from './colour.js';
import { pictureName, swizzleClass, type Picture } from './grid.js';
import { swizzleKey } from './svg.js';

/** Grey levels by Φ(x) mod 8, as print_latex shades a layout. */
const GREYS = ['black!00', 'black!40', 'black!20', 'black!60', 'black!10', 'black!50', 'black!30', 'black!70'];

/**
 * A document that needs only LaTeX's base and TikZ (no standalone class): the picture is set in
 * a box and shipped out as a page exactly its size (what the standalone class does), with
 * pdfTeX's, XeTeX's or LuaTeX's page-size registers.
 */
const PREAMBLE = [
  '\\documentclass{article}',
  '\\usepackage{tikz}',
  '\\newsavebox{\\layoutpicture}',
  '',
  '\\begin{document}',
  '\\begin{lrbox}{\\layoutpicture}',
];
const POSTAMBLE = [
  '\\end{lrbox}',
  '\\ifdefined\\pdfpagewidth\\else\\let\\pdfpagewidth\\pagewidth\\let\\pdfpageheight\\pageheight\\fi',
  '\\pdfpagewidth=\\wd\\layoutpicture',
  '\\pdfpageheight=\\dimexpr\\ht\\layoutpicture+\\dp\\layoutpicture\\relax',
  '\\hoffset=-1in \\voffset=-1in',
  '\\shipout\\hbox{\\usebox{\\layoutpicture}}',
  '\\end{document}',
];

/** Options of tikzPicture. */
export interface TikzOptions {
  /** only the tikzpicture environment (for \input into a document that loads tikz) */
  readonly body?: boolean;
}

/**
 * The picture as TikZ source. Standalone by default (a LaTeX document needing only the base
 * classes and TikZ; pdflatex makes it a one-page PDF exactly the picture's size); `{ body: true }` gives the bare `tikzpicture`, which needs
 * only `\usepackage{tikz}`. Pre-condition: a Picture from makePicture.
 * @example tikzPicture(makePicture(parseLayout('(2,2):(1,2)')), { body: true }).startsWith('% Layout: (2,2):(1,2)') // true
 */
export function tikzPicture(p: Picture, opts: TikzOptions = {}): string {
  const { rows, cols, index } = p.grid;
  const out: string[] = [`% Layout: ${pictureName(p)}`];
  if (!opts.body) out.push(...PREAMBLE);
  out.push('\\begin{tikzpicture}[x={(0cm,-1cm)},y={(1cm,0cm)},every node/.style={minimum size=1cm, outer sep=0pt}]', '');
  const t = p.tiling;
  if (t) {
    out.push(`% ${t.tiles} tile${t.tiles === 1 ? '' : 's'} of ${t.tileSize}: colour = tile, strength = entry of the tile`);
    const used = new Set<number>();
    for (let x = 0; x < p.offsets.length; x++) {
      const te = t.tileOf(x);
      if (te) used.add(te.tile);
    }
    for (const k of [...used].sort((a, b) => a - b)) out.push(`\\definecolor{tile${k}}{HTML}{${tileColour(k).slice(1).toUpperCase()}}`);
    out.push('');
  }
  // a swizzled picture (untiled): colour = the bits the swizzle writes (as in SVG and the page)
  const sw = t ? undefined : p.swizzle;
  if (sw) {
    out.push(`% ${swizzleKey(sw)}`);
    const used = new Set<number>();
    for (let x = 0; x < p.offsets.length; x++) used.add(swizzleClass(p.offsets[x]!, sw));
    for (const k of [...used].sort((a, b) => a - b)) out.push(`\\definecolor{sw${k}}{HTML}{${tileColour(k).slice(1).toUpperCase()}}`);
    out.push('');
  }
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const x = index(r, c);
      const v = p.offsets[x]!;
      let style = `fill=${GREYS[v % 8]!}`;
      const te = t?.tileOf(x) ?? null;
      if (t && te) {
        const op = entryOpacity(te.entry, t.tileSize);
        style = `fill=tile${te.tile}!${Math.round(op * 100)}`;
        if (darkBackground(tileColour(te.tile), op)) style += ',text=white';
      } else if (t) style = 'fill=white';
      else if (sw) {
        const k = swizzleClass(v, sw);
        style = `fill=sw${k}!55`;
        if (darkBackground(tileColour(k), 0.55)) style += ',text=white';
      }
      out.push(`\\node[${style}] at (${r},${c}) {${v}};`);
    }
  }
  out.push(`\\draw[color=black,thick,shift={(-0.5,-0.5)}] (0,0) grid (${rows},${cols});`, '');
  for (let r = 0; r < rows; r++) out.push(`\\node at (${r},-1) {\\Large{\\texttt{${r}}}};`);
  for (let c = 0; c < cols; c++) out.push(`\\node at (-1,${c}) {\\Large{\\texttt{${c}}}};`);
  out.push('\\end{tikzpicture}');
  if (!opts.body) out.push(...POSTAMBLE);
  out.push('');
  return out.join('\n');
}

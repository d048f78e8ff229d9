/**
 * `layoutgpu show <L>`: the picture of a layout as a grid of offsets on stdout (like CuTe's
 * print_layout), and as SVG (`--svg <file>`) or TikZ (`--tikz <file>`, `--tikz-body` for a bare
 * tikzpicture) files; `-` as the file writes it to stdout instead of the grid. `--divide <B>`
 * colours L's cells by the tile of L ⊘ B they fall in; `--product <B>` draws L ⊗ B coloured by
 * tile. The pictures themselves come from src/render/.
 */
import { writeFileSync } from 'node:fs';
import { LayoutError } from '../algebra/errors.js';
import { logicalProduct } from '../algebra/divide.js';
import type { Layout } from '../algebra/layout.js';
import { parseLayout } from '../algebra/notation.js';
import { asciiPicture } from '../render/ascii.js';
import { makePicture } from '../render/grid.js';
import { composedPicture } from '../render/composed.js';
import { formatLayoutFunction, isComposed, mapInner, parseLayoutFunction } from '../cute/composed.js';
import { svgPicture } from '../render/svg.js';
import { tikzPicture } from '../render/tikz.js';
import { divisionTiling, modeTiling, type Tiling } from '../render/tiles.js';
import { parseOptions, Usage } from './args.js';
import type { Command } from './commands.js';

const HELP = `layoutgpu show <L> [--divide <B> | --product <B>] [--svg <file>] [--tikz <file> [--tikz-body]]

Prints L as a grid of offsets Φ_L: rank 2 as rows × columns (like CuTe's print_layout), rank 1 as
a row, higher ranks with the modes after the first grouped into columns.

  --svg <file>     also write the picture as a standalone SVG document
  --tikz <file>    also write it as TikZ in the style of CuTe's print_latex (a standalone LaTeX
                   document; pdflatex makes a one-page PDF of it)
  --tikz-body      with --tikz: only the tikzpicture environment, for \\input in your document
  --divide <B>     colour each cell of L by its tile of L ⊘ B (colour = tile, strength = entry)
  --product <B>    draw L ⊗ B instead, coloured by tile (each tile a copy of L)
A file named - is written to stdout, in place of the grid. Pictures have at most 65536 cells.
`;

function report(e: unknown, io: { stderr: (s: string) => void }): number {
  if (e instanceof LayoutError) {
    io.stderr(`layoutgpu: ${e.kind}: ${e.message}\n`);
    return e.kind === 'gpu' || e.kind === 'timeout' ? 1 : 2;
  }
  if (e instanceof Usage) {
    io.stderr(`layoutgpu: ${e.message}\n`);
    return 2;
  }
  io.stderr(`layoutgpu: internal error: ${e instanceof Error ? e.message : String(e)}\n`);
  return 1;
}

function write(path: string, text: string, stdout: (s: string) => void): void {
  if (path === '-') {
    stdout(text);
    return;
  }
  try {
    writeFileSync(path, text);
  } catch (e) {
    throw new Usage(`cannot write ${path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
}

/** The `show` subcommand (see HELP). Bad input: one line on stderr, exit 2. */
export const showCommand: Command = {
  summary: "the layout as a grid of offsets (like CuTe's print_layout), or SVG / TikZ files",
  async run(argv, io) {
    try {
      const p = parseOptions(argv, ['--help', '--tikz-body'], ['--svg', '--tikz', '--divide', '--product'], 'show');
      if (p.flags.has('--help')) {
        io.stdout(HELP);
        return 0;
      }
      if (p.pos.length !== 1) throw new Usage('show takes one layout, e.g. layoutgpu show "(4,8):(1,4)"');
      if (p.opt.has('--divide') && p.opt.has('--product')) throw new Usage('show takes --divide or --product, not both');
      if (p.flags.has('--tikz-body') && !p.opt.has('--tikz')) throw new Usage('--tikz-body goes with --tikz <file>');
      const svg = p.opt.get('--svg');
      const tikz = p.opt.get('--tikz');
      if (svg === '-' && tikz === '-') throw new Usage('only one of --svg and --tikz can go to stdout (-)');
      for (const [name, v] of [['--svg', svg], ['--tikz', tikz]] as const) {
        if (v === '') throw new Usage(`${name} needs a file name`);
      }
      // a composed layout Sw o K o L: the grid of L, cells labelled with the swizzled offsets
      const lf = parseLayoutFunction(p.pos[0]!, 'L');
      if (isComposed(lf)) {
        let tl: Tiling | undefined;
        let shown = lf;
        const d = p.opt.get('--divide');
        const pr = p.opt.get('--product');
        if (d !== undefined) tl = divisionTiling(lf.inner, parseLayout(d, 'B (--divide)'));
        if (pr !== undefined) {
          shown = mapInner(lf, (inner) => logicalProduct(inner, parseLayout(pr, 'B (--product)'))) as typeof lf;
          tl = modeTiling(shown.inner);
        }
        const cpic = composedPicture(shown, tl ? { tiling: tl } : {});
        const title = formatLayoutFunction(shown);
        if (svg !== undefined) write(svg, svgPicture(cpic, `picture of ${title}`), io.stdout);
        if (tikz !== undefined) write(tikz, tikzPicture(cpic, { body: p.flags.has('--tikz-body') }), io.stdout);
        if (svg !== '-' && tikz !== '-') io.stdout(asciiPicture(cpic).replace(/^[^\n]*/, title) + '\n');
        return 0;
      }
      let l: Layout = lf;
      let tiling: Tiling | undefined;
      const divide = p.opt.get('--divide');
      const product = p.opt.get('--product');
      if (divide !== undefined) tiling = divisionTiling(l, parseLayout(divide, 'B (--divide)'));
      if (product !== undefined) {
        l = logicalProduct(l, parseLayout(product, 'B (--product)'));
        tiling = modeTiling(l);
      }
      const pic = makePicture(l, tiling ? { tiling } : {});
      if (svg !== undefined) write(svg, svgPicture(pic), io.stdout);
      if (tikz !== undefined) write(tikz, tikzPicture(pic, { body: p.flags.has('--tikz-body') }), io.stdout);
      if (svg !== '-' && tikz !== '-') io.stdout(asciiPicture(pic) + '\n');
      return 0;
    } catch (e) {
      return report(e, io);
    }
  },
};

/**
 * `layoutgpu show <L>`: the picture of a layout as a grid of offsets on stdout (like CuTe's
 * print_layout), and as SVG (`--svg <file>`) or TikZ (`--tikz <file>`, `--tikz-body` for a bare
 * tikzpicture) files; `-` as the file writes it to stdout instead of the grid. `--divide <B>`
 * colours L's cells by the tile of L ⊘ B they fall in; `--product <B>` draws L ⊗ B coloured by
 * tile. `show tma …` draws a TMA descriptor's boxes (src/cli/show-tma.ts). The pictures themselves come from
 * src/render/.
 */
import { makeLayout, mode, phi, size, type Layout } from '../algebra/layout.js';
import { colMajorStride } from '../algebra/notation.js';
import { isByMode, parseTiler, tileUnzip, type Tiler } from '../cute/tiler.js';
import { zippedDivide } from '../cute/divide.js';
import { logicalProductByMode } from '../cute/product.js';
import { asciiPicture } from '../render/ascii.js';
import { makePicture } from '../render/grid.js';
import { composedPicture } from '../render/composed.js';
import { formatLayoutFunction, isComposed, mapInner, parseLayoutFunction } from '../cute/composed.js';
import { svgPicture } from '../render/svg.js';
import { tikzPicture } from '../render/tikz.js';
import { modeTiling, permutationTiling, type Tiling } from '../render/tiles.js';
import { parseOptions, Usage } from './args.js';
import type { Command } from './commands.js';
import { reportError } from './report.js';
import { checkOutputs, writeOutput } from './outputs.js';
import { copyAtomData, mmaAtomData } from '../atoms/registry.js';
import { copyCommand, mmaCommand } from './atoms.js';

const HELP = `layoutgpu show <L> [--divide <B> | --product <B>] [--svg <file>] [--tikz <file> [--tikz-body]]

Prints L as a grid of offsets Φ_L: rank 2 as rows × columns (like CuTe's print_layout), rank 1 as
a row, higher ranks with the modes after the first grouped into columns.

  --svg <file>     also write the picture as a standalone SVG document
  --tikz <file>    also write it as TikZ in the style of CuTe's print_latex (a standalone LaTeX
                   document; pdflatex makes a one-page PDF of it)
  --tikz-body      with --tikz: only the tikzpicture environment, for \\input in your document
  --divide <B>     colour each cell of L by its tile of L ⊘ B (colour = tile, strength = entry);
                   B is a tiler as in logical-divide: a shape (32,32) tiles mode by mode, a
                   layout with strides (32,32):(1,32) the whole layout
  --product <B>    draw L ⊗ B instead, coloured by tile (each tile a copy of L)
A file named - is written to stdout, in place of the grid. Pictures have at most 65536 cells.

layoutgpu show <MMA atom> [--layout L] [--permutation P] [--svg <file>] [--tikz <file>]
layoutgpu show <copy atom> --bits b (--thr L [--val L] | --mma <atom> … --operand A|B|C) [--svg …]
  A tiled MMA or copy by its atom's name draws what CuTe's print_latex draws (docs/atoms.md): the
  A (M×K), B (K×N) and C (M×N) tiles, or the source and destination tiles, each cell T<t>V<v>,
  coloured by thread; as text without --svg or --tikz (the same as layoutgpu mma|copy --ascii).

layoutgpu show tma --gmem <G> --smem <S> --dtype <D> [--tiler <T>] [--svg <file>] [--tikz <file>]
  The boxes of the TMA tensor map of layoutgpu tma (docs/descriptors.md §2) over the shared-memory tile and
  the global tile, colour = box, one label per box (layoutgpu show tma --help).
`;

/** A tiled MMA or copy named by its atom: `layoutgpu mma` / `copy` with a picture, text when no file is asked for. */
function atomShow(argv: readonly string[]): { command: Command; argv: string[] } | undefined {
  const name = argv[0];
  const command = name === undefined ? undefined : mmaAtomData(name) ? mmaCommand : copyAtomData(name) ? copyCommand : undefined;
  if (!command) return undefined;
  const picture = argv.some((a) => ['--svg', '--tikz', '--ascii', '--json', '--help'].includes(a));
  return { command, argv: picture ? [...argv] : [...argv, '--ascii'] };
}

/** Read a --divide or --product operand as the CLI ops and the page do: a tiler (docs/semantics.md
 *  §8.2), so a shape `(32,32)` is by-mode and a layout with strides one-dimensional. */
const tilerOption = (text: string, option: string): Tiler => parseTiler(text, `B (${option})`);

/** The compact column-major layout of L's shape: Φ of it is the identity on L's indices. */
const indexLayout = (l: Layout): Layout => makeLayout(l.shape, colMajorStride(l.shape));

/** For Z = (tile, rest) whose Φ permutes [0, size): index Φ_Z(x) is entry x mod size(tile) of
 *  tile ⌊x / size(tile)⌋ (Remark 2.3.8.3). */
const tilesOf = (z: Layout): Tiling => permutationTiling(size(z), size(mode(z, 1)), (x) => phi(z, x));

/** The tiles of L under L ⊘ T: zipped_divide of L's index layout by T (docs/semantics.md §8.3). */
export const divisionTiles = (l: Layout, t: Tiler): Tiling => tilesOf(zippedDivide(indexLayout(l), t));

/** L ⊗ T and its tiles: mode 1 of the result is the block; a by-mode product is unzipped first. */
export function productTiles(l: Layout, t: Tiler): { product: Layout; tiling: Tiling } {
  const product = logicalProductByMode(l, t);
  return { product, tiling: isByMode(t) ? tilesOf(tileUnzip('logical_product', indexLayout(product), t)) : modeTiling(product) };
}

const write = (path: string, text: string, stdout: (s: string) => void): void => writeOutput(stdout, path, text);

/** The `show` subcommand (see HELP). Bad input: one line on stderr, exit 2. */
export const showCommand: Command = {
  summary: "the layout as a grid of offsets (like CuTe's print_layout), or SVG / TikZ files",
  async run(argv, io) {
    // the boxes of a TMA descriptor (src/cli/show-tma.ts), loaded only for it
    if (argv[0] === 'tma') return (await import('./show-tma.js')).showTmaCommand.run(argv.slice(1), io);
    const atom = atomShow(argv);
    if (atom) return atom.command.run(atom.argv, io);
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
      checkOutputs([
        ['--svg', svg],
        ['--tikz', tikz],
      ]);
      // a composed layout Sw o K o L: the grid of L, cells labelled with the swizzled offsets
      const lf = parseLayoutFunction(p.pos[0]!, 'L');
      if (isComposed(lf)) {
        let tl: Tiling | undefined;
        let shown = lf;
        const d = p.opt.get('--divide');
        const pr = p.opt.get('--product');
        if (d !== undefined) tl = divisionTiles(lf.inner, tilerOption(d, '--divide'));
        if (pr !== undefined) {
          const { product, tiling } = productTiles(lf.inner, tilerOption(pr, '--product'));
          shown = mapInner(lf, () => product) as typeof lf;
          tl = tiling;
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
      if (divide !== undefined) tiling = divisionTiles(l, tilerOption(divide, '--divide'));
      if (product !== undefined) ({ product: l, tiling } = productTiles(l, tilerOption(product, '--product')));
      const pic = makePicture(l, tiling ? { tiling } : {});
      if (svg !== undefined) write(svg, svgPicture(pic), io.stdout);
      if (tikz !== undefined) write(tikz, tikzPicture(pic, { body: p.flags.has('--tikz-body') }), io.stdout);
      if (svg !== '-' && tikz !== '-') io.stdout(asciiPicture(pic) + '\n');
      return 0;
    } catch (e) {
      return reportError(e, io);
    }
  },
};

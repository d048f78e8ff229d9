/**
 * The pictures of a TMA descriptor on the command line (docs/descriptors.md §2.3): `layoutgpu show tma --gmem G
 * --smem S --dtype D [--tiler T]` and `layoutgpu tma … --ascii | --svg <file> | --tikz <file>` draw the boxes of
 * the tensor map over the shared-memory tile and over the global tile (src/render/tma-boxes.ts): the text picture
 * on stdout, SVG and TikZ to files, a file named `-` to stdout in place of the text (one per command).
 */
import { writeFileSync } from 'node:fs';
import { MAX_SHOW } from '../render/grid.js';
import { boxAscii, boxSvg, boxTikz } from '../render/tma-boxes.js';
import { tmaBoxPicture, type TmaPictureArg } from '../render/tma-pictures.js';
import { parseOptions, Usage, type Parsed } from './args.js';
import type { Command } from './commands.js';
import type { Io } from './io.js';
import { reportError } from './report.js';

export const TMA_SHOW_HELP = `layoutgpu show tma --gmem <G> --smem <S> --dtype <D> [--tiler <T>] [--svg <file>] [--tikz <file> [--tikz-body]]

Draws the boxes of the TMA tensor map that \`layoutgpu tma\` prints (the same arguments): over the
shared-memory tile (its offsets, a row per inner box extent) and over the global tile (its
coordinates), colour = box, one label per box; the key gives each box's TMA coordinates. Big tiles
are drawn compact (one mark for a block of cells that is all one box). Tiles of at most ${MAX_SHOW} cells.

  --svg <file>     also write the picture as a standalone SVG document
  --tikz <file>    also write it as TikZ (a standalone LaTeX document; --tikz-body: the tikzpicture)
A file named - is written to stdout, in place of the text picture (one of them at most).
`;

function write(path: string, text: string, io: Io): void {
  if (path === '-') {
    io.stdout(text);
    return;
  }
  try {
    writeFileSync(path, text);
  } catch (e) {
    throw new Usage(`cannot write ${path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
}

/** The descriptor's argument object from --gmem, --smem, --dtype and --tiler (the protocol's, docs/descriptors.md §2). */
export function tmaArgOf(p: Parsed): TmaPictureArg {
  const need = (name: string): string => {
    const v = p.opt.get(name);
    if (v === undefined) throw new Usage(`tma needs ${name} (layoutgpu tma --gmem G --smem S --dtype D [--tiler T])`);
    return v;
  };
  const arg = { gmem: need('--gmem'), smem: need('--smem'), dtype: need('--dtype') };
  const tiler = p.opt.get('--tiler');
  return tiler === undefined ? arg : { ...arg, tiler };
}

/** Draw the pictures a parsed command line asks for: SVG and TikZ to their files, and the text on stdout when `text`
 *  (`show tma`: always) or --ascii asks for it, unless a file is `-`. Answers whether stdout was written (then `tma`
 *  prints no table). Errors: Usage for conflicting outputs, the descriptor's own. */
export function writeTmaPictures(p: Parsed, io: Io, text: boolean): boolean {
  const svg = p.opt.get('--svg');
  const tikz = p.opt.get('--tikz');
  if (svg === '-' && tikz === '-') throw new Usage('only one of --svg and --tikz can go to stdout (-)');
  if (svg === '' || tikz === '') throw new Usage(`${svg === '' ? '--svg' : '--tikz'} needs a file name`);
  if (p.flags.has('--tikz-body') && tikz === undefined) throw new Usage('--tikz-body goes with --tikz <file>');
  const pic = tmaBoxPicture(tmaArgOf(p), MAX_SHOW);
  if (svg !== undefined) write(svg, boxSvg(pic), io);
  if (tikz !== undefined) write(tikz, boxTikz(pic, { body: p.flags.has('--tikz-body') }), io);
  const piped = svg === '-' || tikz === '-';
  if ((text || p.flags.has('--ascii')) && !piped) io.stdout(boxAscii(pic));
  return piped || text || p.flags.has('--ascii');
}

/** `layoutgpu show tma …` (see TMA_SHOW_HELP); bad input: one line on stderr, its exit code. */
export const showTmaCommand: Command = {
  summary: 'the boxes of a TMA tensor map over the shared-memory and the global tile',
  async run(argv, io) {
    try {
      const p = parseOptions(argv, ['--help', '--tikz-body'], ['--gmem', '--smem', '--dtype', '--tiler', '--svg', '--tikz'], 'show tma');
      if (p.flags.has('--help')) {
        io.stdout(TMA_SHOW_HELP);
        return 0;
      }
      if (p.pos.length > 0) throw new Usage(`show tma takes options only, got '${p.pos[0]}' (layoutgpu show tma --gmem G --smem S --dtype D)`);
      writeTmaPictures(p, io, true);
      return 0;
    } catch (e) {
      return reportError(e, io);
    }
  },
};

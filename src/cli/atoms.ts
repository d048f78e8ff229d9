/**
 * The CLI of tiled MMAs and copies (docs/atoms.md): `layoutgpu mma`, `layoutgpu copy`,
 * `layoutgpu partition`, `layoutgpu local-tile` (`conflicts --copy` is src/cli/conflicts.ts's). Each
 * builds the protocol's JSON argument from its options and runs it through the same checks as
 * `batch` (src/ops/tiled.ts); `--json` prints the protocol's result, `--ascii`, `--svg`, `--tikz`
 * the pictures of src/render/tv.ts.
 */
import { LayoutError } from '../algebra/errors.js';
import { phi, mode, size } from '../algebra/layout.js';
import { parseLayoutFunction, formatLayoutFunction } from '../cute/composed.js';
import { parseLayoutArg, parseTiler } from '../cute/tiler.js';
import { parseSliceCoord } from '../cute/slice.js';
import { loadTiled, tiledCopyArg, tiledCopyResult, tiledMmaArg, tiledMmaResult } from '../ops/tiled.js';
import { localTile, parseProjection, partitionCopy, partitionMma, type TensorResult } from '../atoms/partition.js';
import { threadCoord, type Operand, type TiledMma } from '../atoms/tiled-mma.js';
import { descriptorLine, descriptorParts } from '../atoms/descriptor-operand.js';
import type { TiledCopy } from '../atoms/tiled-copy.js';
import { copyPicture, mmaPicture, tvAscii, tvSvg, tvTikz, type TvPicture } from '../render/tv.js';
import { MAX_SHOW } from '../render/grid.js';
import { parseOptions, Usage } from './args.js';
import type { Command } from './commands.js';
import type { Io } from './io.js';
import { reportError } from './report.js';
import { checkOutputs, writeOutput } from './outputs.js';
import { isIntegerText } from '../algebra/int-text.js';

const MMA_OPTS = ['--layout', '--permutation'];
const COPY_OPTS = ['--bits', '--thr', '--val', '--mma', '--operand'];
const PICTURE_OPTS = ['--svg', '--tikz'];

export type Parsed = ReturnType<typeof parseOptions>;

/** Run a command body; a failure ends by the CLI's one policy (report.ts): one line, its exit code. */
async function guarded(io: Io, body: () => number | Promise<number>): Promise<number> {
  try {
    await loadTiled(); // the ops' side of the atoms' room (ops/lazy.ts)
    return await body();
  } catch (err) {
    return reportError(err, io);
  }
}

/** The tiled MMA object of `atom` and --layout, --permutation. */
export function mmaObject(atom: string, p: Parsed): Record<string, string> {
  const o: Record<string, string> = { atom };
  if (p.opt.has('--layout')) o.layout = p.opt.get('--layout')!;
  if (p.opt.has('--permutation')) o.permutation = p.opt.get('--permutation')!;
  return o;
}

/** The tiled copy object of `atom` and --bits with --thr/--val or --mma (its --layout, --permutation) and --operand. */
export function copyObject(atom: string, p: Parsed): Record<string, unknown> {
  const bits = p.opt.get('--bits');
  // Copy_Atom<Op, T> says its value size (ops/tiled.ts)
  if (bits === undefined && !/^\s*(?:cute::)?Copy_Atom\s*</.test(atom)) throw new Usage('a tiled copy needs --bits <b> (the value size in bits)');
  if (bits !== undefined && !isIntegerText(bits.trim())) throw new Usage(`--bits must be a positive integer, got '${bits}'`);
  const o: Record<string, unknown> = bits === undefined ? { atom } : { atom, bits: Number(bits) };
  const mma = p.opt.get('--mma');
  if (mma !== undefined) {
    if (p.opt.has('--thr') || p.opt.has('--val')) throw new Usage('give --thr/--val or --mma, not both');
    o.mma = mmaObject(mma, p);
    const operand = p.opt.get('--operand');
    if (operand === undefined) throw new Usage('--mma needs --operand A, B or C');
    o.operand = operand;
    return o;
  }
  const thr = p.opt.get('--thr');
  if (thr === undefined) throw new Usage('a tiled copy needs --thr <L> [--val <L>] or --mma <atom> --operand A|B|C');
  o.thr = thr;
  if (p.opt.has('--val')) o.val = p.opt.get('--val')!;
  return o;
}

/** A thread index option. */
function threadOpt(p: Parsed): number | undefined {
  const t = p.opt.get('--thread');
  if (t === undefined) return undefined;
  if (!isIntegerText(t.trim())) throw new Usage(`--thread must be a non-negative integer, got '${t}'`);
  return Number(t);
}

/** Write a picture to a file, or to stdout for '-'. */
const writeOut = (io: Io, file: string, text: string): void => writeOutput(io.stdout, file, text);

/** Whether a picture is asked for (--ascii, --svg or --tikz). */
const wantsPicture = (p: Parsed): boolean => p.flags.has('--ascii') || p.opt.has('--svg') || p.opt.has('--tikz');

/**
 * A picture of more than MAX_SHOW cells (all its panels; the bound of `show` and `conflicts`) is refused at once,
 * before the tiled copy or the picture is built: `bad-request`. `cells` counts them from the arguments alone; where
 * the arguments are wrong it throws, and the build that follows answers as it would have.
 */
function refuseLargePicture(p: Parsed, cells: () => number): void {
  if (!wantsPicture(p)) return;
  let n: number;
  try {
    n = cells();
  } catch {
    return;
  }
  if (n > MAX_SHOW) {
    throw new LayoutError(
      'bad-request',
      `the picture has ${n} cells, too large to draw (at most ${MAX_SHOW}); run without --ascii/--svg/--tikz for the layouts`,
    );
  }
}

/** The cells of a tiled MMA's picture: A (M×K), B (K×N) and C (M×N). */
const mmaCells = (m: TiledMma): number => {
  const [tM, tN, tK] = m.tileShape;
  return tM * tK + tK * tN + tM * tN;
};

/** The cells of a tiled copy's picture (source and destination, each its tiler), from its arguments: size(thr) ·
 *  size(val) for make_tiled_copy (copyTilerTV), the operand's tile of the tiled MMA for make_tiled_copy_A/B/C. */
function copyCells(o: Record<string, unknown>): number {
  if (o.mma !== undefined) {
    const [tM, tN, tK] = tiledMmaArg(o.mma).tileShape;
    const tile = o.operand === 'A' ? tM * tK : o.operand === 'B' ? tN * tK : tM * tN;
    return 2 * tile;
  }
  const val = typeof o.val === 'string' ? size(parseLayoutArg(o.val, 'val')) : 1;
  return 2 * size(parseLayoutArg(o.thr as string, 'thr')) * val;
}

/** --ascii, --svg, --tikz; true when a picture went to stdout. */
function pictures(io: Io, p: Parsed, pic: () => TvPicture): boolean {
  // one output to stdout, a file name each, no file twice (outputs.ts), before any picture is made
  checkOutputs(
    PICTURE_OPTS.map((o) => [o, p.opt.get(o)] as const),
    p.flags.has('--ascii') ? '--ascii' : undefined,
  );
  let toStdout = false;
  if (p.flags.has('--ascii')) {
    io.stdout(tvAscii(pic()));
    toStdout = true;
  }
  const svg = p.opt.get('--svg');
  if (svg !== undefined) {
    writeOut(io, svg, tvSvg(pic()));
    toStdout ||= svg === '-';
  }
  const tikz = p.opt.get('--tikz');
  if (tikz !== undefined) {
    writeOut(io, tikz, tvTikz(pic()));
    toStdout ||= tikz === '-';
  }
  return toStdout;
}

const fields = (o: Record<string, unknown>): string => {
  const w = Math.max(...Object.keys(o).map((k) => k.length)) + 2;
  return Object.entries(o)
    .map(([k, v]) => `${k.padEnd(w)}${String(v)}`)
    .join('\n');
};

/** The (row, column) of each value of thread t in a TV layout over a tile with `rows` rows. */
function threadCells(tv: { shape: unknown; stride: unknown }, t: number, rows: number): [number, number][] {
  const l = tv as Parameters<typeof mode>[0];
  const T = size(mode(l, 1));
  const V = size(mode(l, 2));
  return Array.from({ length: V }, (_, v) => {
    const i = phi(l, t + T * v);
    return [i % rows, Math.floor(i / rows)] as [number, number];
  });
}

const cellsText = (cs: readonly [number, number][]): string => cs.map(([r, c], v) => `V${v}:(${r},${c})`).join(' ');

/** What thread t reads of descriptor operand x (docs/atoms.md, "Descriptor operands"), or undefined for another
 *  operand: the whole tile, or the part it reads whole. */
function descriptorThread(m: TiledMma, x: Operand, t: number): string | undefined {
  const parts = descriptorParts(m, x);
  if (!parts) return undefined;
  const tI = m.tileShape[x === 'A' ? 0 : 1];
  const tK = m.tileShape[2];
  const head = `descriptor operand (smem): thread ${t} reads`;
  if (parts.length === 1) return `${head} the whole ${tI}×${tK} tile`;
  const [iName] = x === 'A' ? ['m'] : ['n'];
  const mine = parts.filter((p) => p.threads.includes(t)).map((p) => `${iName} ${p.i[0]}–${p.i[1]} × k ${p.j[0]}–${p.j[1]}`);
  return `${head} ${mine.join(' and ')} of the ${tI}×${tK} tile, whole`;
}

function mmaThread(m: TiledMma, t: number): { text: string; json: Record<string, unknown> } {
  const [v, mm, n, k] = threadCoord(m, t);
  const [tM, tN] = m.tileShape;
  const a = threadCells(m.layoutA_TV, t, tM);
  const b = threadCells(m.layoutB_TV, t, tN);
  const c = threadCells(m.layoutC_TV, t, tM);
  const text = [
    `thread ${t}: atom thread ${v}, atom (m, n, k) = (${mm}, ${n}, ${k})`,
    `A (m,k)  ${descriptorThread(m, 'A', t) ?? cellsText(a)}`,
    `B (n,k)  ${descriptorThread(m, 'B', t) ?? cellsText(b)}`,
    `C (m,n)  ${cellsText(c)}`,
  ].join('\n');
  return { text, json: { thread: t, coord: [v, mm, n, k], A: a, B: b, C: c } };
}

function copyThread(c: TiledCopy, t: number): { text: string; json: Record<string, unknown> } {
  if (!Number.isSafeInteger(t) || t >= c.threads) throw new LayoutError('domain', `thread index ${t} is outside [0, ${c.threads})`);
  const rows = c.tiler[0] ?? 1;
  const s = threadCells(c.layoutS_TV, t, rows);
  const d = threadCells(c.layoutD_TV, t, rows);
  return { text: [`thread ${t}`, `source       ${cellsText(s)}`, `destination  ${cellsText(d)}`].join('\n'), json: { thread: t, S: s, D: d } };
}

const MMA_HELP = `layoutgpu mma <atom> [--layout L] [--permutation P] [--thread t] [--json] [--ascii] [--svg file] [--tikz file]

A tiled MMA (CuTe make_tiled_mma; docs/atoms.md): the atom, the atom layout L (how many atoms tile
M, N, K; default 1) and the permutation P (a tiler of up to 3 items; default _). Prints
thrLayoutVMNK, the tile shape, the threads and the TV layouts of A (M×K), B (N×K), C (M×N); an
operand read through a shared-memory descriptor (GMMA, UMMA) is also said in one line, and printed
and drawn as one tile (every thread reads it whole).
  --thread t    the (row, column) of every value of thread t in A, B and C
  --ascii       the A, B, C tiles as text, each cell T<t>V<v> (CuTe's print_latex)
  --svg file    the same as SVG, coloured by thread (- for stdout)
  --tikz file   the same as a standalone TikZ document for pdflatex (- for stdout)
  --json        the make_tiled_mma object of the batch protocol
Pictures have at most 65536 cells (A, B and C together; more is refused at once).
`;

export const mmaCommand: Command = {
  summary: "a tiled MMA: TV layouts of A, B, C, a thread's values, pictures (--layout, --permutation, --thread, --ascii/--svg/--tikz)",
  run: (argv, io) =>
    guarded(io, () => {
      const p = parseOptions(argv, ['--help', '--json', '--ascii'], [...MMA_OPTS, '--thread', ...PICTURE_OPTS], 'mma');
      if (p.flags.has('--help')) {
        io.stdout(MMA_HELP);
        return 0;
      }
      if (p.pos.length !== 1) throw new Usage('mma takes one atom name, e.g. layoutgpu mma SM80_16x8x16_F32F16F16F32_TN --layout "(2,2,1)"');
      const m = tiledMmaArg(mmaObject(p.pos[0]!, p));
      const t = threadOpt(p);
      refuseLargePicture(p, () => mmaCells(m));
      if (pictures(io, p, () => mmaPicture(m))) return 0;
      const r = tiledMmaResult(m) as Record<string, unknown>;
      if (t !== undefined) {
        const th = mmaThread(m, t);
        io.stdout((p.flags.has('--json') ? JSON.stringify(th.json) : th.text) + '\n');
      } else if (p.flags.has('--json')) io.stdout(JSON.stringify(r) + '\n');
      else io.stdout([fields(r), ...(['A', 'B'] as const).flatMap((x) => descriptorLine(m, x) ?? [])].join('\n') + '\n');
      return 0;
    }),
};

const COPY_HELP = `layoutgpu copy <atom> --bits b (--thr L [--val L] | --mma <atom> [--layout L] [--permutation P] --operand A|B|C)
                [--thread t] [--json] [--ascii] [--svg file] [--tikz file]

A tiled copy (CuTe make_tiled_copy, make_tiled_copy_A/B/C; docs/atoms.md) of a copy atom at b-bit
values: the tiler, threads, values, the tiler TV layout and the source and destination TV layouts.
  --thread t    the (row, column) of every value of thread t on both sides
  --ascii, --svg, --tikz   the source and destination tiles side by side, cells T<t>V<v>
  --json        the make_tiled_copy object of the batch protocol
Pictures have at most 65536 cells (both sides together; more is refused before the copy is built).
`;

export const copyCommand: Command = {
  summary: "a tiled copy: tiler, source and destination TV layouts, a thread's values, pictures (--bits, --thr/--val or --mma --operand)",
  run: (argv, io) =>
    guarded(io, () => {
      const p = parseOptions(argv, ['--help', '--json', '--ascii'], [...COPY_OPTS, ...MMA_OPTS, '--thread', ...PICTURE_OPTS], 'copy');
      if (p.flags.has('--help')) {
        io.stdout(COPY_HELP);
        return 0;
      }
      if (p.pos.length !== 1) {
        throw new Usage('copy takes one copy atom name, e.g. layoutgpu copy SM75_U32x4_LDSM_N --bits 16 --mma SM80_16x8x16_F32F16F16F32_TN --operand A');
      }
      const o = copyObject(p.pos[0]!, p);
      refuseLargePicture(p, () => copyCells(o));
      const c = tiledCopyArg(o);
      const t = threadOpt(p);
      if (pictures(io, p, () => copyPicture(c))) return 0;
      const r = tiledCopyResult(c) as Record<string, unknown>;
      if (t !== undefined) {
        const th = copyThread(c, t);
        io.stdout((p.flags.has('--json') ? JSON.stringify(th.json) : th.text) + '\n');
      } else io.stdout((p.flags.has('--json') ? JSON.stringify(r) : fields(r)) + '\n');
      return 0;
    }),
};

const tensorText = (r: TensorResult): string => `offset ${r.offset}\nlayout ${formatLayoutFunction(r.layout)}`;
const tensorJson = (r: TensorResult): string => JSON.stringify({ offset: r.offset, layout: formatLayoutFunction(r.layout) });

const PARTITION_HELP = `layoutgpu partition A|B|C <mma atom> [--layout L] [--permutation P] --thread t <T> [--json]
layoutgpu partition S|D <copy atom> --bits b (--thr L [--val L] | --mma <atom> … --operand X) --thread t <T> [--json]

Thread t's part of the tensor T (a layout, plain or Sw<B,M,S> o L) as CuTe's
get_slice(t).partition_A/B/C/S/D (docs/atoms.md): {offset, layout}.
`;

export const partitionCommand: Command = {
  summary: "a thread's part of a tensor for a tiled MMA's operand (A|B|C) or a tiled copy's side (S|D): {offset, layout}",
  run: (argv, io) =>
    guarded(io, () => {
      const p = parseOptions(argv, ['--help', '--json'], [...COPY_OPTS, ...MMA_OPTS, '--thread'], 'partition');
      if (p.flags.has('--help')) {
        io.stdout(PARTITION_HELP);
        return 0;
      }
      if (p.pos.length !== 3) {
        throw new Usage('partition takes an operand or side (A, B, C, S or D), an atom and a tensor layout (see layoutgpu partition --help)');
      }
      const [which, atom, tensorText0] = p.pos as [string, string, string];
      const t = threadOpt(p);
      if (t === undefined) throw new Usage('partition needs --thread <t>');
      const tensor = parseLayoutFunction(tensorText0, 'T');
      let r: TensorResult;
      if (which === 'A' || which === 'B' || which === 'C') r = partitionMma(tiledMmaArg(mmaObject(atom, p)), which, t, tensor);
      else if (which === 'S' || which === 'D') r = partitionCopy(tiledCopyArg(copyObject(atom, p)), which, t, tensor);
      else throw new Usage(`partition: the first argument is A, B, C, S or D, got '${which}'`);
      io.stdout((p.flags.has('--json') ? tensorJson(r) : tensorText(r)) + '\n');
      return 0;
    }),
};

const LOCAL_TILE_HELP = `layoutgpu local-tile <T> <tiler> <coord> [<proj>] [--json]

CuTe's local_tile (docs/atoms.md): slice(zipped_divide(T, tiler), ((_,…), coord)), with an optional
projection such as (1,X,1) applied to the tiler and the coordinate. Prints {offset, layout}.
`;

export const localTileCommand: Command = {
  summary: 'local_tile(T, tiler, coord[, proj]): the tile of T at a coordinate of the rest, {offset, layout}',
  run: (argv, io) =>
    guarded(io, () => {
      const p = parseOptions(argv, ['--help', '--json'], [], 'local-tile');
      if (p.flags.has('--help')) {
        io.stdout(LOCAL_TILE_HELP);
        return 0;
      }
      if (p.pos.length < 3 || p.pos.length > 4) throw new Usage('local-tile takes a tensor, a tiler, a coordinate and an optional projection');
      const [tt, tiler, coord, proj] = p.pos as [string, string, string, string | undefined];
      const pr = proj === undefined ? undefined : parseProjection(proj);
      const r = localTile(parseLayoutFunction(tt, 'T'), parseTiler(tiler, 'tiler'), parseSliceCoord(coord, 'coordinate'), pr);
      io.stdout((p.flags.has('--json') ? tensorJson(r) : tensorText(r)) + '\n');
      return 0;
    }),
};

/**
 * `layoutgpu conflicts <M> <TV> --elem <bytes> [--vec <values>] [--svg <file>] [--json]`:
 * shared-memory bank conflicts of a TV access to a memory layout (docs/semantics.md §9.2): a readable table
 * per instruction, the worst phase, sectors; `--svg` the tile coloured by bank with the
 * conflicted cells marked; `--json` the protocol's object.
 */
import { writeFileSync } from 'node:fs';
import { formatLayoutFunction, parseLayoutFunction } from '../cute/composed.js';
import { bankMap, instructionTable, type InstructionRow } from '../memory/banks.js';
import { formatBankReport } from '../ops/memory.js';
import { accessorsOf, bankSvg, bankTikz, type BankLabel } from '../render/banks.js';
import { composedPicture } from '../render/composed.js';
import { MAX_SHOW } from '../render/grid.js';
import { size } from '../algebra/layout.js';
import { LayoutError } from '../algebra/errors.js';
import { innerLayout } from '../cute/composed.js';
import { threadValues } from '../memory/access.js';
import { parseOptions, Usage } from './args.js';
import { accessByName, machineByName, type BankTarget } from '../memory/machines.js';
import type { Command } from './commands.js';
import { reportError } from './report.js';

const HELP = `layoutgpu conflicts <M> <TV> --elem <bytes> [--vec <values>] [--arch <machine>] [--access read|write] [--svg <file>] [--tikz <file>] [--label <what>] [--json]

Shared-memory bank conflicts (docs/semantics.md §9.2) of the access TV (thread, value) → tile index to the
memory layout M (tile index → element offset; plain or Sw<B,M,S> o L), with e-byte elements.
Prints instructions, phases and wavefronts, the worst phase with its bank and threads, and the
32-byte sectors against the least possible.

  --elem <bytes>   element size: 1, 2, 4, 8 or 16
  --vec <values>   values per instruction (default: the widest contiguous, aligned vector)
  --svg <file>     the tile coloured by bank (32 colours), conflicted cells outlined (- for stdout)
  --tikz <file>    the same picture as a TikZ tikzpicture (- for stdout)
  --label <what>   what the cells of a picture say: offset (default), tv (the thread and value
                   that access the cell, T5 V2), bank, none
Pictures have at most 65536 cells (the 128×64 tile has 8192).
  --arch <machine> sm80, sm90 (default), sm100, gfx942, gfx950: the bank model (docs/memory.md, "Machines")
  --access <dir>   read or write (or an instruction, ds_read_b128): AMD's 16-byte reads and writes differ
  --json           the bank_conflicts object of the batch protocol
`;

/** --arch and --access as a bank target (docs/memory.md "Machines"); undefined when neither is given. */
export function archTarget(arch: string | undefined, access: string | undefined): BankTarget | undefined {
  if (arch === undefined && access === undefined) return undefined;
  const machine = machineByName(arch ?? 'sm90');
  return access === undefined ? { machine } : { machine, access: accessByName(access) };
}

function intOpt(v: string | undefined, name: string): number | undefined {
  if (v === undefined) return undefined;
  if (!/^\s*\d+\s*$/.test(v)) throw new Usage(`${name} must be a non-negative integer, got '${v}'`);
  return Number(v);
}

/** A run of consecutive instructions (in (warp, instruction) order) with the same phases and
 *  wavefronts: the table prints it as one row. */
export interface FoldedRow {
  readonly first: InstructionRow;
  readonly last: InstructionRow;
  readonly count: number;
}

/** Fold consecutive rows with equal phases and wavefronts into runs.
 *  @example foldRows(rows of 8 equal instructions).length // 1 */
export function foldRows(rows: readonly InstructionRow[]): FoldedRow[] {
  const out: FoldedRow[] = [];
  for (const r of rows) {
    const prev = out[out.length - 1];
    if (prev && prev.last.phases === r.phases && prev.last.wavefronts === r.wavefronts)
      out[out.length - 1] = { first: prev.first, last: r, count: prev.count + 1 };
    else out.push({ first: r, last: r, count: 1 });
  }
  return out;
}

/** The per-instruction table, identical consecutive rows folded into one (`warp.instruction`
 *  first – last, and how many); at most 64 rows, then a count of the rest. */
function table(rows: InstructionRow[]): string {
  const at = (r: InstructionRow): string => `${r.warp}.${r.instruction}`;
  const folded = foldRows(rows);
  const span = folded.slice(0, 64).map((f) => (f.count === 1 ? at(f.first) : `${at(f.first)} – ${at(f.last)}`));
  const w = Math.max('instructions (warp.instr)'.length, ...span.map((x) => x.length));
  const out = [`${'instructions (warp.instr)'.padEnd(w)}  count  phases  wavefronts`];
  folded.slice(0, 64).forEach((f, i) => {
    const r = f.first;
    out.push(
      `${span[i]!.padEnd(w)}  ${String(f.count).padStart(5)}  ${String(r.phases).padStart(6)}  ${String(r.wavefronts).padStart(10)}${r.wavefronts > r.phases ? `  (${(r.wavefronts / r.phases).toFixed(1)}×)` : ''}`,
    );
  });
  if (folded.length > 64) out.push(`… ${folded.length - 64} more rows (${folded.slice(64).reduce((a, f) => a + f.count, 0)} instructions)`);
  return out.join('\n');
}

export const conflictsCommand: Command = {
  summary: 'shared-memory bank conflicts of a TV access to a memory layout (--elem, --vec, --svg, --json)',
  async run(argv, io) {
    // a tiled copy by name (docs/atoms.md): src/cli/atoms.ts
    if (argv.some((a) => a === '--copy' || a.startsWith('--copy='))) return (await import('./atoms.js')).copyConflictsCommand.run(argv, io);
    try {
      const p = parseOptions(argv, ['--help', '--json'], ['--elem', '--vec', '--svg', '--tikz', '--label', '--arch', '--access'], 'conflicts');
      if (p.flags.has('--help')) {
        io.stdout(HELP);
        return 0;
      }
      if (p.pos.length !== 2)
        throw new Usage('conflicts takes a memory layout and a TV layout, e.g. layoutgpu conflicts "(8,64):(64,1)" "((8,4),(8,2)):((1,64),(8,256))" --elem 2');
      const e = intOpt(p.opt.get('--elem'), '--elem');
      if (e === undefined) throw new Usage('conflicts needs --elem <bytes> (1, 2, 4, 8 or 16)');
      const v = intOpt(p.opt.get('--vec'), '--vec');
      const m = parseLayoutFunction(p.pos[0]!, 'M');
      const tv = parseLayoutFunction(p.pos[1]!, 'TV');
      const svg = p.opt.get('--svg');
      const tikz = p.opt.get('--tikz');
      const label = (p.opt.get('--label') ?? 'offset') as BankLabel;
      if (!['offset', 'tv', 'bank', 'none'].includes(label)) throw new Usage(`--label must be offset, tv, bank or none, got '${label}'`);
      if (p.opt.has('--label') && svg === undefined && tikz === undefined) throw new Usage('--label goes with --svg or --tikz');
      if (svg === '-' && tikz === '-') throw new Usage('only one of --svg and --tikz can go to stdout (-)');
      // a picture too large to draw is refused before the analysis, not after it
      const cells = size(innerLayout(m));
      if ((svg !== undefined || tikz !== undefined) && cells > MAX_SHOW) {
        throw new LayoutError('bad-request', `M has ${cells} cells, too many to draw (at most ${MAX_SHOW}); run without --svg/--tikz for the analysis`);
      }
      const target = archTarget(p.opt.get('--arch'), p.opt.get('--access'));
      const map = bankMap(m, tv, e, v, target);
      const tvs = label === 'tv' ? threadValues(tv) : null;
      const pictureOpts = tvs ? { label, accessors: accessorsOf(tvs.index, tvs.threads, cells) } : { label };
      const write = (file: string, doc: string): void => {
        if (file === '-') io.stdout(doc);
        else {
          try {
            writeFileSync(file, doc);
          } catch (err) {
            throw new Usage(`cannot write ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
          }
        }
      };
      if (svg !== undefined)
        write(svg, bankSvg(composedPicture(m), map.bank, map.ways, `banks of ${formatLayoutFunction(m)}, ${e}-byte elements`, pictureOpts));
      if (tikz !== undefined) write(tikz, bankTikz(composedPicture(m), map.bank, map.ways, pictureOpts));
      // the summary first, then the instructions (identical rows folded)
      if (svg !== '-' && tikz !== '-')
        io.stdout(
          (p.flags.has('--json')
            ? JSON.stringify(map.report)
            : `${formatLayoutFunction(m)} accessed through ${formatLayoutFunction(tv)}, ${e}-byte elements\n\n${formatBankReport(map.report)}\n\n${table(instructionTable(m, tv, e, v, target))}`) +
            '\n',
        );
      return 0;
    } catch (err) {
      return reportError(err, io);
    }
  },
};

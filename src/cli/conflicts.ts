/**
 * `layoutgpu conflicts`: shared-memory bank conflicts (docs/semantics.md §9.2) of any side form
 * (ops/bank-sides.ts): a TV layout into a memory layout M, a tiled copy (`--copy`), an MMA operand
 * (`--mma … --operand`), or a Triton conversion (`--ll R S`): a readable table per instruction,
 * the worst phase, sectors; `--svg`/`--tikz` the tile coloured by bank with the conflicted cells
 * marked; `--json` the protocol's object.
 */
import { LayoutError } from '../algebra/errors.js';
import { size } from '../algebra/layout.js';
import { innerLayout, parseLayoutFunction } from '../cute/composed.js';
import type { InstructionRow } from '../memory/banks.js';
import { bankSide, loadBankSides, type BankSide, type BankSideForm } from '../ops/bank-sides.js';
import { formatBankReport } from '../ops/memory.js';
import { accessorsOf, bankSvg, bankTikz, type BankLabel } from '../render/banks.js';
import { composedPicture } from '../render/composed.js';
import { MAX_SHOW } from '../render/grid.js';
import { parseOptions, Usage } from './args.js';
import { accessByName, machineByName, type BankTarget } from '../memory/machines.js';
import { copyObject, mmaObject } from './atoms.js';
import type { Command } from './commands.js';
import { checkOutputs, writeOutput } from './outputs.js';
import { reportError } from './report.js';
import { isIntegerText } from '../algebra/int-text.js';

const HELP = `layoutgpu conflicts <M> <TV> --elem <bytes> [--vec <values>]                    a TV layout
layoutgpu conflicts --copy <atom> --bits b (--thr L [--val L] | --mma <atom> … --operand X) <M> [--side src|dst]
layoutgpu conflicts --mma <atom> [--layout L] [--permutation P] --operand A|B|C <M> [--elem <bytes>] [--vec <values>]
layoutgpu conflicts --ll <R> <S> [--shape 128x64 | tensor<128x64xf16>] [--elem <bytes>] [--vec <values>]
  each with [--arch <machine>] [--access read|write] [--svg <file>] [--tikz <file>] [--label <what>] [--json]

Shared-memory bank conflicts (docs/semantics.md §9.2) of an access to a memory layout M (tile index →
element offset; plain or Sw<B,M,S> o L). Prints what was priced, instructions, phases and wavefronts,
the worst phase with its bank and threads, the 32-byte sectors against the least possible, and the
phases and wavefronts of each instruction. The access is one of:
  <TV>             a TV layout (thread, value) → tile index, with e-byte elements (--elem)
  --copy <atom>    a tiled copy over the whole tile of M (docs/atoms.md): every thread's partition of
                   make_layout(shape(M)); e and the vector from the atom; --side src|dst (default: src
                   for ldmatrix, dst for stmatrix and cp.async; a side that is not shared memory, such
                   as cp.async's global source, is refused)
  --mma <atom>     operand A, B or C of a tiled MMA over the whole tile of M (every thread's partition_A/B/C
                   of make_layout(shape(M))); e from the atom's types (F16 → 2) unless --elem
  --ll <R> <S>     a Triton conversion: a register LL R writing a shared LL S (docs/linear.md); any LL form,
                   or #ttg encodings over --shape (tensor<128x64xf16> also gives e)

  --elem <bytes>   element size: 1, 2, 4, 8 or 16
  --vec <values>   values per instruction (default: the widest contiguous, aligned vector)
  --svg <file>     the tile coloured by bank (32 colours), conflicted cells outlined (- for stdout)
  --tikz <file>    the same picture as a TikZ tikzpicture (- for stdout)
  --label <what>   what the cells of a picture say: offset (default), tv (the thread and value
                   that access the cell, T5 V2), bank, none
  --arch <machine> sm80, sm90 (default), sm100, gfx942, gfx950: the bank model (docs/memory.md, "Machines")
  --access <dir>   read or write (or an instruction, ds_read_b128): AMD's 16-byte reads and writes differ;
                   a tiled copy's direction is its side's
  --json           the bank_conflicts object of the batch protocol
Pictures have at most 65536 cells (the 128×64 tile has 8192).
`;

/** --arch and --access as a bank target (docs/memory.md "Machines"); undefined when neither is given. */
export function archTarget(arch: string | undefined, access: string | undefined): BankTarget | undefined {
  if (arch === undefined && access === undefined) return undefined;
  const machine = machineByName(arch ?? 'sm90');
  return access === undefined ? { machine } : { machine, access: accessByName(access) };
}

function intOpt(v: string | undefined, name: string): number | undefined {
  if (v === undefined) return undefined;
  if (!isIntegerText(v.trim())) throw new Usage(`${name} must be a non-negative integer, got '${v}'`);
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
function table(rows: readonly InstructionRow[]): string {
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

/** The options of every form (one list: a flag of another form is named by the form's check, not "unknown"). */
const FLAGS = ['--help', '--json', '--ll'];
const OPTIONS = [
  '--elem',
  '--vec',
  '--svg',
  '--tikz',
  '--label',
  '--arch',
  '--access',
  '--copy',
  '--side',
  '--bits',
  '--thr',
  '--val',
  '--mma',
  '--layout',
  '--permutation',
];
const MORE_OPTIONS = ['--operand', '--shape'];

type Parsed = ReturnType<typeof parseOptions>;

/** The side form of the command line (ops/bank-sides.ts), each form's positional arguments and options checked. */
function sideForm(p: Parsed): BankSideForm {
  const e = intOpt(p.opt.get('--elem'), '--elem');
  const v = intOpt(p.opt.get('--vec'), '--vec');
  const ev = { ...(e !== undefined ? { elem: e } : {}), ...(v !== undefined ? { vec: v } : {}) };
  const only = (form: string, allowed: readonly string[]): void => {
    const extra = [...p.opt.keys(), ...p.flags].find((o) => !allowed.includes(o) && !['--help', '--json', '--svg', '--tikz', '--label'].includes(o));
    if (extra !== undefined) throw new Usage(`conflicts ${form}: ${extra} is no option of this form (see layoutgpu conflicts --help)`);
  };
  const copy = p.opt.get('--copy');
  if (copy !== undefined) {
    only('--copy', ['--copy', '--side', '--arch', '--bits', '--thr', '--val', '--mma', '--layout', '--permutation', '--operand']);
    if (p.pos.length !== 1) throw new Usage('conflicts --copy <atom> … takes one memory layout M (see layoutgpu conflicts --help)');
    const side = p.opt.get('--side');
    return { form: 'copy', copy: copyObject(copy, p), m: p.pos[0]!, ...(side !== undefined ? { side } : {}) };
  }
  const mma = p.opt.get('--mma');
  if (mma !== undefined) {
    only('--mma', ['--mma', '--layout', '--permutation', '--operand', '--elem', '--vec', '--arch', '--access']);
    if (p.pos.length !== 1) throw new Usage('conflicts --mma <atom> --operand A|B|C takes one memory layout M (see layoutgpu conflicts --help)');
    const operand = p.opt.get('--operand');
    if (operand === undefined) throw new Usage('conflicts --mma needs --operand A, B or C');
    return { form: 'mma', mma: mmaObject(mma, p), operand, m: p.pos[0]!, ...ev };
  }
  if (p.flags.has('--ll')) {
    only('--ll', ['--ll', '--shape', '--elem', '--vec', '--arch', '--access']);
    if (p.pos.length !== 2) throw new Usage('conflicts --ll takes a register LL R and a shared LL S (see layoutgpu conflicts --help)');
    const shape = p.opt.get('--shape');
    return { form: 'll', r: p.pos[0]!, s: p.pos[1]!, ...(shape !== undefined ? { shape } : {}), ...ev };
  }
  only('<M> <TV>', ['--elem', '--vec', '--arch', '--access']);
  if (p.pos.length !== 2)
    throw new Usage('conflicts takes a memory layout and a TV layout, e.g. layoutgpu conflicts "(8,64):(64,1)" "((8,4),(8,2)):((1,64),(8,256))" --elem 2');
  if (e === undefined) throw new Usage('conflicts needs --elem <bytes> (1, 2, 4, 8 or 16)');
  return { form: 'tv', m: p.pos[0]!, tv: p.pos[1]!, ...ev };
}

/** The text of an analysis: what was priced, the summary, then the instructions (identical rows folded). */
export const conflictsText = (a: Pick<BankSide, 'heading' | 'report' | 'rows'>): string => `${a.heading}\n\n${formatBankReport(a.report)}\n\n${table(a.rows)}`;

export const conflictsCommand: Command = {
  summary: 'shared-memory bank conflicts of a TV layout, a tiled copy, an MMA operand or an LL conversion (--svg, --json)',
  async run(argv, io) {
    try {
      const p = parseOptions(argv, FLAGS, [...OPTIONS, ...MORE_OPTIONS], 'conflicts');
      if (p.flags.has('--help')) {
        io.stdout(HELP);
        return 0;
      }
      const form = sideForm(p);
      const svg = p.opt.get('--svg');
      const tikz = p.opt.get('--tikz');
      const label = (p.opt.get('--label') ?? 'offset') as BankLabel;
      if (!['offset', 'tv', 'bank', 'none'].includes(label)) throw new Usage(`--label must be offset, tv, bank or none, got '${label}'`);
      if (p.opt.has('--label') && svg === undefined && tikz === undefined) throw new Usage('--label goes with --svg or --tikz');
      checkOutputs([
        ['--svg', svg],
        ['--tikz', tikz],
      ]);
      const draw = svg !== undefined || tikz !== undefined;
      // a picture too large to draw is refused before the analysis, not after it
      if (draw && form.form !== 'll') {
        const cells = size(innerLayout(parseLayoutFunction(p.pos[0]!, 'M'))); // every form but --ll has M first
        if (cells > MAX_SHOW) throw tooMany(cells);
      }
      await loadBankSides();
      const a = bankSide(form, draw, archTarget(p.opt.get('--arch'), p.opt.get('--access')));
      if (a.picture !== null) {
        const { memory, bank, ways, accesses } = a.picture;
        const cells = bank.length;
        if (cells > MAX_SHOW) throw tooMany(cells);
        const opts = label === 'tv' ? { label, accessors: accessorsOf(accesses.index, accesses.threads, cells) } : { label };
        const pic = composedPicture(memory);
        if (svg !== undefined) writeOutput(io.stdout, svg, bankSvg(pic, bank, ways, a.caption, opts));
        if (tikz !== undefined) writeOutput(io.stdout, tikz, bankTikz(pic, bank, ways, opts));
      }
      if (svg !== '-' && tikz !== '-') io.stdout((p.flags.has('--json') ? JSON.stringify(a.report) : conflictsText(a)) + '\n');
      return 0;
    } catch (err) {
      return reportError(err, io);
    }
  },
};

const tooMany = (cells: number): LayoutError =>
  new LayoutError('bad-request', `M has ${cells} cells, too many to draw (at most ${MAX_SHOW}); run without --svg/--tikz for the analysis`);

/**
 * `layoutgpu conflicts <M> <TV> --elem <bytes> [--vec <values>] [--svg <file>] [--json]`:
 * shared-memory bank conflicts of a TV access to a memory layout (SPEC §9.2): a readable table
 * per instruction, the worst phase, sectors; `--svg` the tile coloured by bank with the
 * conflicted cells marked; `--json` the protocol's object.
 */
import { writeFileSync } from 'node:fs';
import { formatLayoutFunction, parseLayoutFunction } from '../cute/composed.js';
import { bankMap, instructionTable, type InstructionRow } from '../memory/banks.js';
import { formatBankReport } from '../memory/ops.js';
import { bankSvg } from '../render/banks.js';
import { composedPicture } from '../render/composed.js';
import { parseOptions, Usage } from './args.js';
import type { Command } from './commands.js';
import { reportError } from './report.js';

const HELP = `layoutgpu conflicts <M> <TV> --elem <bytes> [--vec <values>] [--svg <file>] [--json]

Shared-memory bank conflicts (SPEC §9.2) of the access TV (thread, value) → tile index to the
memory layout M (tile index → element offset; plain or Sw<B,M,S> o L), with e-byte elements.
Prints instructions, phases and wavefronts, the worst phase with its bank and threads, and the
32-byte sectors against the least possible.

  --elem <bytes>   element size: 1, 2, 4, 8 or 16
  --vec <values>   values per instruction (default: the widest contiguous, aligned vector)
  --svg <file>     the tile coloured by bank, conflicted cells outlined (- for stdout)
  --json           the bank_conflicts object of the batch protocol
`;

function intOpt(v: string | undefined, name: string): number | undefined {
  if (v === undefined) return undefined;
  if (!/^\s*\d+\s*$/.test(v)) throw new Usage(`${name} must be a non-negative integer, got '${v}'`);
  return Number(v);
}

/** The per-instruction table (at most 64 rows, then a count of the rest). */
function table(rows: InstructionRow[]): string {
  const out = ['warp  instr  phases  wavefronts'];
  for (const r of rows.slice(0, 64)) {
    out.push(`${String(r.warp).padStart(4)}  ${String(r.instruction).padStart(5)}  ${String(r.phases).padStart(6)}  ${String(r.wavefronts).padStart(10)}${r.wavefronts > r.phases ? `  (${(r.wavefronts / r.phases).toFixed(1)}×)` : ''}`);
  }
  if (rows.length > 64) out.push(`… ${rows.length - 64} more instructions`);
  return out.join('\n');
}

export const conflictsCommand: Command = {
  summary: 'shared-memory bank conflicts of a TV access to a memory layout (--elem, --vec, --svg, --json)',
  async run(argv, io) {
    try {
      const p = parseOptions(argv, ['--help', '--json'], ['--elem', '--vec', '--svg'], 'conflicts');
      if (p.flags.has('--help')) {
        io.stdout(HELP);
        return 0;
      }
      if (p.pos.length !== 2) throw new Usage('conflicts takes a memory layout and a TV layout, e.g. layoutgpu conflicts "(8,64):(64,1)" "((8,4),(8,2)):((1,64),(8,256))" --elem 2');
      const e = intOpt(p.opt.get('--elem'), '--elem');
      if (e === undefined) throw new Usage('conflicts needs --elem <bytes> (1, 2, 4, 8 or 16)');
      const v = intOpt(p.opt.get('--vec'), '--vec');
      const m = parseLayoutFunction(p.pos[0]!, 'M');
      const tv = parseLayoutFunction(p.pos[1]!, 'TV');
      const svg = p.opt.get('--svg');
      const map = bankMap(m, tv, e, v);
      if (svg !== undefined) {
        const doc = bankSvg(composedPicture(m), map.bank, map.ways, `banks of ${formatLayoutFunction(m)}, ${e}-byte elements`);
        if (svg === '-') io.stdout(doc);
        else {
          try {
            writeFileSync(svg, doc);
          } catch (err) {
            throw new Usage(`cannot write ${svg}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
          }
        }
      }
      if (svg !== '-') io.stdout((p.flags.has('--json') ? JSON.stringify(map.report) : `${formatLayoutFunction(m)} accessed through ${formatLayoutFunction(tv)}, ${e}-byte elements\n\n${table(instructionTable(m, tv, e, v))}\n\n${formatBankReport(map.report)}`) + '\n');
      return 0;
    } catch (err) {
      return reportError(err, io);
    }
  },
};

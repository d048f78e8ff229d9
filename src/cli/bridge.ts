/**
 * The bridge's subcommands (docs/linear.md, "The bridge to CuTe"): `to-ll`, `from-ll` and
 * `ll-bank-conflicts`, the ops of the same names with what a person types: an LL argument may be
 * `-` (read from stdin, as `ll <op> -`), a tile takes the one shape syntax (`16x8`, `[16,8]`,
 * `tensor<16x8xf16>`), `to-ll` prints in any of the LL forms (`--form`), and `ll-bank-conflicts`
 * prints the table `conflicts` prints (`--json`: the protocol's object).
 */
import { readFileSync } from 'node:fs';
import { withDeadline } from '../algebra/deadline.js';
import { parseShapeText } from '../linear/attr.js';
import { formatLL, parseLL } from '../linear/forms.js';
import { bankSide, loadBankSides } from '../ops/bank-sides.js';
import { runOpDirect, type Json } from '../ops/table.js';
import { parseDuration, parseOptions, Usage } from './args.js';
import type { Command } from './commands.js';
import { conflictsText } from './conflicts.js';
import { makeContext } from './context.js';
import { reportError } from './report.js';
import { isIntegerText } from '../algebra/int-text.js';

/** stdin's text, read once for the one argument written `-`. */
function stdinOnce(): (text: string) => string {
  let cached: string | undefined;
  let used = false;
  return (text) => {
    if (text !== '-') return text;
    if (used) throw new Usage('only one argument may be read from stdin (-)');
    used = true;
    try {
      cached ??= readFileSync(0, 'utf8');
    } catch (e) {
      throw new Usage(`cannot read stdin: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
    }
    return cached;
  };
}

const FORMS = ['triton', 'gluon', 'mlir'];

/** A tile argument in the one shape syntax, as the op's JSON array. */
const tileArg = (text: string): string => JSON.stringify(parseShapeText(text, 'to_ll: the tile').shape);

/** One bridge subcommand: its usage, positional arguments (min, max), options, and how it runs. */
function bridgeCommand(
  name: string,
  help: string,
  arity: readonly [number, number],
  options: readonly string[],
  run: (pos: string[], p: ReturnType<typeof parseOptions>) => Promise<string>,
): Command {
  return {
    summary: help.split('\n')[2] ?? name,
    async run(argv, io) {
      try {
        const p = parseOptions(argv, ['--help', '--json'], ['--timeout', ...options], name);
        if (p.flags.has('--help')) {
          io.stdout(help);
          return 0;
        }
        if (p.pos.length < arity[0] || p.pos.length > arity[1]) throw new Usage(`usage: ${help.split('\n')[0]}`);
        const t = p.opt.get('--timeout');
        const ms = t === undefined ? undefined : parseDuration(t, '--timeout');
        io.stdout(`${await withDeadline(ms, () => run(p.pos, p))}\n`);
        return 0;
      } catch (e) {
        return reportError(e, io);
      }
    },
  };
}

/** Runs the op on the CPU (none of these needs a backend). */
async function op(name: string, args: unknown[]): Promise<Json> {
  const ctx = makeContext('cpu');
  try {
    return await runOpDirect(name, args, ctx, true);
  } finally {
    await ctx.dispose();
  }
}

const TO_LL_HELP = `layoutgpu to-ll <C> [function|tv|shared] [<tile>] [<lanes>] [<warps>] [--form triton|gluon|mlir] [--json]

A linear CuTe layout C as a linear layout (docs/linear.md): kind function (default), tv over a tile
(16x8, [16,8] or tensor<16x8xf16>) with lanes and warps, or shared over a tile. Prints Triton's print,
--form gluon or mlir the other forms; --json the canonical JSON object of the batch protocol.
`;

export const toLlCommand = bridgeCommand('to-ll', TO_LL_HELP, [1, 5], ['--form'], async (pos, p) => {
  const form = p.opt.get('--form') ?? 'triton';
  if (!FORMS.includes(form)) throw new Usage(`--form must be triton, gluon or mlir, got '${form}'`);
  const args = pos.map((a, i) => (i === 2 ? tileArg(a) : a));
  const r = await op('to_ll', args);
  return p.flags.has('--json') ? JSON.stringify(r) : formatLL(parseLL(r), form).replace(/^\n/, '');
});

const FROM_LL_HELP = `layoutgpu from-ll <L|-> [function|tv|shared] [--json]

The simplest exact CuTe layout of a linear layout in any form (docs/linear.md, "Forms"; - reads it
from stdin): strides, or Sw<B,M,S> o L. --json the batch protocol's result.
`;

export const fromLlCommand = bridgeCommand('from-ll', FROM_LL_HELP, [1, 2], [], async (pos, p) => {
  const stdin = stdinOnce();
  const r = await op('from_ll', [stdin(pos[0]!), ...pos.slice(1)]);
  return p.flags.has('--json') ? JSON.stringify(r) : String(r);
});

const BANKS_HELP = `layoutgpu ll-bank-conflicts <R> <S> <e> [<v>] [--shape 128x64 | tensor<128x64xf16>] [--json]

Bank conflicts of a register LL R writing a shared LL S (docs/linear.md, "Bank conflicts of a
conversion"), e bytes per element, v values per instruction; R or S may be - (stdin) or a #ttg
encoding over --shape. Prints the table layoutgpu conflicts prints (the same as conflicts --ll);
--json the bank_conflicts object.
`;

export const llBankConflictsCommand = bridgeCommand('ll-bank-conflicts', BANKS_HELP, [3, 4], ['--shape'], async (pos, p) => {
  const stdin = stdinOnce();
  const int = (text: string, what: string): number => {
    if (!isIntegerText(text.trim())) throw new Usage(`ll-bank-conflicts: ${what} must be a non-negative integer, got '${text}'`);
    return Number(text);
  };
  const shape = p.opt.get('--shape');
  const v = pos[3] === undefined ? {} : { vec: int(pos[3], 'v') };
  await loadBankSides();
  const a = bankSide({ form: 'll', r: stdin(pos[0]!), s: stdin(pos[1]!), elem: int(pos[2]!, 'e'), ...v, ...(shape !== undefined ? { shape } : {}) });
  return p.flags.has('--json') ? JSON.stringify(a.report) : conflictsText(a);
});

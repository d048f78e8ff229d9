/**
 * The `layoutgpu` command: one subcommand per operation of the table in ops.ts (human
 * output), `show`, `batch`, and the evaluator's commands. Bad input: one line on stderr and
 * exit 2; internal errors: exit 1.
 */
import { LayoutError } from '../algebra/errors.js';
import { parseLayout } from '../algebra/notation.js';
import type { BackendChoice } from '../engine/backend.js';
import { ops, opsByName, runOp, type Json, type OpSpec } from '../ops.js';
import { runBatch } from './batch.js';
import { makeContext } from './context.js';
import { renderGrid } from './show.js';
import { stdinChunks } from './stdin.js';
import type { Command } from './commands.js';

/** Commands beyond the ops table: the evaluator's, verification and benchmarks, loaded only
 *  when used (start-up matters to `batch`). They take precedence over an op of the same name
 *  (`eval` prints ranges, `verify` searches). */
const evaluator = async (name: string): Promise<Command> => (await import('./commands.js')).evaluatorCommands[name]!;
const toolCommands: Record<string, { summary: string; load: () => Promise<Command> }> = {
  wgsl: { summary: 'the generated WGSL shader of a layout (--kernel eval|digest|compact|compose|tiles)', load: () => evaluator('wgsl') },
  'gpu-info': { summary: 'the WebGPU adapter: vendor, architecture, software or not, limits used', load: () => evaluator('gpu-info') },
  eval: { summary: 'Φ over a range, printed or to a file (--out) as u32/u64 little-endian', load: () => evaluator('eval') },
  digest: { summary: 'count, exact sum, min and max of Φ over a range', load: () => evaluator('digest') },
  check: { summary: 'check compact <L> | complement <A> <B> | compose <B> <A> [<C>], in bulk', load: () => evaluator('check') },
  tiles: { summary: "the tile address map of A ⊘ B, with the check that the tiles cover A", load: () => evaluator('tiles') },
  verify: {
    summary: 'bulk verification of candidate layouts: searches (compact, complement-of, compose-equals) and the laws as fuzzing',
    load: async () => (await import('./verify.js')).verifyCommand,
  },
  merge: {
    summary: 'the report of a whole search from the --json reports of its shards (verify --shard k/n)',
    load: async () => (await import('./merge.js')).mergeCommand,
  },
  bench: {
    summary: 'GPU (or CPU) throughput of layouts: Φ eval, gather/scatter vs a plain copy, tiled copy',
    load: async () => (await import('./bench.js')).benchCommand,
  },
};

export interface Io {
  stdout: (s: string) => void;
  stderr: (s: string) => void;
  isTTY: boolean;
}

const BAD_INPUT = new Set(['bad-request', 'parse', 'domain', 'not-composable', 'not-complementable', 'overflow']);

export class UsageError extends Error {}

/** Exit code and one stderr line for an error. */
export function reportError(e: unknown, io: Io): number {
  if (e instanceof LayoutError) {
    io.stderr(`layoutgpu: ${e.kind}: ${e.message}\n`);
    return BAD_INPUT.has(e.kind) ? 2 : 1;
  }
  if (e instanceof UsageError || e instanceof RangeError) {
    io.stderr(`layoutgpu: ${e.message}\n`);
    return 2;
  }
  io.stderr(`layoutgpu: internal error: ${e instanceof Error ? e.message : String(e)}\n`);
  return 1;
}

function usageOf(spec: OpSpec): string {
  const args = spec.args
    .map((a) => (a.variadic ? `<${a.name}>...` : a.optional ? `[<${a.name}>]` : `<${a.name}>`))
    .join(' ');
  return `layoutgpu ${spec.name.replace(/_/g, '-')} ${args} [--json]`;
}

function human(spec: OpSpec, r: Json): string {
  if (spec.human) return spec.human(r);
  if (typeof r === 'string') return r;
  if (typeof r === 'object' && r !== null) return JSON.stringify(r, null, 2);
  return String(r);
}

function helpText(): string {
  const width = Math.max(...ops.map((o) => o.name.length), 12);
  const lines = [
    'layoutgpu: CuTe layout algebra (exact, on the CPU) with layout functions evaluated on the GPU',
    '',
    'Usage: layoutgpu <command> [arguments] [--json]      (layouts in CuTe notation, e.g. "(4,8):(1,4)")',
    '',
    'Algebra (one per operation of the paper; also reachable through `batch`):',
    ...ops.filter((o) => !toolCommands[o.name]).map((o) => `  ${o.name.replace(/_/g, '-').padEnd(width)}  ${o.summary}`),
    '',
    'Tools:',
    `  ${'show'.padEnd(width)}  the layout as a grid of offsets (like CuTe's print_layout)`,
    `  ${'batch'.padEnd(width)}  JSON Lines requests on stdin, responses on stdout (BATCH-PROTOCOL.md)`,
    ...Object.entries(toolCommands).map(([n, c]) => `  ${n.padEnd(width)}  ${c.summary}`),
    '',
    'Every command takes --help.',
  ];
  return lines.join('\n') + '\n';
}

function takeFlag(argv: string[], flag: string): boolean {
  const i = argv.indexOf(flag);
  if (i < 0) return false;
  argv.splice(i, 1);
  return true;
}

function takeOption(argv: string[], name: string): string | undefined {
  const i = argv.findIndex((a) => a === name || a.startsWith(`${name}=`));
  if (i < 0) return undefined;
  const a = argv[i]!;
  if (a.includes('=')) {
    argv.splice(i, 1);
    return a.slice(a.indexOf('=') + 1);
  }
  const v = argv[i + 1];
  if (v === undefined) throw new UsageError(`${name} needs a value`);
  argv.splice(i, 2);
  return v;
}

/** --threads N: worker threads of the CPU's bulk checks (default: the available cores) */
async function threadsOption(argv: string[]): Promise<number> {
  const t = takeOption(argv, '--threads');
  return (await import('../engine/pool.js')).parseThreads(t);
}

function backendOption(argv: string[]): BackendChoice {
  const b = takeOption(argv, '--backend') ?? 'auto';
  if (b !== 'cpu' && b !== 'gpu' && b !== 'auto') throw new UsageError(`--backend must be cpu, gpu or auto, got '${b}'`);
  return b;
}

export async function main(
  argv: string[],
  io: Io,
  stdin: AsyncIterable<Buffer | string> | (() => AsyncIterable<Buffer | string>),
): Promise<number> {
  const args = [...argv];
  const cmd = args.shift();
  try {
    if (cmd === undefined || cmd === '--help' || cmd === '-h' || cmd === 'help') {
      io.stdout(helpText());
      return cmd === undefined ? 2 : 0;
    }
    if (cmd === 'batch') {
      if (takeFlag(args, '--help')) {
        io.stdout('layoutgpu batch [--backend cpu|gpu] [--threads N]  < requests.jsonl  > responses.jsonl\n\n--threads N: worker threads for the CPU\'s bulk checks (default: the available cores; 1: one thread).\nOne JSON request per line: {"id": …, "op": "<name>", "args": [ … ]}; one response per request, in order.\nOps: ' + ops.map((o) => o.name).join(', ') + '\n');
        return 0;
      }
      const b = takeOption(args, '--backend') ?? 'cpu';
      if (b !== 'cpu' && b !== 'gpu' && b !== 'auto') throw new UsageError(`--backend must be cpu, gpu or auto, got '${b}'`);
      const threads = await threadsOption(args);
      if (args.length) throw new UsageError(`batch: unexpected argument '${args[0]}'`);
      await runBatch(typeof stdin === 'function' ? stdin() : stdin, io.stdout, b, threads);
      return 0;
    }
    if (cmd === 'show') {
      if (takeFlag(args, '--help')) {
        io.stdout('layoutgpu show <L>\n\nPrints L as a grid of offsets Φ_L: rank 2 as rows × columns (like CuTe\'s print_layout), rank 1 as a row, higher ranks with the modes after the first grouped into columns.\n');
        return 0;
      }
      if (args.length !== 1) throw new UsageError('show takes one layout, e.g. layoutgpu show "(4,8):(1,4)"');
      io.stdout(renderGrid(parseLayout(args[0]!)) + '\n');
      return 0;
    }
    const ev = toolCommands[cmd];
    if (ev) return await (await ev.load()).run(args, io);
    const spec = opsByName.get(cmd.replace(/-/g, '_'));
    if (!spec) throw new UsageError(`unknown command '${cmd}' (see layoutgpu --help)`);
    if (takeFlag(args, '--help')) {
      io.stdout(`${usageOf(spec)}\n\n${spec.summary}\n`);
      return 0;
    }
    const json = takeFlag(args, '--json');
    const backendChoice = backendOption(args);
    const threads = await threadsOption(args);
    const unknown = args.find((a) => a.startsWith('--'));
    if (unknown !== undefined) throw new UsageError(`${cmd}: unknown option ${unknown} (see layoutgpu ${cmd} --help)`);
    const ctx = makeContext(backendChoice, threads);
    try {
      const r = await runOp(spec.name, args, ctx, true);
      io.stdout((json ? JSON.stringify(r) : human(spec, r)) + '\n');
    } finally {
      await ctx.dispose();
    }
    return 0;
  } catch (e) {
    return reportError(e, io);
  }
}

const io: Io = {
  stdout: (s) => void process.stdout.write(s),
  stderr: (s) => void process.stderr.write(s),
  isTTY: Boolean(process.stderr.isTTY),
};

const isEntry = process.argv[1] !== undefined && /(?:layoutgpu(?:\.js)?|main\.[jt]s)$/.test(process.argv[1]);
if (isEntry) {
  const code = await main(process.argv.slice(2), io, stdinChunks);
  process.exitCode = code;
}

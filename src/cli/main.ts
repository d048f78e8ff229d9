/**
 * The `layoutgpu` command: one subcommand per operation of the table in ops.ts (human
 * output), `show`, `batch`, and the evaluator's commands. Bad input: one line on stderr and
 * exit 2; internal errors: exit 1.
 */
import { withDeadline } from '../algebra/deadline.js';
import type { BackendChoice } from '../engine/backend.js';
import { ops, opsByName, runOpDirect, type Json, type OpSpec } from '../ops/table.js';
import { runBatch } from './batch.js';
import { makeContext, withRequestDeadline } from './context.js';
import { parseDuration } from './args.js';
import { exitQuietlyOnBrokenPipe, isBrokenPipe } from './epipe.js';
import type { Io } from './io.js';
import { reportError, Usage } from './report.js';
import { FILTERED_ENV, mayOpenDevice, runFiltered, TTY_ENV } from './quiet-stderr.js';
import { bulkOps } from '../ops/bulk.js';
import { hardwareGpuNodes } from '../engine/node/device-node.js';
import { verifyOps } from '../ops/verify.js';
import { MAX_LINE_BYTES, stdinChunks } from './stdin.js';
import type { Command } from './commands.js';
import { readFileSync } from 'node:fs';
import { didYouMean } from '../ops/cute-names.js';
import { isIntegerText } from '../algebra/int-text.js';

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
  tiles: { summary: 'the tile address map of A ⊘ B, with the check that the tiles cover A', load: () => evaluator('tiles') },
  verify: {
    summary: 'bulk verification of candidate layouts: searches (compact, complement-of, compose-equals) and the laws as fuzzing',
    load: async () => (await import('./verify.js')).verifyCommand,
  },
  conflicts: {
    summary: 'shared-memory bank conflicts of a TV layout, a tiled copy, an MMA operand or an LL conversion (--svg, --json)',
    load: async () => (await import('./conflicts.js')).conflictsCommand,
  },
  mma: {
    summary: "a tiled MMA: TV layouts of A, B, C, a thread's values, pictures (--layout, --permutation, --thread, --ascii/--svg/--tikz)",
    load: async () => (await import('./atoms.js')).mmaCommand,
  },
  copy: {
    summary: 'a tiled copy: tiler, source and destination TV layouts, pictures (--bits, --thr/--val or --mma --operand)',
    load: async () => (await import('./atoms.js')).copyCommand,
  },
  partition: {
    summary: "a thread's part of a tensor for a tiled MMA's operand or a tiled copy's side: {offset, layout}",
    load: async () => (await import('./atoms.js')).partitionCommand,
  },
  'local-tile': {
    summary: 'local_tile(T, tiler, coord[, proj]): the tile of T at a coordinate of the rest',
    load: async () => (await import('./atoms.js')).localTileCommand,
  },
  merge: {
    summary: 'the report of a whole search from the --json reports of its shards (verify --shard k/n)',
    load: async () => (await import('./merge.js')).mergeCommand,
  },
  ll: {
    summary: "Triton's linear-layout operations: ll parse|format|apply|compose|invert|… on any LL form (- for stdin)",
    load: async () => (await import('./linear.js')).linearCommand,
  },
  'to-ll': {
    summary: 'a linear CuTe layout as a linear layout (function, tv or shared over a tile such as 16x8; --form)',
    load: async () => (await import('./bridge.js')).toLlCommand,
  },
  'from-ll': {
    summary: 'the simplest exact CuTe layout of a linear layout in any form (- for stdin)',
    load: async () => (await import('./bridge.js')).fromLlCommand,
  },
  'll-bank-conflicts': {
    summary: 'bank conflicts of a register LL writing a shared LL: the table conflicts prints (--json)',
    load: async () => (await import('./bridge.js')).llBankConflictsCommand,
  },
  'll-from-encoding': {
    summary: "Triton's toLinearLayout of a #ttg encoding over a shape such as 128x64",
    load: async () => (await import('./ll-encoding.js')).llEncodingCommand,
  },
  tma: {
    summary: "the TMA tensor map CuTe's make_tma_copy builds: tma --gmem G --smem S --dtype D [--tiler T] (--json)",
    load: async () => (await import('./descriptors.js')).tmaCommand,
  },
  'gmma-desc': {
    summary: 'the wgmma (sm90) or UMMA (sm100) smem matrix descriptor of one k-block: gmma-desc S --dtype D --major K|MN [--arch]',
    load: async () => (await import('./descriptors.js')).gmmaDescCommand,
  },
  plan: {
    summary: 'the shared-memory layout for a write and a read side of a tile: Pareto front and certificate (docs/planner.md)',
    load: async () => (await import('./plan.js')).planCommand,
  },
  bench: {
    summary: 'GPU (or CPU) throughput of layouts: Φ eval, gather/scatter vs a plain copy, tiled copy',
    load: async () => (await import('./bench.js')).benchCommand,
  },
};

/** The op subcommands that an evaluator command answers, as that command's argv: `check-compact L`
 *  prints what `check compact L` prints, `eval-range L lo hi` what `eval L --range lo:hi` does
 *  (one output per meaning; `batch` keeps the protocol's results). Null: not this op's shape. */
const VIA_EVALUATOR: Record<string, (pos: string[]) => [string, string[]] | null> = {
  check_compact: (p) => ['check', ['compact', ...p]],
  check_complement: (p) => ['check', ['complement', ...p]],
  check_compose: (p) => ['check', ['compose', ...p]],
  tile_map: (p) => ['tiles', p],
  eval_range: (p) => (isRange(p) ? ['eval', [p[0]!, '--range', `${p[1]}:${p[2]}`]] : null),
  digest_range: (p) => (isRange(p) ? ['digest', [p[0]!, '--range', `${p[1]}:${p[2]}`]] : null),
};

/** L lo hi with lo and hi non-negative integers */
const isRange = (p: readonly string[]): boolean => p.length === 3 && isIntegerText(p[1]!) && isIntegerText(p[2]!);

/** The options with a value that the op subcommands and the evaluator commands share. */
const VALUE_OPTIONS = new Set(['--backend', '--timeout', '--threads']);

/** argv split into positional arguments and options (with their values), in order. */
function splitArgs(argv: readonly string[]): { pos: string[]; opts: string[] } {
  const pos: string[] = [];
  const opts: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (!a.startsWith('--')) pos.push(a);
    else if (VALUE_OPTIONS.has(a) && i + 1 < argv.length) opts.push(a, argv[++i]!);
    else opts.push(a);
  }
  return { pos, opts };
}

/** The package's version, from its package.json (two levels above src/cli and dist/cli). */
function version(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: string };
  return pkg.version ?? 'unknown';
}

/** Every command name the CLI takes, for "did you mean". */
const commandNames = (): string[] => [...ops.map((o) => o.name.replace(/_/g, '-')), ...Object.keys(toolCommands), 'show', 'batch'];

function usageOf(spec: OpSpec): string {
  const args = spec.args.map((a) => (a.variadic ? `<${a.name}>...` : a.optional ? `[<${a.name}>]` : `<${a.name}>`)).join(' ');
  return `layoutgpu ${spec.name.replace(/_/g, '-')} ${args} [--json] [--timeout DURATION]`;
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
    ...ops
      .filter((o) => !toolCommands[o.name] && !toolCommands[o.name.replace(/_/g, '-')])
      .map((o) => `  ${o.name.replace(/_/g, '-').padEnd(width)}  ${o.summary}`),
    '',
    'Tools:',
    `  ${'show'.padEnd(width)}  the layout as a grid of offsets (like CuTe's print_layout); --svg, --tikz files`,
    `  ${'batch'.padEnd(width)}  JSON Lines requests on stdin, responses on stdout (docs/protocol.md)`,
    ...Object.entries(toolCommands).map(([n, c]) => `  ${n.padEnd(width)}  ${c.summary}`),
    '',
    'Every command takes --help; layoutgpu --version prints the version.',
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
  if (v === undefined) throw new Usage(`${name} needs a value`);
  argv.splice(i, 2);
  return v;
}

/** --threads N: worker threads of the CPU's bulk checks (default: the available cores) */
async function threadsOption(argv: string[]): Promise<number> {
  const t = takeOption(argv, '--threads');
  return (await import('../engine/node/pool.js')).parseThreads(t);
}

function backendOption(argv: string[]): BackendChoice {
  const b = takeOption(argv, '--backend') ?? 'auto';
  if (b !== 'cpu' && b !== 'gpu' && b !== 'auto') throw new Usage(`--backend must be cpu, gpu or auto, got '${b}'`);
  return b;
}

export async function main(argv: string[], io: Io, stdin: AsyncIterable<Buffer | string> | (() => AsyncIterable<Buffer | string>)): Promise<number> {
  const args = [...argv];
  const cmd = args.shift();
  try {
    if (cmd === undefined || cmd === '--help' || cmd === '-h' || cmd === 'help') {
      io.stdout(helpText());
      return cmd === undefined ? 2 : 0;
    }
    if (cmd === 'batch') {
      if (takeFlag(args, '--help')) {
        io.stdout(
          'layoutgpu batch [--backend cpu|gpu] [--request-timeout SECONDS] [--threads N]  < requests.jsonl  > responses.jsonl\n\nOne JSON request per line: {"id": …, "op": "<name>", "args": [ … ]}; one response per request, in order.\n' +
            '--request-timeout bounds each request (30, 2.5s, 500ms, 2m): one past it is answered with error kind timeout.\n' +
            `A line of more than ${MAX_LINE_BYTES / (1024 * 1024)} MiB is answered bad-request "line too long" and skipped (memory stays bounded).\n` +
            "--threads N: worker threads for the CPU's bulk checks (default: the available cores; 1: one thread).\nOps: " +
            ops.map((o) => o.name).join(', ') +
            '\n',
        );
        return 0;
      }
      const b = takeOption(args, '--backend') ?? 'cpu';
      if (b !== 'cpu' && b !== 'gpu' && b !== 'auto') throw new Usage(`--backend must be cpu, gpu or auto, got '${b}'`);
      const t = takeOption(args, '--request-timeout');
      const requestTimeoutMs = t === undefined ? undefined : parseDuration(t, '--request-timeout');
      const threads = await threadsOption(args);
      if (args.length) throw new Usage(`batch: unexpected argument '${args[0]}'`);
      await runBatch(typeof stdin === 'function' ? stdin() : stdin, io.stdout, {
        backend: b,
        threads,
        ...(requestTimeoutMs !== undefined ? { requestTimeoutMs } : {}),
      });
      return 0;
    }
    if (cmd === '--version' || cmd === '-V' || cmd === 'version') {
      io.stdout(`layoutgpu ${version()}\n`);
      return 0;
    }
    if (cmd === 'show') return await (await import('./show.js')).showCommand.run(args, io);
    const ev = toolCommands[cmd] ?? toolCommands[cmd.replace(/_/g, '-')];
    if (ev) return await (await ev.load()).run(args, io);
    const spec = opsByName.get(cmd.replace(/-/g, '_'));
    if (!spec) throw new Usage(`unknown command '${cmd}'${didYouMean(cmd, commandNames())} (see layoutgpu --help)`);
    if (takeFlag(args, '--help')) {
      io.stdout(`${usageOf(spec)}\n\n${spec.summary}\n`);
      return 0;
    }
    // no arguments where the op needs some: its usage line, exit 2
    if (args.length === 0 && spec.args.some((a) => !a.optional)) throw new Usage(`usage: ${usageOf(spec)} (${cmd} needs its arguments; see --help)`);
    const via = VIA_EVALUATOR[spec.name];
    if (via) {
      const { pos, opts } = splitArgs(args);
      const to = via(pos);
      if (to === null) throw new Usage(`usage: ${usageOf(spec)}`);
      return await (await toolCommands[to[0]]!.load()).run([...to[1], ...opts], io);
    }
    const json = takeFlag(args, '--json');
    const backendChoice = backendOption(args);
    const t = takeOption(args, '--timeout');
    const timeoutMs = t === undefined ? undefined : parseDuration(t, '--timeout');
    const threads = await threadsOption(args);
    const unknown = args.find((a) => a.startsWith('--'));
    if (unknown !== undefined) throw new Usage(`${cmd}: unknown option ${unknown} (see layoutgpu ${cmd} --help)`);
    const ctx = makeContext(backendChoice, threads);
    try {
      // --timeout bounds the request: the algebra through its deadline checks, a bulk check
      // through the backend's RunOptions (see context.ts)
      const at = timeoutMs === undefined ? undefined : performance.now() + timeoutMs;
      const reqCtx = at === undefined ? ctx : withRequestDeadline(ctx, at);
      const r = await withDeadline(timeoutMs, () => runOpDirect(spec.name, args, reqCtx, true));
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
  isTTY: Boolean(process.stderr.isTTY) || process.env[TTY_ENV] === '1',
};

/** every subcommand that is not an op of the table (a tool shadows an op of the same name) */
export const TOOL_NAMES: readonly string[] = ['show', 'batch', ...Object.keys(toolCommands)];

/** the ops that run on a backend (and so may open a GPU device) */
const deviceOps: ReadonlySet<string> = new Set([...bulkOps, ...verifyOps].map((o) => o.name));

const isEntry = process.argv[1] !== undefined && /(?:layoutgpu(?:\.js)?|main\.[jt]s)$/.test(process.argv[1]);
if (isEntry) {
  const argv = process.argv.slice(2);
  // the last resort: whatever escapes is one line on stderr, never a stack trace
  const lastResort = (e: unknown): void => {
    if (isBrokenPipe(e)) process.exit(0);
    process.exitCode = reportError(e, io);
    process.exit();
  };
  process.on('uncaughtException', lastResort);
  process.on('unhandledRejection', lastResort);
  // on Linux without a GPU device node, `auto` decides without loading Dawn
  const softwareOnly = process.platform === 'linux' && hardwareGpuNodes().length === 0;
  if (process.env[FILTERED_ENV] !== '1' && mayOpenDevice(argv, deviceOps, softwareOnly)) {
    // Dawn writes its warnings to fd 2 from native code: run as a child with stderr filtered
    process.exitCode = await runFiltered(argv);
  } else {
    exitQuietlyOnBrokenPipe(process.stdout);
    process.exitCode = await main(argv, io, stdinChunks);
  }
}

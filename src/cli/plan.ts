/**
 * `layoutgpu plan` (docs/planner.md): the shared-memory layout for a tile's write and
 * read sides. It builds plan_smem's request from its options and runs it through the same reader
 * as `batch` (src/ops/planner.ts): the front as a table and the certificate in one line, or the
 * protocol's object with --json.
 */
import { withDeadline } from '../algebra/deadline.js';
import { parseThreads } from '../engine/node/pool.js';
import { formatPlan, formatShard, isShardAnswer, loadPlanner, planOn } from '../ops/planner.js';
import { shardOption } from '../verify/shard-range.js';
import { parseDuration, parseOptions, Usage } from './args.js';
import { makeContext } from './context.js';
import { progressBar } from './progress.js';
import { reportError, type Command } from './report.js';
import { isIntegerText } from '../algebra/int-text.js';

const HELP = `layoutgpu plan --write X --read X --tile S --dtype T [--arch A] [--families F,…] [--top k] [--json] [--timeout D]
               [--shard k/n] [--threads N] [--backend cpu|gpu|auto]

The shared-memory layout for a tile that one side writes and another reads (docs/planner.md): every
candidate of the families (swizzle, padded, atoms; linear when asked) priced on both sides with the bank model,
the Pareto front over (write wavefronts, read wavefronts, bytes), its certificate, and the layout
Triton's optimalSwizzling builds where both sides are linear layouts.

  --write, --read  a TV layout "(…):(…)", "tma", or a JSON object: {"ll": LL}, {"encoding": "#ttg…"},
                   a tiled copy {"atom", "bits", …}, an MMA operand {"mma": {…}, "operand": "A"},
                   or (read) the tensor core {"wgmma": "K"} / {"umma": "MN"}
  --tile           the tile's shape, "(128,64)" or 128x64
  --dtype          a CuTe type: half_t, bfloat16_t, float, float_e4m3_t, …
  --arch           sm80, sm90 (default), sm100, gfx942, gfx950
  --families       a comma-separated list of swizzle, linear, padded, atoms (default: swizzle,padded,atoms);
                   linear, the F2-linear bijections, is searched whole by branch and bound: about a second on a
                   128×128 fp16 tile of linear sides, longer on some pairs (docs/planner.md "Families and their counts")
  --top            entries of the front to print (default 8)
  --shard k/n      price the k-th of n parts of the candidates (as LAYOUTGPU_SHARD=k/n); with --json its
                   report, which layoutgpu merge joins with the other n − 1 into exactly the whole plan
  --threads        worker threads pricing the candidates (default: the available cores; a short plan, a shard
                   and a plan with the linear family stay on one thread: docs/planner.md "Scale"); the answer is
                   the same on any number
  --backend        cpu (default), gpu (shaders/plan.wgsl prices the access sides), auto (the GPU when its
                   adapter is hardware); the answer is the same on each
  A progress bar runs on a terminal (stderr) for a plan on one thread, never with --json.

Example: layoutgpu plan --tile 128x64 --dtype half_t --write "((8,16),(8,8)):((1024,1),(128,16))" \\
           --read "((8,4,4),(8,2,4)):((1,1024,8),(128,4096,32))"
`;

/** A side option: JSON text for an object, else the string itself (a TV layout or "tma"). */
function sideOption(v: string, name: string): unknown {
  if (!v.trim().startsWith('{')) return v.trim();
  try {
    return JSON.parse(v) as unknown;
  } catch {
    throw new Usage(`${name} is not valid JSON: ${v.slice(0, 40)}`);
  }
}

/** "128x64" as "(128,64)"; a tuple string as it is. */
const tileOption = (v: string): string =>
  /^\s*\d+(\s*x\s*\d+)+\s*$/.test(v)
    ? `(${v
        .split('x')
        .map((s) => s.trim())
        .join(',')})`
    : v;

export const planCommand: Command = {
  summary: 'the shared-memory layout for a write and a read side of a tile: Pareto front and certificate (--write, --read, --tile, --dtype)',
  async run(argv, io) {
    try {
      const p = parseOptions(
        argv,
        ['--help', '--json'],
        ['--write', '--read', '--tile', '--dtype', '--arch', '--families', '--top', '--timeout', '--shard', '--threads', '--backend'],
        'plan',
      );
      if (p.flags.has('--help')) {
        io.stdout(HELP);
        return 0;
      }
      if (p.pos.length > 0) throw new Usage(`plan: unexpected argument '${p.pos[0]}' (see layoutgpu plan --help)`);
      for (const o of ['--write', '--read', '--tile', '--dtype']) if (!p.opt.has(o)) throw new Usage(`plan needs ${o} (see layoutgpu plan --help)`);
      const req: Record<string, unknown> = {
        tile: tileOption(p.opt.get('--tile')!),
        dtype: p.opt.get('--dtype')!,
        write: sideOption(p.opt.get('--write')!, '--write'),
        read: sideOption(p.opt.get('--read')!, '--read'),
      };
      if (p.opt.has('--arch')) req.arch = p.opt.get('--arch')!;
      if (p.opt.has('--families'))
        req.families = p.opt
          .get('--families')!
          .split(',')
          .map((s) => s.trim());
      if (p.opt.has('--top')) {
        const t = p.opt.get('--top')!;
        if (!isIntegerText(t.trim())) throw new Usage(`--top must be a positive integer, got '${t}'`);
        req.top = Number(t);
      }
      const t = p.opt.get('--timeout');
      const ms = t === undefined ? undefined : parseDuration(t, '--timeout');
      const shard = shardOption(p.opt.get('--shard'));
      const json = p.flags.has('--json');
      const backend = p.opt.get('--backend') ?? 'cpu';
      if (backend !== 'cpu' && backend !== 'gpu' && backend !== 'auto') throw new Usage(`--backend must be cpu, gpu or auto, got '${backend}'`);
      const ctx = makeContext(
        backend,
        parseThreads(p.opt.get('--threads'), '--threads', (l) => io.stderr(l)),
      );
      try {
        await loadPlanner();
        // a progress bar fed by the enumeration, on a terminal only (progress.ts), never with --json (a plan on this thread)
        const bar = progressBar({ stderr: io.stderr, isTTY: io.isTTY === true && !json }, shard ? `plan ${shard.k}/${shard.n}` : 'plan');
        const progress = io.isTTY === true && !json ? { progress: bar.update } : {};
        let r: Awaited<ReturnType<typeof planOn>>;
        try {
          r = await withDeadline(ms, () => planOn(req, ctx, { shard, ...progress }));
        } finally {
          bar.end();
        }
        io.stdout(`${json ? JSON.stringify(r) : isShardAnswer(r) ? formatShard(r) : formatPlan(r)}\n`);
        return 0;
      } finally {
        await ctx.dispose();
      }
    } catch (e) {
      return reportError(e, io);
    }
  },
};

/**
 * `layoutgpu bench <L> [<L> …] [--elem 4|8|16[,…]] [--iters N] [--backend cpu|gpu|auto] [--json]
 *  [--svg file] [--tile B] [--limit N] [--kernels k,…]`: see src/throughput/run.ts.
 * Exit codes: 0 ok, 2 bad input (one line on stderr), 1 GPU failure or a kernel whose output
 * is wrong.
 */
import type { Io } from './io.js';
import { parseOptions, Usage, type Parsed } from './args.js';
import { writeFileSync } from 'node:fs';
import { parseLayout } from '../algebra/notation.js';
import { parseLayoutFunction } from '../cute/composed.js';
import { acquireBenchEnv } from '../throughput/node-env.js';
import { renderSvg, renderTable } from '../throughput/report.js';
import { runBench, type BenchKernel } from '../throughput/run.js';
import { benchError } from './bench-error.js';
import { isIntegerText } from '../algebra/int-text.js';

const HELP = `layoutgpu bench <L> [<L> ...] [options]

Measures, for each layout L on one backend: Φ evaluation (eval: offsets written; reduce:
offsets summed) in indices/s; gather dst[i] = src[Φ(i)] and scatter dst[Φ(i)] = src[i]
(scatter only when Φ is injective) in GB/s of bytes moved (read + write), beside a plain copy
of the same byte count in the same run: gather or scatter GB/s ÷ copy GB/s is the layout's
efficiency. With --tile B, also a tiled copy over L ⊘ B, one tile per workgroup.
Each kernel's output is checked against Φ on the CPU once before it is timed; then a warm-up
and the median and spread of the timed samples (GPU timestamp queries where the adapter has
them, else the wall clock over many dispatches per submit).

Options:
  --elem 4|8|16     element size in bytes (a comma list runs several; default 4)
  --iters N         timed samples per kernel, N >= 10 (default 10)
  --backend B       cpu | gpu | auto (default auto: the GPU when the adapter is hardware)
  --tile B          also the tiled copy over L ⊘ B
  --limit N         at most N indices per layout: a larger layout is cut to a sub-layout
                    (default by adapter: 2^22 on a software adapter, 2^26 on a hardware GPU,
                    2^24 on the CPU; buffers also stay below 64 MiB / 1 GiB / 256 MiB)
  --kernels k,...   a subset of eval,reduce,copy,gather,scatter,tile,compact (compact: timed only when named;
                    each repetition clears its bitmap, inside the timed span)
  --json            the report as JSON (adapter, limits, caps, every sample statistic)
  --svg FILE        an SVG bar chart of the efficiencies
`;

const FLAGS = ['--help', '--json'];
const OPTIONS = ['--elem', '--iters', '--backend', '--svg', '--tile', '--limit', '--kernels'];
const KERNELS: BenchKernel[] = ['eval', 'reduce', 'copy', 'gather', 'scatter', 'tile', 'compact'];

function parseArgs(argv: string[]): Parsed {
  return parseOptions(argv, FLAGS, OPTIONS, 'bench');
}

function positiveInt(name: string, v: string, min: number, max = 2 ** 32): number {
  if (!isIntegerText(v)) throw new Usage(`${name} must be an integer, got '${v}'`);
  const n = Number(v);
  if (n < min || n > max) throw new Usage(`${name} must be between ${min} and ${max}, got ${v}`);
  return n;
}

async function run(argv: string[], io: Io): Promise<number> {
  let release: (() => void) | undefined;
  // bench --smem <M> --tv <TV> --elem <e>: the shared-memory kernel (src/cli/bench-smem.ts)
  if (argv.includes('--smem')) return (await import('./bench-smem.js')).runSmemCommand(argv, io);
  try {
    const a = parseArgs(argv);
    if (a.flags.has('--help')) {
      io.stdout(HELP);
      return 0;
    }
    if (a.pos.length === 0) throw new Usage('bench needs at least one layout, e.g. layoutgpu bench "(1024,1024):(1,1024)"');
    // every layout checked before a device is opened; plain or composed (docs/semantics.md §9.1)
    for (const t of a.pos) parseLayoutFunction(t, 'layout');
    const elems = (a.opt.get('--elem') ?? '4').split(',').map((s) => {
      if (s !== '4' && s !== '8' && s !== '16') throw new Usage(`--elem must be 4, 8 or 16, got '${s}'`);
      return Number(s);
    });
    const samples = a.opt.has('--iters') ? positiveInt('--iters', a.opt.get('--iters')!, 10, 100_000) : 10;
    const backend = a.opt.get('--backend') ?? 'auto';
    if (backend !== 'cpu' && backend !== 'gpu' && backend !== 'auto') throw new Usage(`--backend must be cpu, gpu or auto, got '${backend}'`);
    const limit = a.opt.has('--limit') ? positiveInt('--limit', a.opt.get('--limit')!, 1, 2 ** 32) : undefined;
    const tile = a.opt.get('--tile');
    if (tile !== undefined) parseLayout(tile, 'tiler');
    let kernels: BenchKernel[] | undefined;
    if (a.opt.has('--kernels')) {
      kernels = a.opt
        .get('--kernels')!
        .split(',')
        .map((k) => {
          if (!KERNELS.includes(k as BenchKernel)) throw new Usage(`--kernels: unknown kernel '${k}' (${KERNELS.join(', ')})`);
          return k as BenchKernel;
        });
    }
    const svg = a.opt.get('--svg');
    const acquired = await acquireBenchEnv(backend);
    release = acquired.release;
    let shown = false;
    const report = await runBench(acquired.env, {
      layouts: a.pos,
      elems: [...new Set(elems)],
      samples,
      ...(tile !== undefined ? { tile } : {}),
      ...(limit !== undefined ? { limit } : {}),
      ...(kernels ? { kernels } : {}),
      onProgress: (line) => {
        if (!io.isTTY) return;
        shown = true;
        io.stderr(`\rbench ${line}\x1b[K`);
      },
    });
    if (shown) io.stderr('\r\x1b[K');
    if (svg !== undefined) writeFileSync(svg, renderSvg(report));
    io.stdout(a.flags.has('--json') ? JSON.stringify(report, null, 2) + '\n' : renderTable(report));
    return 0;
  } catch (e) {
    return benchError(e, io, 'bench');
  } finally {
    release?.();
  }
}

export const benchCommand = {
  summary: 'GPU (or CPU) throughput of layouts: Φ eval, gather/scatter vs a plain copy, tiled copy',
  run,
};
